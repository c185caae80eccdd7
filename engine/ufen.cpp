#include "engine/ufen.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/occupancy.h"
#include "engine/play.h"
#include "engine/stack.h"
#include "engine/suck_back.h"
#include "engine/turn.h"
#include "engine/zobrist.h"

namespace uckers {
namespace {

absl::Status Invalid(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("bad UFEN: ", what));
}

absl::Status ParsePieces(absl::string_view field, Position& pos) {
  std::vector<absl::string_view> colours = absl::StrSplit(field, '/');
  if (colours.size() != kNumColours) {
    return Invalid(absl::StrCat("pieces field '", field, "' has ", colours.size(),
                                " colour groups, expected 4"));
  }
  for (int c = 0; c < kNumColours; ++c) {
    std::vector<absl::string_view> items = absl::StrSplit(colours[c], ',');
    if (items.size() != kPiecesPerColour) {
      return Invalid(absl::StrCat("colour ", std::string(1, kColourChars[c]), " has ", items.size(),
                                  " pieces, expected 4"));
    }
    std::array<Square, kPiecesPerColour> squares{};
    for (int i = 0; i < kPiecesPerColour; ++i) {
      absl::StatusOr<Square> sq = ParseSquare(items[i]);
      if (!sq.ok()) {
        return Invalid(
            absl::StrCat("colour ", std::string(1, kColourChars[c]), ": ", sq.status().message()));
      }
      squares[i] = *sq;
    }
    pos.SetPieces(c, squares);
  }
  return absl::OkStatus();
}

// A colour list such as "rg" in turn order, as a bit mask.
absl::StatusOr<uint8_t> ParseColourList(absl::string_view token) {
  uint8_t mask = 0;
  int last = -1;
  for (char ch : token.substr(1)) {
    int c = ColourIndex(ch);
    if (c < 0 || c <= last) {
      return Invalid(absl::StrCat("token '", token,
                                  "' needs distinct colours r, g, y, b in "
                                  "turn order"));
    }
    mask |= 1 << c;
    last = c;
  }
  if (mask == 0) return Invalid(absl::StrCat("token '", token, "' names no colour"));
  return mask;
}

absl::StatusOr<int> ParseCount(absl::string_view token, absl::string_view digits) {
  int n = 0;
  if (digits.empty() || digits.size() > 5 ||
      digits.find_first_not_of("0123456789") != absl::string_view::npos ||
      !absl::SimpleAtoi(digits, &n)) {
    return Invalid(absl::StrCat("token '", token, "' has no valid count"));
  }
  return n;
}

absl::Status RequireSwitch(absl::string_view token, const Rules& rules, Switch s) {
  if (rules.has(s)) return absl::OkStatus();
  return Invalid(
      absl::StrCat("token '", token, "' needs the rule switch ", SwitchName(s), ", which is off"));
}

// A stack token as read, checked against the pieces once all are read.
struct StackToken {
  std::string text;
  Stack stack;
};

struct StateTokens {
  bool seen[128] = {};
  std::vector<StackToken> stacks;  // `m` tokens, mixie_stack
};

// `m<colour><sq>:<stack>` (mixie_stack): the colours of a stack bottom to
// top, on `<colour>`'s square `<sq>`, `<colour>` the team's first colour.
absl::Status ParseStackToken(absl::string_view token, const Rules& rules, StateTokens& seen) {
  if (absl::Status s = RequireSwitch(token, rules, Switch::kMixieStack); !s.ok()) {
    return s;
  }
  size_t colon = token.find(':');
  int team = token.size() >= 2 ? ColourIndex(token[1]) : -1;
  if (colon == absl::string_view::npos || team < 0 || team > 1) {
    return Invalid(absl::StrCat("stack token '", token, "' must be m<r|g><square>:<colours>"));
  }
  absl::StatusOr<Square> sq = ParseSquare(token.substr(2, colon - 2));
  if (!sq.ok() || !OnTrack(*sq)) {
    return Invalid(absl::StrCat("stack token '", token, "' needs a square 0..50"));
  }
  absl::string_view colours = token.substr(colon + 1);
  if (colours.size() < 2 || colours.size() > 2 * kPiecesPerColour) {
    return Invalid(absl::StrCat("stack token '", token, "' must list 2..8 colours"));
  }
  StackToken parsed{std::string(token), Stack{}};
  parsed.stack.abs = static_cast<uint8_t>(AbsoluteSquare(team, *sq));
  parsed.stack.team = static_cast<uint8_t>(team);
  parsed.stack.size = static_cast<uint8_t>(colours.size());
  for (size_t k = 0; k < colours.size(); ++k) {
    int c = ColourIndex(colours[k]);
    if (c < 0 || TeamOf(c) != team) {
      return Invalid(absl::StrCat("stack token '", token, "' lists '", std::string(1, colours[k]),
                                  "', not a colour of team ", std::string(1, kColourChars[team]),
                                  std::string(1, kColourChars[team + 2])));
    }
    parsed.stack.order = static_cast<uint8_t>(parsed.stack.order | (c >> 1) << k);
  }
  for (const StackToken& other : seen.stacks) {
    if (other.stack.abs == parsed.stack.abs) {
      return Invalid(
          absl::StrCat("stack token '", token, "' repeats the square of '", other.text, "'"));
    }
  }
  seen.stacks.push_back(parsed);
  return absl::OkStatus();
}

// Checks the `m` tokens against the pieces (each matches the pieces on its
// square, every square holding both colours of a team has one) and stores
// the order in `pos`.
absl::Status ApplyStackTokens(const StateTokens& seen, const Rules& rules, Position& pos) {
  if (!rules.has(Switch::kMixieStack)) return absl::OkStatus();
  StackList list;
  for (const StackToken& t : seen.stacks) {
    const Stack& s = t.stack;
    int first = 0, second = 0;
    for (int k = 0; k < s.size; ++k) (s.ColourAt(k) == s.team ? first : second)++;
    if (CountAtAbsolute(pos, s.team, s.abs) != first ||
        CountAtAbsolute(pos, s.team + 2, s.abs) != second) {
      return Invalid(absl::StrCat("stack token '", t.text, "' does not match the pieces on ",
                                  "its square (", first, " ", std::string(1, kColourChars[s.team]),
                                  ", ", second, " ", std::string(1, kColourChars[s.team + 2]),
                                  " listed)"));
    }
    if (first == 0 || second == 0) {
      return Invalid(
          absl::StrCat("stack token '", t.text, "' names a square of one colour: no stack"));
    }
    list.items[list.size++] = s;
  }
  for (int team = 0; team < 2; ++team) {  // every square with both colours
    for (Square rel : pos.pieces(team)) {
      if (!OnTrack(rel)) continue;
      int abs = AbsoluteSquare(team, rel);
      if (!HoldsBothColours(pos, team, abs) || list.Find(abs)) continue;
      return Invalid(absl::StrCat("square ", std::string(1, kColourChars[team]), rel,
                                  " holds both colours of a team but has no stack token m",
                                  std::string(1, kColourChars[team]), rel,
                                  ":<colours> giving their order (mixie_stack)"));
    }
  }
  SetStacks(pos, list);
  return absl::OkStatus();
}

absl::Status ParseChallengeToken(absl::string_view token, Position& pos) {
  size_t colon = token.find(':');
  if (colon == absl::string_view::npos) {
    return Invalid(absl::StrCat("challenge token '", token, "' must be c<square>:<sixes>"));
  }
  absl::StatusOr<Square> from = ParseSquare(token.substr(1, colon - 1));
  if (!from.ok() || *from == kHome || *from >= kLastTrack) {
    return Invalid(absl::StrCat("challenge token '", token, "' needs a square b or 0..49"));
  }
  absl::StatusOr<int> n = ParseCount(token, token.substr(colon + 1));
  if (!n.ok()) return n.status();
  if (*n < 1 || *n >= zobrist::kMaxChallengeCount) {
    return Invalid(absl::StrCat("challenge token '", token, "' must count at least one six"));
  }
  pos.SetChallenge(*from, *n);
  return absl::OkStatus();
}

// `k<colour><n>` or `K<colour><n>`: suck-back or blow-back attempts used
// against the piece in line with that colour's lane (suck_back only).
absl::Status ParseLaneAttemptsToken(absl::string_view token, const Rules& rules, Position& pos) {
  if (absl::Status s = RequireSwitch(token, rules, Switch::kSuckBack); !s.ok()) {
    return s;
  }
  int colour = token.size() >= 2 ? ColourIndex(token[1]) : -1;
  if (colour < 0) {
    return Invalid(absl::StrCat("token '", token,
                                "' must name a colour: ", std::string(1, token[0]), "<colour><n>"));
  }
  absl::StatusOr<int> n = ParseCount(token, token.substr(2));
  if (!n.ok()) return n.status();
  if (*n < 1 || *n > 2) {
    return Invalid(absl::StrCat("token '", token, "' must count 1 or 2 attempts"));
  }
  bool suck = token[0] == 'k';
  int used = suck ? pos.suck_attempts(colour) : pos.blow_attempts(colour);
  if (used != 0) return Invalid(absl::StrCat("token '", token, "' repeats a colour"));
  if (suck) pos.SetSuckAttempts(colour, *n);
  if (!suck) pos.SetBlowAttempts(colour, *n);
  return absl::OkStatus();
}

absl::Status ParseStateToken(absl::string_view token, const Rules& rules, StateTokens& seen,
                             Position& pos) {
  char kind = token[0];
  if (kind == 'k' || kind == 'K') return ParseLaneAttemptsToken(token, rules, pos);
  if (kind == 'm') return ParseStackToken(token, rules, seen);
  if (kind < 0 || seen.seen[static_cast<int>(kind)]) {
    return Invalid(absl::StrCat("state token '", token, "' is repeated or unknown"));
  }
  seen.seen[static_cast<int>(kind)] = true;
  switch (kind) {
    case 'c':
      return ParseChallengeToken(token, pos);
    case 'x': {
      if (absl::Status s = RequireSwitch(token, rules, Switch::kDoubleSixTwoThrows); !s.ok()) {
        return s;
      }
      absl::StatusOr<int> n = ParseCount(token, token.substr(1));
      if (!n.ok()) return n.status();
      if (*n < 1 || *n > kMaxExtraOwed) {
        return Invalid(absl::StrCat("token '", token, "' must owe 1..", kMaxExtraOwed, " throws"));
      }
      pos.SetExtraOwed(*n);
      return absl::OkStatus();
    }
    case 'p':
    case 's':
    case 'S': {
      if (kind != 'p') {
        if (absl::Status s = RequireSwitch(token, rules, Switch::kSnakeEyes); !s.ok()) {
          return s;
        }
      }
      absl::StatusOr<uint8_t> mask = ParseColourList(token);
      if (!mask.ok()) return mask.status();
      if (kind == 'p') pos.SetReleased(*mask);
      if (kind == 's') pos.SetSnakeFirst(*mask);
      if (kind == 'S') pos.SetSnakeSecond(*mask);
      return absl::OkStatus();
    }
    default:
      return Invalid(absl::StrCat("unknown state token '", token, "'"));
  }
}

absl::Status CheckTeamsApart(const Position& pos) {
  for (int c = 0; c < kNumColours; c += 1) {
    uint64_t opponents = ComputeOccupancy(pos, c).opponents;
    for (Square sq : pos.pieces(c)) {
      if (OnTrack(sq) && (opponents >> sq & 1)) {
        return Invalid(absl::StrCat("both teams stand on one square (",
                                    std::string(1, kColourChars[c]), " square ", sq, ")"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckChallenge(const Position& pos, const Rules& rules) {
  if (!pos.challenge_active()) return absl::OkStatus();
  if (pos.IsGameOver()) return Invalid("a challenge is under way in a finished game");
  int mover = pos.MovingColour();
  Square from = pos.challenge_from();
  std::string where = absl::StrCat("challenge from ", SquareToString(from), ": ");
  if (pos.CountAt(mover, from) == 0) {
    return Invalid(absl::StrCat(where, "the moving colour ", std::string(1, kColourChars[mover]),
                                " has no piece there"));
  }
  Occupancy occ = ComputeOccupancy(pos, mover);
  int front = from == kBase ? kDoorstep : from + 1;
  if (!(occ.opponent_blobs >> front & 1)) {
    return Invalid(absl::StrCat(where, "no opponent blob in front"));
  }
  if (from != kBase && (occ.partner >> from & 1) && !rules.has(Switch::kMixieCanChallenge)) {
    return Invalid(absl::StrCat(where, "a mixie blob may not challenge"));
  }
  if (rules.has(Switch::kMixieStack) && !MayMoveUnderStacks(pos, mover, from)) {
    return Invalid(absl::StrCat(where, "only a stack's top piece may challenge"));
  }
  int target = ChallengeTarget(mover, from);
  int need = ChallengeNeed(from, OpponentCountAt(pos, mover, target), rules);
  if (pos.challenge_count() >= need) {
    return Invalid(absl::StrCat(where, "count ", pos.challenge_count(),
                                " already reaches the need of ", need));
  }
  return absl::OkStatus();
}

absl::Status CheckLaneAttempts(const Position& pos) {
  for (int c = 0; c < kNumColours; ++c) {
    if ((pos.suck_attempts(c) || pos.blow_attempts(c)) && !OpponentInLine(pos, c)) {
      return Invalid(absl::StrCat("attempts are counted against colour ",
                                  std::string(1, kColourChars[c]),
                                  "'s square 50 (tokens k, K) but no opponent "
                                  "piece stands there"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckConsistency(const Position& pos, const Rules& rules) {
  if (absl::Status s = CheckLaneAttempts(pos); !s.ok()) return s;
  if (absl::Status s = CheckTeamsApart(pos); !s.ok()) return s;
  if (pos.AllHome(0) && pos.AllHome(1) && pos.AllHome(2) && pos.AllHome(3)) {
    return Invalid("both teams have every piece home");
  }
  for (int c = 0; c < kNumColours; ++c) {
    std::string name(1, kColourChars[c]);
    if (pos.released(c) && !pos.AllHome(c)) {
      return Invalid(absl::StrCat("released colour ", name, " has pieces not home"));
    }
    if (pos.snake_first(c) && pos.pieces(c)[3] != kBase) {
      return Invalid(
          absl::StrCat("colour ", name, " has not thrown yet but has pieces out of base"));
    }
    if (pos.snake_first(c) && pos.snake_second(c)) {
      return Invalid(absl::StrCat("colour ", name, " is in both s and S"));
    }
  }
  if (pos.IsGameOver() && pos.extra_owed() > 0) {
    return Invalid("a finished game owes no throw");
  }
  if (pos.challenge_active() && pos.extra_owed() > 0) {
    return Invalid("no throw is owed while a challenge is under way (tokens c and x)");
  }
  return CheckChallenge(pos, rules);
}

std::string ColourList(char prefix, uint8_t mask) {
  std::string out(1, prefix);
  for (int c = 0; c < kNumColours; ++c) {
    if (mask >> c & 1) out += kColourChars[c];
  }
  return out;
}

// The `m` tokens, by team (r, then g), then by square relative to the
// team's first colour.
void AppendStackTokens(const Position& pos, std::vector<std::string>& state) {
  const StackList stacks = Stacks(pos);
  for (int team = 0; team < 2; ++team) {
    std::vector<std::pair<int, std::string>> tokens;
    for (const Stack& s : stacks) {
      if (s.team != team) continue;
      int rel = RelativeSquare(team, s.abs);
      std::string colours;
      for (int k = 0; k < s.size; ++k) colours += kColourChars[s.ColourAt(k)];
      tokens.emplace_back(rel,
                          absl::StrCat("m", std::string(1, kColourChars[team]), rel, ":", colours));
    }
    std::sort(tokens.begin(), tokens.end());
    for (auto& [rel, token] : tokens) state.push_back(std::move(token));
  }
}

}  // namespace

absl::StatusOr<Position> ParseUfen(absl::string_view text, const Rules& rules) {
  std::vector<absl::string_view> fields = absl::StrSplit(text, ' ', absl::SkipEmpty());
  if (fields.size() != 3) {
    return Invalid(
        absl::StrCat("expected 3 fields (pieces, colour to throw, "
                     "state), found ",
                     fields.size()));
  }
  Position pos = Position::Start(Rules());
  if (absl::Status s = ParsePieces(fields[0], pos); !s.ok()) return s;
  int to_throw = fields[1].size() == 1 ? ColourIndex(fields[1][0]) : -1;
  if (to_throw < 0) {
    return Invalid(absl::StrCat("colour to throw '", fields[1], "' is not r, g, y or b"));
  }
  pos.SetToThrow(to_throw);
  StateTokens seen;
  if (fields[2] != "-") {
    for (absl::string_view token : absl::StrSplit(fields[2], ',')) {
      if (token.empty()) return Invalid("empty state token");
      if (absl::Status s = ParseStateToken(token, rules, seen, pos); !s.ok()) {
        return s;
      }
    }
  }
  if (absl::Status s = ApplyStackTokens(seen, rules, pos); !s.ok()) return s;
  if (absl::Status s = CheckConsistency(pos, rules); !s.ok()) return s;
  return pos;
}

std::string ToUfen(const Position& pos) {
  std::vector<std::string> colours;
  for (int c = 0; c < kNumColours; ++c) {
    std::vector<std::string> squares;
    for (Square sq : pos.pieces(c)) squares.push_back(SquareToString(sq));
    colours.push_back(absl::StrJoin(squares, ","));
  }
  std::vector<std::string> state;
  if (pos.challenge_active()) {
    state.push_back(
        absl::StrCat("c", SquareToString(pos.challenge_from()), ":", pos.challenge_count()));
  }
  if (pos.extra_owed() > 0) state.push_back(absl::StrCat("x", pos.extra_owed()));
  if (pos.released_mask()) state.push_back(ColourList('p', pos.released_mask()));
  if (pos.snake_first_mask()) state.push_back(ColourList('s', pos.snake_first_mask()));
  if (pos.snake_second_mask()) {
    state.push_back(ColourList('S', pos.snake_second_mask()));
  }
  for (int c = 0; c < kNumColours; ++c) {
    if (int n = pos.suck_attempts(c)) {
      state.push_back(absl::StrCat("k", std::string(1, kColourChars[c]), n));
    }
  }
  for (int c = 0; c < kNumColours; ++c) {
    if (int n = pos.blow_attempts(c)) {
      state.push_back(absl::StrCat("K", std::string(1, kColourChars[c]), n));
    }
  }
  if (pos.stack_order() != 0) AppendStackTokens(pos, state);
  return absl::StrCat(absl::StrJoin(colours, "/"), " ",
                      std::string(1, kColourChars[pos.to_throw()]), " ",
                      state.empty() ? "-" : absl::StrJoin(state, ","));
}

}  // namespace uckers
