#pragma once

#include <array>
#include <cstdint>

#include "engine/position.h"

namespace uckers {

// Who stands on the main track, seen from one colour: bit `r` stands for that
// colour's relative square r (0..50). Bit 51, the square behind its doorstep,
// is never on its path and never set.
struct Occupancy {
  uint64_t opponent_blobs = 0;  // a blob of one opponent colour (blocks, §2)
  uint64_t opponents = 0;       // any opponent piece
  uint64_t partner = 0;         // any piece of the partner colour
};

Occupancy ComputeOccupancy(const Position& pos, int colour);

// ComputeOccupancy for every colour at once, in one pass over the pieces:
// for callers that need all four (the evaluation).
std::array<Occupancy, kNumColours> ComputeAllOccupancies(const Position& pos);

// Bits lo..hi inclusive (empty when lo > hi).
inline uint64_t SquareRange(int lo, int hi) {
  if (lo > hi) return 0;
  return ((uint64_t{2} << hi) - 1) & ~((uint64_t{1} << lo) - 1);
}

// The number of pieces of the opponents of `colour` on absolute square `abs`.
int OpponentCountAt(const Position& pos, int colour, int abs);

}  // namespace uckers
