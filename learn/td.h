#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "eval/net.h"
#include "rules/rules.h"

namespace uckers {

// Settings of a self-play training run (`uckers train`).
struct TrainConfig {
  Rules rules;  // the ruleset the net learns
  // A net of any rules (Net::any_rules) of `rules`'s layout instead: each
  // batch of games is played under rules drawn from the seed and the batch
  // (BatchRules); `rules` stays the layout's (Rules::LayoutOnly). Of the
  // four-sided game of two teams a deep net only; never with a table or a
  // teacher.
  bool any_rules = false;
  int hidden = 128;  // hidden units of a new net
  // A new deep net (eval/net.h) instead: the first layer's units, then
  // each further layer's (empty: a net of one hidden layer of `hidden`).
  std::vector<int> layers;
  // A deep net reads encoding 5, with how often each single piece is hit
  // (eval/net_inputs.h); with `init`, a net of encoding 4 gets those
  // inputs with zero weights.
  bool hit_inputs = false;
  // A deep net reads encoding 6, with what blocks each piece (an opponent
  // blob ahead); with `init`, a net of encoding 4 gets those inputs with
  // zero weights.
  bool block_inputs = false;
  uint64_t seed = 1;      // weights, dice and shuffling
  int64_t games = 10000;  // train until this many games in all
  double lambda = 0.7;    // TD(λ)
  double lookahead = 0;   // weight of the one-throw expectimax target
  // Chance that a self-play play is drawn at random instead of the net's
  // best, the λ-return cut there (PlaySelfPlayGame); the held-out games never
  // explore, so that their log loss stays that of the net's own play.
  double explore = 0;
  // The other team plays at random (the `random` player) instead of as the
  // net: the net learns the game against `random`, playing one team in
  // even games and the other in odd ones. Of the four-sided game of two
  // teams only.
  bool random_opponent = false;
  std::string teacher;              // the net valuing that target; "" = the net trained
  int teacher_depth = 1;            // 1: its one-throw value; 0: its evaluation
  std::string endgames;             // an endgame table: the positions it covers valued exactly
  double learning_rate = 1e-3;      // Adam's step size
  int batch_games = 8;              // games played between updates
  int minibatch = 128;              // examples per Adam step
  int64_t checkpoint_every = 1000;  // games between checkpoints
  int64_t eval_every = 0;           // games between strength checks (0: none)
  int eval_pairs = 200;             // duplicate pairs of a strength check
  std::string out;                  // the weights file
  std::string checkpoint;           // the resumable state; "" = out + ".ckpt"
  std::string curve_svg;            // the learning curve chart; "" = none
  std::string init;                 // a weights file to start from; "" = random
  bool init_other_rules = false;    // `init` may be a net of other rules (transfer)
  // Supervised training on labelled positions (`uckers label`) instead of
  // self-play: the JSON Lines file, and the passes over it ("games" then
  // counts passes done).
  std::string labels;
  int epochs = 4;
};

// One point of the learning curve.
struct CurvePoint {
  int64_t games = 0;
  double elo = 0, elo_lo = 0, elo_hi = 0;  // net vs classic, depth 1
  double held_out_log_loss = 0;            // win probability, held-out games
};

// The trainer's state between batches: everything a checkpoint holds, so a
// run resumed from it continues exactly as if it had not stopped.
struct TrainState {
  Net net;
  int64_t games = 0;              // games played, held-out ones included
  int64_t steps = 0;              // Adam steps taken
  std::vector<Net::Matrix> m, v;  // Adam moments, one per weight array
  std::vector<CurvePoint> curve;
};

// Trains by self-play TD(λ): batches of `batch_games` games played by the
// current net at depth 1, each position taught its λ-return (cross-entropy
// over the six outcomes), every tenth game held out to measure the log loss
// of the win probability. Resumes from the checkpoint when one exists (its
// rules and shape must match), writes the checkpoint and the weights file
// every `checkpoint_every` games and at the end, and logs a line a batch
// group to `log`. Deterministic for a seed, resumed or not.
absl::Status Train(const TrainConfig& config, std::ostream& log);

// Supervised training on the labels of `config.labels` (learn/label.h): each
// position taught its label's six outcomes (cross-entropy), every position
// whose index ends in 0 held out; `config.epochs` passes in an order shuffled
// from the seed, a checkpoint and the weights file after each, and a line a
// pass with the training cross-entropy, the held-out divergence from the
// labels (Kullback-Leibler: 0 when the net gives each label exactly) and the
// held-out mean absolute error of the win probability. Starts from
// `config.init` (or random weights), resumes from the checkpoint;
// deterministic for a seed. The four-sided game of two teams.
absl::Status TrainOnLabels(const TrainConfig& config, std::ostream& log);

// The mean of `nets`' weights, weight by weight (the nets of one run's
// checkpoints: averaging the last stretch of a run smooths the noise of its
// steps, as stochastic weight averaging does); its games trained are the
// most of theirs. Refuses an empty list and nets of different rules, kind or
// shape, naming (by `names`, one a net) the first that differs from the
// first (InvalidArgument).
absl::StatusOr<Net> AverageNets(const std::vector<Net>& nets,
                                const std::vector<std::string>& names);

// Reads and writes the checkpoint file (the net's bytes, Adam's state and
// the learning curve), atomically.
absl::Status SaveCheckpoint(const TrainState& state, const std::string& path);
absl::StatusOr<TrainState> LoadCheckpoint(const std::string& path);

// The rules of the batch of a run of any rules of `layout`'s layout that
// starts after `games` games, drawn from `seed` and `games` alone. For the
// four-sided game of two teams: one of its presets (navy, wafu, mess,
// selsey) half the time, else navy with each of its switches on with
// probability 1/4. For another layout: the layout's own rules half the
// time, else those with each switch of RULES.md §9 but mixie_stack (whose
// inputs change the net's shape) on with probability 1/4.
Rules BatchRules(uint64_t seed, int64_t games, const Rules& layout = Rules());

// The learning curve as an SVG chart: Elo against the classic evaluation
// (with its interval) by games trained.
std::string CurveSvg(const std::vector<CurvePoint>& curve, const std::string& title);

}  // namespace uckers
