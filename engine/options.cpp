#include "engine/options.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "search/settings.h"

namespace uckers {

const std::vector<OptionDef>& OptionDefs() {
  static const std::vector<OptionDef> defs = [] {
    std::vector<OptionDef> out;
    for (const SettingDef& s : SettingDefs()) {
      // A number with no fixed default (the level's) or a real number is
      // a UCI string; the help gives its range.
      bool spin = s.kind == SettingKind::kInt && s.default_value != "level";
      const char* type = spin ? "spin" : s.kind == SettingKind::kChoice ? "combo" : "string";
      std::string help = s.help;
      if (!spin && (s.kind == SettingKind::kInt || s.kind == SettingKind::kReal)) {
        absl::StrAppend(&help, " (", s.min, "..", s.max, ")");
      }
      out.push_back({s.option, type, s.default_value, static_cast<int64_t>(s.min),
                     static_cast<int64_t>(s.max), s.choices, help});
    }
    return out;
  }();
  return defs;
}

absl::Status EngineOptions::Set(absl::string_view name, absl::string_view value) {
  const SettingDef* def = FindSetting(name);
  if (def == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown option '", name, "'"));
  }
  auto bad = [&](const absl::Status& s) {
    return absl::InvalidArgumentError(absl::StrCat("option ", def->option, ": ", s.message()));
  };
  if (def->key == "endgames") {
    // Read under the rules played now: a table of other rules is refused,
    // and the table held before stays.
    if (value.empty() || value == "<empty>") {
      endgame_path.clear();
      endgames.reset();
      return absl::OkStatus();
    }
    absl::StatusOr<std::shared_ptr<const EndgameTable>> table =
        EndgameTable::LoadShared(std::string(value));
    if (!table.ok()) return bad(table.status());
    if (!((*table)->rules() == rules)) {
      return bad(absl::FailedPreconditionError(
          absl::StrCat("endgame table ", value, " was built for rules ",
                       (*table)->rules().ToString(), ", the engine plays ", rules.ToString())));
    }
    endgame_path = std::string(value);
    endgames = *table;
    return absl::OkStatus();
  }
  if (def->key == "rules") {
    absl::StatusOr<Rules> parsed = Rules::Parse(value);
    if (!parsed.ok()) return bad(parsed.status());
    rules = *parsed;
    return absl::OkStatus();
  }
  if (absl::Status s = SetSetting(*this, def->key, value); !s.ok()) return bad(s);
  return absl::OkStatus();
}

}  // namespace uckers
