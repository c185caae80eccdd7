#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "rules/dice.h"

namespace uckers {

// The dice of a game drawn from a seed: the sequence every match, ladder and
// the RollDice call throw, so that a game's dice are recorded by its seed
// (docs/records.md `Seed`) and the same seed always throws the same game.
class DiceSequence {
 public:
  explicit DiceSequence(uint64_t seed) : rng_(seed) {}

  // The next two dice, in the order drawn.
  std::pair<int, int> NextDice() {
    int first = die_(rng_);
    int second = die_(rng_);
    return {first, second};
  }
  Throw Next() {
    auto [first, second] = NextDice();
    return MakeThrow(first, second);
  }
  // Skips `n` throws.
  void Skip(int n) {
    for (int i = 0; i < n; ++i) NextDice();
  }

 private:
  std::mt19937_64 rng_;
  std::uniform_int_distribution<int> die_{1, 6};
};

// The throws `index`..`index + count - 1` of `seed`'s sequence, each as
// drawn (the RollDice call). `index` 0..kMaxDiceIndex, `count`
// 1..kMaxDiceCount; an error names the bad one.
inline constexpr int kMaxDiceIndex = 49999;
inline constexpr int kMaxDiceCount = 1000;
absl::StatusOr<std::vector<std::pair<int, int>>> RollDice(uint64_t seed, int index, int count);

// A fresh dice seed from the system's entropy (never 0), for a game whose
// client asked the server to choose.
uint64_t NewDiceSeed();

}  // namespace uckers
