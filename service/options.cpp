#include "service/options.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace uckers {
namespace {

const OptionDef* FindOption(absl::string_view name) {
  for (const OptionDef& def : OptionDefs()) {
    if (absl::EqualsIgnoreCase(def.name, name)) return &def;
  }
  return nullptr;
}

absl::StatusOr<int64_t> ParseSpin(const OptionDef& def, absl::string_view value) {
  int64_t n = 0;
  if (!absl::SimpleAtoi(value, &n) || n < def.min || n > def.max) {
    return absl::InvalidArgumentError(absl::StrCat(
        "option ", def.name, ": value '", value, "' must be an integer from ",
        def.min, " to ", def.max));
  }
  return n;
}

}  // namespace

const std::vector<OptionDef>& OptionDefs() {
  static const std::vector<OptionDef> defs = {
      {"Rules", "string", "navy", 0, 0, {},
       "ruleset: a preset (navy, mess, selsey, wafu) then +switch / -switch"},
      {"Threads", "spin", "1", 1, 64, {}, "search threads"},
      {"Hash", "spin", "16", 1, 4096, {}, "transposition table size in MiB"},
      {"Objective", "combo", "win", 0, 0, {"win", "points"},
       "maximise the win probability or the expected points"},
      {"MultiPV", "spin", "1", 1, 64, {}, "number of candidate plays reported"},
      {"Seed", "spin", "0", 0, 2147483647, {}, "seed for random choices"},
      {"Search", "combo", "expectimax", 0, 0, {"expectimax", "mcts", "rollout"},
       "search algorithm"},
      {"TreeMemory", "spin", "256", 1, 65536, {},
       "MCTS tree size in MiB: when full, the tree stops growing"},
      {"Level", "combo", "expert", 0, 0,
       {"beginner", "casual", "intermediate", "advanced", "expert", "grandmaster",
        "classic"},
       "playing strength: depth, filter width and evaluation noise"},
      {"Eval", "combo", "level", 0, 0, {"level", "net", "classic"},
       "static evaluation: the level's, the learned net (where one is trained for "
       "the rules) or the classic hand-made one"},
  };
  return defs;
}

absl::Status EngineOptions::Set(absl::string_view name, absl::string_view value) {
  const OptionDef* def = FindOption(name);
  if (def == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown option '", name, "'"));
  }
  if (def->name == "Rules") {
    absl::StatusOr<Rules> parsed = Rules::Parse(value);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("option Rules: ", parsed.status().message()));
    }
    rules = *parsed;
    return absl::OkStatus();
  }
  if (def->type == "combo" && def->name != "Objective") {
    if (std::find(def->vars.begin(), def->vars.end(), value) == def->vars.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("option ", def->name, ": value '", value, "' must be one of ",
                       absl::StrJoin(def->vars, ", ")));
    }
    if (def->name == "Search") {
      algorithm = *AlgorithmByName(std::string_view(value.data(), value.size()));
    } else if (def->name == "Eval") {
      eval = EvalKindByName(std::string_view(value.data(), value.size()));
    } else {
      level = std::string(value);
    }
    return absl::OkStatus();
  }
  if (def->name == "Objective") {
    if (value != "win" && value != "points") {
      return absl::InvalidArgumentError(absl::StrCat(
          "option Objective: value '", value, "' must be win or points"));
    }
    objective = value == "win" ? Objective::kWin : Objective::kPoints;
    return absl::OkStatus();
  }
  absl::StatusOr<int64_t> n = ParseSpin(*def, value);
  if (!n.ok()) return n.status();
  if (def->name == "Threads") threads = static_cast<int>(*n);
  if (def->name == "Hash") hash_mb = static_cast<int>(*n);
  if (def->name == "TreeMemory") tree_mb = static_cast<int>(*n);
  if (def->name == "MultiPV") multipv = static_cast<int>(*n);
  if (def->name == "Seed") seed = static_cast<uint64_t>(*n);
  return absl::OkStatus();
}

}  // namespace uckers
