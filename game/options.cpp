#include "game/options.h"

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
      const char* type = s.kind == SettingKind::kInt      ? "spin"
                         : s.kind == SettingKind::kChoice ? "combo"
                                                          : "string";
      out.push_back({s.option, type, s.default_value, s.min, s.max, s.choices, s.help});
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
  std::string_view text(value.data(), value.size());  // for the search/ name lookups
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
  if (def->kind == SettingKind::kText) {  // Rules
    absl::StatusOr<Rules> parsed = Rules::Parse(value);
    if (!parsed.ok()) return bad(parsed.status());
    rules = *parsed;
    return absl::OkStatus();
  }
  if (def->kind == SettingKind::kChoice) {
    if (absl::Status s = CheckChoiceSetting(def->key, value); !s.ok()) return bad(s);
    if (def->key == "search") algorithm = *AlgorithmByName(text);
    if (def->key == "eval") eval = EvalKindByName(text);
    if (def->key == "level") level = std::string(text);
    if (def->key == "multi_side") paranoid = text == "paranoid";
    if (def->key == "objective") objective = text == "win" ? Objective::kWin : Objective::kPoints;
    return absl::OkStatus();
  }
  int64_t n = 0;
  if (!absl::SimpleAtoi(value, &n)) {
    return bad(absl::InvalidArgumentError(
        absl::StrCat(def->key, " must be a whole number, not '", value, "'")));
  }
  if (absl::Status s = CheckIntSetting(def->key, n); !s.ok()) return bad(s);
  if (def->key == "threads") threads = static_cast<int>(n);
  if (def->key == "hash_mb") hash_mb = static_cast<int>(n);
  if (def->key == "tree_mb") tree_mb = static_cast<int>(n);
  if (def->key == "multipv") multipv = static_cast<int>(n);
  if (def->key == "seed") seed = static_cast<uint64_t>(n);
  return absl::OkStatus();
}

}  // namespace uckers
