#pragma once

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// Parses a throw written as two digits 1..6 ("63", order free).
absl::StatusOr<Throw> ParseThrow(absl::string_view text);
std::string ThrowToString(Throw t);

// Parses a play for throw `t` in `pos` and returns the legal play it spells,
// with the position it leads to. Accepts any spelling whose moves, applied in
// the order written (or, for two moves, in the other order), reach the
// position of a legal play (PROTOCOL.md); an error names what is wrong
// otherwise.
absl::StatusOr<PlayResult> ParsePlay(absl::string_view text, const Position& pos,
                                     const Rules& rules, Throw t);

}  // namespace uckers
