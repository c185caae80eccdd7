#pragma once

#include <algorithm>
#include <optional>

#include "endgame/index.h"
#include "rules/dice.h"
#include "rules/movegen.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// The expectimax equations of the released family, over the engine's own
// move generator and turn flow. `lookup(EndgameSlot)` returns the win
// probability of the team to throw in the slot's position, or nullopt when
// it has none (a shape outside the class).

// A challenge under way is a chain of forced throws (RULES.md §6); its count
// grows by at least one a throw, so the chain ends after a few.
inline constexpr int kMaxChallengeChain = 8;

template <class Lookup>
std::optional<double> ExpectedWin(const Position& pos, const Rules& rules, const Lookup& lookup,
                                  int depth = 0);

// The win probability for `team` of a position the turn flow reaches from
// the family: a finished game (1 or 0), a position of the family (from the
// table, complemented when the other team is to throw), or a challenge
// under way (its throws expanded down to positions of the family). nullopt
// for any other position, or a slot the lookup does not have.
template <class Lookup>
std::optional<double> WinFor(const Position& pos, int team, const Rules& rules,
                             const Lookup& lookup, int depth = 0) {
  int winners = pos.WinningTeam();
  if (winners >= 0) return winners == team ? 1.0 : 0.0;
  std::optional<double> win;
  if (pos.challenge_active()) {
    if (depth >= kMaxChallengeChain) return std::nullopt;
    win = ExpectedWin(pos, rules, lookup, depth + 1);
  } else if (std::optional<EndgameSlot> slot = SlotOf(pos)) {
    win = lookup(*slot);
  }
  if (!win) return std::nullopt;
  return TeamOf(pos.to_throw()) == team ? *win : 1.0 - *win;
}

// The best play's value for the team to throw in `pos` after throw `t`
// (each team maximises its win probability), from the plays in `plays`
// (GenerateLegalPlays of `pos` and `t`); `best` (may be null) receives the
// index of the first play of that value. nullopt when a play leads out of
// what WinFor values, or there is no play.
template <class Lookup>
std::optional<double> BestPlayWin(const Position& pos, const PlayList& plays, const Rules& rules,
                                  const Lookup& lookup, int* best = nullptr, int depth = 0) {
  int team = TeamOf(pos.to_throw());
  double best_win = -1.0;
  for (int i = 0; i < plays.size(); ++i) {
    std::optional<double> win = WinFor(plays[i].after, team, rules, lookup, depth);
    if (!win) return std::nullopt;
    if (*win > best_win) {
      best_win = *win;
      if (best) *best = i;
    }
  }
  if (plays.empty()) return std::nullopt;
  return best_win;
}

// The right-hand side of the Bellman equation at `pos`: the win probability
// of the team to throw, the average over the 21 throws (weights 1/36 and
// 2/36) of the best play's value. nullopt as BestPlayWin.
template <class Lookup>
std::optional<double> ExpectedWin(const Position& pos, const Rules& rules, const Lookup& lookup,
                                  int depth) {
  PlayGenerator generator(pos, rules);
  PlayList plays;
  double sum = 0.0;
  for (Throw t : kThrows) {
    generator.Generate(t, &plays);
    std::optional<double> win = BestPlayWin(pos, plays, rules, lookup, nullptr, depth);
    if (!win) return std::nullopt;
    sum += t.Weight() * *win;
  }
  return sum / 36.0;
}

}  // namespace uckers
