#include "search/rollout.h"

#include <algorithm>
#include <random>
#include <vector>

#include "rules/movegen.h"
#include "search/expectimax.h"

namespace uckers {
namespace {

struct RolloutCandidate {
  PlayResult result;
  Evaluation first;  // its depth-1 evaluation
  double first_score = 0;
  double sum = 0;       // of its rollout scores
  Evaluation outcomes;  // sum of its rollout evaluations
};

// The fast policy: the play with the best depth-1 value for the team that
// makes it (a single legal play is not evaluated). Returns the number of
// plays evaluated.
int PolicyStep(Expectimax& ex, const Rules& rules, Throw t, Position& pos) {
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  if (plays.size() == 1) {
    pos = plays[0].after;
    return 0;
  }
  int team = TeamOf(pos.to_throw());
  int best = 0;
  double best_score = -1e300;
  for (int i = 0; i < plays.size(); ++i) {
    double s = ex.Horizon(plays[i].after, team, nullptr);
    if (s > best_score) {
      best_score = s;
      best = i;
    }
  }
  pos = plays[best].after;
  return plays.size();
}

// One trial for one candidate: the policy plays `dice` on from its position.
double Trial(Expectimax& ex, const Rules& rules, const std::vector<Throw>& dice, int team,
             Position pos, Evaluation* eval, uint64_t* evaluated) {
  for (Throw t : dice) {
    if (pos.IsGameOver()) break;
    *evaluated += PolicyStep(ex, rules, t, pos);
  }
  return ex.Horizon(pos, team, eval);
}

std::vector<RolloutCandidate> Candidates(Expectimax& ex, const PlayList& plays, int team,
                                         int width) {
  std::vector<RolloutCandidate> out;
  for (const PlayResult& r : plays) {
    RolloutCandidate c;
    c.result = r;
    c.first_score = ex.Horizon(r.after, team, &c.first);
    out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.first_score > b.first_score; });
  if (width > 0 && static_cast<int>(out.size()) > width) out.resize(width);
  return out;
}

SearchReport Report(std::vector<RolloutCandidate> cands, int trials, uint64_t nodes,
                    const Limiter& limiter, int multipv) {
  if (trials > 0) {
    std::stable_sort(cands.begin(), cands.end(),
                     [](const auto& a, const auto& b) { return a.sum > b.sum; });
  }
  SearchReport report;
  report.depth = 1;
  report.nodes = nodes;
  report.time_ms = limiter.ElapsedMs();
  for (const RolloutCandidate& c : cands) {
    if (static_cast<int>(report.candidates.size()) >= multipv) break;
    Evaluation e = c.first;
    if (trials > 0) {
      e = Evaluation{};
      e.AddScaled(c.outcomes, 1.0 / trials);
    }
    report.candidates.push_back({c.result.play, c.result.after, e});
  }
  report.eval = report.candidates[0].eval;
  return report;
}

}  // namespace

SearchReport RolloutPlay(const Position& pos, const Rules& rules, Throw t,
                         const SearchParams& params, const SearchLimits& limits,
                         const std::atomic<bool>& stop, const ReportCallback& on_progress) {
  Limiter limiter(stop, limits.movetime_ms, limits.nodes);
  SearchParams policy = params;
  policy.noise = 0;
  std::atomic<bool> never{false};
  Limiter unlimited(never, std::nullopt, std::nullopt);
  TranspositionTable tt(1);  // for challenges the policy declares
  Expectimax ex(rules, policy, &tt, &unlimited);
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  int team = TeamOf(pos.to_throw());
  std::vector<RolloutCandidate> cands = Candidates(ex, plays, team, params.rollout_width);
  uint64_t nodes = plays.size();
  int trials = 0;
  uint64_t throw_bits = static_cast<uint64_t>(t.high) << 8 | static_cast<uint64_t>(t.low);
  std::mt19937_64 rng(params.seed ^ pos.key() ^ throw_bits);
  std::uniform_int_distribution<int> die(1, 6);
  std::vector<Throw> dice(params.rollout_plies);
  while (cands.size() > 1 && trials < params.rollout_trials && !limiter.stopped()) {
    for (Throw& d : dice) d = MakeThrow(die(rng), die(rng));
    uint64_t evaluated = 0;
    for (RolloutCandidate& c : cands) {
      Evaluation e;
      c.sum += Trial(ex, rules, dice, team, c.result.after, &e, &evaluated);
      c.outcomes.AddScaled(e, 1.0);
    }
    ++trials;
    nodes += evaluated;
    limiter.Tick(evaluated);
  }
  SearchReport report = Report(cands, trials, nodes, limiter, params.multipv);
  if (on_progress) on_progress(report);
  return report;
}

}  // namespace uckers
