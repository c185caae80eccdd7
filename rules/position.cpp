#include "rules/position.h"

#include <algorithm>
#include <bit>

#include "rules/stack.h"
#include "rules/zobrist.h"

namespace uckers {
namespace {

uint64_t ChallengeKey(Square from, int count) {
  if (from == kNoChallenge) return 0;
  return zobrist::kTables.challenge[from + 1][std::min(count, zobrist::kMaxChallengeCount - 1)];
}

uint64_t ExtraKey(int n) { return zobrist::ExtraOwed(n); }

// mixie_stack: the order bits cover exactly the pieces of the stacks, and
// each stack's fields name each colour as many times as it holds pieces.
bool StackOrderOk(const Position& pos) {
  if (pos.stack_order() == 0) return true;
  int bits = 0;
  for (const Stack& s : Stacks(pos)) {
    for (int c = 0; c < pos.num_colours(); ++c) {
      if (pos.SideOf(c) != s.team) continue;
      int listed = 0;
      for (int k = 0; k < s.size; ++k) listed += s.ColourAt(k) == c;
      if (listed != CountAtAbsolute(pos, c, s.abs)) return false;
    }
    bits += s.size * StackFieldBits(pos.layout(), s.team);
  }
  return bits < 64 ? (pos.stack_order() >> bits) == 0 : true;
}

}  // namespace

Position Position::Start(const Rules& rules) {
  Position pos;
  pos.layout_ = rules.layout_id();
  for (int c = 0; c < pos.num_colours(); ++c) pos.squares_[c].fill(kBase);
  pos.key_ = pos.ComputeKey();
  if (rules.has(Switch::kSnakeEyes)) {
    pos.SetSnakeFirst(static_cast<uint8_t>((1u << pos.num_colours()) - 1));
  }
  return pos;
}

int Position::PartnerToMoveFor(int colour) const {
  const Layout& l = layout();
  for (int c = l.board.NextColour(colour); c != colour; c = l.board.NextColour(c)) {
    if (l.side_of[c] == l.side_of[colour] && !AllHome(c)) return c;
  }
  return colour;  // the side is home: the game is over
}

int Position::CountAt(int colour, Square sq) const {
  return static_cast<int>(std::count(squares_[colour].begin(), squares_[colour].end(), sq));
}

bool Position::SideHome(int side) const {
  const Layout& l = layout();
  for (int c = 0; c < l.board.colours; ++c) {
    if (l.side_of[c] == side && squares_[c][0] != l.board.home) return false;
  }
  return true;
}

OutcomeLevel Position::OutcomeAgainst(int side) const {
  int winners = WinningSide();
  if (winners < 0 || side == winners) return OutcomeLevel::kNone;
  const Layout& l = layout();
  int home = 0, base = 0;
  for (int c = 0; c < l.board.colours; ++c) {
    if (l.side_of[c] != side) continue;
    home += CountAt(c, l.board.home);
    base += CountAt(c, kBase);
  }
  if (home > 0) return OutcomeLevel::kWin;
  return base == l.SidePieces(side) ? OutcomeLevel::kInHarbour : OutcomeLevel::kEightPiecer;
}

OutcomeLevel Position::Outcome() const {
  int winners = WinningSide();
  if (winners < 0) return OutcomeLevel::kNone;
  // With two sides, the other one; with more, the best the winners did.
  OutcomeLevel best = OutcomeLevel::kNone;
  for (int side = 0; side < num_sides(); ++side) {
    OutcomeLevel o = OutcomeAgainst(side);
    if (o > best) best = o;
  }
  return best;
}

SidePoints Position::Points() const {
  SidePoints points{};
  int winners = WinningSide();
  if (winners < 0) return points;
  for (int side = 0; side < num_sides(); ++side) {
    int won = static_cast<int>(OutcomeAgainst(side));
    points[side] -= won;
    points[winners] += won;
  }
  return points;
}

uint64_t Position::ComputeKey() const {
  const zobrist::Tables& z = zobrist::kTables;
  uint64_t key = 0;
  for (int c = 0; c < num_colours(); ++c) {
    for (Square sq : squares_[c]) key += zobrist::Piece(c, sq);
  }
  key += z.to_throw[to_throw()];
  key += ChallengeKey(challenge_from_, challenge_count_);
  key += ExtraKey(extra_owed_);
  key += z.released[released_mask()] + z.snake_first[snake_first_mask()] +
         z.snake_second[snake_second_mask()];
  for (int c = 0; c < num_colours(); ++c) {
    key += z.suck[c][suck_attempts(c)] + z.blow[c][blow_attempts(c)];
  }
  key += zobrist::StackOrder(stack_order_);
  return key;
}

bool Position::IsOk() const {
  if (layout_ >= kNumLayouts) return false;
  const Board& b = board();
  for (int c = 0; c < kMaxColours; ++c) {
    const auto& row = squares_[c];
    if (c >= b.colours) {
      for (Square sq : row) {
        if (sq != 0) return false;
      }
      continue;
    }
    if (!std::is_sorted(row.begin(), row.end())) return false;
    for (Square sq : row) {
      if (sq < kBase || sq > b.home) return false;
    }
  }
  uint32_t colour_bits = (1u << b.colours) - 1;
  for (int shift : {kReleasedShift, kSnakeFirstShift, kSnakeSecondShift}) {
    if (Mask(shift) & ~colour_bits) return false;
  }
  if (to_throw() >= b.colours) return false;
  for (int c = 0; c < kMaxColours; ++c) {
    if (suck_attempts(c) > 2 || blow_attempts(c) > 2) return false;
    if (c >= b.colours && (suck_attempts(c) || blow_attempts(c))) return false;
  }
  if (!StackOrderOk(*this)) return false;
  return (flags_ >> (kToThrowShift + 3)) == 0 && key_ == ComputeKey();
}

void Position::KnockOff(int side, int abs) {
  const Layout& l = layout();
  for (int colour = 0; colour < l.board.colours; ++colour) {
    if (l.side_of[colour] == side) continue;
    for (int i = kPiecesPerColour - 1; i >= 0; --i) {
      Square sq = squares_[colour][i];
      if (l.board.OnTrack(sq) && l.board.Absolute(colour, sq) == abs) {
        MovePiece(colour, sq, kBase);
        ++i;  // the row shifted right by one below i; look at i again
      }
    }
  }
}

void Position::SetToThrow(int colour) {
  key_ += zobrist::kTables.to_throw[colour] - zobrist::kTables.to_throw[to_throw()];
  SetField(kToThrowShift, 7, colour);
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
  SetField(kReleasedShift, kMaskBits, mask);
}

void Position::SetSnakeFirst(uint8_t mask) {
  key_ += zobrist::kTables.snake_first[mask] - zobrist::kTables.snake_first[snake_first_mask()];
  SetField(kSnakeFirstShift, kMaskBits, mask);
}

void Position::SetSnakeSecond(uint8_t mask) {
  key_ += zobrist::kTables.snake_second[mask] - zobrist::kTables.snake_second[snake_second_mask()];
  SetField(kSnakeSecondShift, kMaskBits, mask);
}

void Position::SetSuckAttempts(int colour, int n) {
  key_ += zobrist::kTables.suck[colour][n] - zobrist::kTables.suck[colour][suck_attempts(colour)];
  suck_ = static_cast<uint16_t>((suck_ & ~(3 << 2 * colour)) | n << 2 * colour);
}

void Position::SetBlowAttempts(int colour, int n) {
  key_ += zobrist::kTables.blow[colour][n] - zobrist::kTables.blow[colour][blow_attempts(colour)];
  blow_ = static_cast<uint16_t>((blow_ & ~(3 << 2 * colour)) | n << 2 * colour);
}

void Position::SetStackOrder(uint64_t bits) {
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
