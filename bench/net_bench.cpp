// Speed of the learned evaluation: evaluations a second on one core, against
// the classic evaluation on the same positions (positions from seeded
// depth-1 self-play games).
#include <random>
#include <vector>

#include "bench/depth1_policy.h"
#include "benchmark/benchmark.h"
#include "search/net.h"

namespace uckers {
namespace {

const std::vector<Position>& GamePositions() {
  static const std::vector<Position> positions = [] {
    std::vector<Position> out;
    Rules rules;
    std::mt19937_64 rng(2024);
    std::uniform_int_distribution<int> die(1, 6);
    while (out.size() < 4000) {
      Position pos = Position::Start(rules);
      while (!pos.IsGameOver() && out.size() < 4000) {
        pos = Depth1PolicyStep(pos, rules, MakeThrow(die(rng), die(rng)));
        if (!pos.IsGameOver()) out.push_back(pos);
      }
    }
    return out;
  }();
  return positions;
}

void BM_ClassicEvaluate(benchmark::State& state) {
  const auto& ps = GamePositions();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(Evaluate(ps[i++ % ps.size()], Rules()));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ClassicEvaluate);

void BM_NetEncode(benchmark::State& state) {
  const auto& ps = GamePositions();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(EncodeNetInputs(ps[i++ % ps.size()], Rules()));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NetEncode);

// The whole evaluation a search leaf pays: encoding and the network.
void BM_NetEvaluate(benchmark::State& state) {
  const Net* net = NetFor(Rules());
  if (!net) {
    state.SkipWithError("no shipped net for navy (nets/navy.unet)");
    return;
  }
  const auto& ps = GamePositions();
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(net->Evaluate(ps[i++ % ps.size()]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NetEvaluate);

}  // namespace
}  // namespace uckers

BENCHMARK_MAIN();
