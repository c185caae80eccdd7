#include "review/review.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "record/text.h"
#include "rules/board_text.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/ufen.h"
#include "search/door.h"
#include "search/levels.h"
#include "search/one_throw.h"
#include "search/tt.h"

namespace uckers {
namespace {

const char* TeamName(int team) { return team == 0 ? "RY" : "GB"; }

// Luck is measured one throw deep, as gnubg does at 0-ply: the best play's
// static equity (by the net where one plays the rules) for this throw, against the weighted mean
// over all throws.
struct ThrowValues {
  double mean = 0;        // expected equity before the throw, for the thrower
  double win = 0;         // expected win probability before the throw
  double actual = 0;      // equity after the best play of the actual throw
  double actual_win = 0;  // win probability after it
};

ThrowValues LuckValues(const Position& pos, const Rules& rules, Throw actual) {
  ThrowValues v;
  int team = TeamOf(pos.to_throw());
  PlayList plays;
  // The evaluation the searches use: the net where one plays the rules.
  const Net* net = NetFor(rules);
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, rules, t, &plays);
    double best = -1e9, best_win = 0;
    for (const PlayResult& r : plays) {
      Evaluation e = net ? net->Evaluate(r.after) : Evaluate(r.after, rules);
      if (TeamOf(r.after.to_throw()) != team) e = e.Flipped();
      if (e.Equity() > best) best = e.Equity(), best_win = e.Win();
    }
    v.mean += t.Weight() / 36.0 * best;
    v.win += t.Weight() / 36.0 * best_win;
    if (t == actual) v.actual = best, v.actual_win = best_win;
  }
  return v;
}

void AddTotals(const AnalysedItem& item, TeamAnalysis* team) {
  team->luck += item.luck;
  if (!item.choice) return;
  team->decisions++;
  team->equity_lost += item.equity_lost;
  if (item.mark == Mark::kDoubtful) team->doubtful++;
  if (item.mark == Mark::kBad) team->bad++;
  if (item.mark == Mark::kVeryBad) team->very_bad++;
}

// The position after item `i` of `game`.
const Position& After(const Game& game, size_t i) {
  return i + 1 < game.items().size() ? game.items()[i + 1].before : game.position();
}

}  // namespace

Mark MarkFor(double lost) {
  if (lost >= kVeryBad) return Mark::kVeryBad;
  if (lost >= kBad) return Mark::kBad;
  if (lost >= kDoubtful) return Mark::kDoubtful;
  return Mark::kNone;
}

