#include "engine/position.h"

#include <algorithm>
#include <bit>

#include "engine/stack.h"
#include "engine/zobrist.h"

namespace uckers {
namespace {

uint64_t ChallengeKey(Square from, int count) {
  if (from == kNoChallenge) return 0;
  return zobrist::kTables.challenge[from + 1][std::min(count, zobrist::kMaxChallengeCount - 1)];
}

uint64_t ExtraKey(int n) { return zobrist::ExtraOwed(n); }

// mixie_stack: the order bits cover exactly the pieces of the stacks, and
// each stack's bits name both colours as many times as it holds them.
bool StackOrderOk(const Position& pos) {
  if (pos.stack_order() == 0) return true;
  int total = 0;
  for (const Stack& s : Stacks(pos)) {
    int second = std::popcount(static_cast<unsigned>(s.order));
    if (second != CountAtAbsolute(pos, s.team + 2, s.abs)) return false;
    total += s.size;
  }
  return total < 16 ? (pos.stack_order() >> total) == 0 : true;
}

}  // namespace

Position Position::Start(const Rules& rules) {
  Position pos;
  for (auto& colour : pos.squares_) colour.fill(kBase);
  pos.key_ = pos.ComputeKey();
  if (rules.has(Switch::kSnakeEyes)) pos.SetSnakeFirst(0xF);
  return pos;
}

int Position::CountAt(int colour, Square sq) const {
  return static_cast<int>(std::count(squares_[colour].begin(), squares_[colour].end(), sq));
}

int Position::CountNotHome(int colour) const { return kPiecesPerColour - CountAt(colour, kHome); }

int Position::WinningTeam() const {
  for (int team = 0; team < 2; ++team) {
    if (AllHome(team) && AllHome(team + 2)) return team;
  }
  return -1;
}

OutcomeLevel Position::Outcome() const {
  int winners = WinningTeam();
  if (winners < 0) return OutcomeLevel::kNone;
  int losers = 1 - winners;
  int home = CountAt(losers, kHome) + CountAt(losers + 2, kHome);
  if (home > 0) return OutcomeLevel::kWin;
  int base = CountAt(losers, kBase) + CountAt(losers + 2, kBase);
  return base == 2 * kPiecesPerColour ? OutcomeLevel::kInHarbour : OutcomeLevel::kEightPiecer;
}

uint64_t Position::ComputeKey() const {
  const zobrist::Tables& z = zobrist::kTables;
  uint64_t key = 0;
  for (int c = 0; c < kNumColours; ++c) {
    for (Square sq : squares_[c]) key += zobrist::Piece(c, sq);
  }
  key += z.to_throw[to_throw()];
  key += ChallengeKey(challenge_from_, challenge_count_);
  key += ExtraKey(extra_owed_);
  key += z.released[released_mask()] + z.snake_first[snake_first_mask()] +
         z.snake_second[snake_second_mask()];
  for (int c = 0; c < kNumColours; ++c) {
    key += z.suck[c][suck_attempts(c)] + z.blow[c][blow_attempts(c)];
  }
  key += zobrist::StackOrder(stack_order_);
  return key;
}

bool Position::IsOk() const {
  for (const auto& colour : squares_) {
    if (!std::is_sorted(colour.begin(), colour.end())) return false;
    for (Square sq : colour) {
      if (sq < kBase || sq > kHome) return false;
    }
  }
  for (int c = 0; c < kNumColours; ++c) {
    if (suck_attempts(c) > 2 || blow_attempts(c) > 2) return false;
  }
  if (!StackOrderOk(*this)) return false;
  return (flags_ >> 14) == 0 && key_ == ComputeKey();
}

void Position::MovePiece(int colour, Square from, Square to) {
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

void Position::KnockOff(int team, int abs) {
  for (int colour = 1 - team; colour < kNumColours; colour += 2) {
    for (int i = kPiecesPerColour - 1; i >= 0; --i) {
      Square sq = squares_[colour][i];
      if (OnTrack(sq) && AbsoluteSquare(colour, sq) == abs) {
        MovePiece(colour, sq, kBase);
        ++i;  // the row shifted right by one below i; look at i again
      }
    }
  }
}

void Position::SetToThrow(int colour) {
  key_ += zobrist::kTables.to_throw[colour] - zobrist::kTables.to_throw[to_throw()];
  SetField(kToThrowShift, colour);
}

void Position::SetChallenge(Square from, int count) {
  key_ += ChallengeKey(from, count) - ChallengeKey(challenge_from_, challenge_count_);
  challenge_from_ = from;
  challenge_count_ = static_cast<uint8_t>(count);
}

void Position::SetExtraOwed(int n) {
  key_ += ExtraKey(n) - ExtraKey(extra_owed_);
  extra_owed_ = static_cast<uint16_t>(n);
}

void Position::SetReleased(uint8_t mask) {
  key_ += zobrist::kTables.released[mask] - zobrist::kTables.released[released_mask()];
  SetField(kReleasedShift, mask);
}

void Position::SetSnakeFirst(uint8_t mask) {
  key_ += zobrist::kTables.snake_first[mask] - zobrist::kTables.snake_first[snake_first_mask()];
  SetField(kSnakeFirstShift, mask);
}

void Position::SetSnakeSecond(uint8_t mask) {
  key_ += zobrist::kTables.snake_second[mask] - zobrist::kTables.snake_second[snake_second_mask()];
  SetField(kSnakeSecondShift, mask);
}

void Position::SetSuckAttempts(int colour, int n) {
  key_ += zobrist::kTables.suck[colour][n] - zobrist::kTables.suck[colour][suck_attempts(colour)];
  suck_ = static_cast<uint8_t>((suck_ & ~(3 << 2 * colour)) | n << 2 * colour);
}

void Position::SetBlowAttempts(int colour, int n) {
  key_ += zobrist::kTables.blow[colour][n] - zobrist::kTables.blow[colour][blow_attempts(colour)];
  blow_ = static_cast<uint8_t>((blow_ & ~(3 << 2 * colour)) | n << 2 * colour);
}

void Position::SetStackOrder(uint16_t bits) {
  key_ += zobrist::StackOrder(bits) - zobrist::StackOrder(stack_order_);
  stack_order_ = bits;
}

void Position::SetPieces(int colour, std::array<Square, kPiecesPerColour> squares) {
  std::sort(squares.begin(), squares.end());
  for (Square sq : squares_[colour]) key_ -= zobrist::Piece(colour, sq);
  squares_[colour] = squares;
  for (Square sq : squares_[colour]) key_ += zobrist::Piece(colour, sq);
}

}  // namespace uckers
