#pragma once

#include <memory>
#include <string>

#include "tools/match/player.h"
#include "uckers/v1/engine.grpc.pb.h"

namespace uckers {

// A player behind a gRPC endpoint (`uckers serve`, or any server of
// uckers.v1.Engine): each move is one BestMove call with the position as a
// UFEN; the answer is checked for legality. An error or an illegal play
// forfeits the game.
class RemotePlayer : public Player {
 public:
  RemotePlayer(const std::string& target, const Rules& rules, const v1::SearchLimits& limits,
               const std::string& level);
  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override;

 private:
  std::string target_;
  Rules rules_;
  v1::SearchLimits limits_;
  std::string level_;
  std::unique_ptr<v1::Engine::Stub> stub_;
};

}  // namespace uckers
