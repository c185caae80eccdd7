#include "search/mcts.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <span>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

#include "rules/movegen.h"
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
  ChanceNode* child = nullptr;  // owned by the tree's arena
};

struct Decision {
  std::span<Edge> edges;  // in the tree's arena
  uint32_t visits = 0;
};

// A position before its throw: one decision per throw, made on first visit.
struct ChanceNode {
  std::array<Decision*, 21> by_throw{};  // in the tree's arena
  std::array<uint32_t, 21> visits{};     // playouts through each throw
  uint32_t total = 0;
};

static_assert(std::is_trivially_destructible_v<Edge> &&
              std::is_trivially_destructible_v<Decision> &&
              std::is_trivially_destructible_v<ChanceNode>);

// The tree's memory: nodes are carved from large blocks and never freed one
// by one, so dropping even a large tree costs one free per block. Holds at
// most `budget_bytes` (counted as carved); once full, the tree stops
// growing: playouts go on through it, and a node not yet made is valued
// statically instead.
class Arena {
 public:
  explicit Arena(uint64_t budget_bytes) : budget_(budget_bytes) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  // Returning a large tree's pages to the system takes tens of ms (about
  // 0.1 ms a MiB here): a large tree is dropped on a thread of its own, so
  // that the answer is not held back (a gRPC call is answered 25 ms or more
  // before its deadline).
  ~Arena() {
    if (used_ < kDropInBackgroundBytes) return;
    try {
      std::thread([blocks = std::move(blocks_)]() mutable { blocks.clear(); }).detach();
    } catch (const std::system_error&) {
      // No thread to be had: blocks_ is freed here after all.
    }
  }

  bool Fits(size_t edges) const {
    return used_ + sizeof(Decision) + sizeof(ChanceNode) + edges * sizeof(Edge) <= budget_;
  }
  Decision* NewDecision(const std::vector<Edge>& edges) {
    Edge* copy = static_cast<Edge*>(Carve(edges.size() * sizeof(Edge), alignof(Edge)));
    std::uninitialized_copy(edges.begin(), edges.end(), copy);
    return new (Carve(sizeof(Decision), alignof(Decision)))
        Decision{std::span<Edge>(copy, edges.size()), 0};
  }
  ChanceNode* NewChance() {
    return new (Carve(sizeof(ChanceNode), alignof(ChanceNode))) ChanceNode();
  }
  uint64_t used() const { return used_; }

 private:
  static constexpr size_t kBlockBytes = size_t{1} << 20;
  static constexpr uint64_t kDropInBackgroundBytes = uint64_t{16} << 20;

  void* Carve(size_t bytes, size_t align) {
    size_t at = (block_used_ + align - 1) / align * align;
    if (blocks_.empty() || at + bytes > block_size_) {
      block_size_ = std::max(kBlockBytes, bytes);
      blocks_.push_back(std::make_unique_for_overwrite<std::byte[]>(block_size_));
      at = 0;
    }
    block_used_ = at + bytes;
    used_ += bytes;
    return blocks_.back().get() + at;
  }

  uint64_t budget_;
  uint64_t used_ = 0;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  size_t block_size_ = 0;
  size_t block_used_ = 0;
};

class Mcts {
 public:
  Mcts(const Rules& rules, const SearchParams& params, Limiter* limiter, uint64_t seed)
      : rules_(rules),
        params_(params),
        range_(RangeOf(params.objective)),
        static_(rules, params, &unused_tt_, limiter),
        rng_(seed),
        arena_(static_cast<uint64_t>(params.mcts_tree_mb) << 20) {
    std::vector<double> weights;
    for (Throw t : kThrows) weights.push_back(t.Weight());
    throw_dist_ = std::discrete_distribution<int>(weights.begin(), weights.end());
  }

