#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

#include "match/player.h"

namespace uckers {

// A program speaking PROTOCOL.md, started once per player instance through
// `/bin/sh -c <command>`. Each move: `position ufen ...`, `go dice d1 d2`
// with the configured limits, then its `bestmove` is checked for legality.
// No answer within the time allowed, or an illegal play, forfeits the game.
class ExternalPlayer : public Player {
 public:
  // `timeout_ms` bounds each move; `handshake_ms` the start (`uciok`) and
  // each new game (`readyok`).
  ExternalPlayer(std::string command, const Rules& rules, std::string go_limits, int64_t timeout_ms,
                 int64_t handshake_ms);
  ~ExternalPlayer() override;

  absl::Status NewGame(uint64_t game_seed) override;
  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override;
  // `go` also gives `wtime`/`btime`/`winc`/`binc`/`movestogo`, and the
  // program is waited for until a little past its clock (it has lost on
  // time by then).
  void SetClocks(const Clocks& clocks) override;

 private:
  absl::Status Start();
  absl::Status Send(const std::string& line);
  // Reads lines until one starts with `prefix`, for at most `timeout_ms`;
  // returns it.
  absl::StatusOr<std::string> ReadUntil(const std::string& prefix, int64_t timeout_ms);

  std::string command_;
  Rules rules_;
  std::string go_limits_;
  std::string clock_args_;  // ` wtime ... btime ...` for the next decision
  int64_t timeout_ms_;
  std::optional<int64_t> clock_timeout_ms_;
  int64_t handshake_ms_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
};

}  // namespace uckers
