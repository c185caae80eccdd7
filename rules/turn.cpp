#include "rules/turn.h"

#include <algorithm>

#include "rules/occupancy.h"
#include "rules/stack.h"
#include "rules/suck_back.h"

namespace uckers {

void PassTurn(Position& pos) {
  pos.SetToThrow(pos.board().NextColour(pos.to_throw()));
  pos.SetExtraOwed(0);
  pos.ClearChallenge();
}

void FinishOrdinaryPlay(Position& pos, int mover, Throw t, const Rules& rules) {
  int thrower = pos.to_throw();
  if (pos.IsGameOver()) {  // §5: the game ends at once
    pos.SetExtraOwed(0);
    return;
  }
  if (mover == thrower && pos.AllHome(thrower)) {  // §7: last piece home
    PassTurn(pos);
    return;
  }
  FinishPlayThatEndsNothing(pos, t, rules);
}

int ChallengeNeed(Square from, int blob_size, const Rules& rules) {
  int need = blob_size + (from == kBase ? 2 : 1);
  return rules.has(Switch::kOneLessSix) ? need - 1 : need;
}

int ChallengeTarget(const Board& board, int mover, Square from) {
  return board.Absolute(mover, from == kBase ? kDoorstep : from + 1);
}

void ResolveChallengeThrow(Position& pos, Throw t, const Rules& rules) {
  if (t.Sixes() == 0) {  // §6: a throw with no six fails the challenge
    PassTurn(pos);
    return;
  }
  int mover = pos.MovingColour();
  Square from = pos.challenge_from();
  int target = ChallengeTarget(pos.board(), mover, from);
  int need = ChallengeNeed(from, OpponentCountAt(pos, mover, target), rules);
  int count = pos.challenge_count() + t.Sixes();
  if (count < need) {
    pos.SetChallenge(from, count);
    return;
  }
  pos.KnockOff(pos.SideOf(mover), target);  // a blob: never a stack
  Square to = static_cast<Square>(pos.board().Relative(mover, target));
  if (rules.has(Switch::kMixieStack)) {
    MoveTopPiece(pos, mover, from, to);  // the challenger is the top piece (§9)
  } else {
    pos.MovePiece(mover, from, to);
  }
  ClearStaleLaneAttempts(pos);
  if (rules.has(Switch::kThrowAfterChallenge)) {
    pos.ClearChallenge();
    pos.SetExtraOwed(0);
  } else {
    PassTurn(pos);
  }
}

void ResolveReleaseThrow(Position& pos, Throw t) {
  if (t.HasSix()) {
    pos.SetReleased(pos.released_mask() | (1 << pos.to_throw()));
  }
  PassTurn(pos);
}

void ResolveSnakeEyes(Position& pos, const Rules& rules) {
  int colour = pos.to_throw();
  bool stacks = rules.has(Switch::kMixieStack);
  if (pos.pieces(colour)[0] == kBase) {
    int abs = pos.board().Absolute(colour, kDoorstep);
    if (stacks) {
      KnockOffStacked(pos, pos.SideOf(colour), abs);
    } else {
      pos.KnockOff(pos.SideOf(colour), abs);
    }
  }
  while (pos.pieces(colour)[0] == kBase) {
    if (stacks) {
      MoveTopPiece(pos, colour, kBase, kDoorstep);
    } else {
      pos.MovePiece(colour, kBase, kDoorstep);
    }
  }
  pos.SetSnakeSecond(pos.snake_second_mask() | (1 << colour));
  ClearStaleLaneAttempts(pos);
  PassTurn(pos);
}

void ResolveSecondSnakeEyes(Position& pos, const Rules& rules) {
  int colour = pos.to_throw();
  if (rules.has(Switch::kMixieStack)) {
    SendColourToBase(pos, colour);
    ClearStaleLaneAttempts(pos);
    PassTurn(pos);
    return;
  }
  const Square home = pos.board().home;
  const auto row = pos.pieces(colour);  // a copy: MovePiece reorders
  for (Square sq : row) {
    if (sq != kBase && sq != home) pos.MovePiece(colour, sq, kBase);
  }
  ClearStaleLaneAttempts(pos);
  PassTurn(pos);
}

}  // namespace uckers
