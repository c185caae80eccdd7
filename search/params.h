#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "eval/evaluate.h"
#include "rules/play.h"
#include "rules/position.h"
#include "search/time_manager.h"

// The search's value types: what a search is asked (SearchParams,
// SearchLimits) and what it answers (Candidate, SearchReport). The callers
// that only fill in or read these include this header, not the searches
// (search/search.h).
namespace uckers {

class EndgameTable;
class Net;

// What the search maximises (RULES.md §8).
enum class Objective { kWin, kPoints };

// The other team's play a search assumes (the Opponent setting): its best;
// each legal play alike, as the `random` player draws them; or the one of
// the two its plays so far in the game tell (SearchParams::infer_opponent).
enum class OpponentModel { kBest, kRandom, kAuto };

// When to stop; unset fields do not limit.
struct SearchLimits {
  // Wall-clock time to spend: expectimax deepens past the level's depth
  // while the next iteration is expected to end within it and stops at it
  // (a depth limit still caps the depth); MCTS and rollouts run until it.
  // An infinite search only stops at it.
  std::optional<int64_t> movetime_ms;
  std::optional<uint64_t> nodes;  // positions evaluated
  std::optional<int> depth;       // throws looked ahead
  bool infinite = false;          // only `stop` ends it
  // A time control's clocks (search/time_manager.h). With the clock of the
  // team to throw, the search budgets its own time (a target and a limit)
  // and spends it as it spends movetime; with movetime too, the sooner.
  Clocks clocks;
};

enum class Algorithm { kExpectimax, kMcts, kRollout };

// Which static evaluation a search uses: the learned net (eval/net.h),
// where one is trained for the ruleset, or the classic hand-made one.
enum class EvalKind { kNet, kClassic };

// The kind named `net` or `classic` (the Eval option).
std::optional<EvalKind> EvalKindByName(std::string_view name);
const char* EvalKindName(EvalKind kind);

// The algorithm named `expectimax`, `mcts` or `rollout` (the Search option).
std::optional<Algorithm> AlgorithmByName(std::string_view name);

// The first iteration the deep filter (SearchParams::deep_filter_width)
// applies to, under a clock.
inline constexpr int kDeepFilterFromDepth = 4;

// The MCTS tree memory a search takes when not told, MiB (TreeMemory).
inline constexpr int kDefaultTreeMb = 256;
// The transposition table a player or session takes when not told, MiB (Hash).
inline constexpr int kDefaultHashMb = 16;

// Search parameters; a level (search/levels.h) fills several at once, and
// the settings table (search/settings.h) may override any of them.
struct SearchParams {
  Objective objective = Objective::kWin;         // what "best" means
  int multipv = 1;                               // candidates reported
  Algorithm algorithm = Algorithm::kExpectimax;  // expectimax or MCTS
  int max_depth = 2;                             // plies (throw + play) when no depth limit
  // Plies added to max_depth in endings: positions with at most
  // `ending_pieces` pieces not home in all, where few plays make a deeper
  // search cheap (docs/endgames.md: `expert`'s loss in them).
  int ending_extension = 0;
  int ending_pieces = 4;
  int filter_width = 8;         // plays searched deeper at a decision (0: all)
  double filter_margin = 0.08;  // ...plus any this close to the best (score)
  double noise = 0.0;           // std dev of evaluation noise (score units)
  bool star1 = true;            // window pruning at chance nodes (Ballard)
  bool star2 = true;            // probing phase at chance nodes (Ballard)
  int threads = 1;              // root plays shared among threads
  // With time to spend (movetime or a clock), the filter of the iterations
  // from kDeepFilterFromDepth on: an iteration there costs 20 to 60 times
  // the one before, and with the level's filter seldom ends its first play
  // in the time. 0 keeps filter_width (and filter_margin) there too.
  int deep_filter_width = 2;
  double deep_filter_margin = 0.01;
  // Under a clock, when the next whole iteration would not end by the
  // target: stop (false), or search the root plays best first until the
  // target and play the best of those searched deeper, if it beats the
  // first (true). The Deepening setting.
  bool partial_iteration = true;
  uint64_t seed = 0;                  // noise and MCTS sampling
  double mcts_exploration = 0.7;      // UCT constant, in score units
  int mcts_playouts = 3000;           // MCTS playouts when no limit is given
  bool mcts_stratified = true;        // MCTS chance nodes: throws in proportion, or sampled
  int mcts_tree_mb = kDefaultTreeMb;  // MCTS tree memory (MiB); when full it stops growing
  int rollout_width = 6;              // rollouts: plays rolled out (best at depth 1)
  int rollout_plies = 12;             // rollouts: throws played before evaluating
  int rollout_trials = 200;           // rollouts: trials when no limit ends them
  EvalWeights weights;                // the static evaluation's weights
  EvalKind eval = EvalKind::kNet;     // net where one plays the rules, else classic
  // The other team's play the search assumes (the Opponent setting): its
  // best (false), or each of its legal plays alike, as the `random` player
  // draws them (true). Then its throws are averaged over its plays, every
  // position where it throws is marked (MarkRandomThrower) for a net
  // trained against `random` (NetAgainstRandomFor, or the NetFile's), and
  // the endgame tables, whose values assume its best, are not consulted.
  // Expectimax of the four-sided game of two teams only
  // (CheckOpponentModel, search/search.h).
  bool random_opponent = false;
  // Opponent=auto: random_opponent is turned on for a search whose front
  // has seen the other team's plays look random (opponent_looks_random,
  // OpponentEvidence in search/opponent_model.h), where the model serves
  // (CheckOpponentModel); otherwise the search assumes the best replies.
  bool infer_opponent = false;
  // Set by the front for each search under infer_opponent: the plays the
  // team not to throw at the root made so far in the game look random.
  bool opponent_looks_random = false;
  // The team the search models as random: set by the search from its root
  // when random_opponent is on (the team not to play there), else -1.
  int random_team = -1;
  const Net* net = nullptr;  // a net to use instead of the shipped one
  // Exact values where the table covers a position (endgame/table.h): such
  // positions are valued from it, and a covered root plays its best play.
  // Not owned; null for none.
  const EndgameTable* endgame = nullptr;
};

// A candidate play and its evaluation for the team that made it.
struct Candidate {
  Play play;
  Position after;
  Evaluation eval;
  // With more than two sides (search/multi_side.h): every side's chance
  // after this play, as SearchReport's `sides`; empty otherwise.
  std::vector<double> sides = {};
};

// Progress or the final answer of a search.
struct SearchReport {
  int depth = 0;
  uint64_t nodes = 0;
  int64_t time_ms = 0;
  uint64_t tree_bytes = 0;            // MCTS: memory the tree holds
  Evaluation eval;                    // the best play's, or the position's
  std::vector<Candidate> candidates;  // best first, at most multipv
  bool exact = false;                 // the values come from endgame tables
  // With more than two sides (RULES.md §11, search/multi_side.h): every
  // side's probability of winning, sides numbered by their first colour;
  // `eval` then holds the mover's side's as a plain win or loss.
  std::vector<double> sides;
};

using ReportCallback = std::function<void(const SearchReport&)>;

}  // namespace uckers
