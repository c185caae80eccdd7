#include "server/proto_convert.h"

#include <map>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rules/play.h"
#include "rules/stack.h"
#include "rules/ufen.h"
#include "search/limits.h"
#include "search/settings.h"

namespace uckers::proto {
namespace {

absl::Status Bad(absl::string_view field, absl::string_view problem) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", problem));
}

// Whether `value` is a colour of a board of `colours` colours.
bool IsColour(int value, int colours) { return value >= v1::COLOUR_RED && value <= colours; }

// The board's colours named, for an error.
std::string ColourNames(int colours) {
  return colours == 4 ? "red, green, yellow or blue" : "red, green, yellow, blue, orange or purple";
}

// A colour list token (`p`, `s`, `S`) from repeated enum values.
absl::StatusOr<std::string> ColourToken(char prefix, const std::string& field,
                                        const google::protobuf::RepeatedField<int>& list,
                                        int colours) {
  uint8_t mask = 0;
  for (int value : list) {
    if (!IsColour(value, colours)) {
      return Bad(field, absl::StrCat("colour ", value, " is not ", ColourNames(colours)));
    }
    mask |= 1 << (value - 1);
  }
  if (!mask) return std::string();
  std::string token(1, prefix);
  for (int c = 0; c < colours; ++c) {
    if (mask >> c & 1) token += kColourChars[c];
  }
  return token;
}

absl::StatusOr<std::string> UfenFromStructured(const v1::StructuredPosition& s,
                                               const Rules& rules) {
  const int colours = rules.layout().board.colours;
  if (s.colours_size() != colours) {
    return Bad("position.structured.colours",
               absl::StrCat("expected ", colours, " entries (",
                            colours == 4 ? "red, green, yellow, blue"
                                         : "red, green, yellow, blue, orange, purple",
                            ") under rules ", rules.ToString(), ", found ", s.colours_size()));
  }
  std::vector<std::string> groups;
  for (const v1::ColourPieces& c : s.colours()) groups.push_back(absl::StrJoin(c.squares(), ","));
  if (!IsColour(s.to_throw(), colours)) {
    return Bad("position.structured.to_throw", absl::StrCat("must be ", ColourNames(colours)));
  }
  std::vector<std::string> state;
  if (s.has_challenge()) {
    state.push_back(absl::StrCat("c", s.challenge().from(), ":", s.challenge().sixes()));
  }
  if (s.extra_throws_owed() != 0) state.push_back(absl::StrCat("x", s.extra_throws_owed()));
  struct List {
    char prefix;
    const char* field;
    const google::protobuf::RepeatedField<int>* values;
  };
  for (const List& l :
       {List{'p', "position.structured.released", &s.released()},
        List{'s', "position.structured.first_throw_pending", &s.first_throw_pending()},
        List{'S', "position.structured.snake_eyes_pending", &s.snake_eyes_pending()}}) {
    absl::StatusOr<std::string> token = ColourToken(l.prefix, l.field, *l.values, colours);
    if (!token.ok()) return token.status();
    if (!token->empty()) state.push_back(*token);
  }
  for (const auto& [prefix, field, list] :
       {std::tuple{'k', "position.structured.suck_back_attempts", &s.suck_back_attempts()},
        std::tuple{'K', "position.structured.blow_back_attempts", &s.blow_back_attempts()}}) {
    for (const v1::LaneAttempts& a : *list) {
      if (!IsColour(a.colour(), colours)) {
        return Bad(absl::StrCat(field, ".colour"), absl::StrCat("must be ", ColourNames(colours)));
      }
      state.push_back(absl::StrCat(std::string(1, prefix),
                                   std::string(1, kColourChars[a.colour() - 1]), a.attempts()));
    }
  }
  for (const v1::MixieStack& stack : s.stacks()) {
    if (!IsColour(stack.team(), colours)) {
      return Bad("position.structured.stacks.team", absl::StrCat("must be ", ColourNames(colours)));
    }
    std::string token =
        absl::StrCat("m", std::string(1, kColourChars[stack.team() - 1]), stack.square(), ":");
    for (int colour : stack.order()) {
      if (!IsColour(colour, colours)) {
        return Bad("position.structured.stacks.order",
                   absl::StrCat("must list colours: ", ColourNames(colours)));
      }
      token += kColourChars[colour - 1];
    }
    state.push_back(token);
  }
  return absl::StrCat(absl::StrJoin(groups, "/"), " ",
                      std::string(1, kColourChars[s.to_throw() - 1]), " ",
                      state.empty() ? "-" : absl::StrJoin(state, ","));
}

}  // namespace

