#include "tune/spsa.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "eval/evaluate.h"
#include "match/match.h"

namespace uckers {

absl::StatusOr<SpsaWeight> ParseSpsaWeight(absl::string_view item) {
  std::vector<std::string> kv = absl::StrSplit(item, absl::MaxSplits('=', 1));
  std::string name = absl::StartsWith(kv[0], "eval.") ? kv[0].substr(5) : kv[0];
  EvalWeights defaults;
  double* w = EvalWeightByName(defaults, name);
  if (!w) return absl::InvalidArgumentError(absl::StrCat("unknown weight '", item, "'"));
  SpsaWeight out{name, *w, std::max(0.2 * *w, 0.05)};
  if (kv.size() == 2 &&
      (!absl::SimpleAtod(kv[1], &out.value) || !std::isfinite(out.value) || out.value < 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("weight '", item, "': the start must be a finite number >= 0"));
  }
  return out;
}

double SpsaGain(int k, int iterations) {
  double horizon = std::max(1.0, iterations / 10.0);
  return 0.2 * std::pow(horizon / (k + 1 + horizon), 0.602);
}

void SpsaUpdate(std::vector<SpsaWeight>& theta, const std::vector<int>& delta, double gain,
                double result) {
  for (size_t i = 0; i < theta.size(); ++i) {
    theta[i].value = std::max(0.0, theta[i].value + gain * theta[i].c * delta[i] * result);
  }
}

std::string SpsaSettings(const std::vector<SpsaWeight>& theta, const std::vector<double>& shift) {
  EvalWeights w;
  std::vector<std::string> names;
  for (size_t i = 0; i < theta.size(); ++i) {
    double v = theta[i].value + (shift.empty() ? 0.0 : shift[i]);
    if (double* field = EvalWeightByName(w, theta[i].name)) *field = std::max(0.0, v);
    names.push_back(theta[i].name);
  }
  return EvalWeightSettings(w, names);
}

absl::StatusOr<std::vector<SpsaWeight>> RunSpsa(const SpsaConfig& config, FILE* out) {
  std::vector<SpsaWeight> theta = config.theta;
  std::mt19937_64 rng(config.seed);
  for (int k = 0; k < config.iterations; ++k) {
    std::vector<int> delta(theta.size());
    std::vector<double> plus(theta.size()), minus(theta.size());
    for (size_t i = 0; i < theta.size(); ++i) {
      delta[i] = rng() & 1 ? 1 : -1;
      plus[i] = theta[i].c * delta[i];
      minus[i] = -plus[i];
    }
    MatchConfig match;
    match.player_a = absl::StrCat(config.level, ",", SpsaSettings(theta, plus));
    match.player_b = absl::StrCat(config.level, ",", SpsaSettings(theta, minus));
    match.pairs = config.pairs;
    match.concurrency = 2;
    match.seed = config.seed + static_cast<uint64_t>(k) * config.pairs;
    match.progress = false;
    absl::StatusOr<v1::MatchReport> report = RunMatch(match);
    if (!report.ok()) return report.status();
    double result = (report->a_wins() - report->b_wins()) / double(report->games());
    SpsaUpdate(theta, delta, SpsaGain(k, config.iterations), result);
    if ((k + 1) % 50 == 0) {
      std::fprintf(out, "iteration %d: %s\n", k + 1, SpsaSettings(theta).c_str());
      std::fflush(out);
    }
  }
  std::fprintf(out, "settings: %s\n", SpsaSettings(theta).c_str());
  return theta;
}

}  // namespace uckers
