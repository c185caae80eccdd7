// Play generation and perft speed. Target: at least 20 million
// perft leaves per second on one core, from the start position and from a
// mid-game position, at perft 4, walking the whole tree.
//
//   build/bench/movegen_bench --benchmark_filter=Perft
#include <benchmark/benchmark.h>

#include "rules/movegen.h"
#include "rules/perft.h"
#include "rules/ufen.h"

namespace uckers {
namespace {

constexpr const char* kStart = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";
constexpr const char* kMidGame = "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -";
constexpr const char* kCrowded = "0,7,7,22/b,14,30,45/b,19,19,h/2,2,26,50 g -";
// mixie_stack: two stacks standing (RULES.md §9).
constexpr const char* kStacked = "b,5,10,31/b,b,20,20/b,b,36,h/b,46,46,h g mg20:bgbg,mr10:ry";

Position Parse(const char* ufen) { return *ParseUfen(ufen, Rules()); }

void PerftBench(benchmark::State& state, const char* ufen) {
  Position pos = Parse(ufen);
  int depth = static_cast<int>(state.range(0));
  uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = Perft(pos, Rules(), depth);
    benchmark::DoNotOptimize(leaves);
  }
  state.counters["leaves"] = static_cast<double>(leaves);
  state.counters["leaves_per_second"] = benchmark::Counter(
      static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_PerftStart(benchmark::State& state) { PerftBench(state, kStart); }
void BM_PerftMidGame(benchmark::State& state) { PerftBench(state, kMidGame); }
void BM_PerftCrowded(benchmark::State& state) { PerftBench(state, kCrowded); }
BENCHMARK(BM_PerftStart)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftMidGame)->Arg(3)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftCrowded)->Arg(3)->Unit(benchmark::kMillisecond);

// The same walks with mixie_stack on: the cost of the switch.
void PerftStackBench(benchmark::State& state, const char* ufen) {
  Rules rules = *Rules::Parse("navy+mixie_stack");
  Position pos = *ParseUfen(ufen, rules);
  int depth = static_cast<int>(state.range(0));
  uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = Perft(pos, rules, depth);
    benchmark::DoNotOptimize(leaves);
  }
  state.counters["leaves"] = static_cast<double>(leaves);
  state.counters["leaves_per_second"] = benchmark::Counter(
      static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}
void BM_PerftMidGameMixieStack(benchmark::State& state) { PerftStackBench(state, kMidGame); }
void BM_PerftStackedMixieStack(benchmark::State& state) { PerftStackBench(state, kStacked); }
BENCHMARK(BM_PerftMidGameMixieStack)->Arg(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftStackedMixieStack)->Arg(3)->Unit(benchmark::kMillisecond);

// The six-sided board (RULES.md §11, preset six): its start and PROTOCOL.md's
// six-sided checkpoint position, to set beside the four-sided walks above.
constexpr const char* kSixStart = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";
constexpr const char* kSixMidGame = "9,9,40,77/b,3,3,70/20,78,h,h/b,b,1,80/b,12,12,30/b,b,50,h r -";

void PerftSixBench(benchmark::State& state, const char* ufen) {
  Rules rules = *Rules::Parse("six");
  Position pos = *ParseUfen(ufen, rules);
  int depth = static_cast<int>(state.range(0));
  uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = Perft(pos, rules, depth);
    benchmark::DoNotOptimize(leaves);
  }
  state.counters["leaves"] = static_cast<double>(leaves);
  state.counters["leaves_per_second"] = benchmark::Counter(
      static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}
void BM_PerftSixStart(benchmark::State& state) { PerftSixBench(state, kSixStart); }
void BM_PerftSixMidGame(benchmark::State& state) { PerftSixBench(state, kSixMidGame); }
BENCHMARK(BM_PerftSixStart)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftSixMidGame)->Arg(3)->Unit(benchmark::kMillisecond);

// All 21 throws' legal plays of one position.
void GenerateBench(benchmark::State& state, const char* ufen) {
  Position pos = Parse(ufen);
  Rules rules;
  PlayList plays;
  int64_t generated = 0;
  for (auto _ : state) {
    PlayGenerator generator(pos, rules);
    for (Throw t : kThrows) {
      generator.Generate(t, &plays);
      generated += plays.size();
    }
    benchmark::DoNotOptimize(plays);
  }
  state.counters["plays_per_second"] =
      benchmark::Counter(static_cast<double>(generated), benchmark::Counter::kIsRate);
}

void BM_GenerateAllThrowsMidGame(benchmark::State& state) { GenerateBench(state, kMidGame); }
void BM_GenerateAllThrowsCrowded(benchmark::State& state) { GenerateBench(state, kCrowded); }
BENCHMARK(BM_GenerateAllThrowsMidGame);
BENCHMARK(BM_GenerateAllThrowsCrowded);

}  // namespace
}  // namespace uckers

BENCHMARK_MAIN();
