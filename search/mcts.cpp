#include "search/mcts.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "engine/movegen.h"
#include "search/expectimax.h"

namespace uckers {
namespace {

constexpr int kMaxTreeDepth = 48;
constexpr uint64_t kReportEvery = 1000;  // playouts between info reports

struct ChanceNode;

// One play out of a decision, with statistics for the deciding team.
struct Edge {
  Play play;
  Position after;
  uint32_t visits = 0;
  double value_sum = 0;
  Evaluation eval_sum;
  std::unique_ptr<ChanceNode> child;
};

struct Decision {
  std::vector<Edge> edges;
  uint32_t visits = 0;
};

// A position before its throw: one decision per throw, made on first visit.
struct ChanceNode {
  std::array<std::unique_ptr<Decision>, 21> by_throw;
  std::array<uint32_t, 21> visits{};  // playouts through each throw
  uint32_t total = 0;
};

class Mcts {
 public:
  Mcts(const Rules& rules, const SearchParams& params, Limiter* limiter, uint64_t seed)
      : rules_(rules),
        params_(params),
        range_(RangeOf(params.objective)),
        static_(rules, params, &unused_tt_, limiter),
        rng_(seed) {
    std::vector<double> weights;
    for (Throw t : kThrows) weights.push_back(t.Weight());
    throw_dist_ = std::discrete_distribution<int>(weights.begin(), weights.end());
  }

  // Expands a decision: every play, seeded with its static value.
  std::unique_ptr<Decision> Expand(const Position& pos, Throw t) {
    auto d = std::make_unique<Decision>();
    PlayList plays;
    GenerateLegalPlays(pos, rules_, t, &plays);
    int team = TeamOf(pos.to_throw());
    for (const PlayResult& r : plays) {
      Edge e;
      e.play = r.play;
      e.after = r.after;
      e.value_sum = static_.Static(r.after, team, &e.eval_sum);
      e.visits = 1;
      d->edges.push_back(std::move(e));
    }
    d->visits = static_cast<uint32_t>(d->edges.size());
    return d;
  }

  // One playout below decision `d` of `team`; returns its value for `team`.
  double Playout(Decision& d, int team, int depth, Evaluation* eval) {
    Edge& e = Select(d);
    Evaluation child_eval;
    double v = EdgeValue(e, team, depth, &child_eval);
    e.visits++;
    e.value_sum += v;
    e.eval_sum.AddScaled(child_eval, 1.0);
    d.visits++;
    *eval = child_eval;
    return v;
  }

  Decision& root() { return *root_; }
  void set_root(std::unique_ptr<Decision> root) { root_ = std::move(root); }

 private:
  Edge& Select(Decision& d) {
    double log_n = std::log(static_cast<double>(d.visits));
    Edge* best = &d.edges[0];
    double best_ucb = -1e300;
    for (Edge& e : d.edges) {
      double ucb = e.value_sum / e.visits +
                   params_.mcts_exploration * (range_.hi - range_.lo) *
                       std::sqrt(log_n / e.visits);
      if (ucb > best_ucb) best_ucb = ucb, best = &e;
    }
    return *best;
  }

  // The value for `team` of a playout through edge `e`: a new sample of the
  // throw after it, and the best-looking play of that throw, and so on.
  double EdgeValue(Edge& e, int team, int depth, Evaluation* eval) {
    const Position& pos = e.after;
    if (pos.IsGameOver() || depth >= kMaxTreeDepth) return static_.Static(pos, team, eval);
    if (!e.child) e.child = std::make_unique<ChanceNode>();
    int i = NextThrow(*e.child);
    auto& decision = e.child->by_throw[i];
    int mover = TeamOf(pos.to_throw());
    if (!decision) {
      decision = Expand(pos, kThrows[i]);
      // The fresh decision's best seeded value stands for this playout.
      const Edge* best = &decision->edges[0];
      for (const Edge& c : decision->edges) {
        if (c.value_sum / c.visits > best->value_sum / best->visits) best = &c;
      }
      *eval = best->eval_sum;
      double v = best->value_sum;
      if (mover != team) {
        *eval = eval->Flipped();
        v = range_.Flip(v);
      }
      return v;
    }
    Evaluation child_eval;
    double v = Playout(*decision, mover, depth + 1, &child_eval);
    *eval = child_eval;
    if (mover != team) {
      *eval = eval->Flipped();
      v = range_.Flip(v);
    }
    return v;
  }

