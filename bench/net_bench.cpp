// Speed of the learned evaluation: evaluations a second on one core, against
// the classic evaluation on the same positions (positions from seeded
// depth-1 self-play games), for the net of one hidden layer and the deep net
// in the same run; and the deep net's quantisation error.
//
// The deep net measured is the one in the file named by UCKERS_DEEP_NET, the
// shipped navy net when it is deep, else a deep net of 256-32-32 with
// random weights (its speed does not depend on its weights); the net of one
// hidden layer is the shipped one when it is of that kind, else one of 128
// units with random weights.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include "bench/depth1_policy.h"
#include "benchmark/benchmark.h"
#include "eval/net.h"
#include "search/levels.h"
#include "search/search.h"
#include "search/tt.h"

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

const Net& ShallowNet() {
  static const Net net = [] {
    const Net* shipped = NetFor(Rules());
    return shipped && !shipped->deep() ? *shipped : Net::Random(Rules(), 128, 1);
  }();
  return net;
}

const Net& DeepNet() {
  static const Net net = [] {
    if (const char* path = std::getenv("UCKERS_DEEP_NET")) {
      absl::StatusOr<Net> loaded = Net::Load(path);
      if (loaded.ok() && loaded->deep()) return *std::move(loaded);
      std::fprintf(stderr, "UCKERS_DEEP_NET=%s: not a deep net; a random one is measured\n", path);
    }
    const Net* shipped = NetFor(Rules());
    if (shipped && shipped->deep()) return *shipped;
    Net random = Net::RandomDeep(Rules(), {256, 32, 32}, 1);
    random.Quantise();
    return random;
  }();
  return net;
}

// Evaluates `positions` in turn with `net`: the whole evaluation a search
// leaf pays, encoding and the network.
void EvaluateEach(benchmark::State& state, const Net& net, const std::vector<Position>& positions) {
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(net.Evaluate(positions[i++ % positions.size()]));
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(net.Describe());
}

void BM_NetEvaluate(benchmark::State& state) { EvaluateEach(state, ShallowNet(), GamePositions()); }
BENCHMARK(BM_NetEvaluate);

void BM_DeepNetEncode(benchmark::State& state) {
  const auto& ps = GamePositions();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(DeepNet().Encode(ps[i++ % ps.size()]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DeepNetEncode);

// Positions as a search meets them: for each game position and throw, every
// position a play leads to, in move-generation order (siblings differ in a
// few inputs, so the accumulator is mostly updated, not summed afresh).
const std::vector<Position>& SearchLeaves() {
  static const std::vector<Position> leaves = [] {
    std::vector<Position> out;
    Rules rules;
    const auto& ps = GamePositions();
    for (size_t i = 0; i < ps.size() && out.size() < 20000; i += 7) {
      for (int a = 1; a <= 6; a += 2) {
        for (int b = a; b <= 6; b += 3) {
          for (const Position& next : Depth1Children(ps[i], rules, MakeThrow(a, b))) {
            if (!next.IsGameOver()) out.push_back(next);
          }
        }
      }
    }
    return out;
  }();
  return leaves;
}

void BM_NetEvaluateSearchOrder(benchmark::State& state) {
  EvaluateEach(state, ShallowNet(), SearchLeaves());
}
BENCHMARK(BM_NetEvaluateSearchOrder);

// The deep net, quantised, its accumulator kept per thread and colour.
void BM_DeepNetEvaluate(benchmark::State& state) {
  EvaluateEach(state, DeepNet(), GamePositions());
}
BENCHMARK(BM_DeepNetEvaluate);

void BM_DeepNetEvaluateSearchOrder(benchmark::State& state) {
  EvaluateEach(state, DeepNet(), SearchLeaves());
}
BENCHMARK(BM_DeepNetEvaluateSearchOrder);

// The deep net summed afresh every time (no accumulator kept).
void BM_DeepNetEvaluateRefresh(benchmark::State& state) {
  const Net& net = DeepNet();
  const auto& ps = SearchLeaves();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(net.Evaluate(DeepNet().Encode(ps[i++ % ps.size()])));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DeepNetEvaluateRefresh);

// The deep net in float (as training evaluates it), for the integer
// kernels' gain.
void BM_DeepNetEvaluateFloat(benchmark::State& state) {
  const Net& net = DeepNet();
  const auto& ps = SearchLeaves();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(net.EvaluateFloat(DeepNet().Encode(ps[i++ % ps.size()])));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DeepNetEvaluateFloat);

// The quantisation's error: the integer evaluation against the float one
// on every search leaf, in win probability (counters max and mean) and in
// the six outcomes (max).
void BM_DeepNetQuantisationError(benchmark::State& state) {
  const Net& net = DeepNet();
  const auto& ps = SearchLeaves();
  double max_win = 0, sum_win = 0, max_outcome = 0;
  for (auto _ : state) {
    max_win = sum_win = max_outcome = 0;
    for (const Position& p : ps) {
      Evaluation q = net.Evaluate(p), f = net.EvaluateFloat(net.Encode(p));
      double d = std::abs(q.Win() - f.Win());
      max_win = std::max(max_win, d);
      sum_win += d;
      for (int k = 0; k < kNumOutcomes; ++k) {
        max_outcome = std::max(max_outcome, std::abs(q.p[k] - f.p[k]));
      }
    }
  }
  state.counters["max_win_diff"] = max_win;
  state.counters["mean_win_diff"] = sum_win / ps.size();
  state.counters["max_outcome_diff"] = max_outcome;
  state.counters["positions"] = static_cast<double>(ps.size());
}
BENCHMARK(BM_DeepNetQuantisationError)->Iterations(1);

// The reference level's search to depth 2 and 3 (argument: depth, then 0 for
// the net of one hidden layer, 1 for the deep net) over game positions
// with the throw that came: its nodes a second, the measure of what a
// faster evaluation buys a search.
void BM_SearchWithNet(benchmark::State& state) {
  const int depth = static_cast<int>(state.range(0));
  const Net& net = state.range(1) ? DeepNet() : ShallowNet();
  SearchParams params;
  ApplyLevel(kReferenceLevel, &params).IgnoreError();
  params.net = &net;
  const auto& ps = GamePositions();
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> die(1, 6);
  std::vector<std::pair<Position, Throw>> searches;
  for (size_t i = 0; i < ps.size() && searches.size() < 40; i += 97) {
    searches.push_back({ps[i], MakeThrow(die(rng), die(rng))});
  }
  uint64_t nodes = 0;
  std::atomic<bool> stop{false};
  for (auto _ : state) {
    for (const auto& [pos, t] : searches) {
      TranspositionTable tt(1);
      SearchLimits limits;
      limits.depth = depth;
      nodes += SearchPlay(pos, Rules(), t, params, limits, &tt, stop, nullptr).nodes;
    }
  }
  state.counters["nps"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
  state.SetLabel(net.Describe());
}
BENCHMARK(BM_SearchWithNet)
    ->Args({2, 0})
    ->Args({2, 1})
    ->Args({3, 0})
    ->Args({3, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace uckers

BENCHMARK_MAIN();
