#pragma once

#include <random>

#include "match/player.h"

namespace uckers {

// Uniformly random among the legal plays.
class RandomPlayer : public Player {
 public:
  RandomPlayer(const Rules& rules, uint64_t seed) : rules_(rules), seed_(seed) {}
  absl::Status NewGame(uint64_t game_seed) override {
    rng_.seed(seed_ ^ game_seed);
    return absl::OkStatus();
  }
  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override;

 private:
  Rules rules_;
  uint64_t seed_;
  std::mt19937_64 rng_;
};

// The classic pub player: a piece home first, else knock off a single, else
// knock off a mixie blob, else advance the furthest piece. Never challenges.
class GreedyPlayer : public Player {
 public:
  explicit GreedyPlayer(const Rules& rules) : rules_(rules) {}
  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override;

 private:
  Rules rules_;
};

}  // namespace uckers
