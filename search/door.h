#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "endgame/table.h"
#include "eval/net.h"
#include "eval/side_values.h"
#include "rules/dice.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "search/params.h"
#include "search/settings.h"
#include "search/time_manager.h"
#include "search/tt.h"

// The search's one door: every caller above search/ (the engine controller,
// the review, the match and ladder players, the tutor and the throw map)
// sends a SearchRequest here, and only here is the family of search chosen
// (expectimax, MCTS or rollouts for the four-sided game of two teams;
// max^n, paranoid or MCTS-max^n for every other layout), the depth of the
// level on the layout and the layout's net. The answer is one SearchReport
// whatever the layout. tools/check_layers refuses an include of the
// search's internals (expectimax, MCTS, rollouts, max^n, the nets' inputs)
// from outside search/, but for the training of the nets (learn/).
namespace uckers {

// The most candidates a search reports (the MultiPV setting's range): a
// review or a tutor asking for every play valued asks for these.
inline constexpr int kMaxMultiPv = 64;

// A search request: the settings of the table (search/settings.h), the
// throw, the limits, the endgame table and what the caller saw of the
// other team's plays. Unset settings take the defaults.
struct SearchRequest : SearchSettings {
  std::optional<Throw> dice;  // none: analyse before the throw
  SearchLimits limits;
  // Exact values where this table covers a position (endgame/table.h); not
  // owned, null for none. A table of other rules covers nothing, and no
  // table applies to a layout other than the four-sided one of two teams.
  const EndgameTable* endgames = nullptr;
  // Under Opponent=auto: the other team's plays so far in the game look
  // random (OpponentEvidence, search/opponent_model.h), as the caller that
  // holds the game judged them; the search then models that team as
  // `random` where the model serves. A request of a position alone leaves it
  // false.
  bool opponent_looks_random = false;
  // The same on a layout of more sides: a bit for each side whose plays so
  // far look random (OpponentJudge::Verdict::random_sides).
  uint32_t random_sides = 0;
  // Weights of the classic evaluation set by name (a match player's
  // eval.NAME=X), over the level's; names checked by the caller.
  std::vector<std::pair<std::string, double>> weights;
};

// The search parameters of a request; an error names a bad level or value.
absl::StatusOr<SearchParams> RequestParams(const SearchRequest& request);

// Team clocks (wtime/btime) belong to the four-sided game of two teams: on
// it, the clock of the team to throw must be given when the other is; on
// any other layout no clock may be given (movetime instead).
absl::Status CheckClocksFor(const Clocks& clocks, const Position& pos);

// What SearchPosition checks before it searches, and the parameters it
// searches with: a finished game, a bad setting, an opponent model nothing
// serves, clocks the layout has not, a search the layout has not. A caller
// that starts a job checks first, so that no job ends in an error no one
// hears.
absl::StatusOr<SearchParams> CheckSearch(const Position& pos, const Rules& rules,
                                         const SearchRequest& request);

// The door: the search of `pos` under `rules` with `request`. With a throw,
// its plays best first (at most multipv); without, the position's value
// before the throw. The four-sided board with two teams goes to the level's
// search (expectimax, MCTS, rollouts, tables), every other layout to max^n
// (or paranoid, or MCTS-max^n) at the level's depth on the layout, on the
// layout's net where one is shipped: the report's `sides` and each
// candidate's `sides` then hold every side's chance, `eval` the mover's
// side's as a plain win or loss. `tt` may be null with more than two sides.
// `on_progress` (may be empty) hears of each depth (with more sides: of the
// last one). `stop` ends the search with its best so far.
absl::StatusOr<SearchReport> SearchPosition(const Position& pos, const Rules& rules,
                                            const SearchRequest& request, TranspositionTable* tt,
                                            const std::atomic<bool>& stop,
                                            const ReportCallback& on_progress = {});

// The net a search under `rules` of more than two sides uses for `eval`:
// the shipped one trained for those rules, or `requested` (a netfile) when
// it was trained for them; nullptr (the classic evaluation) for `eval`
// classic or when there is none.
const Net* MultiSideNet(const Rules& rules, EvalKind eval, const Net* requested = nullptr);

// The exact values of `pos` for its team to throw from `params.endgame`,
// when a table is set and covers the position; a finished game's outcome.
std::optional<Evaluation> TableEvaluation(const Position& pos, const Rules& rules,
                                          const SearchParams& params);

// A candidate's value in points for the side that chose it: the equity on
// the four-sided board of two teams (six outcomes), the expected points of
// its chance of winning among the sides otherwise (RULES.md §11). `pos` is
// the position the candidate was chosen in.
double CandidatePoints(const Position& pos, const Candidate& candidate);

}  // namespace uckers
