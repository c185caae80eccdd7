#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "rules/rules.h"
#include "rules/types.h"
#include "rules/zobrist.h"

namespace uckers {

inline constexpr Square kNoChallenge = -2;
// Extra throws owed are unbounded by the rules (a run of double sixes under
// double_six_two_throws adds one each); the count saturates here, 65535
// double sixes in a row, which no game reaches.
inline constexpr int kMaxExtraOwed = 65535;

// How a finished game was won (RULES.md §5, §8), worth 1, 2 or 3 points,
// against one losing side.
enum class OutcomeLevel : uint8_t {
  kNone = 0,         // the game is not over
  kWin = 1,          // a plain win
  kEightPiecer = 2,  // the losers have no piece home
  kInHarbour = 3,    // all the losers' pieces are in base
};

// Points of every side at the end (RULES.md §11 "The end with more than two
// sides"): the winners score against each losing side on its own, the sum
// over the losers; each loser loses its own. Indexed by side.
using SidePoints = std::array<int, kMaxColours>;

// A complete game state between throws: every piece, the colour to throw and
// the turn's state tokens of PROTOCOL.md, and the layout (board and sides)
// it is played on. A small trivially copyable value; every mutator keeps the
// Zobrist key up to date, and each colour's pieces sorted ascending (base
// first, home last) so equal positions compare equal. Colours beyond the
// board's are unused (all zero).
class Position {
 public:
  // The start position of `rules`' layout: all pieces in base, Red to
  // throw; under snake_eyes every colour has its first throw still to make.
  static Position Start(const Rules& rules);

  LayoutId layout_id() const { return static_cast<LayoutId>(layout_); }
  const Layout& layout() const { return kLayouts[layout_]; }
  const Board& board() const { return kLayouts[layout_].board; }
  int num_colours() const { return board().colours; }
  int num_sides() const { return layout().num_sides; }
  int SideOf(int colour) const { return layout().side_of[colour]; }
  // Bit mask of the colours of `side`.
  uint8_t SideColours(int side) const { return layout().side_colours[side]; }

  // Pieces of a colour, ascending.
  const std::array<Square, kPiecesPerColour>& pieces(int colour) const { return squares_[colour]; }
  int to_throw() const { return flags_ >> kToThrowShift & 7; }
  // The colour whose pieces the thrower moves: its own, or once released
  // (RULES.md §7, §11) the first partner after it in turn order that still
  // has a piece not home.
  int MovingColour() const {
    int c = to_throw();
    return released(c) ? PartnerToMoveFor(c) : c;
  }
  int PartnerToMoveFor(int colour) const;
  bool released(int colour) const { return released_mask() >> colour & 1; }
  uint8_t released_mask() const { return Mask(kReleasedShift); }
  bool snake_first(int colour) const { return snake_first_mask() >> colour & 1; }
  bool snake_second(int colour) const { return snake_second_mask() >> colour & 1; }
  uint8_t snake_first_mask() const { return Mask(kSnakeFirstShift); }
  uint8_t snake_second_mask() const { return Mask(kSnakeSecondShift); }
  // suck_back (RULES.md §9 var. G): suck-back attempts (`k` token) and
  // blow-back attempts (`K` token) standing against `colour`'s in-line
  // square, its square last_track; 0..2 each.
  int suck_attempts(int colour) const { return suck_ >> (2 * colour) & 3; }
  int blow_attempts(int colour) const { return blow_ >> (2 * colour) & 3; }
  bool any_lane_attempts() const { return (suck_ | blow_) != 0; }
  bool challenge_active() const { return challenge_from_ != kNoChallenge; }
  // The challenger's square relative to the moving colour (kBase allowed).
  Square challenge_from() const { return challenge_from_; }
  int challenge_count() const { return challenge_count_; }
  // Extra throws owed after the next one (double_six_two_throws only).
  int extra_owed() const { return extra_owed_; }
  uint64_t key() const { return key_; }
  // mixie_stack (RULES.md §9): the order of every stack, a main-track square
  // holding two or more colours of a side. The stacks are taken by absolute
  // square ascending; each contributes, bottom first from bit 0, one field
  // per piece: the piece's colour's index within its side (1 bit for a side
  // of two colours, 2 bits for three). A stack's square and size follow
  // from the pieces, so these bits alone complete the position. 0 when
  // there is no stack (always, with the switch off). Read it through
  // rules/stack.h (Stacks), not directly.
  uint64_t stack_order() const { return stack_order_; }

