#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace uckers {

// One evaluation weight under tuning (a field of EvalWeights, by name).
struct SpsaWeight {
  std::string name;
  double value = 0;  // theta
  double c = 0;      // perturbation size: a fifth of the default, at least 0.05
};

// `name`, `eval.name` or `eval.name=start` (a previous run's settings line,
// split at commas, continues that run). Unknown names and negative or
// malformed starts are refused, naming the item.
absl::StatusOr<SpsaWeight> ParseSpsaWeight(absl::string_view item);

// Spall's gain sequence, a * (A / (k + 1 + A))^0.602 with A a tenth of the
// run and a = 0.2: a sure win moves a weight by 0.2 c at first, and the
// random walk of the match noise stays well under c over the run.
double SpsaGain(int k, int iterations);

// theta += gain * c * delta * result, weights kept >= 0. `result` is the
// score of theta + c*delta against theta - c*delta, in -1..1.
void SpsaUpdate(std::vector<SpsaWeight>& theta, const std::vector<int>& delta, double gain,
                double result);

// theta (plus `shift`, when given) as `uckers match` player settings:
// `eval.name=value,...`.
std::string SpsaSettings(const std::vector<SpsaWeight>& theta,
                         const std::vector<double>& shift = {});

struct SpsaConfig {
  std::vector<SpsaWeight> theta;
  int iterations = 1000;
  int pairs = 20;  // duplicate pairs per iteration
  std::string level = "advanced";
  uint64_t seed = 100000000;  // iteration k plays dice seeds seed + k*pairs..
};

// Runs the tuning, printing theta every 50 iterations and a final
// `settings: ...` line to `out`; returns the tuned weights.
absl::StatusOr<std::vector<SpsaWeight>> RunSpsa(const SpsaConfig& config, FILE* out);

}  // namespace uckers
