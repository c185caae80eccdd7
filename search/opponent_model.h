#pragma once

#include <array>
#include <vector>

#include "eval/net.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"

// Telling from a player's plays whether it plays as the `random` player
// draws them or as a player who judges its plays: the evidence behind the
// Opponent setting's `auto` (search/params.h). Each decision (a throw with
// two legal plays or more) is weighed by two hypotheses:
//   random: each of the n legal plays alike, 1/n;
//   judged: the plays in proportion to exp(v / T), v the win probability
//           that the net (the shipped one of the rules, else the classic
//           evaluation) gives the position each play leads to, for the
//           team that made it, mixed with a small share of plays alike
//           (kJudgedMix), so that one surprising play weighs little. The
//           player's temperature T is not known: each of kTemperatures is
//           as likely beforehand, and one T holds for all its plays.
// The log odds of `random` over `judged` are the log of the ratio of the
// two hypotheses' likelihoods of all the player's decisions seen in the
// game; it looks random while they are at kRandomLogOdds or more (a ratio
// of 20 to 1: searching against `random` costs much against a player who
// judges its plays, and gains about a point of games against `random`).
// Players who choose by a noisy judgement, up to the highest temperature,
// are the `judged` hypothesis: the engine's levels from `advanced` up never
// come near the mark and `casual` seldom, while `random` passes it in
// most games, after a dozen of its decisions at the median
// (docs/evaluation.md, "Telling a random opponent", bench/opponent_evidence).
namespace uckers {

// The evidence on one player's decisions: each hypothesis' log likelihood.
class PlayerEvidence {
 public:
  static constexpr std::array<double, 4> kTemperatures = {0.0025, 0.005, 0.01, 0.02};
  static constexpr double kJudgedMix = 0.02;
  static constexpr double kRandomLogOdds = 3.0;  // e^3 = 20

  // One decision: `wins` the value of each legal play for the player who
  // chose, `chosen` the index of its choice. Fewer than two plays, or an
  // index out of range, tell nothing.
  void Add(const std::vector<double>& wins, int chosen);
  // Another stretch of the same player's decisions (an earlier game).
  void Add(const PlayerEvidence& other);

  // ln P(decisions | random) - ln P(decisions | judged); 0 before any.
  double LogOdds() const;
  bool LooksRandom() const { return LogOdds() >= kRandomLogOdds; }
  int decisions() const { return decisions_; }

 private:
  double random_ = 0;
  std::array<double, kTemperatures.size()> judged_{};
  int decisions_ = 0;
};

// The evidence on each side's decisions in a game: each team's in the
// four-sided game of two teams, each side's (a team, or a colour for
// itself) on every other layout.
class OpponentEvidence {
 public:
  // Evidence on the plays of games of `rules`.
  explicit OpponentEvidence(const Rules& rules);

  // One decision: `before`, thrown `t`, went to `after` (the position of
  // one of its legal plays). A throw of one legal play and a position that
  // no legal play of `t` leads to tell nothing.
  void Observe(const Position& before, Throw t, const Position& after);
  // Forgets every decision seen.
  void Clear() { sides_ = {}; }

  // The value of each of `plays`, the legal plays of `before`, for the side
  // that makes them: the win probability the judged hypothesis weighs them
  // by (the side's chance by the layout's net, else the classic
  // evaluation's).
  std::vector<double> PlayValues(const Position& before, const PlayList& plays) const;

  // The evidence on `side` (a team of the four-sided game of two teams).
  const PlayerEvidence& Of(int side) const { return sides_[side]; }

 private:
  Rules rules_;
  const Net* net_;
  std::array<PlayerEvidence, kMaxColours> sides_{};
};

// The one keeper of the evidence behind Opponent=auto, for a player of
// games against the same opponent (the Engine controller over its game, a
// match player over its games): this game's decisions of both teams, and
// the decisions the other team made in the games before.
class OpponentJudge {
 public:
  explicit OpponentJudge(const Rules& rules) : game_(rules) {}

  // One decision of this game (OpponentEvidence::Observe).
  void Observe(const Position& before, Throw t, const Position& after) {
    game_.Observe(before, t, after);
  }
  // A new game against the same opponent: the decisions this game's other
  // team made (the team not of the player, as Against last learned it) join
  // the games before; this game's are forgotten.
  void NewGame();
  // Another opponent: every decision forgotten.
  void NewOpponent();

  // What is known of the sides that do not throw at `pos`, whose
  // thrower's side is the player's. In the four-sided game of two teams:
  // the other team and its decisions, this game's and the games' before
  // (`team` -1 at a finished game). On a layout of more sides: a bit for
  // each other side whose plays in this game look random (the seats of a
  // match rotate, so the games before are not kept by side).
  struct Verdict {
    int team = -1;
    PlayerEvidence evidence;
    uint32_t random_sides = 0;
  };
  Verdict Against(const Position& pos);

  const OpponentEvidence& game() const { return game_; }

 private:
  OpponentEvidence game_;  // this game's decisions
  PlayerEvidence past_;    // the other team's in the games before
  int team_ = -1;          // the player's team in this game, once known
};

}  // namespace uckers