namespace {

// The regularized lower incomplete gamma function P(a, x) by its series,
// and the upper Q(a, x) = 1 - P by its continued fraction (Lentz), each
// where it converges fast (x < a + 1, and beyond).
double GammaP(double a, double x) {
  double term = 1 / a, sum = term;
  for (int n = 1; n < 1000 && std::abs(term) > std::abs(sum) * 1e-15; ++n) {
    term *= x / (a + n);
    sum += term;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

double GammaQ(double a, double x) {
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < 1e-15) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

}  // namespace

double ChiSquarePValue(double chi_square, int degrees_of_freedom) {
  if (chi_square <= 0 || degrees_of_freedom <= 0) return 1;
  double a = degrees_of_freedom / 2.0, x = chi_square / 2;
  return x < a + 1 ? 1 - GammaP(a, x) : GammaQ(a, x);
}

DiceStats DiceStatsOf(const std::vector<Throw>& throws) {
  DiceStats s;
  int n = static_cast<int>(throws.size());
  s.throws = n;
  int counts[21] = {};
  for (Throw t : throws) {
    s.sixes += t.Sixes();
    s.doubles += t.IsDouble();
    for (int k = 0; k < 21; ++k) counts[k] += kThrows[k] == t;
  }
  s.expected_sixes = n / 3.0;
  s.expected_doubles = n / 6.0;
  double chi = 0;
  for (int k = 0; k < 21; ++k) {
    ThrowCount& c = s.counts.emplace_back();
    c.dice = kThrows[k];
    c.count = counts[k];
    c.expected = n * kThrows[k].Weight() / 36.0;
    if (n > 0) chi += (counts[k] - c.expected) * (counts[k] - c.expected) / c.expected;
  }
  s.chi_square = chi;
  s.degrees_of_freedom = 20;
  s.p_value = n > 0 ? ChiSquarePValue(chi, 20) : 1;
  return s;
}

// Calibrated against the levels reviewed at kAnalysisLevel (docs/analysis.md,
// tools/rating_bands): each level lands in the band of its name, and
// `random` and `greedy` in the bottom one.
std::string RatingFor(double error_rate) {
  if (error_rate <= 0.0003) return "World class";
  if (error_rate <= 0.0015) return "Expert";
  if (error_rate <= 0.0033) return "Advanced";
  if (error_rate <= 0.006) return "Intermediate";
  if (error_rate <= 0.014) return "Casual";
  return "Beginner";
}

namespace {

// Every side's chance before a throw, and the thrower's luck, one throw
// deep as LuckValues: the best play's static value for this throw against
// the weighted mean over all throws, in the thrower's expected points. The
// static value is the net the levels play these rules with
// (MultiSideNet), or the classic evaluation where none is shipped.
struct SideThrowValues {
  SideValues before;
  double mean = 0;
  double actual = 0;
  SideValues after;  // every side's chance after the best play of the actual throw
};

SideThrowValues MultiSideLuck(const Position& pos, const Rules& rules, Throw actual) {
  const Net* net = MultiSideNet(rules, EvalKind::kNet);
  SideThrowValues v;
  int k = pos.num_sides();
  v.before.sides = k;
  int side = pos.SideOf(pos.to_throw());
  PlayList plays;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, rules, t, &plays);
    SideValues best = BestPlaySideValues(plays, side, net);
    double w = t.Weight() / 36.0;
    for (int s = 0; s < k; ++s) v.before.win[s] += w * best.win[s];
    v.mean += w * ExpectedPoints(best, side);
    if (t == actual) v.actual = ExpectedPoints(best, side), v.after = best;
  }
  return v;
}

// The first fields of item `i` of `game`, thrown by `team`: what was thrown
// and played, where.
AnalysedItem ItemOf(const Game& game, size_t i, std::string team) {
  const PlayedThrow& item = game.items()[i];
  AnalysedItem a;
  a.index = static_cast<int>(i) + 1;
  a.dice = item.dice;
  a.play = item.play;
  a.team = std::move(team);
  a.ufen = ToUfen(item.before);
  a.colour = ColourName(item.before.to_throw());
  return a;
}

// The play made to `after`, valued for `side` as the search `r` of
// `request` valued its plays: the position after it searched the depth less
// one (the root keeps only its best few). `net` is the layout's net the
// search evaluates with (null: the classic evaluation).
absl::StatusOr<double> MadePlayPoints(const Position& pos, const Position& after,
                                      const Rules& rules, const SearchRequest& request,
                                      const Net* net, const SearchReport& r,
                                      const std::atomic<bool>& stop) {
  for (const Candidate& c : r.candidates) {
    if (c.after == after) return CandidatePoints(pos, c);
  }
  int side = pos.SideOf(pos.to_throw());
  if (after.IsGameOver()) return ExpectedPoints(TerminalSideValues(after), side);
  if (r.depth <= 1) {
    return ExpectedPoints(net ? net->EvaluateSides(after) : ClassicSideValues(after), side);
  }
  SearchRequest below = request;
  below.dice.reset();
  below.limits.depth = r.depth - 1;
  absl::StatusOr<SearchReport> searched = SearchPosition(after, rules, below, nullptr, stop);
  if (!searched.ok()) return searched.status();
  return ExpectedPoints(searched->sides[side], static_cast<int>(searched->sides.size()));
}

// Values the choice of the side to throw at `pos` (`after` the position the
// game went on to) by the search's door with `request`: the best play, the
// play made, the best three and the mark, into `a`.
absl::Status ValueMultiSideChoice(const Position& pos, const Position& after, Throw t,
                                  const Rules& rules, SearchRequest request, const Net* net,
                                  const std::atomic<bool>& stop, AnalysedItem* a) {
  request.dice = t;
  absl::StatusOr<SearchReport> r = SearchPosition(pos, rules, request, nullptr, stop);
  if (!r.ok()) return r.status();
  if (stop) return absl::CancelledError("analysis stopped");
  const Candidate& best = r->candidates[0];
  a->best_play = PlayToString(best.play, pos.board());
  a->best_equity = CandidatePoints(pos, best);
  absl::StatusOr<double> made = MadePlayPoints(pos, after, rules, request, net, *r, stop);
  if (!made.ok()) return made.status();
  a->played_equity = *made;
  for (size_t c = 0; c < r->candidates.size() && c < 3; ++c) {
    a->candidates.push_back(
        {PlayToString(r->candidates[c].play, pos.board()), CandidatePoints(pos, r->candidates[c])});
  }
  a->equity_lost = std::max(0.0, a->best_equity - a->played_equity);
  a->mark = MarkFor(a->equity_lost);
  return absl::OkStatus();
}

// The review of item `i` of a game of more sides: its luck, and its choice
// searched with `request` on `net`.
absl::StatusOr<AnalysedItem> AnalyseMultiSideItem(const Game& game, size_t i,
                                                  const SearchRequest& request, const Net* net,
                                                  const std::atomic<bool>& stop) {
  const Rules& rules = game.rules();
  const PlayedThrow& item = game.items()[i];
  const Position& pos = item.before;
  Throw t = item.dice;
  AnalysedItem a = ItemOf(game, i, SideName(game.start().layout(), pos.SideOf(pos.to_throw())));
  SideThrowValues luck = MultiSideLuck(pos, rules, t);
  a.luck = luck.actual - luck.mean;
  const int k = game.start().layout().num_sides;
  for (int s = 0; s < k; ++s) a.side_wins_before.push_back(luck.before.win[s]);
  PlayList legal;
  GenerateLegalPlays(pos, rules, t, &legal);
  a.choice = legal.size() > 1;
  if (a.choice) {
    absl::Status s = ValueMultiSideChoice(pos, After(game, i), t, rules, request, net, stop, &a);
    if (!s.ok()) return s;
  } else {
    a.best_play = a.play;
    a.mark = Mark::kNone;
  }
  return a;
}

// Each side's totals of a game of more sides (`sides`, summed over its
// items; `side_throws` its throws) and the result, into `out`.
void AddSideResults(const Game& game, std::vector<TeamAnalysis>& sides,
                    const std::vector<std::vector<Throw>>& side_throws, GameAnalysis* out) {
  const Layout& layout = game.start().layout();
  const int k = layout.num_sides;
  const Position& pos = game.position();
  SidePoints points{};
  if (pos.IsGameOver()) points = pos.Points();
  double total_luck = 0;
  for (const TeamAnalysis& t : sides) total_luck += t.luck;
  for (int s = 0; s < k; ++s) {
    TeamAnalysis& t = sides[s];
    t.team = SideName(layout, s);
    t.error_rate = t.decisions ? t.equity_lost / t.decisions : 0;
    t.rating = t.decisions ? RatingFor(t.error_rate) : "";
    t.points = points[s];
    // Luck against the other sides' mean luck, as with two sides.
    double others = k > 1 ? (total_luck - t.luck) / (k - 1) : 0;
    t.luck_adjusted_points = t.points - t.luck + others;
    t.dice = DiceStatsOf(side_throws[s]);
    out->teams.push_back(t);
  }
  if (pos.IsGameOver()) {
    out->winner = SideName(layout, pos.WinningSide());
    out->points = points[pos.WinningSide()];
  }
}

// The review of a game of more than two sides, or of teams of three
// (RULES.md §11): each decision searched by max^n at the level's depth,
// equities the thrower's expected points from its chance of winning.
absl::StatusOr<GameAnalysis> AnalyseMultiSide(
    const Game& game, const std::string& level_name, const std::atomic<bool>& stop,
    const std::function<void(const AnalysedItem&)>& on_item,
    std::chrono::steady_clock::time_point start_time) {
  const Rules& rules = game.rules();
  SearchRequest request;  // the level as it plays these rules, every play valued
  request.level = level_name;
  request.multipv = kMaxMultiPv;
  absl::StatusOr<SearchParams> params = RequestParams(request);
  if (!params.ok()) return params.status();
  const Net* net = MultiSideNet(rules, params->eval);
  const int k = game.start().layout().num_sides;
  GameAnalysis out;
  out.rules = rules.ToString();
  out.level = level_name;
  std::vector<TeamAnalysis> sides(k);
  std::vector<std::vector<Throw>> side_throws(k);
  for (size_t i = 0; i < game.items().size(); ++i) {
    if (stop) return absl::CancelledError("analysis stopped");
    const Position& pos = game.items()[i].before;
    int side = pos.SideOf(pos.to_throw());
    side_throws[side].push_back(game.items()[i].dice);
    absl::StatusOr<AnalysedItem> a = AnalyseMultiSideItem(game, i, request, net, stop);
    if (!a.ok()) return a.status();
    AddTotals(*a, &sides[side]);
    out.items.push_back(*std::move(a));
    if (on_item) on_item(out.items.back());
  }
  AddSideResults(game, sides, side_throws, &out);
  out.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return out;
}

// Values the choice of the team to throw at `pos` (`after` the position the
// game went on to) by the search with `request`: the best play, the play
// made, the best three and the mark, into `a`.
absl::Status ValueChoice(const Position& pos, const Position& after, Throw t, const Rules& rules,
                         SearchRequest request, TranspositionTable* tt,
                         const std::atomic<bool>& stop, AnalysedItem* a) {
  request.dice = t;
  absl::StatusOr<SearchReport> searched = SearchPosition(pos, rules, request, tt, stop);
  if (!searched.ok()) return searched.status();
  const SearchReport& r = *searched;
  a->best_play = PlayToString(r.candidates[0].play);
  a->best_equity = r.candidates[0].eval.Equity();
  a->played_equity = a->best_equity;
  for (const Candidate& c : r.candidates) {
    if (c.after == after) a->played_equity = c.eval.Equity();
  }
  for (size_t k = 0; k < r.candidates.size() && k < 3; ++k) {
    a->candidates.push_back({PlayToString(r.candidates[k].play), r.candidates[k].eval.Equity()});
  }
  a->equity_lost = std::max(0.0, a->best_equity - a->played_equity);
  a->exact = r.exact;
  a->mark = MarkFor(a->equity_lost);
  return absl::OkStatus();
}

// The review of item `i` of a game of two teams: its luck, and its choice
// searched with `request`.
absl::StatusOr<AnalysedItem> AnalyseItem(const Game& game, size_t i, const SearchRequest& request,
                                         TranspositionTable* tt, const std::atomic<bool>& stop) {
  const Rules& rules = game.rules();
  const PlayedThrow& item = game.items()[i];
  const Position& pos = item.before;
  Throw t = item.dice;
  int team = TeamOf(pos.to_throw());
  AnalysedItem a = ItemOf(game, i, TeamName(team));
  ThrowValues luck = LuckValues(pos, rules, t);
  a.luck = luck.actual - luck.mean;
  a.ry_win_before = team == 0 ? luck.win : 1 - luck.win;
  PlayList legal;
  GenerateLegalPlays(pos, rules, t, &legal);
  a.choice = legal.size() > 1;
  if (a.choice) {
    absl::Status s = ValueChoice(pos, After(game, i), t, rules, request, tt, stop, &a);
    if (!s.ok()) return s;
  } else {
    a.best_play = a.play;
    a.mark = Mark::kNone;
  }
  return a;
}

// Each team's totals of a game of two teams (`teams`, summed over its
// items; `team_throws` its throws) and the result, into `out`.
void AddTeamResults(const Position& pos, TeamAnalysis (&teams)[2],
                    const std::vector<Throw> (&team_throws)[2], GameAnalysis* out) {
  for (int team = 0; team < 2; ++team) {
    TeamAnalysis& t = teams[team];
    t.team = TeamName(team);
    t.error_rate = t.decisions ? t.equity_lost / t.decisions : 0;
    // A team that made no choice has no error rate to rate.
    t.rating = t.decisions ? RatingFor(t.error_rate) : "";
    double points = 0;
    if (pos.IsGameOver()) {
      int level_points = static_cast<int>(pos.Outcome());
      points = pos.WinningTeam() == team ? level_points : -level_points;
    }
    t.points = points;
  }
  for (int team = 0; team < 2; ++team) {
    TeamAnalysis& t = teams[team];
    t.luck_adjusted_points = t.points - t.luck + teams[1 - team].luck;
    t.dice = DiceStatsOf(team_throws[team]);
    out->teams.push_back(t);
  }
  if (pos.IsGameOver()) {
    out->winner = TeamName(pos.WinningTeam());
    out->points = static_cast<int>(pos.Outcome());
  }
}

}  // namespace

