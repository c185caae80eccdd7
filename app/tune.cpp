// `uckers tune`: tunes evaluation weights for playing strength by SPSA
// (simultaneous perturbation stochastic approximation, as Stockfish's
// fishtest does; tune/spsa.h). The settings it prints must then be
// checked by matches against the defaults on other seeds (docs/evaluation.md).
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "eval/evaluate.h"
#include "search/settings.h"
#include "tune/spsa.h"

ABSL_FLAG(int, iterations, 1000, "SPSA iterations");
ABSL_FLAG(std::string, weights, "",
          "the weights tuned, `name` or `eval.name=start` items comma-separated (a previous "
          "run's settings line continues it; default: every weight but the logistic width)");

namespace uckers {
namespace {

absl::Status RunTuneCommand(const CommandLine& cl) {
  SpsaConfig config;
  config.iterations = absl::GetFlag(FLAGS_iterations);
  config.pairs = cl.Given("pairs") ? absl::GetFlag(FLAGS_pairs) : 20;
  config.level = cl.Given("level") ? absl::GetFlag(FLAGS_level) : "advanced";
  config.seed = cl.Given("seed") ? absl::GetFlag(FLAGS_seed) : 100000000;
  if (config.iterations < 1 || config.pairs < 1) {
    return UsageError("--iterations and --pairs must be 1 or more");
  }
  if (absl::Status s = CheckChoiceSetting("level", config.level); !s.ok()) {
    return UsageError(absl::StrCat("--level: ", s.message()));
  }
  std::vector<std::string> items;
  if (std::string weights = absl::GetFlag(FLAGS_weights); !weights.empty()) {
    items = absl::StrSplit(weights, ',');
  } else {
    for (const std::string& n : EvalWeightNames()) {
      if (n != "scale_base" && n != "scale_per_sqrt_pip") items.push_back(n);
    }
  }
  for (const std::string& item : items) {
    absl::StatusOr<SpsaWeight> w = ParseSpsaWeight(item);
    if (!w.ok()) {
      return UsageError(absl::StrCat("--weights: ", w.status().message()));
    }
    for (const SpsaWeight& seen : config.theta) {
      if (seen.name == w->name) {
        return UsageError(absl::StrCat("--weights: weight '", w->name, "' is given twice"));
      }
    }
    config.theta.push_back(*w);
  }
  absl::StatusOr<std::vector<SpsaWeight>> tuned = RunSpsa(config, stdout);
  if (!tuned.ok()) return Failed(tuned.status().message());
  return absl::OkStatus();
}

}  // namespace

const Command& TuneCommand() {
  static const Command command = {
      .name = "tune",
      .summary = "SPSA tuning of the classic evaluation's weights by self-play matches",
      .usage =
          "uckers tune [--iterations N] [--pairs N] [--level L] [--weights W] [--seed S]\n"
          "  each iteration perturbs every weight at once by +c or -c, plays duplicate\n"
          "  pairs of theta + c*delta against theta - c*delta, and moves theta along delta;\n"
          "  prints theta every 50 iterations and a final `settings: ...` line",
      .flags_file = "app/tune.cpp",
      .shared = {{"pairs", "duplicate pairs an iteration", "20"},
                 {"level", "the level whose evaluation is tuned", "advanced"},
                 {"seed", "iteration k plays dice seeds seed + k * pairs ...", "100000000"}},
      .run = RunTuneCommand,
  };
  return command;
}

}  // namespace uckers
