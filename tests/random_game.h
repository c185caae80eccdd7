#pragma once

#include <random>
#include <string>
#include <vector>

#include "rules/dice.h"
#include "rules/movegen.h"

namespace uckers::testing {

// A uniformly random throw (each of the 36 equally likely).
inline Throw RandomThrow(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> die(1, 6);
  return MakeThrow(die(rng), die(rng));
}

// One step of a random game: a random throw and a random legal play, a
// challenge or a suck-back or blow-back call half the time one is legal
// (random play rarely meets them otherwise). Returns false on a finished game.
inline bool RandomStep(Position& pos, const Rules& rules, std::mt19937_64& rng,
                       Throw* thrown = nullptr, Play* played = nullptr) {
  PlayList plays;
  Throw t = RandomThrow(rng);
  GenerateLegalPlays(pos, rules, t, &plays);
  if (plays.empty()) return false;
  std::uniform_int_distribution<int> pick(0, plays.size() - 1);
  int index = pick(rng);
  if (rng() % 2) {
    for (int i = 0; i < plays.size(); ++i) {
      if (plays[i].play.kind >= PlayKind::kChallenge) index = i;
    }
  }
  const PlayResult& r = plays[index];
  if (thrown) *thrown = t;
  if (played) *played = r.play;
  pos = r.after;
  return true;
}

// Positions along random games of `rules` (a quarter of those passed
// through), finished ones left out.
inline std::vector<Position> SamplePositions(const Rules& rules, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  while (static_cast<int>(out.size()) < count) {
    Position pos = Position::Start(rules);
    while (static_cast<int>(out.size()) < count && RandomStep(pos, rules, rng)) {
      if (!pos.IsGameOver() && rng() % 4 == 0) out.push_back(pos);
    }
  }
  return out;
}

// The rulesets every property test runs under: the presets the engine
// implements and every implemented switch on its own and all together.
inline std::vector<std::string> AllRulesets() {
  return {"navy",
          "wafu",
          "mess",
          "selsey",
          "navy+split_single_piece",
          "navy+mixie_can_challenge",
          "navy+blob_on_blob",
          "navy+bounce_back",
          "navy+one_less_six",
          "navy+double_six_two_throws",
          "navy+snake_eyes",
          "navy+throw_after_challenge",
          "navy+no_partner_pipe_moves",
          "navy+suck_back",
          "navy+mixie_stack",
          "navy+mixie_stack+split_single_piece+mixie_can_challenge",
          "navy+mixie_stack+suck_back+bounce_back",
          "mess+split_single_piece+mixie_can_challenge+bounce_back+one_less_six"
          "+double_six_two_throws+throw_after_challenge+suck_back"};
}

// The rulesets of the boards and sides of RULES.md §11 and the switches
// superblob and doubles_throw_again (§9), each layout with the switches it
// allows: what the property tests run under beside AllRulesets().
inline std::vector<std::string> AllLayoutRulesets() {
  return {"six",
          "six+teams_of_three",
          "six+solo",
          "navy+solo",
          "navy+doubles_throw_again",
          "navy+superblob+blob_on_blob",
          "mess+six_sided+suck_back+doubles_throw_again",
          "six+teams_of_three+mixie_stack+snake_eyes+no_partner_pipe_moves+blob_on_blob+superblob",
          "six+teams_of_three+suck_back+bounce_back+mixie_can_challenge+double_six_two_throws",
          "six+solo+suck_back+split_single_piece+doubles_throw_again+one_less_six",
          "navy+solo+snake_eyes+blob_on_blob+superblob+throw_after_challenge+bounce_back"};
}

// Calls `visit(name, pos)` on every position of `games` random games (at
// most `steps` plays each) under each ruleset of AllRulesets(), named by
// `name`; the same positions for the same seed.
template <typename Visit>
void ForEachRandomPosition(int games, int steps, uint64_t seed, Visit visit) {
  for (const std::string& name : AllRulesets()) {
    absl::StatusOr<Rules> rules = Rules::Parse(name);
    if (!rules.ok()) continue;  // AllRulesets is checked by the property tests
    std::mt19937_64 rng(seed);
    for (int game = 0; game < games; ++game) {
      Position pos = Position::Start(*rules);
      for (int step = 0; step < steps && RandomStep(pos, *rules, rng); ++step) visit(name, pos);
    }
  }
}

}  // namespace uckers::testing
