#pragma once

#include <algorithm>

#include "rules/dice.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// The turn flow of RULES.md §3, §6, §7, §9 (doubles_throw_again) and the snake_eyes switch, applied
// to a position after the pieces have moved. See docs/rules-reading.md.

// The turn passes to the next colour: no owed throw, no challenge.
void PassTurn(Position& pos);

// After an ordinary play (moves or a pass) by the colour to throw: game end,
// the last-piece-home rule (§7) and the extra throws of §3.
void FinishOrdinaryPlay(Position& pos, int mover, Throw t, const Rules& rules);

// FinishOrdinaryPlay's extra throws (§3, doubles_throw_again §9) alone, for
// a play the caller knows neither ends the game nor takes the thrower's own
// last piece home (the move generator, before any piece has moved).
inline void FinishPlayThatEndsNothing(Position& pos, Throw t, const Rules& rules) {
  int earned = 0;
  // A six earns one; doubles_throw_again: any double too (§9).
  if (t.HasSix() || (t.IsDouble() && rules.has(Switch::kDoublesThrowAgain))) {
    earned = (t.Sixes() == 2 && rules.has(Switch::kDoubleSixTwoThrows)) ? 2 : 1;
  }
  int owed = std::min(pos.extra_owed() + earned, kMaxExtraOwed + 1);
  if (owed == 0) {
    PassTurn(pos);
    return;
  }
  pos.SetExtraOwed(owed - 1);
}

// Sixes a challenge from `from` (relative to `mover`, kBase allowed) needs
// against a blob of `blob_size` pieces, the declaring six included (§6).
int ChallengeNeed(Square from, int blob_size, const Rules& rules);

// The absolute square of the blob a challenge from `from` attacks.
int ChallengeTarget(const Board& board, int mover, Square from);

// A throw while a challenge is under way (§6): counts its sixes.
void ResolveChallengeThrow(Position& pos, Throw t, const Rules& rules);

// The throw of a colour with all pieces home, not yet released (§7).
void ResolveReleaseThrow(Position& pos, Throw t);

// snake_eyes: the first-throw 1-1 brings every base piece to the doorstep
// (under mixie_stack each goes on top of the partner's pieces there).
void ResolveSnakeEyes(Position& pos, const Rules& rules);
// snake_eyes: the second 1-1 in a row sends every piece not home to base
// (under mixie_stack the pieces left in a stack keep their order).
void ResolveSecondSnakeEyes(Position& pos, const Rules& rules);

}  // namespace uckers
