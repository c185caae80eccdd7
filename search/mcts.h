#pragma once

#include <atomic>

#include "rules/dice.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "search/search.h"

namespace uckers {

// Monte Carlo tree search with explicit chance nodes: decisions choose by
// UCT among plays (every play's static value seeds its statistics when the
// decision is first expanded); chance nodes give each throw its share of
// the playouts (stratified, the default) or sample throws by their weights
// from a generator seeded by `params.seed` and the position, so one thread
// with one seed repeats exactly. Leaves are valued by the static evaluation,
// not by random playouts. Limits: `nodes` counts playouts, `movetime`,
// `infinite` and `stop` as for expectimax; `depth` is not used. The choice
// is the most visited play. The tree holds at most `params.mcts_tree_mb`
// MiB: once full it stops growing, and playouts that leave it are valued
// statically where they leave it.
SearchReport MctsPlay(const Position& pos, const Rules& rules, Throw t, const SearchParams& params,
                      const SearchLimits& limits, const std::atomic<bool>& stop,
                      const ReportCallback& on_progress);

}  // namespace uckers
