#include "rules/board_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rules/play.h"
#include "rules/stack.h"
#include "rules/ufen.h"

namespace uckers {

const char* ColourName(int colour) {
  static constexpr const char* kNames[] = {"Red", "Green", "Yellow", "Blue", "Orange", "Purple"};
  return kNames[colour];
}

namespace {

constexpr char kUpper[] = "RGYBOP";

// The pieces on absolute square `abs`, a letter per piece ("RR", "GB"); a
// mixie_stack stack bottom to top ("RYR": red on top).
std::string Cell(const Position& pos, int abs) {
  std::string out;
  if (pos.stack_order() != 0) {
    const StackList stacks = Stacks(pos);
    if (const Stack* s = stacks.Find(abs)) {
      for (int k = 0; k < s->size; ++k) out += kUpper[s->ColourAt(k)];
      return out;
    }
  }
  const Board& b = pos.board();
  for (int c = 0; c < b.colours; ++c) {
    for (Square sq : pos.pieces(c)) {
      if (b.OnTrack(sq) && b.Absolute(c, sq) == abs) out += kUpper[c];
    }
  }
  return out.empty() ? "." : out;
}

std::string TrackRows(const Position& pos) {
  const Board& b = pos.board();
  std::string doorsteps;
  for (int c = 0; c < b.colours; ++c) {
    absl::StrAppend(&doorsteps, c ? " " : "", std::string(1, kColourChars[c]), "0");
  }
  std::string out = absl::StrCat("track (each row starts at a doorstep, ", doorsteps, "):\n");
  for (int c = 0; c < b.colours; ++c) {
    int first = b.Absolute(c, kDoorstep);
    absl::StrAppendFormat(&out, "  %c0 %2d |", kColourChars[c], first);
    for (int i = 0; i < b.spacing; ++i) {
      absl::StrAppendFormat(&out, "%5s", Cell(pos, first + i));
    }
    out += "\n";
  }
  return out;
}

// A side named by its colours' letters in turn order: "RY", "GBP", "O".
std::string SideName(const Position& pos, int side) {
  std::string out;
  for (int c = 0; c < pos.num_colours(); ++c) {
    if (pos.SideOf(c) == side) out += kUpper[c];
  }
  return out;
}

std::string ColourLine(const Position& pos, int c) {
  std::string lane;
  const Board& b = pos.board();
  for (Square sq : pos.pieces(c)) {
    if (sq >= b.first_lane && sq < b.home) absl::StrAppend(&lane, " ", sq);
  }
  return absl::StrFormat("  %-6s base %d  lane%s  home %d%s\n", ColourName(c),
                         pos.CountAt(c, kBase), lane.empty() ? " -" : lane, pos.CountAt(c, b.home),
                         pos.released(c) ? "  (released)" : "");
}

}  // namespace

std::string DrawBoard(const Position& pos) {
  std::string out = TrackRows(pos);
  for (int c = 0; c < pos.num_colours(); ++c) out += ColourLine(pos, c);
  absl::StrAppend(&out, "ufen ", ToUfen(pos), "\n");
  if (pos.IsGameOver()) {
    int winners = pos.WinningSide();
    const char* kind = pos.num_sides() == pos.num_colours() ? "colour" : "team";
    absl::StrAppend(&out, "game over: ", kind, " ", SideName(pos, winners), " won (",
                    pos.Points()[winners], " points)");
  } else {
    absl::StrAppend(&out, "to throw ", ColourName(pos.to_throw()), ", moving ",
                    ColourName(pos.MovingColour()));
  }
  return out;
}

}  // namespace uckers
