#include "rules/play.h"

#include <cassert>
#include <tuple>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace uckers {

std::string SquareToString(Square sq, const Board& board) {
  if (sq == kBase) return "b";
  if (sq == board.home) return "h";
  return std::to_string(sq);
}

int ColourIndex(char c) {
  for (int i = 0; i < kMaxColours; ++i) {
    if (kColourChars[i] == c) return i;
  }
  return -1;
}

absl::StatusOr<Square> ParseSquare(absl::string_view text, const Board& board) {
  if (text == "b") return kBase;
  if (text == "h") return board.home;
  int value = 0;
  bool digits = !text.empty() && text.size() <= 2 &&
                text.find_first_not_of("0123456789") == absl::string_view::npos &&
                (text.size() == 1 || text[0] != '0');
  if (!digits || !absl::SimpleAtoi(text, &value) || value >= board.home) {
    return absl::InvalidArgumentError(
        absl::StrCat("square '", text, "' is not b, 0..", board.home - 1, " or h"));
  }
  return static_cast<Square>(value);
}

namespace {

// The letter that starts a challenge or a suck-back or blow-back call.
std::string CallPrefix(PlayKind kind) {
  if (kind == PlayKind::kChallenge) return "x";
  return kind == PlayKind::kSuckBack ? "s" : "w";
}

}  // namespace

std::string PlayToString(const Play& play, const Board& board) {
  switch (play.kind) {
    case PlayKind::kDash:
      return "-";
    case PlayKind::kChallenge:
    case PlayKind::kSuckBack:
    case PlayKind::kBlowBack:
      return absl::StrCat(CallPrefix(play.kind), std::string(1, kColourChars[play.colour]),
                          SquareToString(play.square, board));
    case PlayKind::kMoves:
      break;
  }
  std::string out;
  for (int i = 0; i < play.num_moves; ++i) {
    const Move& m = play.moves[i];
    absl::StrAppend(&out, i ? "," : "", std::string(1, kColourChars[m.colour]),
                    SquareToString(m.from, board), "-", SquareToString(m.to, board));
  }
  return out;
}

bool MoreCanonical(const Play& a, const Play& b) {
  if (a.kind != b.kind) return a.kind < b.kind;
  if (a.kind != PlayKind::kMoves) {
    return std::tie(a.colour, a.square) < std::tie(b.colour, b.square);
  }
  if (a.num_moves != b.num_moves) return a.num_moves < b.num_moves;
  for (int i = 0; i < a.num_moves; ++i) {
    auto ka = std::tie(a.moves[i].from, a.moves[i].to);
    auto kb = std::tie(b.moves[i].from, b.moves[i].to);
    if (ka != kb) return ka < kb;
  }
  return false;
}

void PlayList::Add(const Play& play, const Position& after) {
  for (int i = 0; i < size_; ++i) {
    PlayResult& item = items_[i];
    if (item.after.key() != after.key() || !(item.after == after)) continue;
    if (MoreCanonical(play, item.play)) item.play = play;
    return;
  }
  assert(size_ < kCapacity);
  PlayResult& item = items_[size_++];
  item.play = play;
  item.after = after;
}

}  // namespace uckers