absl::StatusOr<GameAnalysis> AnalyseGame(const Game& game, const std::string& level,
                                         const std::atomic<bool>& stop,
                                         const std::function<void(const AnalysedItem&)>& on_item,
                                         const EndgameTable* endgames) {
  auto start_time = std::chrono::steady_clock::now();
  const Rules& rules = game.rules();
  std::string level_name = level.empty() ? std::string(kAnalysisLevel) : level;
  if (!rules.layout().IsFourSidedTeams()) {
    return AnalyseMultiSide(game, level_name, stop, on_item, start_time);
  }
  SearchRequest request;
  request.level = level_name;
  request.objective = Objective::kPoints;  // equities in points
  request.multipv = kMaxMultiPv;           // every play valued exactly
  request.endgames = endgames;
  if (absl::StatusOr<SearchParams> p = RequestParams(request); !p.ok()) return p.status();
  GameAnalysis out;
  out.rules = rules.ToString();
  out.level = level_name;
  TeamAnalysis teams[2];
  std::vector<Throw> team_throws[2];
  TranspositionTable tt(16);
  for (size_t i = 0; i < game.items().size(); ++i) {
    if (stop) return absl::CancelledError("analysis stopped");
    int team = TeamOf(game.items()[i].before.to_throw());
    team_throws[team].push_back(game.items()[i].dice);
    absl::StatusOr<AnalysedItem> a = AnalyseItem(game, i, request, &tt, stop);
    if (!a.ok()) return a.status();
    AddTotals(*a, &teams[team]);
    out.items.push_back(*std::move(a));
    if (on_item) on_item(out.items.back());
  }
  AddTeamResults(game.position(), teams, team_throws, &out);
  out.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return out;
}

