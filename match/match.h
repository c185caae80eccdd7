#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "rules/rules.h"
#include "uckers/v1/match.pb.h"

namespace uckers {

inline constexpr int kMaxPairs = 1'000'000;  // pairs one match (or matchup) may ask for
inline constexpr int kMaxConcurrency = 256;

// Refuses, by name, pairs outside 1..kMaxPairs or concurrency outside
// 1..kMaxConcurrency (a match's, or a ladder's per matchup).
absl::Status CheckPairsAndConcurrency(int pairs, int concurrency);
// `--luck_depth`: 0 or 1, and other than 0 only with `--luck`.
absl::Status CheckLuckDepth(bool luck, int luck_depth);

struct MatchConfig {
  std::string player_a;  // player specifications (match/player.h)
  std::string player_b;
  Rules rules;
  int pairs = 100;          // duplicate pairs: each dice sequence twice, swapped
  int concurrency = 1;      // games played at once
  uint64_t seed = 1;        // pair i plays dice seed + i
  bool progress = true;     // a progress bar on stderr
  std::string records_dir;  // when set, every game's record is saved there
  std::string games_out;    // when set, one JSON line per game played (GamesLog)
  // Read the pairs whose two records are already in records_dir instead of
  // playing them (a run interrupted before); needs records_dir.
  bool resume = false;
  // Also the luck-adjusted result (v1::MatchReport.luck_adjusted): each
  // game's luck is measured after it ends (review/review.h WinLuckBySide).
  bool luck = false;
  int luck_depth = 0;  // 1: each throw valued one throw deeper (WinLuckBySide)
  // When set and true (SIGINT, SIGTERM), no new pair starts; the pairs in
  // flight finish and the report covers the pairs done.
  const std::atomic<bool>* interrupted = nullptr;
};

// Plays the match and reports A's results. Pairs are dealt to `concurrency`
// workers, each with its own players; the report is the same whatever the
// concurrency (pairs are scored in pair order).
// Pairs must be 1..kMaxPairs and concurrency 1..kMaxConcurrency; no more
// workers start than there are pairs.
absl::StatusOr<v1::MatchReport> RunMatch(const MatchConfig& config);

// The report as text, for people.
std::string MatchReportText(const v1::MatchReport& report);

}  // namespace uckers