absl::StatusOr<Rules> RulesFrom(const std::string& text) {
  absl::StatusOr<Rules> rules = ParseRulesOrDefault(text);
  if (!rules.ok()) return Bad("rules", rules.status().message());
  return rules;
}

absl::StatusOr<Position> PositionFrom(const v1::Position& msg, const Rules& rules) {
  std::string field = "position.ufen";
  std::string ufen;
  switch (msg.kind_case()) {
    case v1::Position::kUfen:
      ufen = msg.ufen();
      break;
    case v1::Position::kStructured: {
      field = "position.structured";
      absl::StatusOr<std::string> text = UfenFromStructured(msg.structured(), rules);
      if (!text.ok()) return text.status();
      ufen = *text;
      break;
    }
    default:
      return Bad("position", "missing: give a ufen or a structured position");
  }
  absl::StatusOr<Position> pos = ParsePositionOrStart(ufen, rules);
  if (!pos.ok()) return Bad(field, pos.status().message());
  return pos;
}

absl::StatusOr<Throw> ThrowFrom(const v1::Throw& msg, bool required) {
  if (msg.die1() == 0 && msg.die2() == 0 && required) {
    return Bad("throw", "missing: give die1 and die2, each 1..6");
  }
  if (msg.die1() < 1 || msg.die1() > 6) return Bad("throw.die1", "must be 1..6");
  if (msg.die2() < 1 || msg.die2() > 6) return Bad("throw.die2", "must be 1..6");
  return MakeThrow(msg.die1(), msg.die2());
}

