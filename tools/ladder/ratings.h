#pragma once

#include <vector>

namespace uckers {

// Elo difference of a logistic expected score, and back.
double ScoreOfElo(double elo);

// Maximum-likelihood (Bradley-Terry) Elo ratings from a table of games won:
// wins[i][j] = games player i won against player j. Ratings are relative to
// player 0 (rated 0); each interval is 95 % from the inverse Fisher
// information. A player with every game won or lost would be infinite: its
// games get half a win and half a loss of prior each (docs/ladder.md).
struct EloRating {
  double elo = 0;
  double low = 0;
  double high = 0;
};
std::vector<EloRating> MaximumLikelihoodElo(const std::vector<std::vector<int>>& wins);

// The generalised SPRT's log-likelihood ratio over pair scores (each the
// mean score of a duplicate pair's two games, in [0, 1]), as fishtest
// computes it in the normal approximation: H0 Elo = elo0 against H1 Elo =
// elo1, the pairs' own mean and variance.
double SprtLlr(const std::vector<double>& pair_scores, double elo0, double elo1);
// Bounds: accept H0 at or below the lower, H1 at or above the upper.
double SprtLowerBound(double alpha, double beta);
double SprtUpperBound(double alpha, double beta);

}  // namespace uckers
