#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "engine/rules.h"
#include "engine/types.h"

namespace uckers {

inline constexpr Square kNoChallenge = -2;
// Extra throws owed are unbounded by the rules (a run of double sixes under
// double_six_two_throws adds one each); the count saturates here, 65535
// double sixes in a row, which no game reaches.
inline constexpr int kMaxExtraOwed = 65535;

// How a finished game was won (RULES.md §5, §8), worth 1, 2 or 3 points.
enum class OutcomeLevel : uint8_t {
  kNone = 0,         // the game is not over
  kWin = 1,          // a plain win
  kEightPiecer = 2,  // the losers have no piece home
  kInHarbour = 3,    // all eight of the losers' pieces are in base
};

// A complete game state between throws: every piece, the colour to throw and
// the turn's state tokens of PROTOCOL.md. A small trivially copyable value;
// every mutator keeps the Zobrist key up to date, and each colour's pieces
// sorted ascending (base first, home last) so equal positions compare equal.
class Position {
 public:
  // The start position: all pieces in base, Red to throw; under snake_eyes
  // every colour has its first throw still to make.
  static Position Start(const Rules& rules);

  // Pieces of a colour, ascending.
  const std::array<Square, kPiecesPerColour>& pieces(int colour) const { return squares_[colour]; }
  int to_throw() const { return flags_ >> kToThrowShift & 3; }
  // The colour whose pieces the thrower moves: its own, or its partner's
  // once released (RULES.md §7).
  int MovingColour() const {
    int c = to_throw();
    return released(c) ? PartnerOf(c) : c;
  }
  bool released(int colour) const { return released_mask() >> colour & 1; }
  uint8_t released_mask() const { return Mask(kReleasedShift); }
  bool snake_first(int colour) const { return snake_first_mask() >> colour & 1; }
  bool snake_second(int colour) const { return snake_second_mask() >> colour & 1; }
  uint8_t snake_first_mask() const { return Mask(kSnakeFirstShift); }
  uint8_t snake_second_mask() const { return Mask(kSnakeSecondShift); }
  // suck_back (RULES.md §9 var. G): suck-back attempts (`k` token) and
  // blow-back attempts (`K` token) standing against `colour`'s in-line
  // square, its square 50; 0..2 each.
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
  // holding both colours of a team. The stacks are taken by absolute square
  // ascending; each contributes one bit per piece, bottom first, starting at
  // bit 0: set when the piece is of its team's second colour (yellow, blue).
  // A stack's square and size follow from the pieces, so these bits alone
  // complete the position. 0 when there is no stack (always, with the
  // switch off). Read it through engine/stack.h (Stacks), not directly.
  uint16_t stack_order() const { return stack_order_; }

  bool AllHome(int colour) const { return squares_[colour][0] == kHome; }
  int CountAt(int colour, Square sq) const;
  int CountNotHome(int colour) const;
  // The team (0 = RY, 1 = GB) with all eight pieces home, or -1.
  int WinningTeam() const;
  bool IsGameOver() const { return WinningTeam() >= 0; }
  OutcomeLevel Outcome() const;

  // The key rebuilt from scratch; equals key() in every valid position.
  uint64_t ComputeKey() const;
  // Internal invariants: pieces sorted, in range, stack order bits matching
  // the pieces, key consistent.
  bool IsOk() const;

  // Moves one piece of `colour` standing on `from` to `to`. The caller has
  // checked that such a piece exists.
  void MovePiece(int colour, Square from, Square to);
  // Sends every piece of the other team on absolute square `abs` to base.
  void KnockOff(int team, int abs);
  void SetToThrow(int colour);
  void SetChallenge(Square from, int count);
  void ClearChallenge() { SetChallenge(kNoChallenge, 0); }
  void SetExtraOwed(int n);
  void SetReleased(uint8_t mask);
  void SetSnakeFirst(uint8_t mask);
  void SetSnakeSecond(uint8_t mask);
  void SetSuckAttempts(int colour, int n);
  void SetBlowAttempts(int colour, int n);
  // Sets the stack order bits (see stack_order()); engine/stack.h keeps them
  // consistent with the pieces.
  void SetStackOrder(uint16_t bits);
  // Replaces a colour's pieces (any order).
  void SetPieces(int colour, std::array<Square, kPiecesPerColour> squares);

  friend bool operator==(const Position&, const Position&) = default;

 private:
  // flags_ packs four 4-bit fields so that the struct stays small.
  static constexpr int kReleasedShift = 0;
  static constexpr int kSnakeFirstShift = 4;
  static constexpr int kSnakeSecondShift = 8;
  static constexpr int kToThrowShift = 12;
  uint8_t Mask(int shift) const { return flags_ >> shift & 0xF; }
  void SetField(int shift, int value) {
    flags_ = static_cast<uint16_t>((flags_ & ~(0xF << shift)) | value << shift);
  }

  std::array<std::array<Square, kPiecesPerColour>, kNumColours> squares_{};
  uint16_t extra_owed_ = 0;
  uint16_t flags_ = 0;  // released, snake first, snake second, to throw
  Square challenge_from_ = kNoChallenge;
  uint8_t challenge_count_ = 0;
  uint8_t suck_ = 0;          // 2 bits per colour
  uint8_t blow_ = 0;          // 2 bits per colour
  uint16_t stack_order_ = 0;  // mixie_stack: see stack_order()
  uint64_t key_ = 0;
};

static_assert(std::is_trivially_copyable_v<Position>);
static_assert(sizeof(Position) <= 40, "Position is copied per generated play");

}  // namespace uckers
