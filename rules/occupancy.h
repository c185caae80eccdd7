#pragma once

#include <array>
#include <cstdint>

#include "rules/position.h"

namespace uckers {

// A set of relative main-track squares: bit `r` for relative square r
// (0..last_track). 64 bits hold the four-sided board's path, 128 the
// six-sided board's.
using Bits128 = unsigned __int128;

// Who stands on the main track, seen from one colour: bit `r` stands for that
// colour's relative square r (0..last_track). The square behind its
// doorstep is never on its path and never set.
template <class Bits>
struct BasicOccupancy {
  Bits opponent_blobs = 0;  // a blob of one opponent colour (blocks, §2)
  Bits opponents = 0;       // any opponent piece
  Bits partner = 0;         // any piece of a partner colour (its side's others)
};
using Occupancy = BasicOccupancy<uint64_t>;
using WideOccupancy = BasicOccupancy<Bits128>;

// The view of `colour` in `pos`. `Bits` must hold the board's path:
// uint64_t for the four-sided board, Bits128 for any.
template <class Bits>
BasicOccupancy<Bits> ComputeOccupancyOf(const Position& pos, int colour);

// The four-sided board's view (any sides).
inline Occupancy ComputeOccupancy(const Position& pos, int colour) {
  return ComputeOccupancyOf<uint64_t>(pos, colour);
}
// Any board's view.
inline WideOccupancy ComputeWideOccupancy(const Position& pos, int colour) {
  return ComputeOccupancyOf<Bits128>(pos, colour);
}

// ComputeOccupancy for every colour of the four-sided board with two teams
// at once, in one pass over the pieces: for the evaluation, which knows only
// that layout.
std::array<Occupancy, kFourSidedBoard.colours> ComputeAllOccupancies(const Position& pos);

// Bits lo..hi inclusive (empty when lo > hi).
template <class Bits>
inline Bits SquareRangeOf(int lo, int hi) {
  if (lo > hi) return 0;
  return ((Bits{2} << hi) - 1) & ~((Bits{1} << lo) - 1);
}
inline uint64_t SquareRange(int lo, int hi) { return SquareRangeOf<uint64_t>(lo, hi); }

// The number of pieces of the opponents of `colour` on absolute square `abs`.
int OpponentCountAt(const Position& pos, int colour, int abs);

}  // namespace uckers
