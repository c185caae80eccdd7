#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "rules/dice.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "search/multi_side.h"
#include "search/search.h"

// Monte Carlo tree search for more than two sides (RULES.md §11), MCTS-max^n
// as in the published comparisons of multi-player search (Sturtevant 2008;
// Nijssen and Winands): every node keeps the sum of every side's value over
// the playouts through it, a decision chooses by UCT on the value of the
// side to throw (or, under `paranoid`, the root side's value, against it for
// the others), and a chance node gives each throw its share of the playouts
// (stratified, as search/mcts.h). Leaves are valued by the k-side static
// evaluation (the net of the rules, else ClassicSideValues), never by
// random playouts; a decision
// seeds every play's statistics with its static value, one visit each.
namespace uckers {

struct MultiSideMctsParams {
  MultiSideMode mode = MultiSideMode::kMaxN;
  double exploration = 0.35;  // UCT constant, in win probability
  int playouts = 3000;        // when no limit is given
  int tree_mb = 64;           // the tree's memory; when full it stops growing
  EvalWeights weights = kDefaultWeights;
  const Net* net = nullptr;  // the learned evaluation (per side, of these rules), or classic
};

// Searches `pos` (not over): with `dice`, the plays of that throw, most
// visited first; without, the position's value before the throw. `nodes`
// counts playouts; `movetime`, `infinite` and `stop` as for max^n. The
// report's depth is the deepest decision a playout reached.
absl::StatusOr<MultiSideReport> SearchMultiSideMcts(const Position& pos, const Rules& rules,
                                                    std::optional<Throw> dice,
                                                    const MultiSideMctsParams& params,
                                                    const SearchLimits& limits,
                                                    const std::atomic<bool>& stop);

}  // namespace uckers
