#include "search/limits.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "search/time_manager.h"

namespace uckers {
namespace {

absl::Status OutOfRange(const std::string& name, const std::string& range, int64_t value) {
  return absl::InvalidArgumentError(absl::StrCat(name, " must be ", range, ", not ", value));
}

}  // namespace

absl::StatusOr<SearchLimits> MakeLimits(const LimitsInput& in) {
  SearchLimits out;
  out.infinite = in.infinite;
  if (in.movetime_ms) {
    if (*in.movetime_ms < 1 || *in.movetime_ms > kMaxClockMs) {
      return OutOfRange("movetime", "1..8640000000 ms", *in.movetime_ms);
    }
    out.movetime_ms = *in.movetime_ms;
  }
  if (in.nodes) {
    if (*in.nodes < 1) return OutOfRange("nodes", "1 or more", *in.nodes);
    out.nodes = static_cast<uint64_t>(*in.nodes);
  }
  if (in.depth) {
    if (*in.depth < 1 || *in.depth > kMaxRequestDepth) {
      return OutOfRange("depth", absl::StrCat("1..", kMaxRequestDepth), *in.depth);
    }
    out.depth = static_cast<int>(*in.depth);
  }
  static constexpr const char* kTime[2] = {"wtime", "btime"};
  static constexpr const char* kInc[2] = {"winc", "binc"};
  for (int team = 0; team < 2; ++team) {
    if (in.time_ms[team]) {
      if (*in.time_ms[team] > kMaxClockMs) {
        return OutOfRange(kTime[team], "at most 100 days (8640000000 ms)", *in.time_ms[team]);
      }
      out.clocks.time_ms[team] = std::max<int64_t>(0, *in.time_ms[team]);
    }
    if (in.increment_ms[team]) {
      int64_t inc = *in.increment_ms[team];
      if (inc < 0 || inc > kMaxClockMs) return OutOfRange(kInc[team], "0..8640000000 ms", inc);
      out.clocks.increment_ms[team] = inc;
    }
  }
  if (in.moves_to_go) {
    if (*in.moves_to_go < 0 || *in.moves_to_go > kMaxMovesToGo) {
      return OutOfRange("movestogo",
                        absl::StrCat("0..", kMaxMovesToGo, " (0: the rest of the game)"),
                        *in.moves_to_go);
    }
    out.clocks.moves_to_go = static_cast<int>(*in.moves_to_go);
  }
  return out;
}

}  // namespace uckers
