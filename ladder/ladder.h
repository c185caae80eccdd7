#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "match/match.h"
#include "rules/rules.h"
#include "uckers/v1/match.pb.h"

namespace uckers {

struct SprtConfig {
  double elo0 = 0;
  double elo1 = 5;
  double alpha = 0.05;
  double beta = 0.05;
};

// Parses `elo0,elo1,alpha,beta`: finite, elo0 < elo1, alpha and beta in (0, 1).
absl::StatusOr<SprtConfig> ParseSprt(const std::string& text);

inline constexpr int64_t kMaxLadderPairs = 10'000'000;  // over all matchups

struct LadderConfig {
  std::vector<std::string> players;  // player specifications
  bool gauntlet = false;             // player 0 against each other; else round-robin
  Rules rules;
  int pairs = 50;  // duplicate pairs per matchup (a maximum with SPRT)
  int concurrency = 2;
  uint64_t seed = 1;  // pair p of every matchup plays dice seed + p
  bool progress = true;
  std::string records_dir;         // when set, every game's record is saved there
  std::string games_out;           // when set, one JSON line per game played (GamesLog)
  std::optional<SprtConfig> sprt;  // two players only: stop on a decision
  // With sprt: score each pair by its luck-adjusted result (the games'
  // results less the fitted multiple of player 0's luck, match/stats.h
  // AdjustForLuck), the same expectation with less variance, so the test
  // decides sooner.
  bool luck = false;
  int luck_depth = 0;  // 1: each throw valued one throw deeper (WinLuckBySide)
  // Read the pairs whose two records are already in records_dir instead of
  // playing them (a run interrupted before): the report is the one an
  // uninterrupted run gives. Needs records_dir; not with sprt (its decision
  // depends on the order the pairs finished in).
  bool resume = false;
  // When set and true (SIGINT, SIGTERM), no new pair starts; the pairs in
  // flight finish and the report covers the pairs done.
  const std::atomic<bool>* interrupted = nullptr;
};

// Plays the ladder and rates the players by maximum likelihood over all
// games (player 0 rated 0).
absl::StatusOr<v1::LadderReport> RunLadder(const LadderConfig& config);

std::string LadderReportText(const v1::LadderReport& report);
// Adds one player per name to `report` with its games, wins, score and the
// maximum-likelihood Elo of the win matrix (wins[i][j]: i's wins over j),
// the one rating model of both ladders.
void AddRatedPlayers(const std::vector<std::vector<int>>& wins,
                     const std::vector<std::string>& names, v1::LadderReport* report);
// The players of a report by rating, best first (ties keep their order).
std::vector<const v1::LadderPlayer*> ByRating(const v1::LadderReport& report);
// A bar chart of the ratings with their intervals.
std::string LadderReportSvg(const v1::LadderReport& report);

}  // namespace uckers
