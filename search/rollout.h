#pragma once

#include <atomic>

#include "search/search.h"

namespace uckers {

// Truncated rollouts, as gnubg's: the best few plays at depth 1 are each
// played on for `rollout_plies` throws by a fast policy (every throw's play
// chosen by the static evaluation, as the depth-1 search does) and the
// position reached is evaluated. Each trial throws the same dice for every
// candidate (common random numbers), so the differences between candidates
// are measured with far less noise than their values. Trials run until
// `params.rollout_trials`, `limits.movetime_ms` or `limits.nodes` (plays
// evaluated) ends them, or `stop`. Reproducible for a given seed.
SearchReport RolloutPlay(const Position& pos, const Rules& rules, Throw t,
                         const SearchParams& params, const SearchLimits& limits,
                         const std::atomic<bool>& stop, const ReportCallback& on_progress);

}  // namespace uckers
