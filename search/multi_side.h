#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "eval/net.h"
#include "eval/side_values.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "search/search.h"

// Search and evaluation for a game of more than two sides (RULES.md §11:
// three teams of two on the six-sided board, every colour for itself). Two
// sides stay with expectimax and MCTS (search/search.h); here each side
// maximises its own chance of winning (max^n over the dice tree: chance
// nodes average the vector of every side's value, a decision takes the play
// best for the side to throw), or, for comparison, `paranoid`: every other
// side plays against the side at the root.
namespace uckers {

enum class MultiSideMode {
  kMaxN,      // each side maximises its own value
  kParanoid,  // the other sides minimise the root side's value
};

// The deepest a movetime lets the multi-side search go.
inline constexpr int kMaxMultiSideDepth = 4;

// The multi-side search's settings.
struct MultiSideParams {
  MultiSideMode mode = MultiSideMode::kMaxN;
  int max_depth = 2;                      // throws looked ahead (1: each play's static value)
  int filter_width = 5;                   // plays searched deeper at a decision below the root
  EvalWeights weights = kDefaultWeights;  // the race terms of the classic evaluation
  // Max^n's shallow pruning below the root: a play's chance node stops as
  // soon as the mover's value there can no longer beat its best play so
  // far (the values sum to one, so each throw still to come adds at most
  // its weight). The choice and every root value are unchanged.
  bool shallow_pruning = true;
  const Net* net = nullptr;  // the learned evaluation (per side, of these rules), or classic
  // A level's misjudgement (the Noise setting): each side's chance in each
  // position evaluated moves by EvaluationNoise (search/expectimax.h), the
  // chances renormalised to sum to one; 0 for none.
  double noise = 0;
  uint64_t seed = 0;
  // The sides modelled as the `random` player (a bit a side: the Opponent
  // setting): at their decisions every legal play is as likely, and the
  // node's value is the mean of theirs, not the best for the side.
  uint32_t random_sides = 0;
};

struct MultiSideCandidate {
  Play play;
  Position after;
  SideValues values;
};

struct MultiSideReport {
  int depth = 0;  // the last depth completed
  uint64_t nodes = 0;
  uint64_t pruned = 0;  // chance nodes cut short by shallow pruning
  int64_t time_ms = 0;
  SideValues values;                           // the best play's, or the position's
  std::vector<MultiSideCandidate> candidates;  // best first for the side to throw
};

// Searches `pos` (not over) under `rules`: with `dice`, the plays of that
// throw, best first; without, the position's value before the throw.
// Deepens from depth 1 to `limits.depth` or `params.max_depth`, and with a
// movetime on while the next depth is expected to end within it; `stop`
// ends it with the last depth completed.
absl::StatusOr<MultiSideReport> SearchMultiSide(const Position& pos, const Rules& rules,
                                                std::optional<Throw> dice,
                                                const MultiSideParams& params,
                                                const SearchLimits& limits,
                                                const std::atomic<bool>& stop);

}  // namespace uckers
