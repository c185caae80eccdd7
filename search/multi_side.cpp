#include "search/multi_side.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "rules/movegen.h"
#include "search/expectimax.h"
#include "search/static_cache.h"

namespace uckers {

namespace {

// Step by step as search/expectimax.cpp, over vectors of side values.
class MaxN {
 public:
  MaxN(const Rules& rules, const MultiSideParams& params, int root_side,
       const std::atomic<bool>& stop, std::chrono::steady_clock::time_point deadline)
      : rules_(rules), params_(params), root_side_(root_side), stop_(stop), deadline_(deadline) {}

  // How good `v` is for `side` choosing: its own chance (max^n), or under
  // paranoid the root side's chance, against it for every other side.
  double Utility(const SideValues& v, int side) const {
    if (params_.mode == MultiSideMode::kMaxN) return v.win[side];
    return side == root_side_ ? v.win[root_side_] : -v.win[root_side_];
  }

  // Step A. The values of `pos` before its throw, `depth` throws ahead.
  // With `cut_side` >= 0 (shallow pruning), the search stops once that
  // side's value here is at most `cut`, and returns that bound as its value.
  SideValues Chance(const Position& pos, int depth, int cut_side = -1, double cut = 0) {
    if (pos.IsGameOver()) return TerminalSideValues(pos);
    if (depth <= 0) return Static(pos);
    SideValues sum;
    sum.sides = pos.num_sides();
    double rest = 1;  // the weight of the throws still to search
    for (Throw t : kThrows) {
      SideValues v = Decide(pos, t, depth, nullptr);
      double w = t.Weight() / 36.0;
      for (int s = 0; s < sum.sides; ++s) sum.win[s] += v.win[s] * w;
      if (aborted_) break;
      rest -= w;
      // Step A1. Every value is at most 1: the throws to come add at most
      // their weight to cut_side's value.
      if (cut_side >= 0 && rest > 1e-12 && sum.win[cut_side] + rest <= cut) {
        ++pruned_;
        sum.win[cut_side] += rest;
        return sum;
      }
    }
    return sum;
  }

  // Step B. The values after the best play of throw `t` for the side to
  // throw; `ranked`, when given, receives every play searched, best first.
  SideValues Decide(const Position& pos, Throw t, int depth,
                    std::vector<MultiSideCandidate>* ranked) {
    PlayList plays;
    GenerateLegalPlays(pos, rules_, t, &plays);
    int side = pos.SideOf(pos.to_throw());
    // Step B1. Every play's static value orders them; a decision below the
    // root keeps only the best few for the deeper search (gnubg's filter).
    std::vector<MultiSideCandidate> cands;
    for (const PlayResult& p : plays) cands.push_back({p.play, p.after, Static(p.after)});
    // A side modelled as `random` (never the root's) takes any play alike.
    if (!ranked && (params_.random_sides >> side & 1) && !cands.empty()) {
      return MeanOfPlays(&cands, depth);
    }
    auto better = [&](const MultiSideCandidate& a, const MultiSideCandidate& b) {
      return Utility(a.values, side) > Utility(b.values, side);
    };
    std::stable_sort(cands.begin(), cands.end(), better);
    if (depth > 1 && !cands.empty()) {
      // Step B2. The kept plays searched a throw deeper.
      // The root keeps twice as many: its ranking is searched wider.
      int width = std::max(1, params_.filter_width) * (ranked ? 2 : 1);
      size_t keep = std::min<size_t>(cands.size(), width);
      cands.resize(keep);
      // Step B3. Below the root, max^n prunes a play that cannot beat the
      // best so far for the side choosing (the root's values stay exact).
      bool prune = params_.shallow_pruning && !ranked && params_.mode == MultiSideMode::kMaxN;
      double best = -1;
      for (MultiSideCandidate& c : cands) {
        c.values = prune && best >= 0 ? Chance(c.after, depth - 1, side, best)
                                      : Chance(c.after, depth - 1);
        best = std::max(best, c.values.win[side]);
        if (aborted_) break;
      }
      std::stable_sort(cands.begin(), cands.end(), better);
    }
    SideValues best = cands.empty() ? TerminalSideValues(pos) : cands.front().values;
    if (ranked) *ranked = std::move(cands);
    return best;
  }

