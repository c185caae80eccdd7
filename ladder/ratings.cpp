#include "ladder/ratings.h"

#include <algorithm>
#include <cmath>

namespace uckers {
namespace {

constexpr double kEloPerNat = 400.0 / 2.302585092994046;  // 400 / ln 10
constexpr double kZ95 = 1.959963984540054;

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Solves a * x = b by Gaussian elimination with partial pivoting; a is n x n.
std::vector<double> Solve(std::vector<std::vector<double>> a, std::vector<double> b) {
  int n = static_cast<int>(b.size());
  for (int c = 0; c < n; ++c) {
    int pivot = c;
    for (int r = c + 1; r < n; ++r) {
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    }
    std::swap(a[c], a[pivot]);
    std::swap(b[c], b[pivot]);
    if (std::abs(a[c][c]) < 1e-300) continue;
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      double f = a[r][c] / a[c][c];
      for (int k = c; k < n; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int i = 0; i < n; ++i) b[i] = std::abs(a[i][i]) < 1e-300 ? 0 : b[i] / a[i][i];
  return b;
}

}  // namespace

double ScoreOfElo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

namespace {

// Games of one kind between players i and j: i won `wins` of `games`, each
// with probability Sigmoid(r_i - r_j - offset) at ratings r (in nats).
struct Contest {
  int i = 0, j = 0;
  double games = 0, wins = 0, offset = 0;
};

// The maximum-likelihood ratings of `contests` among n players by Newton's
// method (player 0 rated 0), with 95 % intervals from the inverse Fisher
// information.
std::vector<EloRating> FitElo(int n, const std::vector<Contest>& contests) {
  std::vector<double> r(n, 0.0);
  std::vector<std::vector<double>> info;  // Fisher information of r[1..]
  for (int iter = 0; iter < 100; ++iter) {
    std::vector<double> grad(n - 1, 0);
    info.assign(n - 1, std::vector<double>(n - 1, 0));
    for (const Contest& c : contests) {
      double p = Sigmoid(r[c.i] - r[c.j] - c.offset);
      double h = c.games * p * (1 - p);
      double g = c.wins - c.games * p;
      if (c.i > 0) {
        grad[c.i - 1] += g;
        info[c.i - 1][c.i - 1] += h;
        if (c.j > 0) info[c.i - 1][c.j - 1] -= h;
      }
      if (c.j > 0) {
        grad[c.j - 1] -= g;
        info[c.j - 1][c.j - 1] += h;
        if (c.i > 0) info[c.j - 1][c.i - 1] -= h;
      }
    }
    if (n <= 1) break;
    std::vector<double> step = Solve(info, grad);
    double largest = 0;
    for (int i = 1; i < n; ++i) {
      double s = std::max(-2.0, std::min(2.0, step[i - 1]));
      r[i] += s;
      largest = std::max(largest, std::abs(s));
    }
    if (largest < 1e-10) break;
  }
  std::vector<EloRating> out(n);
  for (int i = 0; i < n; ++i) {
    double se = 0;
    if (i > 0) {
      std::vector<double> unit(n - 1, 0);
      unit[i - 1] = 1;
      se = std::sqrt(std::max(0.0, Solve(info, unit)[i - 1]));
    }
    out[i].elo = r[i] * kEloPerNat;
    out[i].low = (r[i] - kZ95 * se) * kEloPerNat;
    out[i].high = (r[i] + kZ95 * se) * kEloPerNat;
  }
  return out;
}

}  // namespace

std::vector<EloRating> MaximumLikelihoodElo(const std::vector<std::vector<int>>& wins) {
  int n = static_cast<int>(wins.size());
  std::vector<std::vector<double>> w(n, std::vector<double>(n, 0));
  for (int i = 0; i < n; ++i) {
    int won = 0, played = 0;
    for (int j = 0; j < n; ++j) {
      w[i][j] = wins[i][j];
      won += wins[i][j];
      played += wins[i][j] + wins[j][i];
    }
    if (played > 0 && (won == 0 || won == played)) {  // the prior of docs/ladder.md
      for (int j = 0; j < n; ++j) {
        if (wins[i][j] + wins[j][i] == 0) continue;
        w[i][j] += 0.5;
        w[j][i] += 0.5;
      }
    }
  }
  std::vector<Contest> contests;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (w[i][j] + w[j][i] > 0) contests.push_back({i, j, w[i][j] + w[j][i], w[i][j], 0});
    }
  }
  return FitElo(n, contests);
}

std::vector<EloRating> LuceElo(const std::vector<std::vector<int>>& alone_games,
                               const std::vector<std::vector<int>>& alone_wins, int sides) {
  int n = static_cast<int>(alone_games.size());
  std::vector<AloneGames> games;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j && alone_games[i][j] > 0) {
        games.push_back({i, j, sides, alone_games[i][j], alone_wins[i][j]});
      }
    }
  }
  return LuceElo(n, games);
}

std::vector<EloRating> LuceElo(int n, const std::vector<AloneGames>& games) {
  // A player that won every game it met or none would be infinite: as with
  // two sides, half a win and half a loss of prior on each kind of game it
  // played.
  std::vector<double> all(n, 0), mine(n, 0);
  for (const AloneGames& g : games) {
    all[g.alone] += g.games;
    all[g.other] += g.games;
    mine[g.alone] += g.alone_won;
    mine[g.other] += g.games - g.alone_won;
  }
  std::vector<Contest> contests;
  for (const AloneGames& g : games) {
    if (g.games <= 0) continue;
    bool prior = (all[g.alone] > 0 && (mine[g.alone] == 0 || mine[g.alone] == all[g.alone])) ||
                 (all[g.other] > 0 && (mine[g.other] == 0 || mine[g.other] == all[g.other]));
    contests.push_back({g.alone, g.other, g.games + (prior ? 1.0 : 0.0),
                        g.alone_won + (prior ? 0.5 : 0.0), std::log(std::max(1, g.sides - 1))});
  }
  return FitElo(n, contests);
}

double SprtLlr(const std::vector<double>& pair_scores, double elo0, double elo1) {
  double n = static_cast<double>(pair_scores.size());
  if (n < 2) return 0;
  double mean = 0, sq = 0;
  for (double s : pair_scores) {
    mean += s;
    sq += s * s;
  }
  mean /= n;
  double var = sq / n - mean * mean;
  if (var <= 0) return 0;
  double s0 = ScoreOfElo(elo0), s1 = ScoreOfElo(elo1);
  return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

double SprtLowerBound(double alpha, double beta) { return std::log(beta / (1 - alpha)); }
double SprtUpperBound(double alpha, double beta) { return std::log((1 - beta) / alpha); }

int SprtDecision(double llr, int pairs, double alpha, double beta) {
  if (pairs < kSprtMinPairs) return 0;
  if (llr >= SprtUpperBound(alpha, beta)) return 1;
  if (llr <= SprtLowerBound(alpha, beta)) return -1;
  return 0;
}

}  // namespace uckers
