#pragma once

#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"

namespace uckers {

// Suck back and blow back, switch suck_back (RULES.md §9 var. G), as read in
// docs/rules-reading.md: a colour's square last_track (50, 76 on the six-sided board) is "in line"
// with its home lane; a piece of an opponent standing there may call suck back on a lane piece, and
// the lane's owner may call blow back on the piece in line.

// The absolute square in line with `colour`'s lane: its square last_track.
inline int InLineSquare(const Board& board, int colour) {
  return board.Absolute(colour, board.last_track);
}

// Whether a piece of `colour`'s opponents stands on its in-line square.
bool OpponentInLine(const Position& pos, int colour);

// Whether throw `t` hits a lane piece on `lane_square` (first_lane..home-1):
// either die or their sum is its distance up the lane.
bool LaneCallHits(const Board& board, Throw t, Square lane_square);

// Clears the attempt counters (`k`, `K`) of every colour with no opponent
// piece left on its in-line square. Called after every throw's play, so
// inline: almost every position has no counter at all.
void ClearStaleLaneAttemptsSlow(Position& pos);
inline void ClearStaleLaneAttempts(Position& pos) {
  if (pos.any_lane_attempts()) ClearStaleLaneAttemptsSlow(pos);
}

// Adds every suck-back and blow-back call of `mover` for throw `t`. `pos` is
// the position after the turn flow of an ordinary play (extra throw or turn
// passed), pieces not yet moved.
void AddLaneCalls(const Position& pos, int mover, Throw t, const Rules& rules, PlayList* out);

}  // namespace uckers
