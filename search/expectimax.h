#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

#include "eval/evaluate.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "search/door.h"
#include "search/search.h"
#include "search/static_cache.h"
#include "search/tt.h"

namespace uckers {

// The score range of an objective: win probability 0..1, points -3..3.
struct ScoreRange {
  double lo;
  double hi;
  // The same score seen by the other team.
  double Flip(double s) const { return lo + hi - s; }
};
ScoreRange RangeOf(Objective objective);

// Shared stop conditions of one search: the stop flag, a deadline and a node
// budget, checked every so many nodes by every thread.
class Limiter {
 public:
  Limiter(const std::atomic<bool>& stop, std::optional<int64_t> movetime_ms,
          std::optional<uint64_t> max_nodes);
  // Counts `n` nodes; true once the search must end.
  bool Tick(uint64_t n);
  bool stopped() const { return stopped_; }
  uint64_t nodes() const { return nodes_; }
  int64_t ElapsedMs() const;
  // Ends the search by `ms` after its start, or sooner if it already had to
  // (not while a search ticks).
  void EndBy(int64_t ms) { movetime_ms_ = movetime_ms_ ? std::min(*movetime_ms_, ms) : ms; }

 private:
  const std::atomic<bool>& stop_;
  std::chrono::steady_clock::time_point start_;
  std::optional<int64_t> movetime_ms_;
  std::optional<uint64_t> max_nodes_;
  std::atomic<uint64_t> nodes_{0};
  std::atomic<bool> stopped_{false};
};

// Expectimax over the dice tree with Ballard's Star1 and Star2 pruning, a
// transposition table, play ordering and a gnubg-style move filter. A
// chance node is a position before its throw, valued for the team to throw;
// a decision is the choice among one throw's plays. One instance per thread.
class PlayGenerator;

class Expectimax {
 public:
  Expectimax(const Rules& rules, const SearchParams& params, TranspositionTable* tt,
             Limiter* limiter);

  // Step A. The value of `pos` before its throw for its team to throw,
  // searched `depth` plies. `eval` receives the outcome probabilities, exact
  // when the score lies strictly inside (alpha, beta).
  double Chance(const Position& pos, int depth, double alpha, double beta, Evaluation* eval);
  // Step B. The value for `team` of the play leading to `after`.
  double After(const Position& after, int team, int depth, double alpha, double beta,
               Evaluation* eval);
  // Step C. The best value for `team` among one throw's plays; `known`
  // (index, value, eval), when set, is a play already searched exactly;
  // `first_index` a play to search first (at the horizon, where plays are
  // not ordered by evaluation).
  double Decide(const PlayList& plays, int team, int depth, double alpha, double beta,
                Evaluation* eval, int known_index = -1, double known_value = 0,
                const Evaluation* known_eval = nullptr, int first_index = -1);

  // The value at the search horizon of a position just played to: its
  // static value, or for a challenge just declared, its closed form.
  double Horizon(const Position& after, int team, Evaluation* eval);
  // The static value of a position for `team` (evaluation noise included).
  double Static(const Position& pos, int team, Evaluation* eval);

  uint64_t nodes() const { return nodes_; }
  bool aborted() const { return aborted_; }

 private:
  // Star2's probe of one throw: the play probed (-1: none, -2: the only
  // play, its value exact), its value and outcomes.
  struct Probe {
    int index = -1;
    double value;
    Evaluation eval;
  };
  // What Star2 probing found of the 21 throws: a lower bound of each one's
  // best, and their weighted sum.
  struct Star2Bounds {
    std::array<Probe, 21> probes;
    std::array<double, 21> lower;
    double lower_sum;  // sum of w * lower bound over all throws
  };
  // The steps of Chance (a node of `pos` with `team` to throw, searched
  // `depth` plies in (alpha, beta)). Each that may end the node returns
  // true with its value in `*score` (and its outcomes in `eval`).
  // Step 1: a transposition table entry that decides the node.
  bool TableCut(const Position& pos, int depth, double alpha, double beta, Evaluation* eval,
                double* score);
  // Step 2: Star2 probing into `bounds`, cutting off at beta.
  bool Star2(const Position& pos, int team, int depth, double beta, PlayGenerator& generator,
             PlayList& plays, Star2Bounds* bounds, Evaluation* eval, double* score);
  // Step 3: Star1, each throw searched in a window, cutting off once the
  // bounds decide; else the weighted sum in `*sum` and `*total`.
  bool Star1(const Position& pos, int team, int depth, double alpha, double beta, bool use_star2,
             PlayGenerator& generator, PlayList& plays, Star2Bounds& bounds, double* sum,
             Evaluation* total, Evaluation* eval, double* score);
  // Step 3 for throw `i`: its best play's value in the window (a, b).
  double SearchThrow(int i, int team, int depth, double a, double b, bool use_star2,
                     PlayGenerator& generator, PlayList& plays, Star2Bounds& bounds, Evaluation* e);
  // Step 3's cutoff after the throws searched (weight `done`, value `sum`),
  // `rest_lower` the lower bound of the rest where Star2 gave one.
  bool Star1Cut(const Position& pos, int depth, double alpha, double beta, double sum, double done,
                double rest_lower, bool use_star2, const Evaluation& total, Evaluation* eval,
                double* score);
  // Step 4: an exact value (within the window), stored whole.
  double StoreChance(const Position& pos, int depth, double alpha, double beta, double sum,
                     const Evaluation& total, Evaluation* eval);
  double ChallengeNode(const Position& pos, int depth, Evaluation* eval);
  // The net's value of `pos` for its thrower; under the opponent model
  // (SearchParams::random_opponent) marked where the random team throws.
  Evaluation NetValue(const Position& pos) const;
  // The chance node of the team modelled as random (SearchParams::
  // random_opponent): each throw's plays weighted alike.
  double Average(const Position& pos, int depth, Evaluation* eval);
  // The key a position is cached and stored under: its own, or under the
  // opponent model one for each team modelled as random, since the same
  // position is valued otherwise there (the table outlives a search).
  uint64_t Key(const Position& pos) const { return pos.key() ^ key_salt_; }
  // The index in `plays` of the killer for (depth, throw), else -1.
  int KillerIndex(const PlayList& plays, int depth, int throw_index) const;
  void SetKiller(int depth, int throw_index, const Play& play);
  double Noise(uint64_t key) const;
  void CountNode();

  const Rules& rules_;
  const SearchParams& params_;
  const ScoreRange range_;
  TranspositionTable* tt_;
  Limiter* limiter_;
  const uint64_t key_salt_;
  // Killers: per remaining depth and throw, the play last found best (or
  // cutting off) under a sibling; the same reply often refutes the next
  // sibling too, so it is probed and searched first.
  static constexpr int kKillerDepths = 8;
  std::array<std::array<Play, 21>, kKillerDepths> killers_{};
  std::array<std::array<bool, 21>, kKillerDepths> has_killer_{};
  Play last_best_{};  // the play Decide last returned the value of
  uint64_t nodes_ = 0;
  uint64_t unreported_ = 0;
  bool aborted_ = false;
  StaticCache<Evaluation> static_cache_;  // static values, with whether a table gave them
};

// A level's misjudgement of a position: normal with standard deviation
// `sd`, deterministic per position `key` and `seed` (the same position
// always gets the same error, as a weaker player's would be); 0 for sd 0.
double EvaluationNoise(uint64_t key, uint64_t seed, double sd);

// Probability that a challenge needing `k` more sixes succeeds: each throw
// brings 0 sixes (25/36, the challenge fails), 1 (10/36) or 2 (1/36).
double ChallengeSuccessProbability(int k);

}  // namespace uckers
