// spsa_tune: tunes evaluation weights for playing strength by SPSA
// (simultaneous perturbation stochastic approximation, as Stockfish's
// fishtest does): each iteration perturbs every weight at once by +c or -c
// (a random sign per weight), plays a few duplicate pairs of the level with
// theta + c*delta against theta - c*delta, and moves theta along delta by the
// result. Every iteration plays its own dice. The settings it prints must
// then be checked by matches against the defaults on other seeds
// (docs/evaluation.md).
//
// usage: spsa_tune [iterations=1000] [pairs=20] [level=advanced]
//                  [weights=every weight but the logistic width] [seed=100000000]
// where weights are `name` or `eval.name=start` items, comma-separated (a
// previous run's settings line continues it; give it another seed), or ""
// for the default list (to give a seed with the default weights).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "search/evaluate.h"
#include "tools/tune/spsa.h"

int main(int argc, char** argv) {
  uckers::SpsaConfig config;
  if (argc > 1) config.iterations = std::atoi(argv[1]);
  if (argc > 2) config.pairs = std::atoi(argv[2]);
  if (argc > 3) config.level = argv[3];
  if (argc > 5) config.seed = std::strtoull(argv[5], nullptr, 10);
  if (config.iterations < 1 || config.pairs < 1) {
    std::fprintf(stderr, "spsa_tune: iterations and pairs must be positive\n");
    return 2;
  }
  std::vector<std::string> items;
  if (argc > 4 && argv[4][0] != '\0') {
    items = absl::StrSplit(argv[4], ',');
  } else {
    for (const std::string& n : uckers::EvalWeightNames()) {
      if (n != "scale_base" && n != "scale_per_sqrt_pip") items.push_back(n);
    }
  }
  for (const std::string& item : items) {
    absl::StatusOr<uckers::SpsaWeight> w = uckers::ParseSpsaWeight(item);
    if (!w.ok()) {
      std::fprintf(stderr, "spsa_tune: %s\n", std::string(w.status().message()).c_str());
      return 2;
    }
    config.theta.push_back(*w);
  }
  absl::StatusOr<std::vector<uckers::SpsaWeight>> tuned = uckers::RunSpsa(config, stdout);
  if (!tuned.ok()) {
    std::fprintf(stderr, "spsa_tune: %s\n", std::string(tuned.status().message()).c_str());
    return 1;
  }
  return 0;
}
