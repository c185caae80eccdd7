#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace uckers {

// A time control as engine testers write it (`tc=` in a player spec):
// `40/10+0.1` gives 10 s for every 40 decisions plus 0.1 s after each,
// `10+0.1` 10 s for the game plus 0.1 s a decision, `60` one minute for
// the game. Decisions are the plays a player is asked for: forced plays
// (one legal play) are made for it and cost no time.
struct TimeControl {
  int moves = 0;             // decisions per period; 0: one period for the game
  int64_t base_ms = 0;       // time per period
  int64_t increment_ms = 0;  // added after each decision
};

// Parses `[moves/]seconds[+increment]` (seconds may have decimals, down to
// milliseconds): INVALID_ARGUMENT naming what is wrong.
absl::StatusOr<TimeControl> ParseTimeControl(absl::string_view text);

// The canonical text, `40/10+0.1`.
std::string TimeControlText(const TimeControl& tc);

// One player's clock over a game.
class GameClock {
 public:
  explicit GameClock(const TimeControl& tc) : tc_(tc), left_ms_(tc.base_ms) {}
  double left_ms() const { return left_ms_; }
  // Decisions to the end of the period (0: the period is the game).
  int moves_to_go() const { return tc_.moves > 0 ? tc_.moves - decisions_ % tc_.moves : 0; }
  int64_t increment_ms() const { return tc_.increment_ms; }
  // Charges a decision that took `ms`: false when the clock ran out during
  // it (the player loses on time); else the increment and, at the end of a
  // period, the next period's time are added.
  bool Charge(double ms);

 private:
  TimeControl tc_;
  double left_ms_;
  int decisions_ = 0;
};

}  // namespace uckers