absl::StatusOr<GameAnalysis> AnalyseGame(const Record& record, const std::string& level,
                                         const std::atomic<bool>& stop,
                                         const std::function<void(const AnalysedItem&)>& on_item,
                                         const EndgameTable* endgames) {
  absl::StatusOr<GameAnalysis> analysis = AnalyseGame(record.game, level, stop, on_item, endgames);
  if (!analysis.ok()) return analysis;
  if (record.game.rules().layout().IsFourSidedTeams()) {
    analysis->ry = record.ry;
    analysis->gb = record.gb;
  } else {
    analysis->side_players = record.side_players;
  }
  return analysis;
}

std::string AnalysisToText(const GameAnalysis& a) {
  static const char* kMarks[] = {"", "", "?!", "?", "??"};
  std::string out =
      absl::StrFormat("analysis at level %s, rules %s (%.1f s)\n", a.level, a.rules, a.seconds);
  absl::StrAppendFormat(&out, "%4s %4s %-5s %-18s %-18s %8s %8s\n", "#", "team", "throw", "played",
                        "best", "lost", "luck");
  for (const AnalysedItem& i : a.items) {
    if (!i.choice && i.mark == Mark::kNone && std::abs(i.luck) < 0.05) continue;
    absl::StrAppendFormat(&out, "%4d %4s %-5s %-18s %-18s %8.3f %+8.3f %s%s\n", i.index, i.team,
                          ThrowToString(i.dice), i.play, i.choice ? i.best_play : "(forced)",
                          i.equity_lost, i.luck, kMarks[static_cast<int>(i.mark)],
                          i.exact ? (i.mark > Mark::kNone ? " exact" : "exact") : "");
  }
  for (const TeamAnalysis& t : a.teams) {
    int marked = t.doubtful + t.bad + t.very_bad;
    absl::StrAppendFormat(
        &out,
        "%s: %d decisions, equity lost %.3f, error rate %.4f (%s); marks ?! %d, ? %d, ?? %d "
        "(%.3f errors a decision); luck %+.3f; points %+.0f, luck-adjusted %+.3f\n",
        t.team, t.decisions, t.equity_lost, t.error_rate,
        t.rating.empty() ? "no rating: no choice made" : t.rating, t.doubtful, t.bad, t.very_bad,
        t.decisions ? static_cast<double>(marked) / t.decisions : 0.0, t.luck, t.points,
        t.luck_adjusted_points);
    const DiceStats& d = t.dice;
    if (d.throws > 0) {
      absl::StrAppendFormat(&out,
                            "%s dice: %d throws, sixes %d (fair %.1f), doubles %d (fair %.1f), "
                            "chi-square %.2f on %d df, p %.3f\n",
                            t.team, d.throws, d.sixes, d.expected_sixes, d.doubles,
                            d.expected_doubles, d.chi_square, d.degrees_of_freedom, d.p_value);
    }
  }
  // Each marked decision in full: who, the position, the throw, the play
  // made and the best plays with their equities.
  for (const AnalysedItem& i : a.items) {
    if (i.mark < Mark::kDoubtful || i.ufen.empty()) continue;
    absl::StrAppendFormat(&out, "\n#%d %s %s (team %s) threw %s and played %s: %s, lost %.3f%s\n",
                          i.index, kMarks[static_cast<int>(i.mark)], i.colour, i.team,
                          ThrowToString(i.dice), i.play,
                          i.mark == Mark::kVeryBad ? "very bad"
                          : i.mark == Mark::kBad   ? "bad"
                                                   : "doubtful",
                          i.equity_lost, i.exact ? " (exact)" : "");
    absl::StatusOr<Rules> rules = Rules::Parse(a.rules);
    absl::StatusOr<Position> pos =
        rules.ok() ? ParseUfen(i.ufen, *rules) : absl::StatusOr<Position>(rules.status());
    if (pos.ok()) {
      out += DrawBoard(*pos);
      if (out.back() != '\n') out += "\n";
    } else {
      absl::StrAppend(&out, "ufen ", i.ufen, "\n");
    }
    double best = i.candidates.empty() ? i.best_equity : i.candidates[0].equity;
    for (int k = 0; k < static_cast<int>(i.candidates.size()); ++k) {
      const AnalysedCandidate& c = i.candidates[k];
      absl::StrAppendFormat(&out, "  %d. %-20s %+.3f  %s\n", k + 1, c.play, c.equity,
                            k == 0 ? "best" : absl::StrFormat("%+.3f", c.equity - best));
    }
    bool listed = false;
    for (const AnalysedCandidate& c : i.candidates) listed |= c.play == i.play;
    if (!listed) {
      absl::StrAppendFormat(&out, "     %-20s %+.3f  %+.3f  (played)\n", i.play, i.played_equity,
                            i.played_equity - best);
    }
  }
  return out;
}

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

