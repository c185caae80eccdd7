#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "record/record.h"
#include "rules/rules.h"
#include "uckers/v1/match.pb.h"

// A match under a layout of more than two sides, or on the six-sided board
// (RULES.md §11): player A takes one side, player B every other side, and
// each dice sequence is played once with A in each seat in turn (duplicate
// over rotations: every player plays every seat equally often on the same
// dice). The result is A's share of the games won against the fair share
// 1/k of k sides, with a 95 % interval over the dice sequences.
namespace uckers {

struct MultiSideMatchConfig {
  std::string player_a = "expert";  // a level, greedy or random; `,multi_side=paranoid`
  std::string player_b = "greedy";
  Rules rules;
  int sequences = 100;      // dice sequences; each is played once per seat
  int concurrency = 2;      // games at once
  uint64_t seed = 1;        // sequence i throws the dice of seed + i
  bool progress = true;     // a line on stderr at each tenth
  std::string records_dir;  // with it, every game's record as <dir>/pair-<sequence>-<seat>.txt
  bool luck = false;        // also the luck-adjusted share of the wins
  int luck_depth = 0;       // 1: each throw valued one throw deeper (WinLuckBySide)
  const std::atomic<bool>* interrupted = nullptr;  // stops between games
};

// Checks a player specification for games under `rules`: INVALID_ARGUMENT
// naming what is wrong. A level searches on the net shipped for those rules
// where there is one (`eval=classic` or the level `classic`: the classic
// evaluation; `netfile=FILE`: a net per side trained for those rules).
absl::Status CheckMultiSidePlayer(const std::string& spec, const Rules& rules);

// Plays the match. The report's `pairs` counts the dice sequences played,
// `games` the games, `a_wins` the games A's side won, `sides` the layout's
// sides and `a_win_rate` with `a_win_rate_low` .. `a_win_rate_high` A's
// share of the wins.
absl::StatusOr<v1::MatchReport> RunMultiSideMatch(const MultiSideMatchConfig& config);

// The report in words.
std::string MultiSideMatchReportText(const v1::MatchReport& report);

// One game on the dice of `seed` with player `alone` on side `seat` and
// player `other` on every other side (the standing ladder's games).
struct MultiSideGame {
  int winner_side = -1;  // -1 when it did not end
  Record record;         // its players, seed and result
  double alone_ms = 0;   // the lone player's thinking time
};
absl::StatusOr<MultiSideGame> PlayMultiSideGame(const std::string& alone, const std::string& other,
                                                const Rules& rules, uint64_t seed, int seat);

}  // namespace uckers
