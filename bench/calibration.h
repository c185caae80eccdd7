#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace uckers {

// A predicted win probability against what happened: counts by decile and
// the mean log loss (0.693 is a coin flip), for the calibration benches.
struct Calibration {
  static constexpr int kBuckets = 10;
  std::vector<double> predicted = std::vector<double>(kBuckets);
  std::vector<double> count = std::vector<double>(kBuckets);
  std::vector<double> won = std::vector<double>(kBuckets);
  double log_loss = 0;
  long positions = 0;

  void Add(double p, bool win) {
    int b = std::min(kBuckets - 1, static_cast<int>(p * kBuckets));
    predicted[b] += p;
    count[b] += 1;
    won[b] += win;
    double q = std::clamp(p, 1e-9, 1 - 1e-9);
    log_loss -= win ? std::log(q) : std::log(1 - q);
    ++positions;
  }
  void Print(const char* name) const {
    std::printf("%s: log loss %.4f over %ld positions\n", name, log_loss / positions, positions);
    for (int b = 0; b < kBuckets; ++b) {
      if (count[b] == 0) continue;
      std::printf("  predicted %.3f  won %.3f  positions %.0f\n", predicted[b] / count[b],
                  won[b] / count[b], count[b]);
    }
  }
};

}  // namespace uckers
