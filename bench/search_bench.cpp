// Search speed and pruning. Targets: Star2 visits at least 40 %
// fewer nodes than plain expectimax at depth 2 with the same value and play;
// nodes per second; time to complete depths 1, 2, 3; a stop answered
// within 10 ms (StopLatency).
//
//   build/bench/search_bench
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench/depth1_policy.h"
#include "rules/movegen.h"
#include "rules/play.h"
#include "rules/ufen.h"
#include "search/expectimax.h"
#include "search/levels.h"
#include "search/multi_side.h"
#include "search/multi_side_mcts.h"
#include "search/search.h"
#include "search/tt.h"

namespace uckers {
namespace {

constexpr const char* kPositions[] = {
    "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -",      "0,7,7,22/b,14,30,45/b,19,19,h/2,2,26,50 g -",
    "3,10,10,b/5,20,47,b/0,0,30,52/b,12,40,h y -",    "11,30,b,b/b,b,b,b/37,b,b,b/25,25,b,b r -",
    "45,50,53,h/40,41,41,h/48,49,54,h/46,52,h,h g -",
};
constexpr Throw kBenchThrows[] = {{6, 3}, {5, 2}, {4, 4}, {2, 1}};

using Searches = std::vector<std::pair<Position, Throw>>;

// The fixed positions, each with each bench throw.
const Searches& FixedSearches() {
  static const Searches searches = [] {
    Rules rules;
    Searches out;
    for (const char* ufen : kPositions) {
      for (Throw t : kBenchThrows) out.push_back({*ParseUfen(ufen, rules), t});
    }
    return out;
  }();
  return searches;
}

// Positions as games bring them: every fourth throw of two seeded self-play
// games of the depth-1 policy, with the throw that came, where the throw
// leaves a choice. The fixed positions above are few and mostly narrow.
const Searches& GameSearches() {
  static const Searches searches = [] {
    Rules rules;
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> die(1, 6);
    Searches out;
    for (int game = 0; game < 2; ++game) {
      Position pos = Position::Start(rules);
      for (int ply = 0; !pos.IsGameOver(); ++ply) {
        Throw t = MakeThrow(die(rng), die(rng));
        PlayList plays;
        GenerateLegalPlays(pos, rules, t, &plays);
        if (ply % 4 == 0 && plays.size() > 1) out.push_back({pos, t});
        pos = Depth1PolicyStep(pos, rules, t);
      }
    }
    return out;
  }();
  return searches;
}

// Nodes, a checksum of the values found and the plays chosen, split by
// whether the throw shows a six: a six earns another throw, so the chance
// node below each play is the mover's own, where Star2's probes (lower
// bounds) cannot show a play worse than the best so far.
struct Totals {
  uint64_t nodes = 0, six_nodes = 0;
  double win_sum = 0;
  std::vector<std::string> plays;
};

Totals SearchAll(const Searches& searches, const SearchParams& params, int depth) {
  Totals totals;
  Rules rules;
  std::atomic<bool> stop{false};
  SearchLimits limits;
  limits.depth = depth;
  for (const auto& [pos, t] : searches) {
    TranspositionTable tt(1);
    SearchReport r = SearchPlay(pos, rules, t, params, limits, &tt, stop, nullptr);
    totals.nodes += r.nodes;
    if (t.HasSix()) totals.six_nodes += r.nodes;
    totals.win_sum += r.eval.Win();
    totals.plays.push_back(PlayToString(r.candidates[0].play));
  }
  return totals;
}

SearchParams Unfiltered(bool star1, bool star2) {
  SearchParams p;
  p.filter_width = 0;
  p.star1 = star1;
  p.star2 = star2;
  return p;
}

double SavingPct(uint64_t nodes, uint64_t plain) {
  return 100.0 * (1.0 - static_cast<double>(nodes) / static_cast<double>(plain));
}

// Nodes at depth 2: plain expectimax, Star1 only, Star1 + Star2. The
// counters give the node counts, the saving against plain (in all, on
// throws without a six, on throws with one) and any difference of value or
// play from plain.
void Pruning(benchmark::State& state, const Searches& searches, int depth = 2) {
  bool star1 = state.range(0) >= 1, star2 = state.range(0) >= 2;
  Totals plain = SearchAll(searches, Unfiltered(false, false), depth);
  Totals t;
  for (auto _ : state) t = SearchAll(searches, Unfiltered(star1, star2), depth);
  int plays_differ = 0;
  for (size_t i = 0; i < t.plays.size(); ++i) plays_differ += t.plays[i] != plain.plays[i];
  state.counters["nodes"] = static_cast<double>(t.nodes);
  state.counters["plain_nodes"] = static_cast<double>(plain.nodes);
  state.counters["saving_pct"] = SavingPct(t.nodes, plain.nodes);
  state.counters["no_six_saving_pct"] =
      SavingPct(t.nodes - t.six_nodes, plain.nodes - plain.six_nodes);
  state.counters["six_saving_pct"] = SavingPct(t.six_nodes, plain.six_nodes);
  state.counters["value_diff"] = t.win_sum - plain.win_sum;
  state.counters["plays_differ"] = plays_differ;
  state.counters["searches"] = static_cast<double>(searches.size());
}

void BM_PruningDepth2(benchmark::State& state) { Pruning(state, FixedSearches()); }
BENCHMARK(BM_PruningDepth2)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// Depth 3: below a six's extra throw the other team's chance nodes come
// back, and Star2 can probe them.
void BM_PruningDepth3(benchmark::State& state) { Pruning(state, FixedSearches(), 3); }
BENCHMARK(BM_PruningDepth3)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_PruningDepth3GamePositions(benchmark::State& state) { Pruning(state, GameSearches(), 3); }
BENCHMARK(BM_PruningDepth3GamePositions)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_PruningDepth2GamePositions(benchmark::State& state) { Pruning(state, GameSearches()); }
BENCHMARK(BM_PruningDepth2GamePositions)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// The most any pruning can save at depth 2, for comparison with the above:
// with a perfect oracle the best play is searched whole and every other play
// on a throw without a six is refuted by one reply per throw of the other
// team (its chance node and 21 leaves), the least proof that the play is
// no better. On a throw with a six the chance node below each play is the
// mover's own: showing a play no better needs every leaf under it, so the
// ceiling there is plain expectimax itself.
constexpr uint64_t kRefutation = 1 + 21;  // a chance node, a reply per throw

struct Ceiling {
  uint64_t plain = 0, oracle = 0, six_plain = 0;
};

Ceiling CeilingOf(const Searches& searches) {
  Ceiling c;
  Rules rules;
  SearchParams params = Unfiltered(false, false);
  ScoreRange range = RangeOf(params.objective);
  std::atomic<bool> stop{false};
  for (const auto& [pos, t] : searches) {
    PlayList plays;
    GenerateLegalPlays(pos, rules, t, &plays);
    int team = TeamOf(pos.to_throw());
    // Depth 1 first: a leaf per play, in both counts.
    uint64_t plain = plays.size(), refuted = plays.size(), best_nodes = 0;
    double best = range.lo - 1;
    for (const PlayResult& r : plays) {
      TranspositionTable tt(1);
      Limiter limiter(stop, std::nullopt, std::nullopt);
      Expectimax search(rules, params, &tt, &limiter);
      double v = search.After(r.after, team, 1, range.lo, range.hi, nullptr);
      plain += search.nodes();
      // A play that ends the game or declares a challenge costs less whole.
      refuted += std::min<uint64_t>(kRefutation, search.nodes());
      if (v > best) best = v, best_nodes = search.nodes();
    }
    c.plain += plain;
    if (t.HasSix()) {
      c.six_plain += plain;
      c.oracle += plain;
    } else {
      c.oracle += refuted - std::min<uint64_t>(kRefutation, best_nodes) + best_nodes;
    }
  }
  return c;
}

void PruningCeiling(benchmark::State& state, const Searches& searches) {
  Ceiling c;
  for (auto _ : state) c = CeilingOf(searches);
  state.counters["plain_nodes"] = static_cast<double>(c.plain);
  state.counters["oracle_nodes"] = static_cast<double>(c.oracle);
  state.counters["ceiling_pct"] = SavingPct(c.oracle, c.plain);
  state.counters["no_six_ceiling_pct"] = SavingPct(c.oracle - c.six_plain, c.plain - c.six_plain);
  state.counters["six_share_pct"] = 100.0 * c.six_plain / c.plain;
}

void BM_PruningCeilingDepth2(benchmark::State& state) { PruningCeiling(state, FixedSearches()); }
BENCHMARK(BM_PruningCeilingDepth2)->Unit(benchmark::kMillisecond);

void BM_PruningCeilingDepth2GamePositions(benchmark::State& state) {
  PruningCeiling(state, GameSearches());
}
BENCHMARK(BM_PruningCeilingDepth2GamePositions)->Unit(benchmark::kMillisecond);

// Time to complete a depth with the reference level, `expert` (filter on).
void BM_ReferenceLevelToDepth(benchmark::State& state) {
  SearchParams params;
  ApplyLevel(kReferenceLevel, &params).IgnoreError();
  Totals t;
  for (auto _ : state) t = SearchAll(FixedSearches(), params, static_cast<int>(state.range(0)));
  state.counters["nodes"] = static_cast<double>(t.nodes);
  state.counters["nps"] = benchmark::Counter(static_cast<double>(t.nodes),
                                             benchmark::Counter::kIsIterationInvariantRate);
  state.counters["searches"] = static_cast<double>(FixedSearches().size());
}
BENCHMARK(BM_ReferenceLevelToDepth)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond);

// Positions of random games of `navy+solo` and `six`, with a throw each.
struct MultiSideCase {
  Rules rules;
  Position pos;
  Throw t;
};

const std::vector<MultiSideCase>& MultiSideCases() {
  static const std::vector<MultiSideCase> cases = [] {
    std::vector<MultiSideCase> out;
    for (const char* layout : {"navy+solo", "six"}) {
      Rules rules = *Rules::Parse(layout);
      std::mt19937_64 rng(29);
      for (int game = 0; game < 6; ++game) {
        Position pos = Position::Start(rules);
        for (int ply = 0; ply < 20 + 15 * game && !pos.IsGameOver(); ++ply) {
          PlayList plays;
          GenerateLegalPlays(pos, rules, kThrows[rng() % kThrows.size()], &plays);
          pos = plays[rng() % plays.size()].after;
        }
        if (!pos.IsGameOver()) out.push_back({rules, pos, kThrows[rng() % kThrows.size()]});
      }
    }
    return out;
  }();
  return cases;
}

// Max^n's shallow pruning (search/multi_side.h) at `grandmaster`'s depth 3
// on MultiSideCases(): Arg(0) off, Arg(1) on; the same choices and root
// values (a test checks them).
void BM_MultiSideShallowPruningDepth3(benchmark::State& state) {
  MultiSideParams params;
  params.max_depth = 3;
  params.shallow_pruning = state.range(0) != 0;
  uint64_t nodes = 0, pruned = 0;
  std::atomic<bool> never{false};
  for (auto _ : state) {
    nodes = pruned = 0;
    for (const MultiSideCase& c : MultiSideCases()) {
      absl::StatusOr<MultiSideReport> r =
          SearchMultiSide(c.pos, c.rules, c.t, params, SearchLimits{}, never);
      nodes += r->nodes;
      pruned += r->pruned;
    }
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["pruned"] = static_cast<double>(pruned);
  state.counters["searches"] = static_cast<double>(MultiSideCases().size());
}
BENCHMARK(BM_MultiSideShallowPruningDepth3)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// MCTS-max^n (search/multi_side_mcts.h) with each layout's shipped net,
// 3,000 playouts (its default) on each of MultiSideCases(): playouts a
// second.
void BM_MultiSideMcts(benchmark::State& state) {
  MultiSideMctsParams params;
  SearchLimits limits;
  limits.nodes = 3000;
  uint64_t playouts = 0;
  std::atomic<bool> never{false};
  for (auto _ : state) {
    playouts = 0;
    for (const MultiSideCase& c : MultiSideCases()) {
      params.net = MultiSideNet(c.rules, EvalKind::kNet);
      absl::StatusOr<MultiSideReport> r =
          SearchMultiSideMcts(c.pos, c.rules, c.t, params, limits, never);
      playouts += r->nodes;
    }
  }
  state.counters["playouts"] = static_cast<double>(playouts);
  state.counters["playouts_per_s"] = benchmark::Counter(
      static_cast<double>(playouts), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["searches"] = static_cast<double>(MultiSideCases().size());
}
BENCHMARK(BM_MultiSideMcts)->Unit(benchmark::kMillisecond);

// How long an infinite search takes to answer once another thread sets its
// stop flag, 20 ms into each of FixedSearches(): the mean and the worst
// latency in milliseconds, over the searches still running then. Target: the worst within 10 ms.
void BM_StopLatency(benchmark::State& state) {
  Rules rules;
  SearchParams params;
  SearchLimits limits;
  limits.infinite = true;
  double sum_ms = 0, worst_ms = 0;
  int searches = 0;
  for (auto _ : state) {
    for (const auto& [pos, t] : FixedSearches()) {
      TranspositionTable tt(16);
      std::atomic<bool> stop{false};
      std::chrono::steady_clock::time_point stopped_at;
      std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        stopped_at = std::chrono::steady_clock::now();
        stop = true;
      });
      SearchReport r = SearchPlay(pos, rules, t, params, limits, &tt, stop, nullptr);
      auto ended = std::chrono::steady_clock::now();
      stopper.join();
      benchmark::DoNotOptimize(r);
      // A search that ended on its own before the stop (a table's answer,
      // a single play, the deepest depth) does not count.
      if (ended < stopped_at) continue;
      double ms = std::chrono::duration<double, std::milli>(ended - stopped_at).count();
      sum_ms += ms;
      worst_ms = std::max(worst_ms, ms);
      ++searches;
    }
  }
  state.counters["mean_ms"] = sum_ms / std::max(1, searches);
  state.counters["worst_ms"] = worst_ms;
  state.counters["stopped"] = static_cast<double>(searches) / state.iterations();
}
BENCHMARK(BM_StopLatency)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace uckers

BENCHMARK_MAIN();
