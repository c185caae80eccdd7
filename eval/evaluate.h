#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "eval/side_values.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// The six outcomes of RULES.md §8, from one team's point of view.
enum OutcomeIndex {
  kWinPlain = 0,
  kWinEightPiecer,
  kWinInHarbour,
  kLossPlain,
  kLossEightPiecer,
  kLossInHarbour,
  kNumOutcomes,
};

// Probabilities of the six outcomes for one team; they sum to 1.
struct Evaluation {
  std::array<double, kNumOutcomes> p{};

  double Win() const { return p[kWinPlain] + p[kWinEightPiecer] + p[kWinInHarbour]; }
  // Expected points: 1, 2, 3 for the three wins, negative for the losses.
  double Equity() const;
  // The same evaluation from the other team's point of view.
  Evaluation Flipped() const;
  // Weighted sum, for averaging over throws (weights sum to 1 by the caller).
  void AddScaled(const Evaluation& e, double w);
};

// The evaluation's weights, in pips unless said. Tuned by matches: against
// the greedy baseline by hand, then jointly by SPSA self-play at depth 1
// (tune/, docs/evaluation.md); a search may carry its own.
struct EvalWeights {
  double entry_pips = 24.5;           // a base piece's wait for a six
  double tempo_pips = 5.1;            // the side to throw is ahead by this
  double blocked_pips = 1.6;          // per opponent blob ahead of a piece
  int block_lookahead = 20;           // squares ahead a blob hinders
  double exposure_factor = 1.08;      // times the expected loss to a hit
  double other_colour_threat = 0.47;  // weight of the opponent not next to throw
  double mover_exposure = 0.39;       // the side to throw's exposure, times
  double lane_pips = 3.1;             // per piece in the home lane (exact throws)
  double blob_pips = 2.3;             // per own blob (safe, blocks)
  double straggler = 1.16;            // times pips_to_go^2 / 56 per piece
  double scale_base = 3.0;            // logistic width: base ...
  double scale_per_sqrt_pip = 24.0;   // ... plus this times sqrt(mean pips)
};
inline const EvalWeights kDefaultWeights{};

// The names of EvalWeights' real-valued fields, in declaration order, as
// `eval.<name>=<value>` player settings and the fitting tool spell them.
const std::vector<std::string>& EvalWeightNames();
// The field called `name`, or nullptr if there is none.
double* EvalWeightByName(EvalWeights& w, std::string_view name);
// The named weights of `w` as player settings, `eval.<name>=<value>,...`
// (unknown names are left out).
std::string EvalWeightSettings(const EvalWeights& w, const std::vector<std::string>& names);

// What the static evaluation is made of, per team (0 = RY, 1 = GB), for the
// `eval` command and for tests.
struct EvalTerms {
  std::array<double, 2> race_pips{};      // steps still to go, base = 56 + entry
  std::array<double, 2> exposure_pips{};  // expected steps lost to knock-offs
  std::array<double, 2> blocked_pips{};   // cost of opponent blobs in the way
  std::array<double, 2> shape_pips{};     // lane pieces, less own blobs
  std::array<int, 2> in_base{};
  std::array<int, 2> home{};
  std::array<int, 2> blobs{};
  double tempo_pips = 0;      // the side to throw is this much ahead
  double effective_lead = 0;  // pips, for the team to throw
  double scale = 0;           // pips per logistic unit
};

// The static evaluation of `pos` for the team whose colour is to throw,
// before its throw. A finished game gets its exact outcome. Otherwise a
// race model: each team's pips to go (base pieces count 56 plus the expected
// cost of waiting for a six), plus the expected loss of every exposed single
// or mixie blob (its exact chance of being hit by the next opponent's throw,
// over the 36 throws, blobs respected; less for the side to throw, which can
// still move away), plus the cost of opponent blobs in the way, plus a cost
// per piece in the home lane (it needs exact throws) less a bonus per own
// blob; the side to throw gains half a throw. The pip lead maps to a win
// probability by a logistic curve whose width grows with the race length;
// 8-piecer and harbour chances come from how far the losers are from
// getting a piece home. See docs/evaluation.md.
Evaluation Evaluate(const Position& pos, const Rules& rules, EvalTerms* terms = nullptr,
                    const EvalWeights& weights = kDefaultWeights);

// The probability, over the 36 throws, that the next throw of `attacker`
// can knock off the piece(s) of another team on absolute square `abs`.
double HitProbability(const Position& pos, int attacker, int abs);

// The evaluation as text, term by term, for the `eval` command.
std::string EvalToText(const Position& pos, const Rules& rules);

// The classic evaluation generalised to k sides: each side's race (pips to
// bring every piece of its colours home, a base piece costing its wait for
// a six, stragglers and lane pieces as in the two-side evaluation, the side
// to throw ahead by a tempo) turned into win probabilities by a softmax of
// the same width as the two-side logistic, which it equals for two sides.
SideValues ClassicSideValues(const Position& pos, const EvalWeights& weights = kDefaultWeights);

// One side's pips in that evaluation: its race, shape and exposure, before
// the side to throw is given its tempo (the fewer, the better).
double ClassicSidePips(const Position& pos, int side, const EvalWeights& weights = kDefaultWeights);

// The values of a finished game: 1 for the winning side.
SideValues TerminalSideValues(const Position& pos);

// A side's expected points from its win probability (plain wins and losses:
// it wins 1 from each other side, or loses 1; RULES.md §11).
double ExpectedPoints(const SideValues& v, int side);
// The same from a win probability among `sides` sides.
double ExpectedPoints(double win, int sides);

}  // namespace uckers