namespace {

// The first colour of a side, by its name's first letter.
const char* SideColour(const std::string& side) {
  switch (side.empty() ? 'R' : side[0]) {
    case 'G':
      return "#1e8449";
    case 'Y':
      return "#b7950b";
    case 'B':
      return "#1f56a8";
    case 'O':
      return "#d35400";
    case 'P':
      return "#7d3c98";
    default:
      return "#b3261e";
  }
}

// The fill of an error's mark, by Mark: how bad.
constexpr const char* kMarkColours[] = {"", "", "#f1c40f", "#e67e22", "#c0392b"};

// The chart of a review: throws across, win probability up. With more
// sides (or teams of three), a line per side, each in its first colour,
// and every side named with its player.
struct AnalysisChart {
  static constexpr double kW = 900, kH = 360, kLeft = 60, kRight = 20, kTop = 30, kBottom = 40;

  explicit AnalysisChart(const GameAnalysis& analysis)
      : a(analysis),
        n(std::max(1, static_cast<int>(analysis.items.size()))),
        multi(!analysis.items.empty() && !analysis.items[0].side_wins_before.empty()) {
    for (const TeamAnalysis& t : a.teams) side_names.push_back(t.team);
  }

  double x(int i) const { return kLeft + (kW - kLeft - kRight) * i / std::max(1, n - 1); }
  double y(double p) const { return kTop + (kH - kTop - kBottom) * (1 - p); }

