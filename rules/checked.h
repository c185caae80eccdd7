#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"

// A caller's rules, position and dice from their text or numbers, each
// checked, with an error naming what was wrong; and the legal plays in the
// order every front lists them. The fronts (service, text protocol, match
// players) take their inputs through these.
namespace uckers {

// A rules string; empty means the default ruleset (navy). Every board and
// layout of RULES.md §11 is accepted (`six`, `navy+solo`,
// `six+teams_of_three`, `six+solo`).
absl::StatusOr<Rules> ParseRulesOrDefault(absl::string_view text);

// A UFEN under `rules`, or "startpos" for that ruleset's start position.
absl::StatusOr<Position> ParsePositionOrStart(absl::string_view text, const Rules& rules);

// Two dice, each 1..6.
absl::StatusOr<Throw> MakeCheckedThrow(int d1, int d2);

// The distinct legal plays, sorted by their canonical text; empty when the
// game is over.
std::vector<PlayResult> SortedLegalPlays(const Position& pos, const Rules& rules, Throw t);

}  // namespace uckers
