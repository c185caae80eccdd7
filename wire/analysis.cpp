#include "wire/analysis.h"

#include "rules/notation.h"
#include "wire/json.h"

namespace uckers::wire {
namespace {

absl::StatusOr<Throw> ThrowFrom(const std::string& text, absl::string_view where) {
  absl::StatusOr<Throw> t = ParseThrow(text);
  if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat(where, ": ", t.status().message()));
  return t;
}

}  // namespace

v1::Mark ToMessage(Mark mark) { return static_cast<v1::Mark>(mark); }

v1::DiceStats ToMessage(const DiceStats& s) {
  v1::DiceStats m;
  m.set_throws(s.throws);
  m.set_sixes(s.sixes);
  m.set_expected_sixes(s.expected_sixes);
  m.set_doubles(s.doubles);
  m.set_expected_doubles(s.expected_doubles);
  for (const ThrowCount& c : s.counts) {
    v1::ThrowCount* out = m.add_counts();
    out->set_throw_(ThrowToString(c.dice));
    out->set_count(c.count);
    out->set_expected(c.expected);
  }
  m.set_chi_square(s.chi_square);
  m.set_degrees_of_freedom(s.degrees_of_freedom);
  m.set_p_value(s.p_value);
  return m;
}

v1::AnalysedItem ToMessage(const AnalysedItem& i) {
  v1::AnalysedItem m;
  m.set_index(i.index);
  m.set_throw_(ThrowToString(i.dice));
  m.set_play(i.play);
  m.set_team(i.team);
  m.set_choice(i.choice);
  m.set_best_play(i.best_play);
  m.set_best_equity(i.best_equity);
  m.set_played_equity(i.played_equity);
  m.set_equity_lost(i.equity_lost);
  m.set_mark(ToMessage(i.mark));
  m.set_luck(i.luck);
  m.set_ry_win_before(i.ry_win_before);
  m.set_exact(i.exact);
  m.set_ufen(i.ufen);
  m.set_colour(i.colour);
  for (const AnalysedCandidate& c : i.candidates) {
    v1::AnalysedCandidate* out = m.add_candidates();
    out->set_play(c.play);
    out->set_equity(c.equity);
  }
  for (double w : i.side_wins_before) m.add_side_wins_before(w);
  return m;
}

v1::GameAnalysis ToMessage(const GameAnalysis& a) {
  v1::GameAnalysis m;
  m.set_rules(a.rules);
  m.set_level(a.level);
  for (const AnalysedItem& item : a.items) *m.add_items() = ToMessage(item);
  for (const TeamAnalysis& t : a.teams) {
    v1::TeamAnalysis* out = m.add_teams();
    out->set_team(t.team);
    out->set_decisions(t.decisions);
    out->set_equity_lost(t.equity_lost);
    out->set_error_rate(t.error_rate);
    out->set_doubtful(t.doubtful);
    out->set_bad(t.bad);
    out->set_very_bad(t.very_bad);
    out->set_rating(t.rating);
    out->set_luck(t.luck);
    out->set_points(t.points);
    out->set_luck_adjusted_points(t.luck_adjusted_points);
    *out->mutable_dice() = ToMessage(t.dice);
  }
  m.set_seconds(a.seconds);
  m.set_ry(a.ry);
  m.set_gb(a.gb);
  m.set_winner(a.winner);
  m.set_points(a.points);
  for (const SidePlayer& player : a.side_players) {
    v1::SidePlayer* out = m.add_side_players();
    out->set_side(player.side);
    out->set_player(player.player);
  }
  return m;
}

absl::StatusOr<GameAnalysis> FromMessage(const v1::GameAnalysis& m) {
  GameAnalysis a;
  a.rules = m.rules();
  a.level = m.level();
  for (const v1::AnalysedItem& i : m.items()) {
    AnalysedItem& item = a.items.emplace_back();
    item.index = i.index();
    absl::StatusOr<Throw> t = ThrowFrom(i.throw_(), absl::StrCat("item ", i.index()));
    if (!t.ok()) return t.status();
    item.dice = *t;
    item.play = i.play();
    item.team = i.team();
    item.choice = i.choice();
    item.best_play = i.best_play();
    item.best_equity = i.best_equity();
    item.played_equity = i.played_equity();
    item.equity_lost = i.equity_lost();
    item.mark = static_cast<Mark>(i.mark());
    item.luck = i.luck();
    item.ry_win_before = i.ry_win_before();
    item.exact = i.exact();
    item.ufen = i.ufen();
    item.colour = i.colour();
    for (const v1::AnalysedCandidate& c : i.candidates()) {
      item.candidates.push_back({c.play(), c.equity()});
    }
    item.side_wins_before.assign(i.side_wins_before().begin(), i.side_wins_before().end());
  }
  for (const v1::TeamAnalysis& t : m.teams()) {
    TeamAnalysis& team = a.teams.emplace_back();
    team.team = t.team();
    team.decisions = t.decisions();
    team.equity_lost = t.equity_lost();
    team.error_rate = t.error_rate();
    team.doubtful = t.doubtful();
    team.bad = t.bad();
    team.very_bad = t.very_bad();
    team.rating = t.rating();
    team.luck = t.luck();
    team.points = t.points();
    team.luck_adjusted_points = t.luck_adjusted_points();
    const v1::DiceStats& d = t.dice();
    team.dice.throws = d.throws();
    team.dice.sixes = d.sixes();
    team.dice.expected_sixes = d.expected_sixes();
    team.dice.doubles = d.doubles();
    team.dice.expected_doubles = d.expected_doubles();
    for (const v1::ThrowCount& c : d.counts()) {
      absl::StatusOr<Throw> dice = ThrowFrom(c.throw_(), absl::StrCat(t.team(), " dice"));
      if (!dice.ok()) return dice.status();
      team.dice.counts.push_back({*dice, c.count(), c.expected()});
    }
    team.dice.chi_square = d.chi_square();
    team.dice.degrees_of_freedom = d.degrees_of_freedom();
    team.dice.p_value = d.p_value();
  }
  a.seconds = m.seconds();
  a.ry = m.ry();
  a.gb = m.gb();
  a.winner = m.winner();
  a.points = m.points();
  for (const v1::SidePlayer& player : m.side_players()) {
    a.side_players.push_back({player.side(), player.player()});
  }
  return a;
}

std::string AnalysisToJson(const GameAnalysis& analysis) { return ToJson(ToMessage(analysis)); }

}  // namespace uckers::wire
