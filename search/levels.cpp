#include "search/levels.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace uckers {

const std::vector<LevelDef>& Levels() {
  static const std::vector<LevelDef> levels = {
      // name, depth, root width, filter width, filter margin, noise
      {"beginner", 1, 0, 0, 0.0, 0.12},
      {"casual", 1, 0, 0, 0.0, 0.05},
      {"intermediate", 1, 0, 0, 0.0, 0.0},
      {"advanced", 2, 3, 8, 0.08, 0.0},
      {"expert", 2, 0, 8, 0.08, 0.0},
      {"grandmaster", 3, 0, 5, 0.04, 0.0},
  };
  return levels;
}

absl::Status ApplyLevel(absl::string_view name, SearchParams* params) {
  for (const LevelDef& level : Levels()) {
    if (level.name != name) continue;
    params->max_depth = level.max_depth;
    params->root_width = level.root_width;
    params->filter_width = level.filter_width;
    params->filter_margin = level.filter_margin;
    params->noise = level.noise;
    return absl::OkStatus();
  }
  std::vector<std::string> names;
  for (const LevelDef& level : Levels()) names.push_back(level.name);
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown level '", name, "' (", absl::StrJoin(names, ", "), ")"));
}

}  // namespace uckers