namespace {

// The search limits of `limits` into `out->limits` (its `infinite` kept).
// proto3: a zero field is one not given. Every range is search/limits.h's,
// as for the text protocol's `go`.
absl::Status LimitsFrom(const v1::SearchLimits& limits, SearchRequest* out) {
  LimitsInput in;
  auto given = [](int64_t v) { return v != 0 ? std::optional<int64_t>(v) : std::nullopt; };
  in.movetime_ms = given(limits.movetime_ms());
  in.nodes = given(limits.nodes());
  in.depth = given(limits.depth());
  in.time_ms[0] = given(limits.wtime_ms());
  in.time_ms[1] = given(limits.btime_ms());
  in.increment_ms[0] = given(limits.winc_ms());
  in.increment_ms[1] = given(limits.binc_ms());
  in.moves_to_go = given(limits.movestogo());
  absl::StatusOr<SearchLimits> made = MakeLimits(in);
  if (!made.ok()) {
    // The limit's text-protocol name leads the message; name its field.
    static const std::map<std::string, std::string> kFields = {
        {"movetime", "movetime_ms"}, {"nodes", "nodes"},        {"depth", "depth"},
        {"wtime", "wtime_ms"},       {"btime", "btime_ms"},     {"winc", "winc_ms"},
        {"binc", "binc_ms"},         {"movestogo", "movestogo"}};
    std::string name(made.status().message().substr(0, made.status().message().find(' ')));
    auto it = kFields.find(name);
    return Bad(it == kFields.end() ? "limits" : "limits." + it->second, made.status().message());
  }
  bool infinite = out->limits.infinite;
  out->limits = *made;
  out->limits.infinite = infinite;
  return absl::OkStatus();
}

// The text of the setting each typed field of `options` carries, by the
// field's name ("multipv": "3"), for the fields given (0, empty or
// unspecified: not given); an error for an enum value it does not know.
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> TypedFields(
    const v1::SearchOptions& options) {
  std::vector<std::pair<std::string, std::string>> given;
  if (options.multipv() != 0) given.emplace_back("multipv", absl::StrCat(options.multipv()));
  if (options.threads() != 0) given.emplace_back("threads", absl::StrCat(options.threads()));
  if (!options.level().empty()) given.emplace_back("level", options.level());
  if (!options.eval().empty()) given.emplace_back("eval", options.eval());
  switch (options.objective()) {
    case v1::OBJECTIVE_UNSPECIFIED:
      break;
    case v1::OBJECTIVE_WIN:
      given.emplace_back("objective", "win");
      break;
    case v1::OBJECTIVE_POINTS:
      given.emplace_back("objective", "points");
      break;
    default:
      return Bad("options.objective", "unknown value");
  }
  switch (options.algorithm()) {
    case v1::ALGORITHM_UNSPECIFIED:
      break;
    case v1::ALGORITHM_EXPECTIMAX:
      given.emplace_back("algorithm", "expectimax");
      break;
    case v1::ALGORITHM_MCTS:
      given.emplace_back("algorithm", "mcts");
      break;
    case v1::ALGORITHM_ROLLOUT:
      given.emplace_back("algorithm", "rollout");
      break;
    default:
      return Bad("options.algorithm", "unknown value");
  }
  return given;
}

// The setting SearchOptions' field `field` carries, or nullptr.
const SettingDef* SettingOfField(absl::string_view field) {
  for (const SettingDef& def : SettingDefs()) {
    if (def.wire_field == field) return &def;
  }
  return nullptr;
}

// The typed fields of `options` into `out`, each read through the settings
// table's entry that names it (its range or choices, its words); threads
// at most `max_threads`. The seed, 64 bits on the wire, is taken whole.
absl::Status TypedFieldsFrom(const v1::SearchOptions& options, int max_threads,
                             SearchRequest* out) {
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> given = TypedFields(options);
  if (!given.ok()) return given.status();
  for (const auto& [field, text] : *given) {
    const SettingDef* def = SettingOfField(field);
    if (def == nullptr) return absl::InternalError(absl::StrCat("no setting of options.", field));
    if (absl::Status s = SetSetting(*out, def->key, text); !s.ok()) {
      return Bad(absl::StrCat("options.", field), s.message());
    }
  }
  if (out->threads > max_threads) {
    return Bad("options.threads",
               absl::StrCat("this server allows 1..", max_threads, ", not ", out->threads));
  }
  out->seed = options.seed();
  return absl::OkStatus();
}

// The options' settings map into `out`, in key order so that the same
// request always reads the same way; only the remote settings that are no
// field of SearchOptions.
absl::Status SettingsFrom(const v1::SearchOptions& options, SearchRequest* out) {
  std::map<std::string, std::string> settings(options.settings().begin(), options.settings().end());
  for (const auto& [key, value] : settings) {
    std::string field = absl::StrCat("options.settings[", key, "]");
    const SettingDef* def = FindSetting(key);
    if (def == nullptr || def->key != key) return Bad(field, "unknown setting");
    if (!def->wire_field.empty()) {
      return Bad(field,
                 absl::StrCat("give it as SearchOptions' own field, options.", def->wire_field));
    }
    if (!def->remote) {
      return Bad(field,
                 "not a setting a request may give (a file on the server, or a resource the "
                 "server sets)");
    }
    if (absl::Status s = SetSetting(*out, key, value); !s.ok()) return Bad(field, s.message());
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status SearchRequestFrom(const v1::SearchLimits& limits, const v1::SearchOptions& options,
                               int max_threads, SearchRequest* out) {
  if (absl::Status s = LimitsFrom(limits, out); !s.ok()) return s;
  if (absl::Status s = TypedFieldsFrom(options, max_threads, out); !s.ok()) return s;
  if (absl::StatusOr<SearchParams> p = RequestParams(*out); !p.ok()) {
    return Bad("options.level", p.status().message());
  }
  return SettingsFrom(options, out);
}

absl::StatusOr<int> HashFrom(const v1::SearchOptions& options, int max_hash_mb) {
  if (options.hash_mb() < 0 || options.hash_mb() > max_hash_mb) {
    return Bad("options.hash_mb", absl::StrCat("must be 1..", max_hash_mb, " (0: default)"));
  }
  return options.hash_mb() ? options.hash_mb() : 2;
}

v1::Colour ColourOut(int colour) { return static_cast<v1::Colour>(colour + 1); }

v1::PositionOut PositionOut(const Position& pos) {
  v1::PositionOut out;
  out.set_ufen(ToUfen(pos));
  v1::StructuredPosition* s = out.mutable_structured();
  const Board& board = pos.board();
  for (int c = 0; c < pos.num_colours(); ++c) {
    v1::ColourPieces* pieces = s->add_colours();
    for (Square sq : pos.pieces(c)) pieces->add_squares(SquareToString(sq, board));
    if (pos.released(c)) s->add_released(ColourOut(c));
    if (pos.snake_first(c)) s->add_first_throw_pending(ColourOut(c));
    if (pos.snake_second(c)) s->add_snake_eyes_pending(ColourOut(c));
  }
  s->set_to_throw(ColourOut(pos.to_throw()));
  if (pos.challenge_active()) {
    s->mutable_challenge()->set_from(SquareToString(pos.challenge_from(), board));
    s->mutable_challenge()->set_sixes(pos.challenge_count());
  }
  s->set_extra_throws_owed(pos.extra_owed());
  for (int c = 0; c < pos.num_colours(); ++c) {
    if (int n = pos.suck_attempts(c)) {
      v1::LaneAttempts* a = s->add_suck_back_attempts();
      a->set_colour(ColourOut(c));
      a->set_attempts(n);
    }
    if (int n = pos.blow_attempts(c)) {
      v1::LaneAttempts* a = s->add_blow_back_attempts();
      a->set_colour(ColourOut(c));
      a->set_attempts(n);
    }
  }
  if (pos.stack_order() != 0) {
    for (const Stack& stack : Stacks(pos)) {
      v1::MixieStack* m = s->add_stacks();
      m->set_team(ColourOut(stack.team));
      m->set_square(board.Relative(stack.team, stack.abs));
      for (int k = 0; k < stack.size; ++k) m->add_order(ColourOut(stack.ColourAt(k)));
    }
  }
  return out;
}

v1::Outcomes OutcomesOut(const Evaluation& e) {
  v1::Outcomes o;
  o.set_win(e.p[kWinPlain]);
  o.set_win_eight_piecer(e.p[kWinEightPiecer]);
  o.set_win_in_harbour(e.p[kWinInHarbour]);
  o.set_loss(e.p[kLossPlain]);
  o.set_loss_eight_piecer(e.p[kLossEightPiecer]);
  o.set_loss_in_harbour(e.p[kLossInHarbour]);
  o.set_equity(e.Equity());
  o.set_win_probability(e.Win());
  return o;
}

v1::Outcomes OutcomesOut(const Evaluation& e, const std::vector<double>& sides, int side) {
  v1::Outcomes o = OutcomesOut(e);
  if (sides.empty()) return o;
  o.set_equity(ExpectedPoints(e.Win(), static_cast<int>(sides.size())));
  for (double p : sides) o.add_side_win_probabilities(p);
  o.set_side(side + 1);
  return o;
}

v1::TermDifference DifferenceOut(const TermDifference& d) {
  v1::TermDifference out;
  out.set_term(d.term);
  out.set_best(d.best);
  out.set_play(d.play);
  out.set_win_chance(d.win_chance);
  if (d.colour >= 0) {
    out.set_colour(ColourOut(d.colour));
    out.set_squares(d.squares);
  }
  return out;
}

v1::GameResult ResultOut(const Position& pos) {
  v1::GameResult r;
  if (!pos.IsGameOver()) return r;
  r.set_finished(true);
  if (pos.layout().IsFourSidedTeams()) {
    r.set_winner(TeamOut(pos.WinningTeam()));
    r.set_level(static_cast<v1::OutcomeLevel>(pos.Outcome()));
    r.set_points(static_cast<int>(pos.Outcome()));
    return r;
  }
  int winner = pos.WinningSide();
  r.set_winner_side(winner + 1);
  if (pos.num_sides() == 2) r.set_level(static_cast<v1::OutcomeLevel>(pos.Outcome()));
  SidePoints points = pos.Points();
  r.set_points(points[winner]);
  for (int side = 0; side < pos.num_sides(); ++side) r.add_side_points(points[side]);
  return r;
}

v1::Team TeamOut(int team) { return team == 0 ? v1::TEAM_RED_YELLOW : v1::TEAM_GREEN_BLUE; }

absl::StatusOr<int> PlayersFrom(int players, const Layout& layout) {
  if (layout.IsFourSidedTeams()) {
    if (players == 0) return 2;
    if (players == 2 || players == 4) return players;
    return absl::InvalidArgumentError(
        absl::StrCat("players: ", players, " must be 2 or 4 (0 means 2)"));
  }
  if (players == 0) return layout.num_sides;
  if (players == layout.num_sides || players == layout.board.colours) return players;
  return absl::InvalidArgumentError(absl::StrCat(
      "players: ", players, " must be ", layout.num_sides, " (one a side) or ",
      layout.board.colours, " (one a colour) on this layout; 0 means ", layout.num_sides));
}

namespace {

v1::PieceChange PieceChangeOut(const PieceChange& m, const Board& board) {
  v1::PieceChange out;
  out.set_colour(ColourOut(m.colour));
  out.set_from(SquareToString(m.from, board));
  out.set_to(SquareToString(m.to, board));
  out.set_from_absolute(m.from_abs);
  out.set_to_absolute(m.to_abs);
  return out;
}

v1::BlobChange BlobChangeOut(const BlobChange& b, const Layout& layout) {
  v1::BlobChange out;
  if (layout.IsFourSidedTeams()) {
    out.set_team(TeamOut(b.team));
  } else {
    out.set_side(b.team + 1);
  }
  if (b.colour >= 0) out.set_colour(ColourOut(b.colour));
  out.set_mixie(b.colour < 0);
  out.set_absolute(b.abs);
  out.set_size(b.size);
  for (int c : b.order) out.add_order(ColourOut(c));
  return out;
}

}  // namespace

v1::PlayEffects EffectsOut(const PlayEffects& fx, const Position& after, int players) {
  v1::PlayEffects out;
  const Layout& layout = after.layout();
  for (const PieceChange& m : fx.moves) *out.add_moves() = PieceChangeOut(m, layout.board);
  for (const PieceChange& m : fx.knocked_off) {
    *out.add_knocked_off() = PieceChangeOut(m, layout.board);
  }
  for (const BlobChange& b : fx.blobs_formed) *out.add_blobs_formed() = BlobChangeOut(b, layout);
  for (const BlobChange& b : fx.blobs_broken) *out.add_blobs_broken() = BlobChangeOut(b, layout);
  if (fx.challenge != ChallengeEvent::kNone) {
    v1::ChallengeEffect* c = out.mutable_challenge();
    c->set_event(static_cast<v1::ChallengeEvent>(static_cast<int>(fx.challenge)));
    c->set_sixes(fx.challenge_sixes);
    c->set_sixes_needed(fx.challenge_sixes_needed);
  }
  for (int c : fx.released) out.add_released(ColourOut(c));
  if (!fx.game_over) {
    v1::NextTurn* next = out.mutable_next();
    next->set_to_throw(ColourOut(fx.next_to_throw));
    next->set_moving_colour(ColourOut(fx.next_moving_colour));
    if (layout.IsFourSidedTeams()) {
      next->set_team(TeamOut(TeamOf(fx.next_to_throw)));
      next->set_player_team(TeamOut(TeamOf(fx.next_to_throw)));
      if (players == 4) next->set_player_colour(ColourOut(fx.next_to_throw));
    } else {
      int side = layout.SideOf(fx.next_to_throw) + 1;
      next->set_side(side);
      if (players == layout.num_sides) next->set_player_side(side);
      if (players == layout.board.colours) next->set_player_colour(ColourOut(fx.next_to_throw));
    }
    next->set_extra_throw(fx.extra_throw);
  }
  *out.mutable_result() = ResultOut(after);
  return out;
}

}  // namespace uckers::proto
