#pragma once

#include <array>
#include <cstdint>

namespace uckers {

// The board and the sides as data (RULES.md §1, §11). Everything in rules/
// reads the geometry from a Board and the sides from a Layout; nothing else
// names a board's numbers.

// Colours in seating and turn order (RULES.md §1, §11).
enum Colour : uint8_t { kRed = 0, kGreen, kYellow, kBlue, kOrange, kPurple };
inline constexpr int kMaxColours = 6;
inline constexpr int kPiecesPerColour = 4;
inline constexpr int kMaxPieces = kMaxColours * kPiecesPerColour;

// A piece's place relative to its own colour: base, the doorstep 0, the main
// track 0..last_track, the home lane first_lane..home-1, home.
using Square = int8_t;
inline constexpr Square kBase = -1;
inline constexpr Square kDoorstep = 0;

// One board (RULES.md §1, §11): its number of colours, main-track squares,
// the square in line with a colour's lane, the lane, home, and the spacing
// of the doorsteps.
struct Board {
  int colours;
  int track;
  Square last_track;  // "end of the pipe": the square in line with the lane
  Square first_lane;
  Square home;  // steps from the doorstep home
  int spacing;  // doorsteps apart

  constexpr bool OnTrack(int sq) const { return sq >= 0 && sq <= last_track; }
  // The absolute main-track square of a colour's relative square.
  constexpr int Absolute(int colour, int sq) const { return (spacing * colour + sq) % track; }
  // The relative square of `colour` for absolute square `abs`, 0..track-1;
  // track-1 is the square just behind the doorstep, never on its path.
  constexpr int Relative(int colour, int abs) const {
    return (abs - spacing * colour + 2 * track) % track;
  }
  constexpr int NextColour(int colour) const { return colour + 1 == colours ? 0 : colour + 1; }
};

inline constexpr int kDoorstepSpacing = 13;
inline constexpr int kLaneLength = 5;
constexpr Board MakeBoard(int colours) {
  int track = kDoorstepSpacing * colours;
  Square last = static_cast<Square>(track - 2);
  return Board{colours,
               track,
               last,
               static_cast<Square>(last + 1),
               static_cast<Square>(last + 1 + kLaneLength),
               kDoorstepSpacing};
}
inline constexpr Board kFourSidedBoard = MakeBoard(4);  // RULES.md §1
inline constexpr Board kSixSidedBoard = MakeBoard(6);   // RULES.md §11

// How the colours form sides (RULES.md §11).
enum class Sides : uint8_t {
  kPartnersOpposite,  // colours c and c + colours/2: two or three teams of two
  kTeamsOfThree,      // six-sided only: two teams of alternate colours
  kSolo,              // every colour a side of its own
};

// A board and its sides. A side is numbered by its first colour in turn
// order (in every layout that is 0..num_sides-1).
struct Layout {
  Board board;
  Sides sides;
  int num_sides;
  std::array<int8_t, kMaxColours> side_of{};        // colour -> side
  std::array<uint8_t, kMaxColours> side_colours{};  // side -> bit mask of its colours
  std::array<uint8_t, kMaxColours> side_size{};     // side -> its number of colours
  std::array<int8_t, kMaxColours> index_in_side{};  // colour -> 0.. within its side

  constexpr int SideOf(int colour) const { return side_of[colour]; }
  // Bit mask of the other colours of `colour`'s side (its partners).
  constexpr uint8_t PartnerMask(int colour) const {
    return static_cast<uint8_t>(side_colours[side_of[colour]] & ~(1u << colour));
  }
  constexpr bool SameSide(int a, int b) const { return side_of[a] == side_of[b]; }
  // The `k`-th colour of side `side` in turn order.
  constexpr int SideColour(int side, int k) const {
    for (int c = 0; c < board.colours; ++c) {
      if (side_of[c] == side && index_in_side[c] == k) return c;
    }
    return -1;
  }
  // Pieces of one side.
  constexpr int SidePieces(int side) const { return side_size[side] * kPiecesPerColour; }
  // Whether the layout is the four-sided board with two teams (RULES.md §1),
  // the only one the search, the nets and the tables know.
  constexpr bool IsFourSidedTeams() const {
    return board.colours == kFourSidedBoard.colours && num_sides == 2;
  }
};

constexpr Layout MakeLayout(const Board& board, Sides sides) {
  Layout l{board, sides, 0, {}, {}, {}, {}};
  int n = board.colours;
  for (int c = 0; c < n; ++c) {
    int side = sides == Sides::kSolo ? c : sides == Sides::kTeamsOfThree ? c % 2 : c % (n / 2);
    l.side_of[c] = static_cast<int8_t>(side);
    l.index_in_side[c] = static_cast<int8_t>(l.side_size[side]);
    l.side_colours[side] = static_cast<uint8_t>(l.side_colours[side] | 1u << c);
    ++l.side_size[side];
    if (side + 1 > l.num_sides) l.num_sides = side + 1;
  }
  return l;
}

// Every layout, by LayoutId.
enum LayoutId : uint8_t {
  kFourTeams = 0,  // the default: RY against GB
  kFourSolo,
  kSixPairs,   // six: three teams of two
  kSixThrees,  // six + teams_of_three
  kSixSolo,
  kNumLayouts,
};
inline constexpr std::array<Layout, kNumLayouts> kLayouts = {
    MakeLayout(kFourSidedBoard, Sides::kPartnersOpposite),
    MakeLayout(kFourSidedBoard, Sides::kSolo),
    MakeLayout(kSixSidedBoard, Sides::kPartnersOpposite),
    MakeLayout(kSixSidedBoard, Sides::kTeamsOfThree),
    MakeLayout(kSixSidedBoard, Sides::kSolo),
};

// Position::WinningSide relies on it: a side's number is its first colour.
constexpr bool SidesNumberedByFirstColour() {
  for (const Layout& l : kLayouts) {
    for (int side = 0; side < l.num_sides; ++side) {
      if (l.SideColour(side, 0) != side) return false;
    }
  }
  return true;
}
static_assert(SidesNumberedByFirstColour());

// Colour letters in turn order (RULES.md §11): r g y b o p.
inline constexpr char kColourChars[] = "rgybop";

#ifndef UCKERS_RULES_CORE
// The four-sided board with two teams, for the layers above rules/ that
// know only it (search, nets, endgame tables, fronts): they refuse any
// other layout (Layout::IsFourSidedTeams). rules/ itself never uses these.
inline constexpr const Layout& kFourTeamsLayout = kLayouts[kFourTeams];
inline constexpr int kNumColours = kFourSidedBoard.colours;
inline constexpr Square kLastTrack = kFourSidedBoard.last_track;
inline constexpr Square kFirstLane = kFourSidedBoard.first_lane;
inline constexpr Square kHome = kFourSidedBoard.home;
inline constexpr int kTrackSquares = kFourSidedBoard.track;
inline constexpr int TeamOf(int colour) { return colour % kFourTeamsLayout.num_sides; }
inline constexpr int PartnerOf(int colour) { return (colour + kNumColours / 2) % kNumColours; }
inline constexpr int NextColour(int colour) { return kFourSidedBoard.NextColour(colour); }
inline constexpr bool OnTrack(int sq) { return kFourSidedBoard.OnTrack(sq); }
inline constexpr int AbsoluteSquare(int colour, int sq) {
  return kFourSidedBoard.Absolute(colour, sq);
}
inline constexpr int RelativeSquare(int colour, int abs) {
  return kFourSidedBoard.Relative(colour, abs);
}
#endif

}  // namespace uckers