  // The ring of an error's mark: which team (or side) made it.
  const char* Ring(const std::string& team) const {
    if (multi) return SideColour(team);
    return team == "RY" ? "#b3261e" : "#1f56a8";
  }

  // Where an item's mark sits: RY's line, or the line of the side that threw.
  double MarkY(const AnalysedItem& item) const {
    if (!multi) return y(item.ry_win_before);
    for (size_t s = 0; s < side_names.size(); ++s) {
      if (side_names[s] == item.team && s < item.side_wins_before.size()) {
        return y(item.side_wins_before[s]);
      }
    }
    return y(0);
  }

  const GameAnalysis& a;
  int n;       // throws, at least one
  bool multi;  // a line per side
  std::vector<std::string> side_names;
};

// The title's players, when the record has them.
std::string ChartPlayers(const AnalysisChart& c) {
  const GameAnalysis& a = c.a;
  std::string players =
      absl::StrCat("RY ", a.ry.empty() ? "?" : a.ry, " vs GB ", a.gb.empty() ? "?" : a.gb);
  if (c.multi) {
    std::vector<std::string> named;
    for (const std::string& side : c.side_names) {
      std::string player = "?";
      for (const SidePlayer& p : a.side_players) {
        if (p.side == side && !p.player.empty()) player = p.player;
      }
      named.push_back(absl::StrCat(side, " ", player));
    }
    players = absl::StrJoin(named, " vs ");
  }
  return players;
}

// The SVG's head: the title (the players and the result), the grid and
// the throw axis.
std::string ChartHead(const AnalysisChart& c) {
  constexpr double kW = AnalysisChart::kW, kH = AnalysisChart::kH, kLeft = AnalysisChart::kLeft;
  const GameAnalysis& a = c.a;
  std::string result = a.winner.empty() ? "unfinished" : absl::StrCat(a.winner, " won ", a.points);
  std::string out = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
      "<text x=\"%.0f\" y=\"18\" font-size=\"14\">%s: %s. %s win probability "
      "before each throw</text>\n",
      kW, kH + 20, kLeft, XmlEscape(ChartPlayers(c)), result,
      c.multi ? "Every side's" : "Team RY's");
  for (double p : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    absl::StrAppendFormat(&out,
                          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f%%</text>\n",
                          kLeft, c.y(p), kW - AnalysisChart::kRight, c.y(p), kLeft - 6, c.y(p) + 4,
                          100 * p);
  }
  absl::StrAppendFormat(&out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">throw</text>\n",
                        (kW + kLeft) / 2, kH - 8);
  int step = c.n > 200 ? 50 : c.n > 80 ? 20 : c.n > 30 ? 10 : 5;
  for (int i = 0; i < c.n; i += step) {
    absl::StrAppendFormat(&out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n",
                          c.x(i), kH - AnalysisChart::kBottom + 16, i + 1);
  }
  return out;
}

