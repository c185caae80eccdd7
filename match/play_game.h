#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "match/player.h"
#include "record/game.h"
#include "record/record.h"
#include "rules/dice.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// A finished game between two players, one per team.
struct GameResult {
  int winner_team = -1;  // 0 = RY, 1 = GB
  OutcomeLevel level = OutcomeLevel::kNone;
  int forfeit_team = -1;  // the team whose player failed, or -1
  std::string forfeit_reason;
  int time_loss_team = -1;        // the team whose clock ran out (a plain loss), or -1
  Game game;                      // the throws and plays made, from the start position
  double think_ms[2] = {0, 0};    // per team, forced plays excluded
  int choices[2] = {0, 0};        // decisions each team's player made
  std::optional<double> luck_ry;  // RY's luck over the game, when measured (--luck)
};

// Plays a game from the start position with dice drawn from `dice_seed`:
// `players[0]` plays team RY, `players[1]` team GB. Forced plays (a single
// legal play) are made without asking. A player's error forfeits the game
// to the other team (outcome level: a plain win). A player with a time
// control (`tc=`) plays on its team's clock: it is told the clocks before
// each decision (Player::SetClocks), the decision's time is charged to it,
// and running out loses the game as a plain loss (`time_loss_team`).
GameResult PlayGame(Player* players[2], const Rules& rules, uint64_t dice_seed);

// Plays a duplicate pair: both games on the dice of `dice_seed`, `a` team
// RY in the first and GB in the second. Both players are told beforehand
// that their opponent is new (Player::NewOpponent), so that what a player
// learns of its opponent holds over the pair's two games and no further:
// each pair is played the same whichever worker plays it, in any order.
std::array<GameResult, 2> PlayPair(Player* a, Player* b, const Rules& rules, uint64_t dice_seed);

// The record of a played game (docs/records.md), built by RecordOf(Game)
// with its players and seed; a loss on time has its result and
// termination, a forfeited game no result.
Record RecordOf(const GameResult& game, const std::string& ry, const std::string& gb,
                uint64_t seed);

}  // namespace uckers
