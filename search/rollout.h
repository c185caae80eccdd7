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

// A position's rollout label, for training on better targets than the net's
// own next value (docs/evaluation.md, "Rollout labels").
struct PositionLabel {
  Evaluation outcomes;    // the six outcomes for the team to throw
  double win_stderr = 0;  // standard error of the win probability's mean
  int trials = 0;         // 0: exact, from the endgame table
};

// Labels `pos` (before its throw, not finished) by `trials` truncated
// rollouts: each plays `plies` throws on by the fast policy (above) and
// values the position reached by the evaluation of `params` (a finished
// game exactly); the label is their mean. The first throw of trial j is the
// (j mod 36)-th of the 36 ordered throws, so every 36 trials meet each first
// throw once and its luck cancels (stratified dice); the others are drawn
// from `seed`. A position the endgame table of `params` covers is labelled
// exactly, with no rollout. Reproducible for a given seed. The four-sided
// game of two teams only.
PositionLabel LabelPosition(const Position& pos, const Rules& rules, const SearchParams& params,
                            int trials, int plies, uint64_t seed);

// A position to label: a game played from the start of `rules` by the fast
// policy with dice drawn from `seed`, and one of its positions before a
// throw (not finished) chosen uniformly, also from `seed`; `throws_played`
// receives the game's length. The four-sided game of two teams only.
Position SamplePosition(const Rules& rules, const SearchParams& params, uint64_t seed,
                        int* throws_played = nullptr);

}  // namespace uckers
