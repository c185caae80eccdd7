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

// One colour's view from the relative bits of its opponents' pieces (and of
// their doubled squares) and of its partner's: a blob blocks only when all
// its pieces are of one colour; a square shared by both opponent colours is a
// mixie blob, which never blocks (RULES.md §2).
Occupancy FromBits(uint64_t opp1, uint64_t opp1_doubled, uint64_t opp2, uint64_t opp2_doubled,
                   uint64_t partner) {
  Occupancy occ;
  occ.opponents = opp1 | opp2;
  occ.opponent_blobs = (opp1_doubled & ~opp2) | (opp2_doubled & ~opp1);
  occ.partner = partner;
  return occ;
}

}  // namespace

Occupancy ComputeOccupancy(const Position& pos, int colour) {
  int opp1 = NextColour(colour), opp2 = PartnerOf(opp1);
  return FromBits(PieceBits(pos, opp1, colour), DoubledBits(pos, opp1, colour),
                  PieceBits(pos, opp2, colour), DoubledBits(pos, opp2, colour),
                  PieceBits(pos, PartnerOf(colour), colour));
}

std::array<Occupancy, kNumColours> ComputeAllOccupancies(const Position& pos) {
  // Absolute squares first (bit = absolute square 0..51), then each viewer's
  // relative view: relative square r is absolute (13 * viewer + r) mod 52,
  // a rotation of the 52 bits.
  std::array<uint64_t, kNumColours> pieces{}, doubled{};
  for (int c = 0; c < kNumColours; ++c) {
    const auto& row = pos.pieces(c);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      if (!OnTrack(row[i])) continue;
      uint64_t bit = uint64_t{1} << AbsoluteSquare(c, row[i]);
      pieces[c] |= bit;
      if (i + 1 < kPiecesPerColour && row[i + 1] == row[i]) doubled[c] |= bit;
    }
  }
  constexpr uint64_t kTrack = (uint64_t{1} << kTrackSquares) - 1;
  constexpr uint64_t kPath = kTrack >> 1;  // relative 0..50: 51 is never on the path
  auto view = [&](uint64_t abs, int viewer) {
    int k = kDoorstepSpacing * viewer;
    uint64_t rotated = k == 0 ? abs : (abs >> k | abs << (kTrackSquares - k)) & kTrack;
    return rotated & kPath;
  };
  std::array<Occupancy, kNumColours> all;
  for (int v = 0; v < kNumColours; ++v) {
    int opp1 = NextColour(v), opp2 = PartnerOf(opp1);
    all[v] = FromBits(view(pieces[opp1], v), view(doubled[opp1], v), view(pieces[opp2], v),
                      view(doubled[opp2], v), view(pieces[PartnerOf(v)], v));
  }
  return all;
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
