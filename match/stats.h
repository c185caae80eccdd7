#pragma once

#include <cstdint>
#include <string>
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
  // Whether low .. high means anything: at least kMinPairsForInterval
  // pairs whose scores differ.
  bool interval = false;
};

// Fewer pairs give no interval: the normal approximation over pair scores
// is meaningless with a handful of them.
inline constexpr int kMinPairsForInterval = 10;

// The mean of per-pair values and its 95 % normal interval (half its width);
// `spread` is false with fewer than kMinPairsForInterval values or when all
// are alike.
struct MeanInterval {
  double mean = 0;
  double half = 0;
  bool spread = false;
};
MeanInterval MeanWithInterval(const std::vector<double>& values);

// Per-pair scores with the luck taken out: score - slope * luck, where luck
// is the pair's measured luck (mean zero over fair dice: review/review.h
// WinLuckBySide) and slope the least-squares slope of the scores on it, the
// multiple that leaves the least variance (about 1 between players the
// evaluation understands, less when the luck tells less of the result;
// 0 with fewer than two pairs or no spread of luck). The mean keeps the
// scores' expectation (a control variate; fitting the slope biases it by
// O(1/pairs)).
struct LuckAdjusted {
  std::vector<double> scores;
  double slope = 0;
};
LuckAdjusted AdjustForLuck(const std::vector<double>& scores, const std::vector<double>& luck);

// "1 pair", "2 pairs".
std::string Plural(int64_t n, const std::string& one, const std::string& many = "");
EloEstimate EloFromPairs(const std::vector<double>& pair_scores);

}  // namespace uckers
