#include "engine/facade.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "record/text.h"
#include "rules/dice_sequence.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/ufen.h"
#include "search/levels.h"
#include "search/settings.h"

namespace uckers::facade {

absl::StatusOr<Rules> ParseRules(absl::string_view text) {
  if (text.empty()) return Rules();
  return Rules::Parse(text);
}

absl::StatusOr<Position> ParsePosition(absl::string_view text, const Rules& rules) {
  if (text == "startpos") return Position::Start(rules);
  return ParseUfen(text, rules);
}

absl::StatusOr<Throw> MakeCheckedThrow(int d1, int d2) {
  if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) {
    return absl::InvalidArgumentError(
        absl::StrCat("dice ", d1, " and ", d2, ": each must be 1..6"));
  }
  return MakeThrow(d1, d2);
}

std::vector<PlayResult> LegalPlays(const Position& pos, const Rules& rules, Throw t) {
  PlayList list;
  GenerateLegalPlays(pos, rules, t, &list);
  std::vector<PlayResult> plays(list.begin(), list.end());
  std::sort(plays.begin(), plays.end(), [&pos](const PlayResult& a, const PlayResult& b) {
    return PlayToString(a.play, pos.board()) < PlayToString(b.play, pos.board());
  });
  return plays;
}

absl::StatusOr<PlayResult> ApplyPlay(const Position& pos, const Rules& rules, Throw t,
                                     absl::string_view play) {
  return ParsePlay(play, pos, rules, t);
}

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

std::vector<std::string> PresetNames() { return uckers::PresetNames(); }

std::vector<std::string> LevelNames() { return uckers::LevelNames(); }

}  // namespace uckers::facade
