#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "eval/evaluate.h"
#include "eval/net.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "search/params.h"
#include "search/time_manager.h"
#include "search/tt.h"

// The search's door: SearchPlay and AnalysePosition send a request to the
// algorithm its parameters name (expectimax, MCTS, rollouts; the endgame
// table where it covers the position). The value types they take and give
// are in search/params.h.
namespace uckers {

// The score a candidate is ranked by under `objective`.
double Score(const Evaluation& e, Objective objective);

// `params` with the evaluation settled for `rules`: `net` set to the net to
// use (the given one if it plays `rules`, else the shipped one for `rules`;
// under random_opponent the shipped one trained against `random`), or
// nullptr for the classic evaluation. Under random_opponent no endgame
// table either: its values assume the best replies.
SearchParams ResolveEvaluation(const SearchParams& params, const Rules& rules);
// Whether a search with `params` can model the other team as `random`
// (SearchParams::random_opponent) under `rules`: only expectimax of the
// four-sided game of two teams, on a net trained against `random` (the
// NetFile's, or the shipped one of the rules, NetAgainstRandomFor). An
// error names what is missing; OK when random_opponent is off. The fronts
// and the match players check before searching: the search itself assumes
// the best replies where the model cannot serve.
absl::Status CheckOpponentModel(const SearchParams& params, const Rules& rules);
// `params` with random_opponent turned on under Opponent=auto
// (infer_opponent) when the front saw the other team's plays look random
// (opponent_looks_random) and the model serves `rules` and the search
// (CheckOpponentModel); else `params` as they are. Every search applies it.
SearchParams WithOpponentInferred(const SearchParams& params, const Rules& rules);

// Which evaluation a search with `params` uses under `rules`, for
// `info string` and replies: "net (...)", or "classic" and why.
std::string EvaluationInUse(const SearchParams& params, const Rules& rules);

// Chooses a play for throw `t` by the algorithm of `params`, within
// `limits`, ending early when `stop` becomes true. Expectimax deepens to
// `params.max_depth` (the level's depth) unless `limits.depth` replaces it,
// time to spend (movetime, a clock) or `limits.infinite` lifts it; nodes
// can only cut it short. `on_progress` (may be
// empty) hears of each completed depth (expectimax) or every so many playouts (MCTS). Candidates
// are best first; the first is the choice. Requires a position that is not finished.
SearchReport SearchPlay(const Position& pos, const Rules& rules, Throw t,
                        const SearchParams& params, const SearchLimits& limits,
                        TranspositionTable* tt, const std::atomic<bool>& stop,
                        const ReportCallback& on_progress);

// The position before the throw, for the team to throw: the weighted
// average over the 21 throws of the best play's value, searched as
// SearchPlay does. Candidates stay empty.
SearchReport AnalysePosition(const Position& pos, const Rules& rules, const SearchParams& params,
                             const SearchLimits& limits, TranspositionTable* tt,
                             const std::atomic<bool>& stop, const ReportCallback& on_progress);

}  // namespace uckers
