// How well the static evaluation's win probability is calibrated: plays
// self-play games with the depth-1 policy (seeded dice), evaluates every
// position before its throw, and compares the predicted win probability of
// the team to throw with how often that team went on to win, in buckets,
// with the mean log loss (0.693 is a coin flip). Expectimax averages these
// probabilities over throws, so a miscalibrated evaluation misleads every
// search deeper than one throw (docs/evaluation.md).
//
// usage: eval_calibration [games] [scale_base] [scale_per_sqrt_pip]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

#include "bench/calibration.h"
#include "bench/depth1_policy.h"
#include "eval/evaluate.h"

namespace uckers {
namespace {

int Run(int games, const EvalWeights& w) {
  Rules rules;
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> die(1, 6);
  Calibration calibration;
  for (int g = 0; g < games; ++g) {
    Position pos = Position::Start(rules);
    std::vector<std::pair<double, int>> seen;  // (win probability, team)
    while (!pos.IsGameOver()) {
      seen.push_back({Evaluate(pos, rules, nullptr, w).Win(), TeamOf(pos.to_throw())});
      pos = Depth1PolicyStep(pos, rules, MakeThrow(die(rng), die(rng)));
    }
    for (auto [p, team] : seen) calibration.Add(p, team == pos.WinningTeam());
  }
  std::printf("scale_base %.2f scale_per_sqrt_pip %.2f, %d games\n", w.scale_base,
              w.scale_per_sqrt_pip, games);
  calibration.Print("classic");
  return 0;
}

}  // namespace
}  // namespace uckers

int main(int argc, char** argv) {
  uckers::EvalWeights w;
  int games = argc > 1 ? std::atoi(argv[1]) : 1000;
  if (argc > 2) w.scale_base = std::atof(argv[2]);
  if (argc > 3) w.scale_per_sqrt_pip = std::atof(argv[3]);
  return uckers::Run(std::max(games, 1), w);
}
