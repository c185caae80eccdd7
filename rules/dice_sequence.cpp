#include "rules/dice_sequence.h"

#include "absl/strings/str_cat.h"

namespace uckers {

absl::StatusOr<std::vector<std::pair<int, int>>> RollDice(uint64_t seed, int index, int count) {
  if (index < 0 || index > kMaxDiceIndex) {
    return absl::InvalidArgumentError(absl::StrCat("index ", index, " must be 0..", kMaxDiceIndex));
  }
  if (count < 1 || count > kMaxDiceCount) {
    return absl::InvalidArgumentError(absl::StrCat("count ", count, " must be 1..", kMaxDiceCount));
  }
  DiceSequence dice(seed);
  dice.Skip(index);
  std::vector<std::pair<int, int>> throws;
  for (int i = 0; i < count; ++i) throws.push_back(dice.NextDice());
  return throws;
}

uint64_t NewDiceSeed() {
  std::random_device device;
  uint64_t seed = 0;
  while (seed == 0) seed = (static_cast<uint64_t>(device()) << 32) ^ device();
  return seed;
}

}  // namespace uckers
