#include "rules/occupancy.h"

namespace uckers {
namespace {

// Relative bits of `viewer` for every track piece of `colour`, and of the
// squares where it has two or more pieces.
template <class Bits>
void PieceBits(const Position& pos, int colour, int viewer, Bits* pieces, Bits* doubled) {
  const Board& b = pos.board();
  const auto& row = pos.pieces(colour);
  Bits bits = 0, twice = 0;
  for (int i = 0; i < kPiecesPerColour; ++i) {
    Square sq = row[i];
    if (!b.OnTrack(sq)) continue;
    int rel = b.Relative(viewer, b.Absolute(colour, sq));
    if (rel > b.last_track) continue;
    bits |= Bits{1} << rel;
    if (i + 1 < kPiecesPerColour && row[i + 1] == sq) twice |= Bits{1} << rel;
  }
  *pieces = bits;
  *doubled = twice;
}

// One colour's view from the bits of its opponents' pieces: a blob blocks
// only when all its pieces are of one colour; a square shared by two
// colours of an opponent side is a mixie blob, which never blocks (§2).
template <class Bits>
BasicOccupancy<Bits> View(const Position& pos, int colour) {
  const Layout& l = pos.layout();
  BasicOccupancy<Bits> occ;
  Bits doubled_all = 0, shared = 0;
  for (int c = 0; c < l.board.colours; ++c) {
    if (c == colour) continue;
    Bits pieces, doubled;
    PieceBits(pos, c, colour, &pieces, &doubled);
    if (l.side_of[c] == l.side_of[colour]) {
      occ.partner |= pieces;
      continue;
    }
    shared |= occ.opponents & pieces;
    occ.opponents |= pieces;
    doubled_all |= doubled;
  }
  occ.opponent_blobs = doubled_all & ~shared;
  return occ;
}

}  // namespace

template <class Bits>
BasicOccupancy<Bits> ComputeOccupancyOf(const Position& pos, int colour) {
  return View<Bits>(pos, colour);
}
template Occupancy ComputeOccupancyOf<uint64_t>(const Position&, int);
template WideOccupancy ComputeOccupancyOf<Bits128>(const Position&, int);

std::array<Occupancy, kFourSidedBoard.colours> ComputeAllOccupancies(const Position& pos) {
  // Absolute squares first (bit = absolute square), then each viewer's
  // relative view: relative square r is absolute (spacing * viewer + r) mod
  // track, a rotation of the track's bits.
  constexpr Board kB = kFourSidedBoard;
  const Layout& l = pos.layout();
  std::array<uint64_t, kB.colours> pieces{}, doubled{};
  for (int c = 0; c < kB.colours; ++c) {
    const auto& row = pos.pieces(c);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      if (!kB.OnTrack(row[i])) continue;
      uint64_t bit = uint64_t{1} << kB.Absolute(c, row[i]);
      pieces[c] |= bit;
      if (i + 1 < kPiecesPerColour && row[i + 1] == row[i]) doubled[c] |= bit;
    }
  }
  constexpr uint64_t kTrack = (uint64_t{1} << kB.track) - 1;
  constexpr uint64_t kPath = kTrack >> 1;  // the last square is never on the path
  auto view = [&](uint64_t abs, int viewer) {
    int k = kB.spacing * viewer;
    uint64_t rotated = k == 0 ? abs : (abs >> k | abs << (kB.track - k)) & kTrack;
    return rotated & kPath;
  };
  std::array<Occupancy, kB.colours> all;
  for (int v = 0; v < kB.colours; ++v) {
    uint64_t doubled_all = 0, shared = 0;
    for (int c = 0; c < kB.colours; ++c) {
      if (c == v) continue;
      uint64_t bits = view(pieces[c], v);
      if (l.side_of[c] == l.side_of[v]) {
        all[v].partner |= bits;
        continue;
      }
      shared |= all[v].opponents & bits;
      all[v].opponents |= bits;
      doubled_all |= view(doubled[c], v);
    }
    all[v].opponent_blobs = doubled_all & ~shared;
  }
  return all;
}

int OpponentCountAt(const Position& pos, int colour, int abs) {
  const Layout& l = pos.layout();
  const Board& b = l.board;
  int n = 0;
  for (int opp = 0; opp < b.colours; ++opp) {
    if (l.side_of[opp] == l.side_of[colour]) continue;
    for (Square sq : pos.pieces(opp)) {
      n += b.OnTrack(sq) && b.Absolute(opp, sq) == abs;
    }
  }
  return n;
}

}  // namespace uckers
