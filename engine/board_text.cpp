#include "engine/board_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/play.h"
#include "engine/stack.h"
#include "engine/ufen.h"

namespace uckers {

const char* ColourName(int colour) {
  static constexpr const char* kNames[] = {"Red", "Green", "Yellow", "Blue"};
  return kNames[colour];
}

namespace {

constexpr char kUpper[] = "RGYB";

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
  for (int c = 0; c < kNumColours; ++c) {
    for (Square sq : pos.pieces(c)) {
      if (OnTrack(sq) && AbsoluteSquare(c, sq) == abs) out += kUpper[c];
    }
  }
  return out.empty() ? "." : out;
}

std::string TrackRows(const Position& pos) {
  std::string out = "track (each row starts at a doorstep, r0 g0 y0 b0):\n";
  for (int c = 0; c < kNumColours; ++c) {
    absl::StrAppendFormat(&out, "  %c0 %2d |", kColourChars[c], 13 * c);
    for (int i = 0; i < 13; ++i) {
      absl::StrAppendFormat(&out, "%5s", Cell(pos, 13 * c + i));
    }
    out += "\n";
  }
  return out;
}

std::string ColourLine(const Position& pos, int c) {
  std::string lane;
  for (Square sq : pos.pieces(c)) {
    if (sq >= kFirstLane && sq < kHome) absl::StrAppend(&lane, " ", sq);
  }
  return absl::StrFormat("  %-6s base %d  lane%s  home %d%s\n", ColourName(c),
                         pos.CountAt(c, kBase), lane.empty() ? " -" : lane, pos.CountAt(c, kHome),
                         pos.released(c) ? "  (released)" : "");
}

}  // namespace

std::string DrawBoard(const Position& pos) {
  std::string out = TrackRows(pos);
  for (int c = 0; c < kNumColours; ++c) out += ColourLine(pos, c);
  absl::StrAppend(&out, "ufen ", ToUfen(pos), "\n");
  if (pos.IsGameOver()) {
    absl::StrAppend(&out, "game over: team ", pos.WinningTeam() == 0 ? "RY" : "GB", " won (",
                    static_cast<int>(pos.Outcome()), " points)");
  } else {
    absl::StrAppend(&out, "to throw ", ColourName(pos.to_throw()), ", moving ",
                    ColourName(pos.MovingColour()));
  }
  return out;
}

}  // namespace uckers