  bool AllHome(int colour) const { return squares_[colour][0] == board().home; }
  int CountAt(int colour, Square sq) const;
  int CountNotHome(int colour) const {
    const Square home = board().home;
    int n = 0;
    for (Square sq : squares_[colour]) n += sq != home;
    return n;
  }
  // Whether every piece of every colour of `side` is home.
  bool SideHome(int side) const;
  // The side with all its pieces home, or -1 (RULES.md §5, §11). On the
  // four-sided board with two teams: 0 = RY, 1 = GB.
  int WinningSide() const {
    // A side is numbered by its first colour: that colour's lowest piece
    // not home rules the side out at once.
    const Layout& l = layout();
    for (int side = 0; side < l.num_sides; ++side) {
      if (squares_[side][0] == l.board.home && SideHome(side)) return side;
    }
    return -1;
  }
  int WinningTeam() const { return WinningSide(); }
  bool IsGameOver() const { return WinningSide() >= 0; }
  // How the winners won against losing side `side` (kNone while the game
  // goes on or for the winners themselves).
  OutcomeLevel OutcomeAgainst(int side) const;
  // With two sides, how the winners won (OutcomeAgainst the losers).
  OutcomeLevel Outcome() const;
  // Every side's points at the end (§8, §11); all zero while the game goes on.
  SidePoints Points() const;

  // The key rebuilt from scratch; equals key() in every valid position.
  uint64_t ComputeKey() const;
  // Internal invariants: pieces sorted, in range, stack order bits matching
  // the pieces, key consistent.
  bool IsOk() const;

  // Moves one piece of `colour` standing on `from` to `to`. The caller has
  // checked that such a piece exists.
  void MovePiece(int colour, Square from, Square to) {
    auto& row = squares_[colour];
    int i = 0;
    while (row[i] != from) ++i;
    // Keep the row sorted: shift the moved piece to its place.
    if (to > from) {
      while (i + 1 < kPiecesPerColour && row[i + 1] < to) {
        row[i] = row[i + 1];
        ++i;
      }
    } else {
      while (i > 0 && row[i - 1] > to) {
        row[i] = row[i - 1];
        --i;
      }
    }
    row[i] = to;
    key_ += zobrist::Piece(colour, to) - zobrist::Piece(colour, from);
  }
  // Sends every piece of a side other than `side` on absolute square `abs`
  // to base.
  void KnockOff(int side, int abs);
  void SetToThrow(int colour);
  void SetChallenge(Square from, int count);
  void ClearChallenge() { SetChallenge(kNoChallenge, 0); }
  void SetExtraOwed(int n);
  void SetReleased(uint8_t mask);
  void SetSnakeFirst(uint8_t mask);
  void SetSnakeSecond(uint8_t mask);
  void SetSuckAttempts(int colour, int n);
  void SetBlowAttempts(int colour, int n);
  // Sets the stack order bits (see stack_order()); rules/stack.h keeps them
  // consistent with the pieces.
  void SetStackOrder(uint64_t bits);
  // Replaces a colour's pieces (any order).
  void SetPieces(int colour, std::array<Square, kPiecesPerColour> squares);

  friend bool operator==(const Position&, const Position&) = default;

 private:
  // flags_ packs three 6-bit colour masks and the colour to throw.
  static constexpr int kReleasedShift = 0;
  static constexpr int kSnakeFirstShift = kMaxColours;
  static constexpr int kSnakeSecondShift = 2 * kMaxColours;
  static constexpr int kToThrowShift = 3 * kMaxColours;
  static constexpr uint32_t kMaskBits = (1u << kMaxColours) - 1;
  uint8_t Mask(int shift) const { return static_cast<uint8_t>(flags_ >> shift & kMaskBits); }
  void SetField(int shift, uint32_t bits, int value) {
    flags_ = (flags_ & ~(bits << shift)) | static_cast<uint32_t>(value) << shift;
  }

  std::array<std::array<Square, kPiecesPerColour>, kMaxColours> squares_{};
  uint32_t flags_ = 0;  // released, snake first, snake second, to throw
  uint16_t extra_owed_ = 0;
  uint16_t suck_ = 0;  // 2 bits per colour
  uint16_t blow_ = 0;  // 2 bits per colour
  Square challenge_from_ = kNoChallenge;
  uint8_t challenge_count_ = 0;
  uint8_t layout_ = kFourTeams;
  uint64_t stack_order_ = 0;  // mixie_stack: see stack_order()
  uint64_t key_ = 0;
};

static_assert(std::is_trivially_copyable_v<Position>);
static_assert(sizeof(Position) <= 56, "Position is copied per generated play");

}  // namespace uckers
