#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "eval/terms.h"
#include "rules/rules.h"

// The fit behind TermWinChance (eval/terms.h): how much of the mover's
// chance to win each term of a play accounts for, on one ruleset's layout.
namespace uckers {

struct TermFit {
  // Change in the mover's chance to win per unit of each term (kTermNames'
  // order): least squares, without intercept, of
  // win(play) - win(best) = sum_i w_i (term_i(play) - term_i(best)) over
  // every decision's plays other than the best, in two stages: the eight
  // board terms first (each with the race it carries: an entered piece's
  // pips, a knocked-off piece's), then race_pips and opponent_race_pips on
  // what those leave.
  std::array<double, kNumTerms> per_unit{};
  double r2 = 0;      // of the fit, 1 - residual / total sum of squares about 0
  int64_t pairs = 0;  // (best, other play) pairs fitted
  int64_t decisions = 0;
  int games = 0;
};

// Plays `games` games of self-play on the dice of `seed` under `rules`,
// each decision searched one throw deep (`level`, limited to depth 1: the
// evaluation the layout's searches use, every legal play valued), a tenth
// of the plays drawn at random so that the games visit worse positions
// too, and fits the terms' sizes on every decision with a choice.
absl::StatusOr<TermFit> FitTermWinChance(const Rules& rules, int games, uint64_t seed,
                                         const std::string& level);

}  // namespace uckers
