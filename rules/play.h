#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/position.h"
#include "rules/types.h"

namespace uckers {

// One piece moved from one square to another (PROTOCOL.md `r12-21`).
struct Move {
  uint8_t colour = 0;
  Square from = kBase;
  Square to = kBase;
  friend bool operator==(const Move&, const Move&) = default;
};

enum class PlayKind : uint8_t {
  kDash,       // `-`: pass, challenge throw, release throw, snake eyes
  kMoves,      // one or two moves
  kChallenge,  // `x<colour><sq>`: declares a challenge (RULES.md §6)
  kSuckBack,   // `s<colour><sq>`: suck back on a lane piece (§9 var. G)
  kBlowBack,   // `w<colour><sq>`: blow back from a lane piece (§9 var. G)
};

// What a player does with one throw.
struct Play {
  PlayKind kind = PlayKind::kDash;
  uint8_t num_moves = 0;
  std::array<Move, 2> moves{};
  // kChallenge: the challenging colour and its square (kBase from base).
  // kSuckBack, kBlowBack: the lane's colour and the lane square (first_lane..home-1).
  uint8_t colour = 0;
  Square square = 0;

  friend bool operator==(const Play&, const Play&) = default;
};

// A legal play together with the position it leads to.
struct PlayResult {
  Play play;
  Position after;
};

// A fixed-capacity list of legal plays, distinct by resulting position.
class PlayList {
 public:
  static constexpr int kCapacity = 96;

  // Adds a play unless one leading to the same position is there already; of
  // two spellings it keeps the canonical one (fewest moves, then smallest).
  void Add(const Play& play, const Position& after);
  void Clear() { size_ = 0; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const PlayResult& operator[](int i) const { return items_[i]; }
  const PlayResult* begin() const { return items_.data(); }
  const PlayResult* end() const { return items_.data() + size_; }

 private:
  std::array<PlayResult, kCapacity> items_;
  int size_ = 0;
};

// The canonical text of a square of `board`: `b`, `0`..`home-1`, `h`.
// The board defaults to the four-sided one for callers that know only it.
std::string SquareToString(Square sq, const Board& board = kFourSidedBoard);
// A square of `board` from its text (no leading zeros); an error quotes the
// text.
absl::StatusOr<Square> ParseSquare(absl::string_view text, const Board& board = kFourSidedBoard);
// The colour of a letter `r g y b o p`, else -1 (callers check it against
// the board's number of colours).
int ColourIndex(char c);
// The play in PROTOCOL.md notation, as stored (PlayList stores canonical
// spellings), its squares those of `board`.
std::string PlayToString(const Play& play, const Board& board = kFourSidedBoard);
// Whether `a` is a more canonical spelling than `b` of the same play.
bool MoreCanonical(const Play& a, const Play& b);

}  // namespace uckers
