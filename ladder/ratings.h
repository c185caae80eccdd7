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

// The same for games of `sides` sides where one player holds one side and
// another every other side (docs/ladder.md, "More sides"): Luce's choice
// model, the winner's strength over the sum of the strengths at the table,
// so player i alone against j wins with 1 / (1 + (sides - 1) 10^((elo_j -
// elo_i) / 400)), the fair share 1/sides at equal ratings; with two sides
// it is the model above. alone_games[i][j]: games of i alone against j;
// alone_wins[i][j]: those i won (the others j won).
std::vector<EloRating> LuceElo(const std::vector<std::vector<int>>& alone_games,
                               const std::vector<std::vector<int>>& alone_wins, int sides);

// The same over games of several layouts (the standing ladder): each entry
// is `games` of player `alone` alone on one of `sides` sides against
// `other` on every other side, `alone_won` of them won by `alone`.
struct AloneGames {
  int alone = 0, other = 0, sides = 2;
  int games = 0, alone_won = 0;
};
std::vector<EloRating> LuceElo(int n, const std::vector<AloneGames>& games);

// The generalised SPRT's log-likelihood ratio over pair scores (each the
// mean score of a duplicate pair's two games, in [0, 1]), as fishtest
// computes it in the normal approximation: H0 Elo = elo0 against H1 Elo =
// elo1, the pairs' own mean and variance.
double SprtLlr(const std::vector<double>& pair_scores, double elo0, double elo1);
// The pairs a GSPRT plays before it may stop: the variance of fewer is too
// rough (a few alike pairs look certain), the more so for luck-adjusted
// scores, which spread continuously.
inline constexpr int kSprtMinPairs = 50;
// Bounds: accept H0 at or below the lower, H1 at or above the upper.
double SprtLowerBound(double alpha, double beta);
double SprtUpperBound(double alpha, double beta);
// The test's verdict after `pairs` pairs at `llr`: +1 H1 accepted, -1 H0
// accepted, 0 not decided (inside the bounds, or fewer than kSprtMinPairs).
int SprtDecision(double llr, int pairs, double alpha, double beta);

}  // namespace uckers
