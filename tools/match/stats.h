#pragma once

#include <vector>

namespace uckers {

// Elo difference for an expected score (0 < score < 1); clamped to ±1000
// at the extremes.
double EloFromScore(double score);

// Mean and 95 % interval of per-pair scores (each 0, 0.5 or 1: the share of
// the pair's two games one player won), as Elo. The interval comes from the
// pairs' own variance, so the dice luck shared by a pair cancels.
struct EloEstimate {
  double elo = 0;
  double low = 0;
  double high = 0;
};
EloEstimate EloFromPairs(const std::vector<double>& pair_scores);

}  // namespace uckers
