#include "engine/occupancy.h"

namespace uckers {
namespace {

// Relative bits of `viewer` for every track piece of `colour`.
uint64_t PieceBits(const Position& pos, int colour, int viewer) {
  uint64_t bits = 0;
  for (Square sq : pos.pieces(colour)) {
    if (!OnTrack(sq)) continue;
    int rel = RelativeSquare(viewer, AbsoluteSquare(colour, sq));
    if (rel <= kLastTrack) bits |= uint64_t{1} << rel;
  }
  return bits;
}

// Bits of squares where `colour` has two or more pieces.
uint64_t DoubledBits(const Position& pos, int colour, int viewer) {
  const auto& row = pos.pieces(colour);
  uint64_t bits = 0;
  for (int i = 0; i + 1 < kPiecesPerColour; ++i) {
    if (row[i] != row[i + 1] || !OnTrack(row[i])) continue;
    int rel = RelativeSquare(viewer, AbsoluteSquare(colour, row[i]));
    if (rel <= kLastTrack) bits |= uint64_t{1} << rel;
  }
  return bits;
}

}  // namespace

Occupancy ComputeOccupancy(const Position& pos, int colour) {
  Occupancy occ;
  int opp1 = NextColour(colour), opp2 = PartnerOf(opp1);
  uint64_t bits1 = PieceBits(pos, opp1, colour);
  uint64_t bits2 = PieceBits(pos, opp2, colour);
  occ.opponents = bits1 | bits2;
  // A square shared by both opponent colours is a mixie blob: no block.
  occ.opponent_blobs = (DoubledBits(pos, opp1, colour) & ~bits2) |
                       (DoubledBits(pos, opp2, colour) & ~bits1);
  occ.partner = PieceBits(pos, PartnerOf(colour), colour);
  return occ;
}

int OpponentCountAt(const Position& pos, int colour, int abs) {
  int n = 0;
  for (int opp = NextColour(colour) & 1; opp < kNumColours; opp += 2) {
    for (Square sq : pos.pieces(opp)) {
      n += OnTrack(sq) && AbsoluteSquare(opp, sq) == abs;
    }
  }
  return n;
}

}  // namespace uckers
