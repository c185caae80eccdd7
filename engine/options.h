#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "endgame/table.h"
#include "rules/rules.h"
#include "search/search.h"
#include "search/settings.h"

namespace uckers {

// The text protocol's view of the settings table (search/settings.h): the
// `option` lines of `uci` and GetEngineInfo's options.
struct OptionDef {
  std::string name;
  std::string type;  // UCI type: spin, combo, string, check
  std::string default_value;
  int64_t min = 0;                // spin only
  int64_t max = 0;                // spin only
  std::vector<std::string> vars;  // combo only
  std::string help;
};

const std::vector<OptionDef>& OptionDefs();

// The values of every option: the settings table's (search/settings.h),
// and the two it leaves to its owner.
struct EngineOptions : SearchSettings {
  Rules rules;                                   // Rules: the ruleset played
  std::string endgame_path;                      // EndgamePath: the table file, or empty
  std::shared_ptr<const EndgameTable> endgames;  // ...and the table read from it

  // Sets option `name` (case-insensitive, as in UCI) from text; an error
  // naming the option and the problem leaves every value unchanged.
  absl::Status Set(absl::string_view name, absl::string_view value);
};

}  // namespace uckers
