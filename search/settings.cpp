#include "search/settings.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "search/levels.h"

namespace uckers {

const std::vector<std::string>& PresetNames() {
  static const std::vector<std::string> names = {"navy", "wafu", "mess", "selsey"};
  return names;
}

const std::vector<std::string>& LevelNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const LevelDef& level : Levels()) out.push_back(level.name);
    return out;
  }();
  return names;
}

const std::vector<SettingDef>& SettingDefs() {
  using K = SettingKind;
  static const std::vector<SettingDef> defs = {
      {"Rules",
       "rules",
       K::kText,
       0,
       0,
       {},
       "navy",
       "ruleset: a preset (" + absl::StrJoin(PresetNames(), ", ") + ") then +switch / -switch"},
      {"Threads", "threads", K::kInt, 1, 64, {}, "1", "search threads"},
      {"Hash", "hash_mb", K::kInt, 1, 4096, {}, "16", "transposition table size in MiB"},
      {"Objective",
       "objective",
       K::kChoice,
       0,
       0,
       {"win", "points"},
       "win",
       "maximise the win probability or the expected points"},
      {"MultiPV", "multipv", K::kInt, 1, 64, {}, "1", "number of candidate plays reported"},
      {"Seed", "seed", K::kInt, 0, 2147483647, {}, "0", "seed for random choices"},
      {"Search",
       "search",
       K::kChoice,
       0,
       0,
       {"expectimax", "mcts", "rollout"},
       "expectimax",
       "search algorithm"},
      {"TreeMemory",
       "tree_mb",
       K::kInt,
       1,
       kMaxTreeMb,
       {},
       "256",
       "MCTS tree size in MiB: when full, the tree stops growing"},
      {"Level", "level", K::kChoice, 0, 0, LevelNames(), std::string(kDefaultLevel),
       "playing strength: depth, filter width and evaluation noise"},
      {"Eval",
       "eval",
       K::kChoice,
       0,
       0,
       {"level", "net", "classic"},
       "level",
       "static evaluation: the level's, the learned net (where one is trained for "
       "the rules) or the classic hand-made one"},
      {"MultiSide",
       "multi_side",
       K::kChoice,
       0,
       0,
       {"maxn", "paranoid"},
       "maxn",
       "with more than two sides: each side maximises its own chance (maxn), or every other "
       "side plays against the mover (paranoid)"},
      {"EndgamePath",
       "endgames",
       K::kText,
       0,
       0,
       {},
       "",
       "an endgame table file (uckers endgames build) for the rules played: the positions "
       "it covers are valued and played exactly; empty for none"},
  };
  return defs;
}

const SettingDef* FindSetting(absl::string_view name) {
  for (const SettingDef& def : SettingDefs()) {
    if (absl::EqualsIgnoreCase(def.option, name) || absl::EqualsIgnoreCase(def.key, name)) {
      return &def;
    }
  }
  return nullptr;
}

absl::Status CheckIntSetting(absl::string_view key, int64_t value) {
  const SettingDef* def = FindSetting(key);
  if (def == nullptr || def->kind != SettingKind::kInt) {
    return absl::InternalError(absl::StrCat("no whole-number setting '", key, "'"));
  }
  if (value < def->min || value > def->max) {
    return absl::InvalidArgumentError(
        absl::StrCat(def->key, " must be ", def->min, "..", def->max, ", not ", value));
  }
  return absl::OkStatus();
}

absl::Status CheckChoiceSetting(absl::string_view key, absl::string_view value) {
  const SettingDef* def = FindSetting(key);
  if (def == nullptr || def->kind != SettingKind::kChoice) {
    return absl::InternalError(absl::StrCat("no choice setting '", key, "'"));
  }
  if (std::find(def->choices.begin(), def->choices.end(), value) == def->choices.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        def->key, " must be one of ", absl::StrJoin(def->choices, ", "), ", not '", value, "'"));
  }
  return absl::OkStatus();
}

}  // namespace uckers
