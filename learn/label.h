#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "rules/rules.h"
#include "search/params.h"
#include "search/rollout.h"

namespace uckers {

// `uckers label`: positions from the fast policy's own games, each labelled
// by truncated rollouts (search/rollout.h, LabelPosition), or by the level's
// expectimax searched `depth` throws deep (AnalysePosition), or by the
// endgame table where it covers the position, written as JSON Lines for
// supervised training (docs/evaluation.md, "Rollout labels").
struct LabelConfig {
  Rules rules;               // the four-sided game of two teams
  std::string level;         // the level whose evaluation the policy and the horizon use
  SearchParams params;       // that level's parameters (the endgame table set or not)
  std::string netfile;       // a net (uckers train) the level evaluates with instead of
                             // the built-in one; "" for that one
  std::string out;           // the JSON Lines file; an existing one is resumed
  int64_t positions = 1000;  // label until the file holds this many
  uint64_t seed = 1;         // position i is drawn and labelled from (seed, i) alone
  int trials = 72;           // rollouts a position (a multiple of 36 stratifies the first throw)
  int plies = 12;            // throws a rollout plays before its horizon
  // > 0: each position labelled by the level's expectimax value searched
  // this many throws deep instead of by rollouts (trials and plies unused);
  // 0: rollouts.
  int depth = 0;
  int threads = 1;             // positions labelled at once
  int64_t progress_every = 0;  // log a line every this many positions (0: none)
};

// One file line: the position's index, the run's settings (checked on
// resume), its UFEN, the six outcomes for the team to throw (RULES.md §8
// order), the win probability and its standard error, and the source
// ("rollout", "search" or "table").
std::string LabelLine(const LabelConfig& config, int64_t index, const std::string& ufen,
                      const PositionLabel& label);

// The settings every line of a run carries after its index, and that name
// the run's jobs in a ladder database (`uckers label add|work|export`):
// `"rules":"navy","level":"expert","seed":38,"trials":36,"plies":1000`
// (a run labelled by search: `"rules":"navy","level":"expert","seed":38,"depth":2`),
// and `,"netfile":"PATH"` after them when the run labels with a net of a file.
std::string LabelSettings(const LabelConfig& config);

// The run those settings name, its level's parameters applied and its net
// file loaded (no table, one thread); INVALID_ARGUMENT naming what is wrong,
// the net file's own error when it cannot be read.
absl::StatusOr<LabelConfig> LabelConfigFromSettings(const std::string& settings);

// Loads `config->netfile` (when set) into `config->params`: the file's own
// error when it cannot be read, INVALID_ARGUMENT when it is a net of other
// rules or of every side's chance.
absl::Status UseLabelNet(LabelConfig* config);

// Positions [first, first + count) labelled, their lines joined (each
// ending in a newline), `config.threads` at once: what `Label` writes for
// them. CANCELLED when `stop` is set before the last.
absl::StatusOr<std::string> LabelRange(const LabelConfig& config, int64_t first, int64_t count,
                                       const std::atomic<bool>& stop);

// One line of a labels file read back for `rules` (training on labels,
// learn/td.h): INVALID_ARGUMENT naming what is wrong (other rules, no index,
// a bad UFEN or a finished game, not six outcomes summing to 1).
struct LabelRead {
  int64_t index = 0;
  Position position;
  std::array<float, kNumOutcomes> outcomes{};
};
absl::StatusOr<LabelRead> ReadLabelLine(absl::string_view line, const Rules& rules);

// The deepest search a run may label by: depth 3 takes about a fifth of a
// second a position on one core, each further throw 20 to 60 times more.
constexpr int kMaxLabelDepth = 4;
// The most positions labelled at once (threads).
constexpr int kMaxLabelThreads = 256;

// OK, or INVALID_ARGUMENT naming the flag out of range: positions, trials,
// plies at least 1, threads in 1..kMaxLabelThreads and depth in
// 0..kMaxLabelDepth.
absl::Status CheckLabelCounts(const LabelConfig& config);

// Labels positions 0 .. config.positions - 1 into config.out, resuming
// after the lines already there: a line cut short by a stop is dropped and
// labelled again, so a killed run loses at most the positions in flight and
// none is labelled twice; positions depend on (seed, index) alone, so a run
// stopped and resumed writes the same file as one that was not. Refuses
// (INVALID_ARGUMENT) a file written with other settings and a layout other
// than the four-sided game of two teams; an unwritable file is an error of
// its own. Stops between positions when `stop` is set.
absl::Status Label(const LabelConfig& config, std::ostream& log, const std::atomic<bool>& stop);

}  // namespace uckers
