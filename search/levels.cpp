#include "search/levels.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace uckers {

const std::vector<LevelDef>& Levels() {
  static const std::vector<LevelDef> levels = {
      // name, depth, filter width, filter margin, noise
      // As gnubg's levels: the weaker ones misjudge (noise, in win
      // probability, the same error for the same position), the stronger
      // ones look further (docs/evaluation.md has the measured ladder).
      {"beginner", 1, 0, 0.0, 0.06},
      {"casual", 1, 0, 0.0, 0.02},
      {"intermediate", 1, 0, 0.0, 0.006},
      {"advanced", 1, 0, 0.0, 0.0},
      // The two strongest search endings (at most four pieces not home in
      // all) four throws deep, where few plays make it cheap
      // (docs/endgames.md).
      {"expert", 2, 8, 0.08, 0.0, EvalKind::kNet, 2},
      {"grandmaster", 3, 5, 0.04, 0.0, EvalKind::kNet, 1},
      // expert on the hand-made evaluation, kept for comparison.
      {"classic", 2, 8, 0.08, 0.0, EvalKind::kClassic},
  };
  return levels;
}

absl::Status ApplyLevel(absl::string_view name, SearchParams* params) {
  for (const LevelDef& level : Levels()) {
    if (level.name != name) continue;
    params->max_depth = level.max_depth;
    params->filter_width = level.filter_width;
    params->filter_margin = level.filter_margin;
    params->noise = level.noise;
    params->eval = level.eval;
    params->ending_extension = level.ending_extension;
    return absl::OkStatus();
  }
  std::vector<std::string> names;
  for (const LevelDef& level : Levels()) names.push_back(level.name);
  return absl::InvalidArgumentError(
      absl::StrCat("unknown level '", name, "' (", absl::StrJoin(names, ", "), ")"));
}

absl::StatusOr<int> MultiSideDepthOf(absl::string_view name) {
  SearchParams params;
  if (absl::Status s = ApplyLevel(name, &params); !s.ok()) return s;
  return std::min(params.max_depth, 3);
}

}  // namespace uckers
