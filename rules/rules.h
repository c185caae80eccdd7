#pragma once

#include <array>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/types.h"

namespace uckers {

// The rule switches of RULES.md §9, in the order of its table.
enum class Switch : int {
  kSplitSinglePiece,     // var. A: one piece may land between the two dice
  kMixieCanChallenge,    // var. B: a mixie blob may challenge
  kBlobOnBlob,           // var. C: a blob jumps or smashes the blob in front
  kBounceBack,           // var. D: overshooting home bounces back
  kOneLessSix,           // var. E: challenges need one six fewer
  kDoubleSixTwoThrows,   // var. F: a double six earns two extra throws
  kSuckBack,             // var. G: suck back / blow back (WAFU)
  kSnakeEyes,            // seeds 000/001: first-throw 1-1 brings all out
  kThrowAfterChallenge,  // seed 003: a won challenge earns one more throw
  kNoPartnerPipeMoves,   // seeds 000/001: no moving the partner's lane pieces
  kMixieStack,           // seeds 000/001: only a mixie blob's top piece moves
  kSuperblob,            // seed 001: 3-4 pieces of a colour never move as a blob
  kDoublesThrowAgain,    // apps, RAN mess rules: any double earns an extra throw
  kSixSided,             // seeds 000/001: the six-sided board (§11)
  kTeamsOfThree,         // §11: two teams of three alternate colours
  kSolo,                 // §11: every colour for itself
  kCount,
};
inline constexpr int kNumSwitches = static_cast<int>(Switch::kCount);

// The name of a switch as written in rules strings ("one_less_six").
absl::string_view SwitchName(Switch s);

// Whether `s` is a switch of RULES.md §11 (six_sided, teams_of_three,
// solo): one that chooses the board and the sides, not a rule of play.
constexpr bool IsLayoutSwitch(Switch s) {
  return s == Switch::kSixSided || s == Switch::kTeamsOfThree || s == Switch::kSolo;
}

// A ruleset: the default ruleset of RULES.md (`navy`) plus switches.
// A small value type; equality compares every switch.
class Rules {
 public:
  Rules() = default;  // navy: every switch off

  // The preset of RULES.md §10 with this name; an error for an unknown name.
  static absl::StatusOr<Rules> Preset(absl::string_view name);

  // Parses "preset(+switch|-switch)*", e.g. "navy+one_less_six-snake_eyes".
  // Refuses unknown names, and the layouts RULES.md §11 forbids
  // (teams_of_three without six_sided, solo with teams_of_three).
  static absl::StatusOr<Rules> Parse(absl::string_view text);

  // The canonical string: a preset name when it equals one, else "navy"
  // followed by "+switch" for every switch on, in §9 order.
  std::string ToString() const;

  // The full switch list, whatever the preset: "navy" followed by
  // "+switch" for every switch on, in §9 order ("navy" when none is on).
  // What outlives a process records this, as a preset's meaning can change.
  std::string SwitchList() const;

  bool has(Switch s) const { return on_[static_cast<int>(s)]; }
  // The board and sides these switches choose (RULES.md §11).
  LayoutId layout_id() const {
    if (has(Switch::kSixSided)) {
      return has(Switch::kSolo) ? kSixSolo : has(Switch::kTeamsOfThree) ? kSixThrees : kSixPairs;
    }
    return has(Switch::kSolo) ? kFourSolo : kFourTeams;
  }
  const Layout& layout() const { return kLayouts[layout_id()]; }
  const Board& board() const { return layout().board; }
  // These rules' switches of RULES.md §11 alone: their layout, played by
  // the rules of §1-§8.
  Rules LayoutOnly() const {
    Rules layout;
    for (int s = 0; s < kNumSwitches; ++s) {
      if (IsLayoutSwitch(static_cast<Switch>(s))) layout.on_[s] = on_[s];
    }
    return layout;
  }
  // An error when the switches name a layout RULES.md §11 refuses.
  absl::Status CheckLayout() const;
  // For the layers that know only the four-sided board with two teams
  // (search, nets, endgame tables, the fronts): an error naming `what` and
  // the layout when these rules choose another one.
  absl::Status RequireFourSidedTeams(absl::string_view what) const;
  void set(Switch s, bool on) { on_[static_cast<int>(s)] = on; }

  friend bool operator==(const Rules&, const Rules&) = default;

 private:
  std::array<bool, kNumSwitches> on_{};
};

}  // namespace uckers
