#include "match/stats.h"

#include <algorithm>
#include <cmath>

namespace uckers {

double EloFromScore(double score) {
  constexpr double kLimit = 1000;
  if (score <= 0) return -kLimit;
  if (score >= 1) return kLimit;
  return std::clamp(-400.0 * std::log10(1.0 / score - 1.0), -kLimit, kLimit);
}

EloEstimate EloFromPairs(const std::vector<double>& pair_scores) {
  EloEstimate e;
  size_t n = pair_scores.size();
  if (n == 0) return e;
  double mean = 0;
  for (double s : pair_scores) mean += s;
  mean /= n;
  double var = 0;
  for (double s : pair_scores) var += (s - mean) * (s - mean);
  var = n > 1 ? var / (n - 1) : 0;
  double half = 1.959963984540054 * std::sqrt(var / n);
  e.elo = EloFromScore(mean);
  e.low = EloFromScore(mean - half);
  e.high = EloFromScore(mean + half);
  e.interval = static_cast<int>(n) >= kMinPairsForInterval && var > 0;
  return e;
}

std::string Plural(int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

}  // namespace uckers