  // Every play of a decision, seeded with its static value.
  std::vector<Edge> Edges(const Position& pos, Throw t) {
    PlayList plays;
    GenerateLegalPlays(pos, rules_, t, &plays);
    int team = TeamOf(pos.to_throw());
    std::vector<Edge> edges;
    edges.reserve(plays.size());
    for (const PlayResult& r : plays) {
      Edge e;
      e.play = r.play;
      e.after = r.after;
      e.value_sum = static_.Static(r.after, team, &e.eval_sum);
      e.visits = 1;
      edges.push_back(std::move(e));
    }
    return edges;
  }

  // Expands a decision into the tree (the root always fits).
  Decision* Expand(const Position& pos, Throw t) {
    std::vector<Edge> edges = Edges(pos, t);
    Decision* d = arena_.NewDecision(edges);
    d->visits = static_cast<uint32_t>(edges.size());
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
  const Decision& root() const { return *root_; }
  void set_root(Decision* root) { root_ = root; }
  uint64_t tree_bytes() const { return arena_.used(); }

 private:
  Edge& Select(Decision& d) {
    double log_n = std::log(static_cast<double>(d.visits));
    Edge* best = &d.edges[0];
    double best_ucb = -1e300;
    for (Edge& e : d.edges) {
      double ucb = e.value_sum / e.visits +
                   params_.mcts_exploration * (range_.hi - range_.lo) * std::sqrt(log_n / e.visits);
      if (ucb > best_ucb) best_ucb = ucb, best = &e;
    }
    return *best;
  }

  // The value for `team` of a playout through edge `e`: a new sample of the
  // throw after it, and the best-looking play of that throw, and so on.
  double EdgeValue(Edge& e, int team, int depth, Evaluation* eval) {
    const Position& pos = e.after;
    if (pos.IsGameOver() || depth >= kMaxTreeDepth) return static_.Static(pos, team, eval);
    if (!e.child) {
      if (!arena_.Fits(0)) return static_.Static(pos, team, eval);  // the tree is full
      e.child = arena_.NewChance();
    }
    int i = NextThrow(*e.child);
    Decision*& decision = e.child->by_throw[i];
    int mover = TeamOf(pos.to_throw());
    if (!decision) {
      std::vector<Edge> edges = Edges(pos, kThrows[i]);
      // The fresh decision's best seeded value stands for this playout.
      const Edge* best = &edges[0];
      for (const Edge& c : edges) {
        if (c.value_sum / c.visits > best->value_sum / best->visits) best = &c;
      }
      *eval = best->eval_sum;
      double v = best->value_sum;
      if (arena_.Fits(edges.size())) {  // else valued, not kept: the tree is full
        decision = arena_.NewDecision(edges);
        decision->visits = static_cast<uint32_t>(edges.size());
      }
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
  Arena arena_;
  Decision* root_ = nullptr;
};

SearchReport MakeReport(const Mcts& mcts, uint64_t playouts, const Limiter& limiter, int multipv) {
  const Decision& root = mcts.root();
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
  report.tree_bytes = mcts.tree_bytes();
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

SearchReport MctsPlay(const Position& pos, const Rules& rules, Throw t, const SearchParams& params,
                      const SearchLimits& limits, const std::atomic<bool>& stop,
                      const ReportCallback& on_progress) {
  std::optional<uint64_t> budget = limits.nodes;
  if (!limits.nodes && !limits.movetime_ms && !limits.infinite) {
    budget = static_cast<uint64_t>(params.mcts_playouts);
  }
  Limiter limiter(stop, limits.movetime_ms, std::nullopt);
  uint64_t seed =
      params.seed ^ (pos.key() * 0x9E3779B97F4A7C15ull) ^ static_cast<uint64_t>(t.high * 8 + t.low);
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
      on_progress(MakeReport(mcts, playouts, limiter, params.multipv));
    }
  }
  SearchReport report = MakeReport(mcts, playouts, limiter, params.multipv);
  if (on_progress) on_progress(report);
  return report;
}

}  // namespace uckers
