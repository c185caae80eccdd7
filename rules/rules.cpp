#include "rules/rules.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace uckers {
namespace {

constexpr absl::string_view kSwitchNames[kNumSwitches] = {
    "split_single_piece",
    "mixie_can_challenge",
    "blob_on_blob",
    "bounce_back",
    "one_less_six",
    "double_six_two_throws",
    "suck_back",
    "snake_eyes",
    "throw_after_challenge",
    "no_partner_pipe_moves",
    "mixie_stack",
    "superblob",
    "doubles_throw_again",
    "six_sided",
    "teams_of_three",
    "solo",
};

struct PresetDef {
  absl::string_view name;
  std::initializer_list<Switch> switches;
};

const PresetDef kPresets[] = {
    {"navy", {}},
    {"wafu", {Switch::kSuckBack, Switch::kSnakeEyes}},
    {"mess",
     {Switch::kSnakeEyes, Switch::kNoPartnerPipeMoves, Switch::kBlobOnBlob, Switch::kMixieStack,
      Switch::kSuperblob}},
    {"six", {Switch::kSixSided}},
    {"selsey", {Switch::kThrowAfterChallenge}},
};

absl::StatusOr<Switch> SwitchByName(absl::string_view name) {
  for (int i = 0; i < kNumSwitches; ++i) {
    if (kSwitchNames[i] == name) return static_cast<Switch>(i);
  }
  if (name.empty()) {
    return absl::InvalidArgumentError("a switch name must follow each '+' or '-'");
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown rule switch '", name, "'"));
}

}  // namespace

absl::string_view SwitchName(Switch s) { return kSwitchNames[static_cast<int>(s)]; }

absl::StatusOr<Rules> Rules::Preset(absl::string_view name) {
  for (const PresetDef& preset : kPresets) {
    if (preset.name != name) continue;
    Rules rules;
    for (Switch s : preset.switches) rules.set(s, true);
    return rules;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown ruleset '", name, "' (expected navy, wafu, mess, six or selsey)"));
}

absl::StatusOr<Rules> Rules::Parse(absl::string_view text) {
  size_t end = text.find_first_of("+-");
  absl::StatusOr<Rules> rules = Preset(text.substr(0, end));
  if (!rules.ok()) return rules.status();
  while (end != absl::string_view::npos) {
    bool on = text[end] == '+';
    size_t next = text.find_first_of("+-", end + 1);
    absl::string_view name = text.substr(end + 1, next - end - 1);
    absl::StatusOr<Switch> s = SwitchByName(name);
    if (!s.ok()) return s.status();
    rules->set(*s, on);
    end = next;
  }
  if (absl::Status s = rules->CheckLayout(); !s.ok()) return s;
  return rules;
}

absl::Status Rules::RequireFourSidedTeams(absl::string_view what) const {
  const Layout& l = layout();
  if (l.IsFourSidedTeams()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(what, " knows only the four-sided board with two teams, not rules ", ToString(),
                   " (", l.board.colours, " colours, ", l.num_sides,
                   " sides, RULES.md §11); position, legal, d and perft work on every board"));
}

absl::Status Rules::CheckLayout() const {
  if (has(Switch::kTeamsOfThree) && !has(Switch::kSixSided)) {
    return absl::InvalidArgumentError(
        "rule switch teams_of_three needs six_sided: teams of three exist only on the six-sided "
        "board (RULES.md §11)");
  }
  if (has(Switch::kSolo) && has(Switch::kTeamsOfThree)) {
    return absl::InvalidArgumentError(
        "rule switches solo and teams_of_three exclude each other: under solo every colour is a "
        "side of its own (RULES.md §11)");
  }
  return absl::OkStatus();
}

std::string Rules::ToString() const {
  for (const PresetDef& preset : kPresets) {
    if (*Preset(preset.name) == *this) return std::string(preset.name);
  }
  return SwitchList();
}

std::string Rules::SwitchList() const {
  std::string out = "navy";
  for (int i = 0; i < kNumSwitches; ++i) {
    if (on_[i]) absl::StrAppend(&out, "+", kSwitchNames[i]);
  }
  return out;
}

}  // namespace uckers
