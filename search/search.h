#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "engine/dice.h"
#include "engine/play.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "search/evaluate.h"

namespace uckers {

// What the search maximises (RULES.md §8).
enum class Objective { kWin, kPoints };

// When to stop; unset fields do not limit.
struct SearchLimits {
  std::optional<int64_t> movetime_ms;  // wall-clock budget
  std::optional<uint64_t> nodes;       // positions evaluated
  std::optional<int> depth;            // throws looked ahead
  bool infinite = false;               // only `stop` ends it
};

// Search settings that a request may override.
struct SearchParams {
  Objective objective = Objective::kWin;  // what "best" means
  int multipv = 1;                        // candidates reported
};

// A candidate play and its evaluation for the team that made it.
struct Candidate {
  Play play;
  Position after;
  Evaluation eval;
};

// Progress or the final answer of a search.
struct SearchReport {
  int depth = 0;
  uint64_t nodes = 0;
  int64_t time_ms = 0;
  Evaluation eval;                   // the best play's, or the position's
  std::vector<Candidate> candidates; // best first, at most multipv
};

using ReportCallback = std::function<void(const SearchReport&)>;

// The score a candidate is ranked by under `objective`.
double Score(const Evaluation& e, Objective objective);

// Chooses a play for throw `t`: today by the one-throw evaluation (each
// legal play's resulting position scored by Evaluate for the team that
// played it). `on_progress` (may be empty) hears of each completed depth.
// Requires a position that is not finished.
SearchReport SearchPlay(const Position& pos, const Rules& rules, Throw t,
                        const SearchParams& params, const SearchLimits& limits,
                        const std::atomic<bool>& stop,
                        const ReportCallback& on_progress);

// The position before the throw: the average over the 21 throws (by their
// weights) of the best play's evaluation, for the team to throw.
SearchReport AnalysePosition(const Position& pos, const Rules& rules,
                             const SearchParams& params,
                             const SearchLimits& limits,
                             const std::atomic<bool>& stop,
                             const ReportCallback& on_progress);

}  // namespace uckers
