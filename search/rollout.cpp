#include "search/rollout.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "endgame/table.h"
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

// The fast policy's searcher: the evaluation of `params` without noise, no
// limit, and a small table for the challenges the policy declares.
struct FastPolicy {
  FastPolicy(const Rules& rules, const SearchParams& params)
      : params(WithoutNoise(params)),
        unlimited(never, std::nullopt, std::nullopt),
        ex(rules, this->params, &tt, &unlimited) {}
  static SearchParams WithoutNoise(SearchParams p) {
    p.noise = 0;
    return p;
  }
  const SearchParams params;
  std::atomic<bool> never{false};
  Limiter unlimited;
  TranspositionTable tt{1};
  Expectimax ex;
};

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
  FastPolicy policy(rules, params);
  Expectimax& ex = policy.ex;
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

PositionLabel LabelPosition(const Position& pos, const Rules& rules, const SearchParams& params,
                            int trials, int plies, uint64_t seed) {
  FastPolicy policy(rules, params);
  Expectimax& ex = policy.ex;
  const int team = TeamOf(pos.to_throw());
  PositionLabel label;
  if (params.endgame != nullptr && params.endgame->Probe(pos, rules)) {
    ex.Static(pos, team, &label.outcomes);
    return label;
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> die(1, 6);
  double sum = 0, sum_sq = 0;
  for (int j = 0; j < trials; ++j) {
    Position p = pos;
    for (int ply = 0; ply < std::max(plies, 1) && !p.IsGameOver(); ++ply) {
      Throw t = ply == 0 ? MakeThrow(j % 36 / 6 + 1, j % 6 + 1) : MakeThrow(die(rng), die(rng));
      PolicyStep(ex, rules, t, p);
    }
    Evaluation e;
    ex.Horizon(p, team, &e);
    label.outcomes.AddScaled(e, 1.0 / trials);
    double w = e.Win();
    sum += w;
    sum_sq += w * w;
  }
  label.trials = trials;
  if (trials > 1) {
    double mean = sum / trials;
    double var = std::max(0.0, (sum_sq - trials * mean * mean) / (trials - 1));
    label.win_stderr = std::sqrt(var / trials);
  }
  return label;
}

Position SamplePosition(const Rules& rules, const SearchParams& params, uint64_t seed,
                        int* throws_played) {
  FastPolicy policy(rules, params);
  Expectimax& ex = policy.ex;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> die(1, 6);
  std::vector<Position> before;
  Position pos = Position::Start(rules);
  // The cap only guards against a policy that loops; games end far sooner.
  while (!pos.IsGameOver() && before.size() < 5000) {
    before.push_back(pos);
    PolicyStep(ex, rules, MakeThrow(die(rng), die(rng)), pos);
  }
  if (throws_played != nullptr) *throws_played = static_cast<int>(before.size());
  return before[std::uniform_int_distribution<size_t>(0, before.size() - 1)(rng)];
}

}  // namespace uckers
