#include "learn/term_fit.h"

#include <atomic>
#include <cmath>
#include <random>
#include <string_view>
#include <vector>

#include "eval/terms.h"
#include "rules/dice_sequence.h"
#include "rules/movegen.h"
#include "search/door.h"

namespace uckers {
namespace {

constexpr int kMaxThrowsPerGame = 2000;
constexpr double kExplore = 0.1;

using Matrix = std::array<std::array<double, kNumTerms>, kNumTerms>;

// The race terms, fitted last, on what the others leave.
bool IsRace(int i) {
  return kTermNames[i] == std::string_view("race_pips") ||
         kTermNames[i] == std::string_view("opponent_race_pips");
}

struct Sample {
  std::array<double, kNumTerms> x;
  double y;
};

// Solves a * w = b (a symmetric, made positive definite by a small ridge)
// by Gaussian elimination with partial pivoting.
std::array<double, kNumTerms> Solve(Matrix a, std::array<double, kNumTerms> b) {
  for (int i = 0; i < kNumTerms; ++i) a[i][i] += 1e-9 * (1 + a[i][i]);
  for (int col = 0; col < kNumTerms; ++col) {
    int pivot = col;
    for (int r = col + 1; r < kNumTerms; ++r) {
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    }
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    for (int r = col + 1; r < kNumTerms; ++r) {
      double f = a[r][col] / a[col][col];
      for (int c = col; c < kNumTerms; ++c) a[r][c] -= f * a[col][c];
      b[r] -= f * b[col];
    }
  }
  std::array<double, kNumTerms> w{};
  for (int r = kNumTerms - 1; r >= 0; --r) {
    double s = b[r];
    for (int c = r + 1; c < kNumTerms; ++c) s -= a[r][c] * w[c];
    w[r] = s / a[r][r];
  }
  return w;
}

// The least-squares weights of the terms `race` says (the race terms or
// the others) on what `fixed` leaves of each sample's y; the other weights
// are `fixed`'s.
std::array<double, kNumTerms> FitStage(const std::vector<Sample>& samples,
                                       const std::array<double, kNumTerms>& fixed, bool race) {
  Matrix xtx{};
  std::array<double, kNumTerms> xty{};
  for (const Sample& s : samples) {
    double y = s.y;
    for (int i = 0; i < kNumTerms; ++i) y -= fixed[i] * s.x[i];
    for (int i = 0; i < kNumTerms; ++i) {
      if (IsRace(i) != race) continue;
      xty[i] += s.x[i] * y;
      for (int j = 0; j < kNumTerms; ++j) xtx[i][j] += IsRace(j) == race ? s.x[i] * s.x[j] : 0;
    }
  }
  for (int i = 0; i < kNumTerms; ++i) {
    if (IsRace(i) != race) xtx[i][i] = 1;  // w_i = 0 here, fixed[i] kept below
  }
  std::array<double, kNumTerms> w = Solve(xtx, xty);
  for (int i = 0; i < kNumTerms; ++i) {
    if (IsRace(i) != race) w[i] = fixed[i];
  }
  return w;
}

// One game's samples: every decision with a choice, each play against the
// best.
absl::Status PlayGame(const Rules& rules, uint64_t seed, const SearchRequest& base,
                      std::vector<Sample>* samples, int64_t* decisions) {
  DiceSequence dice(seed);
  std::mt19937_64 explorer(seed ^ 0x9E3779B97F4A7C15ull);
  std::uniform_real_distribution<double> chance(0.0, 1.0);
  std::atomic<bool> stop{false};
  TranspositionTable tt(1);
  Position pos = Position::Start(rules);
  for (int throws = 0; !pos.IsGameOver() && throws < kMaxThrowsPerGame; ++throws) {
    SearchRequest request = base;
    request.dice = dice.Next();
    absl::StatusOr<SearchReport> report = SearchPosition(pos, rules, request, &tt, stop);
    if (!report.ok()) return report.status();
    const std::vector<Candidate>& c = report->candidates;
    if (c.size() > 1) {
      ++*decisions;
      std::array<double, kNumTerms> best = TermValues(TermsOf(pos, {c[0].play, c[0].after}, rules));
      for (size_t k = 1; k < c.size(); ++k) {
        std::array<double, kNumTerms> other =
            TermValues(TermsOf(pos, {c[k].play, c[k].after}, rules));
        Sample s{{}, c[k].eval.Win() - c[0].eval.Win()};
        for (int i = 0; i < kNumTerms; ++i) s.x[i] = other[i] - best[i];
        samples->push_back(s);
      }
    }
    size_t pick = 0;
    if (c.size() > 1 && chance(explorer) < kExplore) pick = explorer() % c.size();
    pos = c[pick].after;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TermFit> FitTermWinChance(const Rules& rules, int games, uint64_t seed,
                                         const std::string& level) {
  if (games < 1) return absl::InvalidArgumentError("games must be at least 1");
  SearchRequest request;
  request.level = level;
  request.multipv = kMaxMultiPv;
  request.limits.depth = 1;
  if (absl::StatusOr<SearchParams> p = RequestParams(request); !p.ok()) return p.status();
  TermFit fit;
  fit.games = games;
  std::vector<Sample> samples;
  for (int g = 0; g < games; ++g) {
    absl::Status s =
        PlayGame(rules, seed + static_cast<uint64_t>(g), request, &samples, &fit.decisions);
    if (!s.ok()) return s;
  }
  fit.pairs = static_cast<int64_t>(samples.size());
  // The board's terms first, each with the race it carries (an entered
  // piece's pips, a knocked-off piece's), then the race terms on the rest.
  fit.per_unit = FitStage(samples, FitStage(samples, {}, false), true);
  double yy = 0, residual = 0;
  for (const Sample& s : samples) {
    double e = s.y;
    for (int i = 0; i < kNumTerms; ++i) e -= fit.per_unit[i] * s.x[i];
    residual += e * e;
    yy += s.y * s.y;
  }
  fit.r2 = yy > 0 ? 1 - residual / yy : 0;
  return fit;
}

}  // namespace uckers
