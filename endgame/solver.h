#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "endgame/index.h"
#include "endgame/table.h"
#include "rules/rules.h"

namespace uckers {

struct EndgameBuildOptions {
  double tolerance = 1e-9;  // stop when no value moved more than this in a sweep
  int max_sweeps = 1000;    // full sweeps: an error if values still move after these
  int max_replays = 40;     // replayed sweeps between two full ones
  // Hears one line per sweep (may be empty).
  std::function<void(const std::string&)> progress;
};

// What one group of shapes solved together took.
struct EndgameGroupStats {
  std::string shapes;      // "1v2+2v1"
  uint64_t states = 0;     // positions of the group
  int sweeps = 0;          // full Gauss-Seidel sweeps (the engine generates plays)
  int replay_sweeps = 0;   // sweeps replaying the plays chosen in the last full one
  double seconds = 0;      // wall-clock time
  double last_change = 0;  // largest change in the last sweep
};

struct EndgameBuildStats {
  std::vector<EndgameGroupStats> groups;  // in the order solved
  uint64_t states = 0;
  double seconds = 0;
  uint64_t peak_rss_bytes = 0;  // of the whole process, at the end
};

// Solves class `cls` under `rules`: the win probability of the team to
// throw in every position, under optimal play by both teams (each
// maximising its win probability), as the fixed point of the expectimax
// equations over the 21 throws (endgame/bellman.h), by modified policy
// iteration. Shapes are solved smallest first (a shape's successors are in
// it or in smaller ones), each group by Gauss-Seidel sweeps over its
// positions in order of decreasing progress, each position with its pair
// (the same pieces, the other team to throw) solved together; full sweeps
// (plays from the engine, the best chosen) alternate with cheap sweeps
// replaying the chosen plays, until a full sweep moves no value more than
// `options.tolerance`. Every successor of every position is checked to be a
// finished game, a position of the class or a challenge under way leading
// to them: an error (naming the position, throw and play) otherwise, or when
// `rules` are not supported (CheckEndgameRules), or the values do not settle.
// `stats` (may be null) receives the figures.
absl::StatusOr<EndgameTable> BuildEndgameTable(EndgameClass cls, const Rules& rules,
                                               const EndgameBuildOptions& options,
                                               EndgameBuildStats* stats);

}  // namespace uckers