// The win probability lines: one per side, or RY's. A finished game ends
// at 100 % or 0 %.
std::string ChartLines(const AnalysisChart& c) {
  const GameAnalysis& a = c.a;
  const double end_x =
      c.x(c.n - 1) + (AnalysisChart::kW - AnalysisChart::kLeft - AnalysisChart::kRight) / c.n;
  std::string out;
  if (c.multi) {
    for (size_t s = 0; s < c.side_names.size(); ++s) {
      std::string line;
      for (int i = 0; i < static_cast<int>(a.items.size()); ++i) {
        double w = s < a.items[i].side_wins_before.size() ? a.items[i].side_wins_before[s] : 0;
        absl::StrAppendFormat(&line, "%.1f,%.1f ", c.x(i), c.y(w));
      }
      if (!a.winner.empty()) {
        absl::StrAppendFormat(&line, "%.1f,%.1f ", end_x,
                              c.y(a.winner == c.side_names[s] ? 1.0 : 0.0));
      }
      absl::StrAppendFormat(&out,
                            "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
                            "points=\"%s\"><title>%s</title></polyline>\n",
                            SideColour(c.side_names[s]), line, XmlEscape(c.side_names[s]));
    }
    return out;
  }
  std::string points;
  for (int i = 0; i < static_cast<int>(a.items.size()); ++i) {
    absl::StrAppendFormat(&points, "%.1f,%.1f ", c.x(i), c.y(a.items[i].ry_win_before));
  }
  if (!a.winner.empty()) {
    absl::StrAppendFormat(&points, "%.1f,%.1f ", end_x, c.y(a.winner == "RY" ? 1.0 : 0.0));
  }
  absl::StrAppendFormat(
      &out, "<polyline fill=\"none\" stroke=\"#c0392b\" stroke-width=\"1.5\" points=\"%s\"/>\n",
      points);
  return out;
}

// Errors: the fill says how bad, the ring which team made it.
std::string ChartErrors(const AnalysisChart& c) {
  std::string out;
  for (int i = 0; i < static_cast<int>(c.a.items.size()); ++i) {
    const AnalysedItem& item = c.a.items[i];
    if (item.mark < Mark::kDoubtful) continue;
    absl::StrAppendFormat(&out,
                          "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"%s\" "
                          "stroke-width=\"2\"><title>#%d %s %s:%s, best %s, lost %.3f</title>"
                          "</circle>\n",
                          c.x(i), c.MarkY(item), kMarkColours[static_cast<int>(item.mark)],
                          c.Ring(item.team), item.index, item.team, ThrowToString(item.dice),
                          item.play, item.best_play, item.equity_lost);
  }
  return out;
}

