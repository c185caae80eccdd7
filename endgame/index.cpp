#include "endgame/index.h"

#include <array>

#include "absl/strings/str_cat.h"

namespace uckers {
namespace {

// A square not home as a code 0..56: base 0, relative square s as s + 1.
constexpr int kCodes = kHome + 1;
// Multisets of one and of two such squares.
constexpr uint32_t kOnePiece = kCodes;
constexpr uint32_t kTwoPieces = kCodes * (kCodes + 1) / 2;

constexpr uint32_t SetsOf(int pieces) { return pieces == 1 ? kOnePiece : kTwoPieces; }

// Two codes a <= b as b(b+1)/2 + a, and back.
struct CodePair {
  uint8_t low;
  uint8_t high;
};
constexpr std::array<CodePair, kTwoPieces> BuildPairs() {
  std::array<CodePair, kTwoPieces> pairs{};
  for (int b = 0; b < kCodes; ++b) {
    for (int a = 0; a <= b; ++a) {
      pairs[b * (b + 1) / 2 + a] = {static_cast<uint8_t>(a), static_cast<uint8_t>(b)};
    }
  }
  return pairs;
}
constexpr std::array<CodePair, kTwoPieces> kPairs = BuildPairs();

// The code of a colour's `pieces` lowest squares (its pieces not home).
uint32_t SetCode(const std::array<Square, kPiecesPerColour>& row, int pieces) {
  uint32_t a = row[0] + 1;
  if (pieces == 1) return a;
  uint32_t b = row[1] + 1;
  return b * (b + 1) / 2 + a;
}

// The squares of a colour whose pieces not home have code `code`.
std::array<Square, kPiecesPerColour> SetSquares(uint32_t code, int pieces) {
  std::array<Square, kPiecesPerColour> row;
  row.fill(kHome);
  if (pieces == 1) {
    row[0] = static_cast<Square>(code - 1);
  } else {
    row[0] = static_cast<Square>(kPairs[code].low - 1);
    row[1] = static_cast<Square>(kPairs[code].high - 1);
  }
  return row;
}

int SetProgress(uint32_t code, int pieces) {
  if (pieces == 1) return code;
  return kPairs[code].low + kPairs[code].high;
}

// A team's colour that is done: all home and released.
bool Done(const Position& pos, int colour) { return pos.AllHome(colour) && pos.released(colour); }

// A playing colour: not released, one or two pieces not home.
int PlayingPieces(const Position& pos, int colour) {
  if (pos.released(colour)) return 0;
  int n = pos.CountNotHome(colour);
  return n <= 2 ? n : 0;
}

}  // namespace

int ShapeId(int mover, int opponent) { return (mover - 1) * 2 + (opponent - 1); }

EndgameShape ShapeById(int id) { return {id / 2 + 1, id % 2 + 1}; }

std::string ShapeName(int id) {
  EndgameShape s = ShapeById(id);
  return absl::StrCat(s.mover, "v", s.opponent);
}

uint32_t ShapeSize(int id) {
  EndgameShape s = ShapeById(id);
  return 2 * SetsOf(s.mover) * SetsOf(s.opponent);
}

bool ClassHasShape(EndgameClass c, int shape) {
  switch (c) {
    case EndgameClass::k1v1:
      return shape == 0;
    case EndgameClass::k1v2:
      return shape != 3;
    case EndgameClass::k2v2:
      return true;
  }
  return false;
}

absl::string_view ClassName(EndgameClass c) {
  switch (c) {
    case EndgameClass::k1v1:
      return "1v1";
    case EndgameClass::k1v2:
      return "1v2";
    case EndgameClass::k2v2:
      return "2v2";
  }
  return "?";
}

absl::StatusOr<EndgameClass> ClassByName(absl::string_view name) {
  for (EndgameClass c : {EndgameClass::k1v1, EndgameClass::k1v2, EndgameClass::k2v2}) {
    if (ClassName(c) == name) return c;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown endgame class '", name, "' (known: 1v1, 1v2, 2v2)"));
}

uint64_t ClassSize(EndgameClass c) {
  uint64_t n = 0;
  for (int s = 0; s < kNumEndgameShapes; ++s) {
    if (ClassHasShape(c, s)) n += ShapeSize(s);
  }
  return n;
}

absl::Status CheckEndgameRules(const Rules& rules) {
  for (Switch s : {Switch::kDoubleSixTwoThrows, Switch::kSuckBack, Switch::kNoPartnerPipeMoves}) {
    if (rules.has(s)) {
      return absl::UnimplementedError(absl::StrCat("endgame tables are not built for rules with ",
                                                   SwitchName(s), " (rules ", rules.ToString(),
                                                   ")"));
    }
  }
  return absl::OkStatus();
}

std::optional<EndgameSlot> SlotOf(const Position& pos) {
  if (pos.challenge_active() || pos.extra_owed() != 0 || pos.snake_first_mask() != 0 ||
      pos.snake_second_mask() != 0 || pos.any_lane_attempts() || pos.IsGameOver()) {
    return std::nullopt;
  }
  int mover = pos.MovingColour();
  int mover_pieces = PlayingPieces(pos, mover);
  if (mover_pieces == 0 || !Done(pos, PartnerOf(mover))) return std::nullopt;
  int next = NextColour(mover);
  int previous = PartnerOf(next);
  int geometry = Done(pos, previous) ? 0 : 1;
  int opponent = geometry == 0 ? next : previous;
  int opponent_pieces = PlayingPieces(pos, opponent);
  if (opponent_pieces == 0 || !Done(pos, PartnerOf(opponent))) return std::nullopt;
  uint32_t mover_code = SetCode(pos.pieces(mover), mover_pieces);
  uint32_t opponent_code = SetCode(pos.pieces(opponent), opponent_pieces);
  EndgameSlot slot;
  slot.shape = ShapeId(mover_pieces, opponent_pieces);
  slot.index =
      (geometry * SetsOf(mover_pieces) + mover_code) * SetsOf(opponent_pieces) + opponent_code;
  return slot;
}

Position PositionAt(EndgameSlot slot) {
  EndgameShape shape = ShapeById(slot.shape);
  uint32_t opponent_code = slot.index % SetsOf(shape.opponent);
  uint32_t rest = slot.index / SetsOf(shape.opponent);
  uint32_t mover_code = rest % SetsOf(shape.mover);
  int opponent = rest / SetsOf(shape.mover) == 0 ? kGreen : kBlue;
  Position pos = Position::Start(Rules{});
  std::array<Square, kPiecesPerColour> home;
  home.fill(kHome);
  pos.SetPieces(kRed, SetSquares(mover_code, shape.mover));
  pos.SetPieces(kYellow, home);
  pos.SetPieces(opponent, SetSquares(opponent_code, shape.opponent));
  pos.SetPieces(PartnerOf(opponent), home);
  pos.SetReleased(static_cast<uint8_t>(1 << kYellow | 1 << PartnerOf(opponent)));
  return pos;
}

Position TurnSeats(const Position& pos, int seats) {
  Position turned = Position::Start(Rules{});
  uint8_t released = 0;
  for (int c = 0; c < kNumColours; ++c) {
    int to = (c + seats) & 3;
    turned.SetPieces(to, pos.pieces(c));
    if (pos.released(c)) released |= static_cast<uint8_t>(1 << to);
  }
  turned.SetReleased(released);
  turned.SetToThrow((pos.to_throw() + seats) & 3);
  turned.SetExtraOwed(pos.extra_owed());
  if (pos.challenge_active()) turned.SetChallenge(pos.challenge_from(), pos.challenge_count());
  return turned;
}

int SlotProgress(EndgameSlot slot) {
  EndgameShape shape = ShapeById(slot.shape);
  uint32_t opponent_code = slot.index % SetsOf(shape.opponent);
  uint32_t mover_code = slot.index / SetsOf(shape.opponent) % SetsOf(shape.mover);
  return SetProgress(mover_code, shape.mover) + SetProgress(opponent_code, shape.opponent);
}

}  // namespace uckers
