#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "search/search.h"

// The one reading of a search's limits for every front: the text
// protocol's `go`, gRPC and Connect's SearchLimits and the match players'
// settings fill a LimitsInput with what they were given, and MakeLimits
// checks each value against its one range and builds the SearchLimits. So
// `depth 65`, a negative movetime or a movestogo of 0 read the same way
// (and get the same words) whichever front they came through.
namespace uckers {

// The deepest search a request may ask for.
inline constexpr int kMaxRequestDepth = 64;
// The most decisions a time control may count to its next control.
inline constexpr int kMaxMovesToGo = 1000;

// Limits as given: a field is set when the front was given it (gRPC: a
// non-zero field). Values are raw, out-of-range ones included.
struct LimitsInput {
  std::optional<int64_t> movetime_ms;
  std::optional<int64_t> nodes;
  std::optional<int64_t> depth;
  bool infinite = false;
  // Team clocks: index 0 red and yellow (`wtime`/`winc`), 1 green and blue.
  std::optional<int64_t> time_ms[2];
  std::optional<int64_t> increment_ms[2];
  std::optional<int64_t> moves_to_go;  // 0: the rest of the game
};

// The SearchLimits of `in`, or INVALID_ARGUMENT naming the limit by its
// text-protocol name and its range: "depth must be 1..64, not 65". A clock
// may be negative (a front-end that let it run below zero: no time left);
// increments may not.
absl::StatusOr<SearchLimits> MakeLimits(const LimitsInput& in);

}  // namespace uckers
