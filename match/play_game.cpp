#include "match/play_game.h"

#include <chrono>
#include <optional>
#include <random>

#include "rules/dice_sequence.h"
#include "rules/movegen.h"

namespace uckers {
namespace {

// A game that has not ended by then is a bug in a player or in the rules.
constexpr int kMaxThrows = 50000;

// The clocks as a player is told them: each team's on a clock, whole
// milliseconds, and the mover's decisions to its next control.
Clocks ClocksNow(const std::optional<GameClock> (&clocks)[2], int mover) {
  Clocks now;
  for (int team = 0; team < 2; ++team) {
    if (!clocks[team]) continue;
    now.time_ms[team] = static_cast<int64_t>(clocks[team]->left_ms());
    now.increment_ms[team] = clocks[team]->increment_ms();
  }
  now.moves_to_go = clocks[mover]->moves_to_go();
  return now;
}

}  // namespace

GameResult PlayGame(Player* players[2], const Rules& rules, uint64_t dice_seed) {
  GameResult result;
  result.game = Game(rules);
  DiceSequence dice(dice_seed);
  for (int team = 0; team < 2; ++team) {
    if (absl::Status s = players[team]->NewGame(dice_seed); !s.ok()) {
      result.forfeit_team = team;
      result.forfeit_reason = std::string(s.message());
      result.winner_team = 1 - team;
      result.level = OutcomeLevel::kWin;
      return result;
    }
  }
  std::optional<GameClock> clocks[2];
  for (int team = 0; team < 2; ++team) {
    if (players[team]->time_control()) clocks[team].emplace(*players[team]->time_control());
  }
  Game& game = result.game;
  PlayList plays;
  for (int n = 0; n < kMaxThrows && !game.IsOver(); ++n) {
    const Position& pos = game.position();
    Throw t = dice.Next();
    GenerateLegalPlays(pos, rules, t, &plays);
    int team = TeamOf(pos.to_throw());
    PlayResult chosen = plays[0];
    if (plays.size() > 1) {
      if (clocks[team]) players[team]->SetClocks(ClocksNow(clocks, team));
      auto start = std::chrono::steady_clock::now();
      absl::StatusOr<PlayResult> r = players[team]->Choose(pos, t);
      double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      result.think_ms[team] += ms;
      result.choices[team]++;
      if (clocks[team] && !clocks[team]->Charge(ms)) {
        result.time_loss_team = team;
        result.winner_team = 1 - team;
        result.level = OutcomeLevel::kWin;
        return result;
      }
      if (!r.ok()) {
        result.forfeit_team = team;
        result.forfeit_reason = std::string(r.status().message());
        result.winner_team = 1 - team;
        result.level = OutcomeLevel::kWin;
        return result;
      }
      chosen = *r;
      players[0]->Observe(pos, t, chosen);
      if (players[1] != players[0]) players[1]->Observe(pos, t, chosen);
    }
    game.Play(t, chosen);
  }
  const Position& pos = game.position();
  if (!pos.IsGameOver()) {
    result.forfeit_reason = "the game did not end";
    return result;
  }
  result.winner_team = pos.WinningTeam();
  result.level = pos.Outcome();
  return result;
}

std::array<GameResult, 2> PlayPair(Player* a, Player* b, const Rules& rules, uint64_t dice_seed) {
  a->NewOpponent();
  b->NewOpponent();
  Player* first[2] = {a, b};
  Player* second[2] = {b, a};
  std::array<GameResult, 2> games;
  games[0] = PlayGame(first, rules, dice_seed);
  games[1] = PlayGame(second, rules, dice_seed);
  return games;
}

Record RecordOf(const GameResult& game, const std::string& ry, const std::string& gb,
                uint64_t seed) {
  Record record = RecordOf(game.game);
  record.ry = ry;
  record.gb = gb;
  record.seed = seed;
  if (game.forfeit_team >= 0) {
    record.winner.clear();
    record.points = 0;
  }
  if (game.time_loss_team >= 0) {
    record.winner = game.winner_team == 0 ? "RY" : "GB";
    record.points = static_cast<int>(game.level);
    record.termination = "time";
  }
  return record;
}

}  // namespace uckers