  // The mean of every play's values, each searched `depth` - 1 throws
  // deeper when depth > 1: a decision of a side playing at random.
  SideValues MeanOfPlays(std::vector<MultiSideCandidate>* cands, int depth) {
    SideValues mean;
    mean.sides = cands->front().values.sides;
    for (MultiSideCandidate& c : *cands) {
      if (depth > 1 && !aborted_) c.values = Chance(c.after, depth - 1);
      for (int s = 0; s < mean.sides; ++s) mean.win[s] += c.values.win[s] / cands->size();
    }
    return mean;
  }

  bool aborted() const { return aborted_; }
  uint64_t nodes() const { return nodes_; }
  uint64_t pruned() const { return pruned_; }

 private:
  SideValues Static(const Position& pos) {
    if ((++nodes_ & 1023) == 0 &&
        (stop_.load(std::memory_order_relaxed) || std::chrono::steady_clock::now() > deadline_)) {
      aborted_ = true;
    }
    // A value this search computed already (search/static_cache.h).
    if (const SideValues* cached = static_cache_.Find(pos.key())) return *cached;
    SideValues v =
        params_.net ? params_.net->EvaluateSides(pos) : ClassicSideValues(pos, params_.weights);
    if (params_.noise > 0 && !pos.IsGameOver()) Misjudge(pos.key(), &v);
    static_cache_.Store(pos.key(), v);
    return v;
  }

  // The level's noise on every side's chance, renormalised.
  void Misjudge(uint64_t key, SideValues* v) const {
    double sum = 0;
    for (int s = 0; s < v->sides; ++s) {
      uint64_t side_key = key + 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(s + 1);
      v->win[s] = std::max(0.0, v->win[s] + EvaluationNoise(side_key, params_.seed, params_.noise));
      sum += v->win[s];
    }
    for (int s = 0; s < v->sides; ++s) v->win[s] = sum > 0 ? v->win[s] / sum : 1.0 / v->sides;
  }

  const Rules& rules_;
  const MultiSideParams& params_;
  const int root_side_;
  const std::atomic<bool>& stop_;
  const std::chrono::steady_clock::time_point deadline_;
  uint64_t nodes_ = 0;
  uint64_t pruned_ = 0;
  bool aborted_ = false;
  StaticCache<SideValues> static_cache_;
};

}  // namespace

absl::StatusOr<MultiSideReport> SearchMultiSide(const Position& pos, const Rules& rules,
                                                std::optional<Throw> dice,
                                                const MultiSideParams& params,
                                                const SearchLimits& limits,
                                                const std::atomic<bool>& stop) {
  if (pos.IsGameOver()) return absl::FailedPreconditionError("the game is over: nothing to search");
  auto start = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start)
        .count();
  };
  // Without a movetime the depth alone bounds the search; with one, the
  // search stops at it and deepens past the level's depth while it fits.
  auto deadline = limits.movetime_ms ? start + std::chrono::milliseconds(*limits.movetime_ms)
                                     : std::chrono::steady_clock::time_point::max();
  int max_depth = limits.depth         ? *limits.depth
                  : limits.movetime_ms ? std::max(params.max_depth, kMaxMultiSideDepth)
                                       : params.max_depth;
  int root_side = pos.SideOf(pos.to_throw());
  MultiSideReport report;
  int64_t last_ms = 0;
  for (int depth = 1; depth <= max_depth; ++depth) {
    // Step 0. A deeper iteration costs about the branching of a throw's
    // decisions more; start it only if it should end within the time.
    if (depth > params.max_depth && limits.movetime_ms &&
        elapsed_ms() + std::max<int64_t>(1, last_ms) * 20 > *limits.movetime_ms) {
      break;
    }
    int64_t began = elapsed_ms();
    MaxN search(rules, params, root_side, stop, deadline);
    MultiSideReport iteration;
    if (dice) {
      iteration.values = search.Decide(pos, *dice, depth, &iteration.candidates);
    } else {
      iteration.values = search.Chance(pos, depth);
    }
    report.nodes += search.nodes();
    report.pruned += search.pruned();
    if (search.aborted() && report.depth > 0) break;  // keep the last whole depth
    iteration.depth = depth;
    iteration.nodes = report.nodes;
    iteration.pruned = report.pruned;
    report = std::move(iteration);
    last_ms = elapsed_ms() - began;
    if (search.aborted() || stop) break;
  }
  report.time_ms = elapsed_ms();
  return report;
}

}  // namespace uckers
