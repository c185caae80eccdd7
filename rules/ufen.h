#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// The start position in UFEN under the default rules.
inline constexpr absl::string_view kStartUfen = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";

// Parses a UFEN (PROTOCOL.md) under `rules`. Accepts a colour's pieces in any
// order and state tokens in any order; rejects malformed text and
// inconsistent positions with an error naming the field and the problem.
absl::StatusOr<Position> ParseUfen(absl::string_view text, const Rules& rules);

// The canonical UFEN of a position.
std::string ToUfen(const Position& pos);

// The letters of a side's colours in turn order ("ry", "rbo"...).
std::string SideLetters(const Layout& l, int side);

}  // namespace uckers
