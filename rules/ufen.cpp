#include "rules/ufen.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "rules/occupancy.h"
#include "rules/play.h"
#include "rules/stack.h"
#include "rules/suck_back.h"
#include "rules/turn.h"
#include "rules/zobrist.h"

namespace uckers {
namespace {

absl::Status Invalid(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("bad UFEN: ", what));
}

absl::Status ParsePieces(absl::string_view field, Position& pos) {
  const Board& b = pos.board();
  std::vector<absl::string_view> colours = absl::StrSplit(field, '/');
  if (static_cast<int>(colours.size()) != b.colours) {
    return Invalid(absl::StrCat("pieces field '", field, "' has ", colours.size(),
                                " colour groups, expected ", b.colours,
                                " (the ruleset's board has ", b.colours, " colours)"));
  }
  for (int c = 0; c < b.colours; ++c) {
    std::vector<absl::string_view> items = absl::StrSplit(colours[c], ',');
    if (items.size() != kPiecesPerColour) {
      return Invalid(absl::StrCat("colour ", std::string(1, kColourChars[c]), " has ", items.size(),
                                  " pieces, expected ", kPiecesPerColour));
    }
    std::array<Square, kPiecesPerColour> squares{};
    for (int i = 0; i < kPiecesPerColour; ++i) {
      absl::StatusOr<Square> sq = ParseSquare(items[i], b);
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

// The board's colour letters, "r, g, y, b" or "r, g, y, b, o, p".
std::string ColourLetters(const Board& b) {
  std::string out;
  for (int c = 0; c < b.colours; ++c)
    absl::StrAppend(&out, c ? ", " : "", std::string(1, kColourChars[c]));
  return out;
}

// A colour list such as "rg" in turn order, as a bit mask.
absl::StatusOr<uint8_t> ParseColourList(absl::string_view token, const Board& b) {
  uint8_t mask = 0;
  int last = -1;
  for (char ch : token.substr(1)) {
    int c = ColourIndex(ch);
    if (c < 0 || c >= b.colours || c <= last) {
      return Invalid(absl::StrCat("token '", token, "' needs distinct colours ", ColourLetters(b),
                                  " in turn order"));
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
// top, on `<colour>`'s square `<sq>`, `<colour>` the side's first colour.
absl::Status ParseStackToken(absl::string_view token, const Rules& rules, const Layout& l,
                             StateTokens& seen) {
  if (absl::Status s = RequireSwitch(token, rules, Switch::kMixieStack); !s.ok()) {
    return s;
  }
  const Board& b = l.board;
  size_t colon = token.find(':');
  int team = token.size() >= 2 ? ColourIndex(token[1]) : -1;
  if (colon == absl::string_view::npos || team < 0 || team >= l.num_sides ||
      l.side_size[team] < 2) {
    return Invalid(absl::StrCat("stack token '", token,
                                "' must be m<colour><square>:<colours>, <colour> the first colour "
                                "of a side of two or more"));
  }
  // With teams of three a stack of the side's other two colours may stand
  // on the square just behind its first colour's doorstep (relative
  // track - 1, off that colour's path): the token names it so.
  int last = l.side_size[team] > 2 ? b.track - 1 : b.last_track;
  absl::StatusOr<Square> sq = ParseSquare(token.substr(2, colon - 2), b);
  if (!sq.ok() || *sq < 0 || *sq > last) {
    return Invalid(absl::StrCat("stack token '", token, "' needs a square 0..", last));
  }
  absl::string_view colours = token.substr(colon + 1);
  int most = l.SidePieces(team);
  if (colours.size() < 2 || static_cast<int>(colours.size()) > most) {
    return Invalid(absl::StrCat("stack token '", token, "' must list 2..", most, " colours"));
  }
  StackToken parsed{std::string(token), Stack{}};
  parsed.stack.abs = static_cast<uint8_t>(b.Absolute(team, *sq));
  parsed.stack.team = static_cast<uint8_t>(team);
  parsed.stack.size = static_cast<uint8_t>(colours.size());
  for (size_t k = 0; k < colours.size(); ++k) {
    int c = ColourIndex(colours[k]);
    if (c < 0 || c >= b.colours || l.side_of[c] != team) {
      return Invalid(absl::StrCat("stack token '", token, "' lists '", std::string(1, colours[k]),
                                  "', not a colour of side ", SideLetters(l, team)));
    }
    parsed.stack.colours[k] = static_cast<uint8_t>(c);
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
  const Layout& l = pos.layout();
  const Board& b = l.board;
  StackList list;
  for (const StackToken& t : seen.stacks) {
    const Stack& s = t.stack;
    int kinds = 0;
    std::string listed;
    for (int c = 0; c < b.colours; ++c) {
      if (l.side_of[c] != s.team) continue;
      int n = 0;
      for (int k = 0; k < s.size; ++k) n += s.ColourAt(k) == c;
      kinds += n > 0;
      absl::StrAppend(&listed, listed.empty() ? "" : ", ", n, " ", std::string(1, kColourChars[c]));
      if (CountAtAbsolute(pos, c, s.abs) != n) {
        return Invalid(absl::StrCat("stack token '", t.text,
                                    "' does not match the pieces on its square (", listed,
                                    " listed so far)"));
      }
    }
    if (kinds < 2) {
      return Invalid(
          absl::StrCat("stack token '", t.text, "' names a square of one colour: no stack"));
    }
    list.items[list.size++] = s;
  }
  for (int c = 0; c < b.colours; ++c) {  // every square with two colours of a side
    int team = l.side_of[c];
    for (Square sq : pos.pieces(c)) {
      if (!b.OnTrack(sq)) continue;
      int abs = b.Absolute(c, sq);
      if (!HoldsBothColours(pos, team, abs) || list.Find(abs)) continue;
      int rel = b.Relative(team, abs);
      return Invalid(absl::StrCat("square ", std::string(1, kColourChars[team]), rel,
                                  " holds two colours of a side but has no stack token m",
                                  std::string(1, kColourChars[team]), rel,
                                  ":<colours> giving their order (mixie_stack)"));
    }
  }
  SetStacks(pos, list);
  return absl::OkStatus();
}

absl::Status ParseChallengeToken(absl::string_view token, Position& pos) {
  const Board& b = pos.board();
  size_t colon = token.find(':');
  if (colon == absl::string_view::npos) {
    return Invalid(absl::StrCat("challenge token '", token, "' must be c<square>:<sixes>"));
  }
  absl::StatusOr<Square> from = ParseSquare(token.substr(1, colon - 1), b);
  if (!from.ok() || *from == b.home || *from >= b.last_track) {
    return Invalid(
        absl::StrCat("challenge token '", token, "' needs a square b or 0..", b.last_track - 1));
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
  if (colour < 0 || colour >= pos.num_colours()) {
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
  if (kind == 'm') return ParseStackToken(token, rules, pos.layout(), seen);
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
      absl::StatusOr<uint8_t> mask = ParseColourList(token, pos.board());
      if (!mask.ok()) return mask.status();
      if (kind == 'p' && pos.num_sides() == pos.num_colours()) {
        return Invalid(
            absl::StrCat("token '", token, "': under solo no colour throws for a partner"));
      }
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
  const Board& b = pos.board();
  for (int c = 0; c < b.colours; c += 1) {
    Bits128 opponents = ComputeWideOccupancy(pos, c).opponents;
    for (Square sq : pos.pieces(c)) {
      if (b.OnTrack(sq) && (opponents >> sq & 1)) {
        return Invalid(absl::StrCat("two sides stand on one square (",
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
  std::string where = absl::StrCat("challenge from ", SquareToString(from, pos.board()), ": ");
  if (pos.CountAt(mover, from) == 0) {
    return Invalid(absl::StrCat(where, "the moving colour ", std::string(1, kColourChars[mover]),
                                " has no piece there"));
  }
  WideOccupancy occ = ComputeWideOccupancy(pos, mover);
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
  int target = ChallengeTarget(pos.board(), mover, from);
  int need = ChallengeNeed(from, OpponentCountAt(pos, mover, target), rules);
  if (pos.challenge_count() >= need) {
    return Invalid(absl::StrCat(where, "count ", pos.challenge_count(),
                                " already reaches the need of ", need));
  }
  return absl::OkStatus();
}

absl::Status CheckLaneAttempts(const Position& pos) {
  for (int c = 0; c < pos.num_colours(); ++c) {
    if ((pos.suck_attempts(c) || pos.blow_attempts(c)) && !OpponentInLine(pos, c)) {
      return Invalid(absl::StrCat(
          "attempts are counted against colour ", std::string(1, kColourChars[c]), "'s square ",
          pos.board().last_track, " (tokens k, K) but no opponent piece stands there"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckConsistency(const Position& pos, const Rules& rules) {
  if (absl::Status s = CheckLaneAttempts(pos); !s.ok()) return s;
  if (absl::Status s = CheckTeamsApart(pos); !s.ok()) return s;
  int sides_home = 0;
  for (int side = 0; side < pos.num_sides(); ++side) sides_home += pos.SideHome(side);
  if (sides_home > 1) return Invalid("more than one side has every piece home");
  for (int c = 0; c < pos.num_colours(); ++c) {
    std::string name(1, kColourChars[c]);
    if (pos.released(c) && !pos.AllHome(c)) {
      return Invalid(absl::StrCat("released colour ", name, " has pieces not home"));
    }
    if (pos.snake_first(c) && pos.pieces(c)[kPiecesPerColour - 1] != kBase) {
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
  for (int c = 0; c < kMaxColours; ++c) {
    if (mask >> c & 1) out += kColourChars[c];
  }
  return out;
}

// The `m` tokens, by side (its first colour), then by square relative to
// the side's first colour.
void AppendStackTokens(const Position& pos, std::vector<std::string>& state) {
  const StackList stacks = Stacks(pos);
  for (int team = 0; team < pos.num_sides(); ++team) {
    std::vector<std::pair<int, std::string>> tokens;
    for (const Stack& s : stacks) {
      if (s.team != team) continue;
      int rel = pos.board().Relative(team, s.abs);
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

std::string SideLetters(const Layout& l, int side) {
  std::string out;
  for (int c = 0; c < l.board.colours; ++c) {
    if (l.side_of[c] == side) out += kColourChars[c];
  }
  return out;
}

absl::StatusOr<Position> ParseUfen(absl::string_view text, const Rules& rules) {
  std::vector<absl::string_view> fields = absl::StrSplit(text, ' ', absl::SkipEmpty());
  if (fields.size() != 3) {
    return Invalid(
        absl::StrCat("expected 3 fields (pieces, colour to throw, "
                     "state), found ",
                     fields.size()));
  }
  if (absl::Status s = rules.CheckLayout(); !s.ok()) return s;
  // The layout's switches alone: no snake_eyes flags.
  Position pos = Position::Start(rules.LayoutOnly());
  if (absl::Status s = ParsePieces(fields[0], pos); !s.ok()) return s;
  int to_throw = fields[1].size() == 1 ? ColourIndex(fields[1][0]) : -1;
  if (to_throw < 0 || to_throw >= pos.num_colours()) {
    return Invalid(absl::StrCat("colour to throw '", fields[1], "' is not one of ",
                                ColourLetters(pos.board())));
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
  for (int c = 0; c < pos.num_colours(); ++c) {
    std::vector<std::string> squares;
    for (Square sq : pos.pieces(c)) squares.push_back(SquareToString(sq, pos.board()));
    colours.push_back(absl::StrJoin(squares, ","));
  }
  std::vector<std::string> state;
  if (pos.challenge_active()) {
    state.push_back(absl::StrCat("c", SquareToString(pos.challenge_from(), pos.board()), ":",
                                 pos.challenge_count()));
  }
  if (pos.extra_owed() > 0) state.push_back(absl::StrCat("x", pos.extra_owed()));
  if (pos.released_mask()) state.push_back(ColourList('p', pos.released_mask()));
  if (pos.snake_first_mask()) state.push_back(ColourList('s', pos.snake_first_mask()));
  if (pos.snake_second_mask()) {
    state.push_back(ColourList('S', pos.snake_second_mask()));
  }
  for (int c = 0; c < pos.num_colours(); ++c) {
    if (int n = pos.suck_attempts(c)) {
      state.push_back(absl::StrCat("k", std::string(1, kColourChars[c]), n));
    }
  }
  for (int c = 0; c < pos.num_colours(); ++c) {
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
