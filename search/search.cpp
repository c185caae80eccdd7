#include "search/search.h"

#include <algorithm>
#include <chrono>

#include "engine/movegen.h"

namespace uckers {
namespace {

using Clock = std::chrono::steady_clock;

int64_t ElapsedMs(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() -
                                                               start)
      .count();
}

// The evaluation of `after` for `team` (the team that just played).
Evaluation EvaluateFor(const Position& after, const Rules& rules, int team) {
  Evaluation e = Evaluate(after, rules);
  return TeamOf(after.to_throw()) == team ? e : e.Flipped();
}

// Every legal play of throw `t`, evaluated, best first.
std::vector<Candidate> RankPlays(const Position& pos, const Rules& rules,
                                 Throw t, Objective objective,
                                 uint64_t& nodes) {
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  int team = TeamOf(pos.to_throw());
  std::vector<Candidate> ranked;
  ranked.reserve(plays.size());
  for (const PlayResult& r : plays) {
    ranked.push_back({r.play, r.after, EvaluateFor(r.after, rules, team)});
    ++nodes;
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](const Candidate& a, const Candidate& b) {
                     return Score(a.eval, objective) > Score(b.eval, objective);
                   });
  return ranked;
}

}  // namespace

double Score(const Evaluation& e, Objective objective) {
  return objective == Objective::kWin ? e.Win() : e.Equity();
}

SearchReport SearchPlay(const Position& pos, const Rules& rules, Throw t,
                        const SearchParams& params, const SearchLimits& limits,
                        const std::atomic<bool>& stop,
                        const ReportCallback& on_progress) {
  (void)limits;  // one throw deep is always within any limit
  (void)stop;
  Clock::time_point start = Clock::now();
  SearchReport report;
  report.depth = 1;
  report.candidates = RankPlays(pos, rules, t, params.objective, report.nodes);
  if (!report.candidates.empty()) report.eval = report.candidates[0].eval;
  if (static_cast<int>(report.candidates.size()) > params.multipv) {
    report.candidates.resize(params.multipv);
  }
  report.time_ms = ElapsedMs(start);
  if (on_progress) on_progress(report);
  return report;
}

SearchReport AnalysePosition(const Position& pos, const Rules& rules,
                             const SearchParams& params,
                             const SearchLimits& limits,
                             const std::atomic<bool>& stop,
                             const ReportCallback& on_progress) {
  (void)limits;
  (void)stop;
  Clock::time_point start = Clock::now();
  SearchReport report;
  report.depth = 1;
  if (pos.IsGameOver()) {
    report.eval = Evaluate(pos, rules);
  } else {
    for (Throw t : kThrows) {
      std::vector<Candidate> ranked =
          RankPlays(pos, rules, t, params.objective, report.nodes);
      report.eval.AddScaled(ranked[0].eval, t.Weight() / 36.0);
    }
  }
  report.time_ms = ElapsedMs(start);
  if (on_progress) on_progress(report);
  return report;
}

}  // namespace uckers