// The legend: the marks' fills, then the teams' (or sides') rings.
std::string ChartLegend(const AnalysisChart& c) {
  double ly = AnalysisChart::kH + 8;
  std::string out =
      absl::StrFormat("<text x=\"%.0f\" y=\"%.0f\">errors:</text>\n", AnalysisChart::kLeft, ly);
  double lx = AnalysisChart::kLeft + 50;
  for (auto [mark, label] : {std::pair{2, "?! doubtful"}, {3, "? bad"}, {4, "?? very bad"}}) {
    absl::StrAppendFormat(&out,
                          "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"%s\" stroke=\"black\"/>"
                          "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
                          lx, ly - 4, kMarkColours[mark], lx + 9, ly, label);
    lx += 110;
  }
  std::vector<std::string> legend_sides =
      c.multi ? c.side_names : std::vector<std::string>{"RY", "GB"};
  for (const std::string& team : legend_sides) {
    absl::StrAppendFormat(&out,
                          "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"white\" stroke=\"%s\" "
                          "stroke-width=\"2\"/><text x=\"%.0f\" y=\"%.0f\">made by %s</text>\n",
                          lx, ly - 4, c.Ring(team), lx + 9, ly, team);
    lx += c.multi ? 70 : 100;
  }
  return out;
}

}  // namespace

std::string AnalysisToSvg(const GameAnalysis& a) {
  AnalysisChart chart(a);
  return absl::StrCat(ChartHead(chart), ChartLines(chart), ChartErrors(chart), ChartLegend(chart),
                      "</svg>\n");
}

namespace {

// Every side's luck at one throw, one throw deeper than LuckValues: each
// throw's best play (by its static value for the thrower's side) is valued
// one throw on (OneThrowChances); the luck is every side's chance after the
// actual throw's best play less its mean over the 21 throws.
SideValues DeeperLuck(const Position& pos, Throw actual, OneThrowChances& chances,
                      const Rules& rules) {
  const bool teams = rules.layout().IsFourSidedTeams();
  const int side = teams ? TeamOf(pos.to_throw()) : pos.SideOf(pos.to_throw());
  SideValues mean, luck;
  mean.sides = luck.sides = teams ? 2 : pos.num_sides();
  PlayList plays;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, rules, t, &plays);
    const PlayResult* best = nullptr;
    double best_win = -1;
    for (const PlayResult& r : plays) {
      double win = chances.Static(r.after).win[side];
      if (win > best_win) best_win = win, best = &r;
    }
    SideValues deeper = chances.Deeper(best->after);
    for (int s = 0; s < mean.sides; ++s) mean.win[s] += t.Weight() / 36.0 * deeper.win[s];
    if (t == actual) luck = deeper;
  }
  for (int s = 0; s < luck.sides; ++s) luck.win[s] -= mean.win[s];
  return luck;
}

}  // namespace

std::vector<double> WinLuckBySide(const Game& game, int depth) {
  const Rules& rules = game.rules();
  if (depth >= 1) {
    std::vector<double> luck(rules.layout().IsFourSidedTeams() ? 2 : rules.layout().num_sides, 0.0);
    OneThrowChances chances(rules);
    for (const PlayedThrow& item : game.items()) {
      SideValues v = DeeperLuck(item.before, item.dice, chances, rules);
      for (size_t s = 0; s < luck.size(); ++s) luck[s] += v.win[s];
    }
    return luck;
  }
  if (!rules.layout().IsFourSidedTeams()) {
    std::vector<double> luck(rules.layout().num_sides, 0.0);
    for (const PlayedThrow& item : game.items()) {
      SideThrowValues v = MultiSideLuck(item.before, rules, item.dice);
      for (size_t s = 0; s < luck.size(); ++s) luck[s] += v.after.win[s] - v.before.win[s];
    }
    return luck;
  }
  double ry = 0;  // RY's luck; GB's is its negative
  for (const PlayedThrow& item : game.items()) {
    ThrowValues v = LuckValues(item.before, rules, item.dice);
    double thrower = v.actual_win - v.win;
    ry += TeamOf(item.before.to_throw()) == 0 ? thrower : -thrower;
  }
  return {ry, -ry};
}

}  // namespace uckers
