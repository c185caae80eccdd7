#include "search/multi_side_mcts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <vector>

#include "rules/movegen.h"
#include "search/static_cache.h"

namespace uckers {
namespace {

struct ChanceNode;

// A play of a decision and what the playouts through it found.
struct Edge {
  Play play;
  Position after;
  uint32_t visits = 0;
  SideValues sum;               // every side's value summed over the visits
  ChanceNode* child = nullptr;  // the position after it, before its throw
};

// A throw to play in a position: the side to throw chooses among `edges`.
struct DecisionNode {
  std::vector<Edge> edges;
  uint32_t visits = 0;
};

// A position before its throw: each throw's decision, made when first met.
struct ChanceNode {
  std::array<DecisionNode*, 21> throws{};
  std::array<uint32_t, 21> visits{};
  uint32_t total = 0;
};

void Add(SideValues& sum, const SideValues& v) {
  sum.sides = v.sides;
  for (int s = 0; s < v.sides; ++s) sum.win[s] += v.win[s];
}

class Tree {
 public:
  Tree(const Rules& rules, const MultiSideMctsParams& params, int root_side)
      : rules_(rules),
        params_(params),
        root_side_(root_side),
        max_bytes_(static_cast<size_t>(std::max(1, params.tree_mb)) << 20) {}

  // The decision of throw `t` in `pos`: every play with its static value as
  // one visit (a play that ends the game: its exact value).
  DecisionNode* NewDecision(const Position& pos, Throw t) {
    PlayList plays;
    GenerateLegalPlays(pos, rules_, t, &plays);
    DecisionNode& node = decisions_.emplace_back();
    node.edges.reserve(plays.size());
    for (const PlayResult& p : plays) {
      Edge& e = node.edges.emplace_back();
      e.play = p.play;
      e.after = p.after;
      e.visits = 1;
      e.sum = Static(p.after);
      ++node.visits;
    }
    bytes_ += sizeof(DecisionNode) + plays.size() * sizeof(Edge);
    return &node;
  }

  bool Full() const { return bytes_ >= max_bytes_; }

  // One playout down from decision `node` (of position `pos`): the values
  // found, added on the way back.
  SideValues Descend(DecisionNode& node, const Position& pos, int depth) {
    deepest_ = std::max(deepest_, depth);
    Edge& e = Select(node, pos.SideOf(pos.to_throw()));
    SideValues v;
    if (e.after.IsGameOver()) {
      v = TerminalSideValues(e.after);
    } else if (!e.child) {
      if (!Full()) {
        e.child = &chances_.emplace_back();
        bytes_ += sizeof(ChanceNode);
      }
      v = Static(e.after);  // the leaf: its static value
    } else {
      v = Sample(*e.child, e.after, depth);
    }
    Add(e.sum, v);
    ++e.visits;
    ++node.visits;
    return v;
  }

  // One playout down from chance node `node` of position `pos`.
  SideValues Sample(ChanceNode& node, const Position& pos, int depth) {
    // The throw furthest behind its share of the playouts (stratified).
    int pick = 0;
    double behind = -1e18;
    for (int i = 0; i < 21; ++i) {
      double gap = kThrows[i].Weight() / 36.0 * (node.total + 1) - node.visits[i];
      if (gap > behind) behind = gap, pick = i;
    }
    ++node.visits[pick];
    ++node.total;
    DecisionNode* next = node.throws[pick];
    if (!next) {
      if (Full()) return Static(pos);
      next = node.throws[pick] = NewDecision(pos, kThrows[pick]);
    }
    return Descend(*next, pos, depth + 1);
  }

  // The value of `v` to `side` choosing: its own chance, or under paranoid
  // the root side's, against it for every other side.
  double Utility(const SideValues& v, int side) const {
    if (params_.mode == MultiSideMode::kMaxN) return v.win[side];
    return side == root_side_ ? v.win[root_side_] : 1 - v.win[root_side_];
  }

  int deepest() const { return deepest_; }
  uint64_t evaluations() const { return evaluations_; }

