#include "search/time_manager.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "rules/types.h"

namespace uckers {
namespace {

// A team's pieces move about seven squares a turn (the mean of two dice),
// and knock-offs and blocked throws add turns: the estimate divides by a
// little less.
constexpr double kSquaresPerDecision = 6.0;
constexpr int kMinDecisionsLeft = 8;
constexpr int kMaxDecisionsLeft = 80;

int DistanceHome(Square sq) {
  if (sq == kHome) return 0;
  if (sq == kBase) return kHome + 1;
  return kHome - sq;
}

}  // namespace

int DecisionsLeft(const Position& pos, int team) {
  int squares = 0;
  for (int colour : {team, team + 2}) {
    for (Square sq : pos.pieces(colour)) squares += DistanceHome(sq);
  }
  int estimate = static_cast<int>(squares / kSquaresPerDecision);
  return std::clamp(estimate + kMinDecisionsLeft / 2, kMinDecisionsLeft, kMaxDecisionsLeft);
}

TimeBudget AllocateTime(int64_t time_ms, int64_t increment_ms, int moves_to_go,
                        int decisions_left) {
  int64_t available = time_ms - kMoveOverheadMs;
  TimeBudget budget;
  if (available <= 1) return budget;  // 1 ms: the search's shortest answer
  int horizon =
      std::max(1, moves_to_go > 0 ? std::min(moves_to_go, decisions_left) : decisions_left);
  // An even share of what is left, plus most of the increment; never more
  // than a fifth of the clock (nearly all of it on the last move before the
  // control), and a hard stop at four targets.
  double share = static_cast<double>(available) / horizon + 0.9 * increment_ms;
  double cap = horizon == 1 ? 0.9 * available : available / 5.0;
  double target = std::min(share, cap);
  double limit = std::min(4 * target, horizon == 1 ? 0.95 * available : available / 2.0);
  budget.target_ms = std::max<int64_t>(1, static_cast<int64_t>(target));
  budget.limit_ms = std::max<int64_t>(budget.target_ms, static_cast<int64_t>(limit));
  return budget;
}

std::optional<TimeBudget> BudgetFor(const Clocks& clocks, const Position& pos) {
  int team = TeamOf(pos.to_throw());
  if (!clocks.time_ms[team]) return std::nullopt;
  return AllocateTime(*clocks.time_ms[team], clocks.increment_ms[team], clocks.moves_to_go,
                      DecisionsLeft(pos, team));
}

absl::Status CheckClocks(const Clocks& clocks, const Position& pos) {
  int team = TeamOf(pos.to_throw());
  if (clocks.time_ms[team] || !clocks.time_ms[1 - team]) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(team == 0 ? "wtime" : "btime", " is missing: the clock of the team to throw (",
                   team == 0 ? "red and yellow" : "green and blue", ") must be given when ",
                   team == 0 ? "btime" : "wtime", " is"));
}

}  // namespace uckers
