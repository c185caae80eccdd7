#pragma once

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "match/clock.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "search/time_manager.h"

namespace uckers {

// Someone who picks plays: a built-in configuration or an external program.
// One instance serves one game at a time (match workers each make their own).
class Player {
 public:
  virtual ~Player() = default;
  // Called before each game; `game_seed` makes random choices repeatable.
  virtual absl::Status NewGame(uint64_t game_seed) {
    (void)game_seed;
    return absl::OkStatus();
  }
  // Called before the games against another opponent, or ones to judge
  // afresh: what the player learnt of its opponent's plays (Opponent=auto)
  // holds from one game to the next until then. Matches and ladders call
  // it before each duplicate pair (PlayPair, match/play_game.h).
  virtual void NewOpponent() {}
  // The chosen play among the legal ones for throw `t` (never a finished
  // game, always at least two legal plays). An error forfeits the game.
  virtual absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) = 0;
  // After each decision of the game, either team's (a throw of two legal
  // plays or more): `before` was thrown `t` and `chosen` played. A player
  // that judges its opponent by its plays (Opponent=auto) listens.
  virtual void Observe(const Position& before, Throw t, const PlayResult& chosen) {
    (void)before;
    (void)t;
    (void)chosen;
  }
  // Before each decision of a game played on clocks (a player with `tc=`):
  // the clocks as they stand, the mover's included, for the player to
  // budget its time (the engine's time manager; `go wtime ...` for a
  // program; SearchLimits for a gRPC endpoint).
  virtual void SetClocks(const Clocks& clocks) { (void)clocks; }
  // The time control the player plays on (`tc=`), or none.
  const std::optional<TimeControl>& time_control() const { return time_control_; }
  void set_time_control(const TimeControl& tc) { time_control_ = tc; }

 private:
  std::optional<TimeControl> time_control_;
};

// Makes a player from a specification:
//   random | greedy | <level> | mcts | cmd:<command line>
//   | grpc:<target>[@<level>]   (a gRPC endpoint: `grpc:127.0.0.1:50051`)
// optionally followed by `,key=value` settings: movetime, depth, nodes (all
// players that search), seed, objective (win|points), filter, noise;
// handshake (ms, default 5000: how long a cmd: or grpc: player may take to
// start and to be ready for a game); tc (a time control, `tc=40/10+0.1`:
// the player's clock; running out of it loses the game, match/clock.h).
// Examples: `expert,movetime=100`, `advanced,depth=1`, `mcts,nodes=2000`,
// `cmd:./other_engine --quiet,movetime=50`, `grpc:localhost:50051@casual`.
absl::StatusOr<std::unique_ptr<Player>> MakePlayer(const std::string& spec, const Rules& rules,
                                                   uint64_t seed);

// Starts the player of `spec` once and readies it for a game, as a match
// or ladder does before its first game: FAILED_PRECONDITION naming the
// player when a program does not start or answer its handshake in time, or
// a gRPC endpoint cannot be reached.
absl::Status CheckPlayerStarts(const std::string& spec, const Rules& rules);

inline constexpr int64_t kDefaultHandshakeMs = 5000;

// What a player specification may say, for a command's help: the players,
// the levels with their depth, filter and noise, and the settings.
std::string PlayerHelp();

}  // namespace uckers
