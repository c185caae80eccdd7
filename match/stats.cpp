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

MeanInterval MeanWithInterval(const std::vector<double>& values) {
  MeanInterval m;
  size_t n = values.size();
  if (n == 0) return m;
  for (double v : values) m.mean += v;
  m.mean /= n;
  double var = 0;
  for (double v : values) var += (v - m.mean) * (v - m.mean);
  var = n > 1 ? var / (n - 1) : 0;
  m.half = 1.959963984540054 * std::sqrt(var / n);
  m.spread = static_cast<int>(n) >= kMinPairsForInterval && var > 0;
  return m;
}

EloEstimate EloFromPairs(const std::vector<double>& pair_scores) {
  EloEstimate e;
  if (pair_scores.empty()) return e;
  MeanInterval m = MeanWithInterval(pair_scores);
  e.elo = EloFromScore(m.mean);
  e.low = EloFromScore(m.mean - m.half);
  e.high = EloFromScore(m.mean + m.half);
  e.interval = m.spread;
  return e;
}

LuckAdjusted AdjustForLuck(const std::vector<double>& scores, const std::vector<double>& luck) {
  LuckAdjusted out;
  size_t n = std::min(scores.size(), luck.size());
  if (n >= 2) {
    double ms = 0, ml = 0;
    for (size_t i = 0; i < n; ++i) ms += scores[i], ml += luck[i];
    ms /= n;
    ml /= n;
    double cov = 0, var = 0;
    for (size_t i = 0; i < n; ++i) {
      cov += (scores[i] - ms) * (luck[i] - ml);
      var += (luck[i] - ml) * (luck[i] - ml);
    }
    out.slope = var > 0 ? cov / var : 0;
  }
  out.scores.reserve(n);
  for (size_t i = 0; i < n; ++i) out.scores.push_back(scores[i] - out.slope * luck[i]);
  return out;
}

std::string Plural(int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

}  // namespace uckers