 private:
  Edge& Select(DecisionNode& node, int side) {
    double log_n = std::log(static_cast<double>(node.visits) + 1);
    Edge* best = &node.edges.front();
    double best_score = -1e18;
    for (Edge& e : node.edges) {
      SideValues mean = e.sum;
      for (int s = 0; s < mean.sides; ++s) mean.win[s] /= e.visits;
      double score = Utility(mean, side) + params_.exploration * std::sqrt(log_n / e.visits);
      if (score > best_score) best_score = score, best = &e;
    }
    return *best;
  }

  SideValues Static(const Position& pos) {
    ++evaluations_;
    if (pos.IsGameOver()) return TerminalSideValues(pos);
    // A leaf's first playout values the play its decision valued already
    // (search/static_cache.h).
    if (const SideValues* cached = static_cache_.Find(pos.key())) return *cached;
    SideValues v =
        params_.net ? params_.net->EvaluateSides(pos) : ClassicSideValues(pos, params_.weights);
    static_cache_.Store(pos.key(), v);
    return v;
  }

  const Rules& rules_;
  const MultiSideMctsParams& params_;
  const int root_side_;
  const size_t max_bytes_;
  size_t bytes_ = 0;
  int deepest_ = 0;
  uint64_t evaluations_ = 0;
  std::deque<DecisionNode> decisions_;
  std::deque<ChanceNode> chances_;
  StaticCache<SideValues> static_cache_;
};

SideValues Mean(const Edge& e) {
  SideValues v = e.sum;
  for (int s = 0; s < v.sides; ++s) v.win[s] /= e.visits;
  return v;
}

}  // namespace

absl::StatusOr<MultiSideReport> SearchMultiSideMcts(const Position& pos, const Rules& rules,
                                                    std::optional<Throw> dice,
                                                    const MultiSideMctsParams& params,
                                                    const SearchLimits& limits,
                                                    const std::atomic<bool>& stop) {
  if (pos.IsGameOver()) return absl::FailedPreconditionError("the game is over: nothing to search");
  auto start = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start)
        .count();
  };
  std::optional<uint64_t> budget = limits.nodes;
  if (!limits.nodes && !limits.movetime_ms && !limits.infinite) {
    budget = static_cast<uint64_t>(std::max(1, params.playouts));
  }
  Tree tree(rules, params, pos.SideOf(pos.to_throw()));
  ChanceNode root_chance;
  DecisionNode* root = dice ? tree.NewDecision(pos, *dice) : nullptr;
  // A decision with one play has nothing to search.
  bool single = root && root->edges.size() == 1;
  uint64_t playouts = 0;
  SideValues chance_sum;
  while (!single && (!budget || playouts < *budget)) {
    if (root) {
      tree.Descend(*root, pos, 1);
    } else {
      Add(chance_sum, tree.Sample(root_chance, pos, 0));
    }
    ++playouts;
    if (playouts % 64 == 0) {
      if (stop.load(std::memory_order_relaxed)) break;
      if (limits.movetime_ms && elapsed_ms() >= *limits.movetime_ms) break;
    }
  }
  MultiSideReport report;
  report.nodes = playouts;
  report.depth = tree.deepest();
  if (root) {
    std::vector<const Edge*> order;
    for (const Edge& e : root->edges) order.push_back(&e);
    // Most visited first; ties (a single play, or none searched) by value.
    std::stable_sort(order.begin(), order.end(), [&](const Edge* a, const Edge* b) {
      if (a->visits != b->visits) return a->visits > b->visits;
      return tree.Utility(Mean(*a), pos.SideOf(pos.to_throw())) >
             tree.Utility(Mean(*b), pos.SideOf(pos.to_throw()));
    });
    for (const Edge* e : order) report.candidates.push_back({e->play, e->after, Mean(*e)});
    report.values = report.candidates.front().values;
  } else {
    report.values = chance_sum;
    for (int s = 0; s < chance_sum.sides; ++s) {
      report.values.win[s] = playouts ? chance_sum.win[s] / playouts : 0;
    }
    if (playouts == 0) {
      report.values =
          params.net ? params.net->EvaluateSides(pos) : ClassicSideValues(pos, params.weights);
    }
  }
  report.time_ms = elapsed_ms();
  return report;
}

}  // namespace uckers
