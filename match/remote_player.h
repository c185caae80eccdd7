#pragma once

#include <memory>
#include <optional>
#include <string>

#include "match/player.h"
#include "uckers/v1/engine.grpc.pb.h"

namespace uckers {

// A player behind a gRPC endpoint (`uckers serve`, or any server of
// uckers.v1.Engine): each move is one BestMove call with the position as a
// UFEN; the answer is checked for legality. An error or an illegal play
// forfeits the game.
class RemotePlayer : public Player {
 public:
  RemotePlayer(const std::string& target, const Rules& rules, const v1::SearchLimits& limits,
               const std::string& level, int64_t handshake_ms);
  // Asks the endpoint for its engine information within the handshake
  // time: an error when it cannot be reached.
  absl::Status NewGame(uint64_t game_seed) override;
  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override;
  // The clocks go in the request's SearchLimits; the call's deadline is a
  // little past the mover's clock.
  void SetClocks(const Clocks& clocks) override;

 private:
  std::string target_;
  Rules rules_;
  v1::SearchLimits limits_;
  std::optional<int64_t> clock_deadline_ms_;
  std::string level_;
  int64_t handshake_ms_;
  std::unique_ptr<v1::Engine::Stub> stub_;
};

}  // namespace uckers
