#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "endgame/table.h"
#include "eval/evaluate.h"
#include "eval/net.h"
#include "eval/net_inputs.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// A training example: a position's inputs and the outcome distribution it is
// taught, for the team to throw.
struct TdSample {
  NetInputs inputs;
  std::array<float, kNumOutcomes> target{};
};

// What one self-play game produced.
struct SelfPlayGame {
  std::vector<TdSample> samples;    // one per position before a throw
  std::vector<Position> positions;  // the position of each sample
  std::vector<float> win;           // the net's win probability at each
  std::vector<int> won;             // 1 if that position's team won
  int exact = 0;                    // samples valued by the endgame table
  int throws = 0;
  bool finished = false;  // false: stopped at the throw cap
};

// A training example of a net per side (eval/net.h, encoding 2): a
// position's inputs and every side's chance it is taught, in turn order
// from the thrower's side.
struct SideTdSample {
  SideNetInputs inputs;
  std::array<float, kMaxColours> target{};
};

// What one self-play game of a net per side produced.
struct SideSelfPlayGame {
  std::vector<SideTdSample> samples;  // one per position before a throw
  std::vector<float> win;             // the net's chance for the thrower's side at each
  std::vector<int> won;               // 1 if that position's side won
  int throws = 0;
  bool finished = false;  // false: stopped at the throw cap
};

// The mark of the random team's positions (kRandomThrowerInput,
// MarkRandomThrower) and the value of a position against it
// (ValueAgainstRandom) are the search's (eval/net.h, eval/net_inputs.h):
// the engine plays with them under Opponent=random.

// The throw cap of a self-play game; no game of the measured presets comes
// near it (a few hundred throws), it only guards against a policy that loops.
inline constexpr int kMaxSelfPlayThrows = 5000;

// Plays one game from the start position of `net.rules()` with dice drawn
// from `seed`, every play chosen by the net at depth 1 (the play whose
// position has the highest win probability for the team making it), and
// labels each position before a throw with its TD(λ) λ-return: the
// discounted mix, by λ, of the net's later values and the game's outcome,
// each turned to that position's team (Sutton's forward view, computed
// backwards once the game is over).
//
// With `lookahead` > 0 each target is refined by a deeper look, as GNU
// Backgammon trains on deeper evaluations: it becomes (1 - lookahead) times
// the λ-return plus `lookahead` times the position's one-throw expectimax
// value (the 21 throws weighted, each by the best play's value), valued by
// `teacher` when one is given (another net of the same rules: a stronger or
// differently shaped one the net learns from), else by the net itself.
// With `teacher_depth` 0 the teacher's own evaluation of the position is
// taken instead of its one-throw value (distillation: far cheaper).
//
// With a `table` (an endgame table of the net's rules) the positions it
// covers are valued exactly, as the engine values them with the table on:
// the plays into them are chosen by their exact values, the λ-returns
// before them bootstrap from those values, and each covered position's own
// target is its exact value (the net learns the table where it reaches).
//
// With `explore` > 0 each play is, with that probability, a legal play drawn
// uniformly (as the `random` player's) instead of the net's best, so that the
// net sees positions its own play never reaches: the scattered pieces and
// stray singles of weaker players. The λ-return is cut at each such play, as
// Watkins' Q(λ) cuts its trace: the exploring position keeps its own value
// (the lookahead still refines it) and every earlier position bootstraps from
// that value instead of the game the random play led to, so that no target
// is the value of a policy other than the net's.
//
// With `random_team` 0 or 1, that team's every play is a legal play drawn
// uniformly (the `random` player's), the other team's the net's best, and
// the net learns the game against `random` (`uckers train --opponent
// random`): every position where the random team throws is marked so
// (MarkRandomThrower), since the inputs, read from the thrower's side,
// would not tell the two teams' games apart, and the λ-return runs through
// the random plays uncut (drawing at random is that team's policy, not an
// exploration). `explore` is not used then, and a lookahead or a table,
// which value the replies as the best ones, does not belong with it.
SelfPlayGame PlaySelfPlayGame(const Net& net, uint64_t seed, double lambda, double lookahead = 0,
                              const Net* teacher = nullptr, int teacher_depth = 1,
                              const EndgameTable* table = nullptr, double explore = 0,
                              int random_team = -1);

// The same for a net per side (net.per_side()): every play chosen by the
// net at depth 1 for the side making it (max^n), each position labelled
// with the λ-return of every side's chance, turned to that position's
// thrower's side. With `lookahead` > 0 each target becomes (1 - lookahead)
// times that λ-return plus `lookahead` times the position's one-throw max^n
// value by the net (SideLookaheadValue), as for two teams; the return
// carried backwards stays the λ-return.
SideSelfPlayGame PlaySideSelfPlayGame(const Net& net, uint64_t seed, double lambda,
                                      double lookahead = 0);

// Every side's chance one throw deeper: the 21 throws weighted, each by the
// vector of the play best for the side to throw, valued by the net.
SideValues SideLookaheadValue(const Net& net, const Position& pos);

// One duplicate set between a net per side and the classic evaluation
// (ClassicSideValues), both at depth 1, on the same dice from `seed`: the
// net plays one side and the classic evaluation every other, once with the
// net on each side; the number of those games the net's side won (0..k).
double SideNetVersusClassicSet(const Net& net, uint64_t seed);

// The one-throw expectimax value of `pos` (not finished) by `net`, for the
// team to throw: each throw's best play by win probability, weighted.
Evaluation LookaheadValue(const Net& net, const Position& pos);

// One duplicate pair between the net and the classic evaluation, both at
// depth 1, on the same dice from `seed`: the net's points (0, 0.5 or 1 per
// game summed, so 0..2).
double NetVersusClassicPair(const Net& net, uint64_t seed);

}  // namespace uckers
