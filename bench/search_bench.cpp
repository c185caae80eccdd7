// Search speed and pruning. Targets (issue 3): Star2 visits at least 40 %
// fewer nodes than plain expectimax at depth 2 with the same value and play;
// nodes per second; time to complete depths 1, 2, 3.
//
//   build/bench/search_bench
#include <benchmark/benchmark.h>

#include <atomic>

#include "engine/movegen.h"
#include "engine/ufen.h"
#include "search/levels.h"
#include "search/search.h"

namespace uckers {
namespace {

constexpr const char* kPositions[] = {
    "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -",
    "0,7,7,22/b,14,30,45/b,19,19,h/2,2,26,50 g -",
    "3,10,10,b/5,20,47,b/0,0,30,52/b,12,40,h y -",
    "11,30,b,b/b,b,b,b/37,b,b,b/25,25,b,b r -",
    "45,50,53,h/40,41,41,h/48,49,54,h/46,52,h,h g -",
};
constexpr Throw kBenchThrows[] = {{6, 3}, {5, 2}, {4, 4}, {2, 1}};

struct Totals {
  uint64_t nodes = 0;
  double win_sum = 0;  // a checksum of the values found
};

Totals SearchAll(const SearchParams& params, int depth) {
  Totals totals;
  Rules rules;
  std::atomic<bool> stop{false};
  SearchLimits limits;
  limits.depth = depth;
  for (const char* ufen : kPositions) {
    Position pos = *ParseUfen(ufen, rules);
    for (Throw t : kBenchThrows) {
      TranspositionTable tt(1);
      SearchReport r = SearchPlay(pos, rules, t, params, limits, &tt, stop, nullptr);
      totals.nodes += r.nodes;
      totals.win_sum += r.eval.Win();
    }
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

// Nodes at depth 2: plain expectimax, Star1 only, Star1 + Star2. The
// counters give the node counts and the saving against plain.
void BM_PruningDepth2(benchmark::State& state) {
  bool star1 = state.range(0) >= 1, star2 = state.range(0) >= 2;
  Totals plain = SearchAll(Unfiltered(false, false), 2);
  Totals t;
  for (auto _ : state) t = SearchAll(Unfiltered(star1, star2), 2);
  state.counters["nodes"] = static_cast<double>(t.nodes);
  state.counters["plain_nodes"] = static_cast<double>(plain.nodes);
  state.counters["saving_pct"] = 100.0 * (1.0 - double(t.nodes) / plain.nodes);
  state.counters["value_diff"] = t.win_sum - plain.win_sum;
}
BENCHMARK(BM_PruningDepth2)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// Time to complete a depth with the default level (filter on).
void BM_DefaultLevelToDepth(benchmark::State& state) {
  SearchParams params;
  ApplyLevel(kDefaultLevel, &params).IgnoreError();
  Totals t;
  for (auto _ : state) t = SearchAll(params, static_cast<int>(state.range(0)));
  state.counters["nodes"] = static_cast<double>(t.nodes);
  state.counters["nps"] =
      benchmark::Counter(static_cast<double>(t.nodes), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["searches"] = std::size(kPositions) * std::size(kBenchThrows);
}
BENCHMARK(BM_DefaultLevelToDepth)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace uckers

BENCHMARK_MAIN();