  // The throw of a chance node's next playout: sampled by its weight, or
  // stratified, the throw furthest behind its share of the playouts so far
  // (each throw's visits then stay within one of its probability x playouts).
  int NextThrow(ChanceNode& c) {
    int i = 0;
    if (!params_.mcts_stratified) {
      i = throw_dist_(rng_);
    } else {
      double worst = -1e300;
      for (int k = 0; k < static_cast<int>(kThrows.size()); ++k) {
        double deficit = kThrows[k].Weight() / 36.0 * (c.total + 1) - c.visits[k];
        if (deficit > worst) worst = deficit, i = k;
      }
    }
    c.visits[i]++;
    c.total++;
    return i;
  }

  const Rules& rules_;
  const SearchParams& params_;
  const ScoreRange range_;
  TranspositionTable unused_tt_{1};
  Expectimax static_;  // for its Static(): evaluation, noise and node counts
  std::mt19937_64 rng_;
  std::discrete_distribution<int> throw_dist_;
  std::unique_ptr<Decision> root_;
};

SearchReport MakeReport(Decision& root, uint64_t playouts, const Limiter& limiter,
                        int multipv) {
  std::vector<const Edge*> edges;
  for (const Edge& e : root.edges) edges.push_back(&e);
  std::stable_sort(edges.begin(), edges.end(), [](const Edge* a, const Edge* b) {
    if (a->visits != b->visits) return a->visits > b->visits;
    return a->value_sum / a->visits > b->value_sum / b->visits;
  });
  SearchReport report;
  report.depth = 1;
  report.nodes = playouts;
  report.time_ms = limiter.ElapsedMs();
  for (const Edge* e : edges) {
    if (static_cast<int>(report.candidates.size()) >= multipv) break;
    Evaluation mean;
    mean.AddScaled(e->eval_sum, 1.0 / e->visits);
    report.candidates.push_back({e->play, e->after, mean});
  }
  report.eval = report.candidates[0].eval;
  return report;
}

}  // namespace

SearchReport MctsPlay(const Position& pos, const Rules& rules, Throw t,
                      const SearchParams& params, const SearchLimits& limits,
                      const std::atomic<bool>& stop, const ReportCallback& on_progress) {
  std::optional<uint64_t> budget = limits.nodes;
  if (!limits.nodes && !limits.movetime_ms && !limits.infinite) {
    budget = static_cast<uint64_t>(params.mcts_playouts);
  }
  Limiter limiter(stop, limits.movetime_ms, std::nullopt);
  uint64_t seed = params.seed ^ (pos.key() * 0x9E3779B97F4A7C15ull) ^
                  static_cast<uint64_t>(t.high * 8 + t.low);
  Mcts mcts(rules, params, &limiter, seed);
  mcts.set_root(mcts.Expand(pos, t));
  int team = TeamOf(pos.to_throw());
  uint64_t playouts = 0;
  bool single = mcts.root().edges.size() == 1;
  while (!single && (!budget || playouts < *budget)) {
    Evaluation e;
    mcts.Playout(mcts.root(), team, 0, &e);
    ++playouts;
    if (playouts % 64 == 0 && limiter.Tick(0)) break;
    if (on_progress && playouts % kReportEvery == 0) {
      on_progress(MakeReport(mcts.root(), playouts, limiter, params.multipv));
    }
  }
  SearchReport report = MakeReport(mcts.root(), playouts, limiter, params.multipv);
  if (on_progress) on_progress(report);
  return report;
}

}  // namespace uckers
