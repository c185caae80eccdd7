#pragma once

#include <vector>

#include "eval/evaluate.h"
#include "rules/movegen.h"

namespace uckers {

// The depth-1 policy with the default weights, for the self-play games the
// benchmarks draw their positions from: the play whose position has the
// best static win probability for the team that makes it.
inline Position Depth1PolicyStep(const Position& pos, const Rules& rules, Throw t) {
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  int team = TeamOf(pos.to_throw()), best = 0;
  double best_win = -1;
  for (int i = 0; i < plays.size(); ++i) {
    Evaluation e = Evaluate(plays[i].after, rules);
    double win = TeamOf(plays[i].after.to_throw()) == team ? e.Win() : 1 - e.Win();
    if (win > best_win) {
      best_win = win;
      best = i;
    }
  }
  return plays[best].after;
}

// Every position a play of throw `t` leads to from `pos`, in move-generation
// order.
inline std::vector<Position> Depth1Children(const Position& pos, const Rules& rules, Throw t) {
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  std::vector<Position> out;
  for (int i = 0; i < plays.size(); ++i) out.push_back(plays[i].after);
  return out;
}

}  // namespace uckers
