// Fits the evaluation's weights to self-play outcomes: plays seeded games
// with the depth-1 policy, keeps every position before its throw with
// whether the team to throw went on to win, and moves the weights named on
// the command line, one at a time, while the mean log loss of the predicted
// win probability falls. Reports the loss on games it was not fitted on and
// prints the weights as `uckers match` player settings, to be tried in
// matches (docs/evaluation.md): a lower loss is a better-calibrated
// evaluation, not by itself a stronger player.
//
// usage: eval_fit [games] [weight,weight,...]   (default: every weight)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_split.h"
#include "bench/depth1_policy.h"
#include "eval/evaluate.h"

namespace uckers {
namespace {

struct Sample {
  Position pos;
  bool won;  // the team to throw went on to win
};

std::vector<Sample> SelfPlay(int games, uint64_t seed, const Rules& rules) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> die(1, 6);
  std::vector<Sample> out;
  for (int g = 0; g < games; ++g) {
    Position pos = Position::Start(rules);
    size_t first = out.size();
    while (!pos.IsGameOver()) {
      out.push_back({pos, false});
      pos = Depth1PolicyStep(pos, rules, MakeThrow(die(rng), die(rng)));
    }
    for (size_t i = first; i < out.size(); ++i) {
      out[i].won = TeamOf(out[i].pos.to_throw()) == pos.WinningTeam();
    }
  }
  return out;
}

double LogLoss(const std::vector<Sample>& data, const Rules& rules, const EvalWeights& w) {
  constexpr int kThreads = 2;
  std::vector<double> part(kThreads);
  std::vector<std::thread> threads;
  for (int k = 0; k < kThreads; ++k) {
    threads.emplace_back([&, k] {
      double sum = 0;
      for (size_t i = k; i < data.size(); i += kThreads) {
        double q = std::clamp(Evaluate(data[i].pos, rules, nullptr, w).Win(), 1e-9, 1 - 1e-9);
        sum -= data[i].won ? std::log(q) : std::log(1 - q);
      }
      part[k] = sum;
    });
  }
  for (auto& t : threads) t.join();
  double sum = 0;
  for (double s : part) sum += s;
  return sum / data.size();
}

// Coordinate descent with relative steps that halve when no weight moves
// (or after a few rounds).
EvalWeights Fit(const std::vector<Sample>& data, const Rules& rules,
                const std::vector<std::string>& names) {
  EvalWeights w;
  double best = LogLoss(data, rules, w);
  constexpr int kRoundsPerStep = 6;  // bounds the run: the loss creeps on
  for (double step = 0.4; step > 0.02; step /= 2) {
    bool moved = true;
    for (int round = 0; moved && round < kRoundsPerStep; ++round) {
      moved = false;
      for (const std::string& name : names) {
        double* x = EvalWeightByName(w, name);
        double start = *x;
        for (double candidate :
             {start * (1 + step), start * (1 - step), start + step, start - step}) {
          if (candidate < 0) continue;
          *x = candidate;
          double loss = LogLoss(data, rules, w);
          if (loss < best - 1e-6) {
            best = loss;
            start = candidate;
            moved = true;
          }
        }
        *x = start;
      }
      std::printf("step %.3f  loss %.5f  %s\n", step, best, EvalWeightSettings(w, names).c_str());
      std::fflush(stdout);
    }
  }
  return w;
}

int Run(int games, std::vector<std::string> names) {
  Rules rules;
  std::vector<Sample> train = SelfPlay(games, 21, rules);
  std::vector<Sample> test = SelfPlay(std::max(1, games / 2), 22, rules);
  std::printf("%d games, %zu positions to fit, %zu to test\n", games, train.size(), test.size());
  std::printf("default weights: loss %.5f fitted, %.5f held out\n",
              LogLoss(train, rules, kDefaultWeights), LogLoss(test, rules, kDefaultWeights));
  EvalWeights w = Fit(train, rules, names);
  std::printf("fitted weights:  loss %.5f fitted, %.5f held out\n", LogLoss(train, rules, w),
              LogLoss(test, rules, w));
  std::printf("settings: %s\n", EvalWeightSettings(w, names).c_str());
  return 0;
}

}  // namespace
}  // namespace uckers

int main(int argc, char** argv) {
  int games = argc > 1 ? std::max(1, std::atoi(argv[1])) : 2000;
  std::vector<std::string> names = uckers::EvalWeightNames();
  if (argc > 2) names = absl::StrSplit(argv[2], ',');
  uckers::EvalWeights probe;
  for (const std::string& name : names) {
    if (!uckers::EvalWeightByName(probe, name)) {
      std::fprintf(stderr, "eval_fit: unknown weight '%s'\n", name.c_str());
      return 2;
    }
  }
  return uckers::Run(games, names);
}
