#pragma once

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "rules/position.h"

namespace uckers {

// A time control's clocks as a search request carries them (`go wtime ...`,
// gRPC SearchLimits): one clock per team, indexed by team (0 = red and
// yellow, `wtime`; 1 = green and blue, `btime`). A team's clock runs on both
// of its colours' turns; in a four-player game a front-end gives the mover's
// own clock under its team's index.
struct Clocks {
  std::optional<int64_t> time_ms[2];  // time left on each clock
  int64_t increment_ms[2] = {0, 0};   // added after each of its decisions
  int moves_to_go = 0;                // decisions to the next time control; 0: rest of the game
};

// How long one decision may take: the search aims to finish by `target_ms`
// (it starts no iteration it does not expect to finish by then) and stops
// at `limit_ms` whatever it is doing.
struct TimeBudget {
  int64_t target_ms = 1;
  int64_t limit_ms = 1;
};

// Kept back on every decision for what the clock counts but the search does
// not see (reading the request, writing the answer, a pipe).
inline constexpr int64_t kMoveOverheadMs = 10;

// The largest clock a request may give: 100 days, in ms.
inline constexpr int64_t kMaxClockMs = 100LL * 24 * 3600 * 1000;

// The decisions the player of `team` is still likely to make in `pos`: its
// pieces' distance home over a throw's average, with a floor. Forced plays
// are not asked for, so this is an estimate on the high side.
int DecisionsLeft(const Position& pos, int team);

// The budget for one decision from a clock with `time_ms` left,
// `increment_ms` per decision, `moves_to_go` decisions to the next control
// (0: none), and `decisions_left` estimated to the end of the game.
TimeBudget AllocateTime(int64_t time_ms, int64_t increment_ms, int moves_to_go, int decisions_left);

// The budget for the team to throw in `pos`, or nullopt when the request has
// no clock for it.
std::optional<TimeBudget> BudgetFor(const Clocks& clocks, const Position& pos);

// A request's clocks are usable for `pos`: none given, or the team to
// throw's (INVALID_ARGUMENT naming `wtime` or `btime` when only the other
// team's is given).
absl::Status CheckClocks(const Clocks& clocks, const Position& pos);

}  // namespace uckers
