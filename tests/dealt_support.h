#pragma once

// A dealt game played through the service (server/api.h), as a client
// plays it: StartDealtGame, BindDealtGame, then DealThrow for each throw
// with a fresh client value and the play of the throw before, each play a
// random legal one. Shared by the tests of the dealt games.
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/coach.h"
#include "gtest/gtest.h"
#include "record/game.h"
#include "rules/checked.h"
#include "rules/dice_sequence.h"
#include "rules/notation.h"
#include "server/api.h"

namespace uckers::testing {

// A client value (32 lower-case hex digits) from two numbers.
inline std::string TestClientValue(uint64_t high, uint64_t low) {
  return absl::StrCat(absl::Hex(high, absl::kZeroPad16), absl::Hex(low, absl::kZeroPad16));
}

struct PlayedDealtGame {
  std::string commitment, token, seed;
  Game game;                               // every throw and play, the last included
  std::vector<std::string> values;         // the client value of each throw
  std::vector<std::pair<int, int>> dealt;  // each throw's dice as answered
  std::string final_play;                  // the last throw's play: not yet sent
  std::string error;                       // the first refusal, if any
};

inline v1::DealThrowRequest DealRequest(const std::string& token, int64_t index,
                                        const std::string& value, const std::string& play) {
  v1::DealThrowRequest r;
  r.set_token(token);
  r.set_index(index);
  r.set_client_value(value);
  r.set_play(play);
  return r;
}

// Starts and binds a game; plays it to its end (or `max_throws` throws),
// leaving the reveal to the caller. `game_id` makes the client values of
// one game differ from another's.
inline PlayedDealtGame PlayDealtGame(Api& api, std::mt19937_64& rng, uint64_t game_id = 1,
                                     const std::string& rules = "", int max_throws = 2000) {
  PlayedDealtGame g;
  g.seed = absl::StrCat("seed-", game_id);
  v1::StartDealtGameResponse start;
  if (absl::Status s = api.StartDealtGame({}, {}, &start); !s.ok()) {
    g.error = std::string(s.message());
    return g;
  }
  g.commitment = start.commitment();
  g.token = start.token();
  v1::BindDealtGameRequest bind;
  bind.set_token(g.token);
  bind.set_client_seed(g.seed);
  bind.set_rules(rules);
  v1::BindDealtGameResponse bound;
  if (absl::Status s = api.BindDealtGame(bind, &bound); !s.ok()) {
    g.error = std::string(s.message());
    return g;
  }
  g.game = *Game::FromStart(*ParseRulesOrDefault(rules), "startpos");
  std::string play;
  for (int i = 0; i < max_throws; ++i) {
    std::string value = TestClientValue(game_id, rng());
    v1::DealThrowResponse dealt;
    if (absl::Status s = api.DealThrow(DealRequest(g.token, i, value, play), &dealt); !s.ok()) {
      g.error = std::string(s.message());
      return g;
    }
    g.values.push_back(value);
    g.dealt.emplace_back(dealt.throw_().die1(), dealt.throw_().die2());
    Throw t = MakeThrow(dealt.throw_().die1(), dealt.throw_().die2());
    std::vector<PlayResult> plays = SortedLegalPlays(g.game.position(), g.game.rules(), t);
    play = plays.empty()
               ? "-"
               : PlayToString(plays[rng() % plays.size()].play, g.game.position().board());
    if (absl::Status s = g.game.Play(t, play); !s.ok()) {
      g.error = std::string(s.message());
      return g;
    }
    if (g.game.IsOver()) {
      g.final_play = play;
      return g;
    }
  }
  return g;
}

}  // namespace uckers::testing
