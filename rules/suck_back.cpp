#include "rules/suck_back.h"

#include "rules/occupancy.h"
#include "rules/stack.h"

namespace uckers {
namespace {

constexpr int kMaxAttempts = 2;

bool StandsOn(const Position& pos, int colour, int abs) {
  const Board& b = pos.board();
  int rel = b.Relative(colour, abs);
  return rel <= b.last_track && pos.CountAt(colour, static_cast<Square>(rel)) > 0;
}

// The caller's piece moves on one square after a successful suck back,
// landing by the usual rules; an opponent blob there keeps it where it is.
void MoveOnOneSquare(Position& pos, int mover, Square from, bool stacks) {
  Square to = static_cast<Square>(from + 1);
  if (ComputeWideOccupancy(pos, mover).opponent_blobs >> to & 1) return;
  if (stacks) return MoveTopPiece(pos, mover, from, to);  // the top piece (§9)
  pos.MovePiece(mover, from, to);
  pos.KnockOff(pos.SideOf(mover), pos.board().Absolute(mover, to));
}

// A blow back hit: the pieces in line go to base; under mixie_stack a
// stack there loses only its top piece (§9).
void BlowBackHit(Position& pos, int mover, bool stacks) {
  int abs = InLineSquare(pos.board(), mover);
  if (!stacks) return pos.KnockOff(pos.SideOf(mover), abs);
  if (StackTopColour(pos, abs) >= 0) return SendTopPieceToBase(pos, abs);
  KnockOffStacked(pos, pos.SideOf(mover), abs);
}

Play Call(PlayKind kind, int lane_colour, Square lane_square) {
  Play play;
  play.kind = kind;
  play.colour = static_cast<uint8_t>(lane_colour);
  play.square = lane_square;
  return play;
}

// Each lane square holding pieces of `colour` once, ascending.
template <typename F>
void ForEachLaneSquare(const Position& pos, int colour, F f) {
  const Board& b = pos.board();
  Square last = kBase;
  for (Square sq : pos.pieces(colour)) {
    if (sq >= b.first_lane && sq < b.home && sq != last) f(sq);
    last = sq;
  }
}

void AddSuckBacks(const Position& pos, int mover, Throw t, bool stacks, PlayList* out) {
  const Board& b = pos.board();
  for (int lane = 0; lane < b.colours; ++lane) {  // every opponent colour
    if (pos.SideOf(lane) == pos.SideOf(mover)) continue;
    int used = pos.suck_attempts(lane);
    Square from = static_cast<Square>(b.Relative(mover, InLineSquare(b, lane)));
    if (used >= kMaxAttempts || pos.CountAt(mover, from) == 0) continue;
    // mixie_stack: only a stack's top piece's owner may call (§9).
    if (stacks && !MayMoveUnderStacks(pos, mover, from)) continue;
    ForEachLaneSquare(pos, lane, [&](Square q) {
      Position after = pos;
      after.SetSuckAttempts(lane, used + 1);
      if (LaneCallHits(b, t, q)) {
        while (after.CountAt(lane, q) > 0) after.MovePiece(lane, q, kBase);
        MoveOnOneSquare(after, mover, from, stacks);
      }
      ClearStaleLaneAttempts(after);
      out->Add(Call(PlayKind::kSuckBack, lane, q), after);
    });
  }
}

void AddBlowBacks(const Position& pos, int mover, Throw t, bool stacks, PlayList* out) {
  int used = pos.blow_attempts(mover);
  if (used >= kMaxAttempts || !OpponentInLine(pos, mover)) return;
  ForEachLaneSquare(pos, mover, [&](Square q) {
    Position after = pos;
    after.SetBlowAttempts(mover, used + 1);
    if (LaneCallHits(pos.board(), t, q)) BlowBackHit(after, mover, stacks);
    ClearStaleLaneAttempts(after);
    out->Add(Call(PlayKind::kBlowBack, mover, q), after);
  });
}

}  // namespace

bool OpponentInLine(const Position& pos, int colour) {
  int abs = InLineSquare(pos.board(), colour);
  for (int c = 0; c < pos.num_colours(); ++c) {
    if (pos.SideOf(c) != pos.SideOf(colour) && StandsOn(pos, c, abs)) return true;
  }
  return false;
}

bool LaneCallHits(const Board& board, Throw t, Square lane_square) {
  int k = lane_square - board.last_track;
  return t.high == k || t.low == k || t.high + t.low == k;
}

void ClearStaleLaneAttemptsSlow(Position& pos) {
  for (int c = 0; c < pos.num_colours(); ++c) {
    if ((pos.suck_attempts(c) || pos.blow_attempts(c)) && !OpponentInLine(pos, c)) {
      pos.SetSuckAttempts(c, 0);
      pos.SetBlowAttempts(c, 0);
    }
  }
}

void AddLaneCalls(const Position& pos, int mover, Throw t, const Rules& rules, PlayList* out) {
  bool stacks = rules.has(Switch::kMixieStack);
  AddSuckBacks(pos, mover, t, stacks, out);
  AddBlowBacks(pos, mover, t, stacks, out);
}

}  // namespace uckers
