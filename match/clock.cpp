#include "match/clock.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace uckers {
namespace {

constexpr double kMaxSeconds = 100.0 * 24 * 3600;  // 100 days

// Seconds with up to millisecond precision, >= 0 (or > 0 when `positive`).
bool ParseSeconds(absl::string_view text, bool positive, int64_t* ms) {
  double s = 0;
  if (text.empty() || !absl::SimpleAtod(text, &s) || !std::isfinite(s) || s < 0 ||
      s > kMaxSeconds || text.find_first_not_of("0123456789.") != absl::string_view::npos) {
    return false;
  }
  *ms = static_cast<int64_t>(std::llround(s * 1000));
  return !positive || *ms > 0;
}

std::string Seconds(int64_t ms) {
  std::string s = absl::StrFormat("%.3f", ms / 1000.0);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

absl::StatusOr<TimeControl> ParseTimeControl(absl::string_view text) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("time control '", text, "': ", why,
                     " (expected [moves/]seconds[+increment], like 40/10+0.1 or 10+0.1)"));
  };
  TimeControl tc;
  absl::string_view rest = text;
  if (size_t slash = rest.find('/'); slash != absl::string_view::npos) {
    int moves = 0;
    if (!absl::SimpleAtoi(rest.substr(0, slash), &moves) || moves < 1 || moves > 1000) {
      return bad("moves must be 1..1000");
    }
    tc.moves = moves;
    rest = rest.substr(slash + 1);
  }
  absl::string_view base = rest, inc;
  if (size_t plus = rest.find('+'); plus != absl::string_view::npos) {
    base = rest.substr(0, plus);
    inc = rest.substr(plus + 1);
    if (!ParseSeconds(inc, false, &tc.increment_ms)) return bad("the increment must be seconds");
  }
  if (!ParseSeconds(base, true, &tc.base_ms)) {
    return bad("the time must be seconds above 0, up to 100 days");
  }
  return tc;
}

std::string TimeControlText(const TimeControl& tc) {
  std::string out = tc.moves > 0 ? absl::StrCat(tc.moves, "/") : "";
  absl::StrAppend(&out, Seconds(tc.base_ms));
  if (tc.increment_ms > 0) absl::StrAppend(&out, "+", Seconds(tc.increment_ms));
  return out;
}

bool GameClock::Charge(double ms) {
  left_ms_ -= ms;
  if (left_ms_ < 0) return false;
  left_ms_ += static_cast<double>(tc_.increment_ms);
  ++decisions_;
  if (tc_.moves > 0 && decisions_ % tc_.moves == 0) left_ms_ += static_cast<double>(tc_.base_ms);
  return true;
}

}  // namespace uckers
