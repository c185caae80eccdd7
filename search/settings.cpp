#include "search/settings.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "eval/net.h"

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

namespace {

using K = SettingKind;
using Settings = SearchSettings;
using Params = SearchParams;

// The value a setting that overrides the level's takes to follow the level
// again (and its default).
constexpr absl::string_view kLevelValue = "level";

SettingDef Def(std::string option, std::string key, SettingKind kind, double min, double max,
               std::vector<std::string> choices, std::string default_value, std::string help) {
  SettingDef def;
  def.option = std::move(option);
  def.key = std::move(key);
  def.kind = kind;
  def.min = min;
  def.max = max;
  def.choices = std::move(choices);
  def.default_value = std::move(default_value);
  def.help = std::move(help);
  return def;
}

// A whole-number setting bound to `field` (an int or an optional int).
template <typename Field>
SettingDef Int(std::string option, std::string key, int64_t min, int64_t max,
               std::string default_value, std::string help, Field Settings::*field,
               std::function<void(const Settings&, Params&)> apply) {
  SettingDef def = Def(std::move(option), std::move(key), K::kInt, static_cast<double>(min),
                       static_cast<double>(max), {}, std::move(default_value), std::move(help));
  def.set = [field](Settings& s, absl::string_view value) {
    if constexpr (std::is_same_v<Field, std::optional<int>>) {
      if (value == kLevelValue) {
        s.*field = std::nullopt;
        return absl::OkStatus();
      }
    }
    int64_t n = 0;  // checked against the range before
    (void)absl::SimpleAtoi(value, &n);
    if constexpr (std::is_same_v<Field, uint64_t>) {
      s.*field = static_cast<uint64_t>(n);
    } else {
      s.*field = static_cast<int>(n);
    }
    return absl::OkStatus();
  };
  def.apply = std::move(apply);
  return def;
}

// A setting of real numbers bound to `field` (a double or an optional one).
template <typename Field>
SettingDef Real(std::string option, std::string key, double min, double max,
                std::string default_value, std::string help, Field Settings::*field,
                std::function<void(const Settings&, Params&)> apply) {
  SettingDef def = Def(std::move(option), std::move(key), K::kReal, min, max, {},
                       std::move(default_value), std::move(help));
  def.set = [field](Settings& s, absl::string_view value) {
    if constexpr (std::is_same_v<Field, std::optional<double>>) {
      if (value == kLevelValue) {
        s.*field = std::nullopt;
        return absl::OkStatus();
      }
    }
    double x = 0;
    (void)absl::SimpleAtod(value, &x);
    s.*field = x;
    return absl::OkStatus();
  };
  def.apply = std::move(apply);
  return def;
}

SettingDef Choice(std::string option, std::string key, std::vector<std::string> choices,
                  std::string default_value, std::string help,
                  std::function<void(Settings&, absl::string_view)> store,
                  std::function<void(const Settings&, Params&)> apply) {
  SettingDef def = Def(std::move(option), std::move(key), K::kChoice, 0, 0, std::move(choices),
                       std::move(default_value), std::move(help));
  def.set = [store = std::move(store)](Settings& s, absl::string_view value) {
    store(s, value);
    return absl::OkStatus();
  };
  def.apply = std::move(apply);
  return def;
}

std::string Number(double x) { return absl::StrCat(x); }

// `def`, carried on the wire by SearchOptions' own field `field`.
SettingDef WireField(std::string field, SettingDef def) {
  def.wire_field = std::move(field);
  return def;
}

std::vector<SettingDef> MakeDefs() {
  const Params defaults;
  std::vector<SettingDef> defs;
  SettingDef rules =
      Def("Rules", "rules", K::kText, 0, 0, {}, "navy",
          "ruleset: a preset (" + absl::StrJoin(PresetNames(), ", ") + ") then +switch / -switch");
  rules.remote = false;  // a request gives its own rules
  defs.push_back(std::move(rules));

  SettingDef threads = Int("Threads", "threads", 1, 64, "1", "search threads", &Settings::threads,
                           [](const Settings& s, Params& p) { p.threads = s.threads; });
  threads.remote = false;  // SearchOptions.threads, capped by the server
  threads.wire_field = "threads";
  defs.push_back(std::move(threads));
  SettingDef hash = Int("Hash", "hash_mb", 1, 4096, Number(kDefaultHashMb),
                        "transposition table size in MiB", &Settings::hash_mb, nullptr);
  hash.remote = false;  // SearchOptions.hash_mb, capped by the server
  hash.wire_field = "hash_mb";
  defs.push_back(std::move(hash));
  defs.push_back(WireField("objective", Choice(
                                            "Objective", "objective", {"win", "points"}, "win",
                                            "maximise the win probability or the expected points",
                                            [](Settings& s, absl::string_view v) {
                                              s.objective =
                                                  v == "win" ? Objective::kWin : Objective::kPoints;
                                            },
                                            [](const Settings& s, Params& p) {
                                              if (s.objective) p.objective = *s.objective;
                                            })));
  defs.push_back(WireField(
      "multipv",
      Int("MultiPV", "multipv", 1, 64, "1", "number of candidate plays reported",
          &Settings::multipv, [](const Settings& s, Params& p) { p.multipv = s.multipv; })));
  defs.push_back(WireField(
      "seed", Int("Seed", "seed", 0, 2147483647, "0", "seed for random choices", &Settings::seed,
                  [](const Settings& s, Params& p) { p.seed = s.seed; })));
  defs.push_back(WireField(
      "algorithm",
      Choice(
          "Search", "search", {"expectimax", "mcts", "rollout"}, "expectimax", "search algorithm",
          [](Settings& s, absl::string_view v) {
            s.algorithm = AlgorithmByName(std::string_view(v.data(), v.size()));
          },
          [](const Settings& s, Params& p) {
            if (s.algorithm) p.algorithm = *s.algorithm;
          })));
  SettingDef tree =
      Int("TreeMemory", "tree_mb", 1, kMaxTreeMb, Number(kDefaultTreeMb),
          "MCTS tree size in MiB: when full, the tree stops growing", &Settings::tree_mb,
          [](const Settings& s, Params& p) { p.mcts_tree_mb = s.tree_mb; });
  tree.remote = false;  // the server's --tree_mb
  defs.push_back(std::move(tree));
  defs.push_back(WireField(
      "level", Choice(
                   "Level", "level", LevelNames(), std::string(kDefaultLevel),
                   "playing strength: depth, filter width and evaluation noise",
                   [](Settings& s, absl::string_view v) { s.level = std::string(v); }, nullptr)));
  defs.push_back(WireField(
      "eval",
      Choice(
          "Eval", "eval", {"level", "net", "classic"}, "level",
          "static evaluation: the level's, the learned net (where one is trained for the rules) "
          "or the classic hand-made one",
          [](Settings& s, absl::string_view v) {
            s.eval = EvalKindByName(std::string_view(v.data(), v.size()));
          },
          [](const Settings& s, Params& p) {
            if (s.eval) p.eval = *s.eval;
          })));
  defs.push_back(Choice(
      "MultiSide", "multi_side", {"maxn", "paranoid"}, "maxn",
      "with more than two sides: each side maximises its own chance (maxn), or every other side "
      "plays against the mover (paranoid)",
      [](Settings& s, absl::string_view v) { s.paranoid = v == "paranoid"; }, nullptr));
  defs.push_back(Choice(
      "Opponent", "opponent", {"auto", "best", "random"}, "auto",
      "the other team's play the search assumes: its best, or any legal play alike as the "
      "`random` player draws them (valued by a net trained against random; expectimax of the "
      "four-sided game of two teams), or auto: random once its plays in the game look random, "
      "else its best",
      [](Settings& s, absl::string_view v) {
        s.opponent = v == "random" ? OpponentModel::kRandom
                     : v == "best" ? OpponentModel::kBest
                                   : OpponentModel::kAuto;
      },
      [](const Settings& s, Params& p) {
        p.random_opponent = s.opponent == OpponentModel::kRandom;
        p.infer_opponent = s.opponent == OpponentModel::kAuto;
      }));
  SettingDef endgames =
      Def("EndgamePath", "endgames", K::kText, 0, 0, {}, "",
          "an endgame table file (uckers endgames build) for the rules played: the "
          "positions it covers are valued and played exactly; empty for none");
  endgames.remote = false;  // a file on the server: its --endgames
  defs.push_back(std::move(endgames));

  // The level's own values, overridden.
  defs.push_back(Real("Noise", "noise", 0, 1, "level",
                      "std dev of the evaluation noise in win probability (`level`: the level's)",
                      &Settings::noise, [](const Settings& s, Params& p) {
                        if (s.noise) p.noise = *s.noise;
                      }));
  defs.push_back(Int("Filter", "filter", 0, 1000, "level",
                     "plays searched deeper at each decision, 0 for all (`level`: the level's)",
                     &Settings::filter, [](const Settings& s, Params& p) {
                       if (s.filter) p.filter_width = *s.filter;
                     }));
  defs.push_back(Real("FilterMargin", "filter_margin", 0, 1, "level",
                      "plays this close to the best (in score units) searched deeper beside "
                      "the Filter's (`level`: the level's)",
                      &Settings::filter_margin, [](const Settings& s, Params& p) {
                        if (s.filter_margin) p.filter_margin = *s.filter_margin;
                      }));
  defs.push_back(Int("DeepFilter", "deep_filter", 0, 1000, Number(defaults.deep_filter_width),
                     "with time to spend, plays searched deeper at each decision in the "
                     "iterations from depth 4 on, 0 for Filter's",
                     &Settings::deep_filter, [](const Settings& s, Params& p) {
                       if (s.deep_filter) p.deep_filter_width = *s.deep_filter;
                     }));
  defs.push_back(Real("DeepFilterMargin", "deep_filter_margin", 0, 1,
                      Number(defaults.deep_filter_margin),
                      "with time to spend, plays this close to the best searched deeper beside "
                      "DeepFilter's in the iterations from depth 4 on",
                      &Settings::deep_filter_margin, [](const Settings& s, Params& p) {
                        if (s.deep_filter_margin) p.deep_filter_margin = *s.deep_filter_margin;
                      }));
  defs.push_back(Int("EndingExtension", "ending_extension", 0, 4, "level",
                     "plies added to the search in endings (`level`: the level's)",
                     &Settings::ending_extension, [](const Settings& s, Params& p) {
                       if (s.ending_extension) p.ending_extension = *s.ending_extension;
                     }));
  defs.push_back(Choice(
      "Deepening", "deepening", {"whole", "partial"},
      defaults.partial_iteration ? "partial" : "whole",
      "expectimax under a clock: deepen only while a whole iteration fits (whole), or search "
      "the best plays one ply deeper until the time is up and take one that beats the first "
      "(partial)",
      [](Settings& s, absl::string_view v) { s.partial_iteration = v == "partial"; },
      [](const Settings& s, Params& p) {
        if (s.partial_iteration) p.partial_iteration = *s.partial_iteration;
      }));
  // MCTS and rollouts.
  defs.push_back(Real("Exploration", "exploration", 0, 10, Number(defaults.mcts_exploration),
                      "MCTS: the UCT exploration constant, in score units", &Settings::exploration,
                      [](const Settings& s, Params& p) {
                        if (s.exploration) p.mcts_exploration = *s.exploration;
                      }));
  defs.push_back(Choice(
      "Throws", "throws", {"stratified", "sampled"},
      defaults.mcts_stratified ? "stratified" : "sampled",
      "MCTS chance nodes: every throw in proportion (stratified) or sampled",
      [](Settings& s, absl::string_view v) { s.stratified = v == "stratified"; },
      [](const Settings& s, Params& p) {
        if (s.stratified) p.mcts_stratified = *s.stratified;
      }));
  defs.push_back(Int("RolloutPlies", "rollout_plies", 1, 1000, Number(defaults.rollout_plies),
                     "rollouts: throws played before the evaluation is read",
                     &Settings::rollout_plies, [](const Settings& s, Params& p) {
                       if (s.rollout_plies) p.rollout_plies = *s.rollout_plies;
                     }));
  defs.push_back(Int("RolloutWidth", "rollout_width", 0, 1000, Number(defaults.rollout_width),
                     "rollouts: plays rolled out, the best at depth 1, 0 for all",
                     &Settings::rollout_width, [](const Settings& s, Params& p) {
                       if (s.rollout_width) p.rollout_width = *s.rollout_width;
                     }));
  defs.push_back(Int("Trials", "trials", 1, 100000000, Number(defaults.rollout_trials),
                     "rollouts: trials when no limit ends them", &Settings::rollout_trials,
                     [](const Settings& s, Params& p) {
                       if (s.rollout_trials) p.rollout_trials = *s.rollout_trials;
                     }));
  SettingDef net =
      Def("NetFile", "netfile", K::kText, 0, 0, {}, "",
          "a net's weights file (uckers train) to evaluate with instead of the one built "
          "in; sets Eval to net; empty for none");
  net.remote = false;  // a file on the server
  net.set = [](Settings& s, absl::string_view value) {
    if (value.empty() || value == "<empty>") {
      s.net_path.clear();
      s.net = nullptr;
      return absl::OkStatus();
    }
    absl::StatusOr<const Net*> loaded = LoadNetShared(std::string(value));
    if (!loaded.ok()) return loaded.status();
    s.net_path = std::string(value);
    s.net = *loaded;
    s.eval = EvalKind::kNet;
    return absl::OkStatus();
  };
  net.apply = [](const Settings& s, Params& p) {
    if (s.net) p.net = s.net;
  };
  defs.push_back(std::move(net));
  return defs;
}

absl::Status CheckValue(const SettingDef& def, absl::string_view value) {
  switch (def.kind) {
    case K::kInt: {
      if (def.default_value == kLevelValue && value == kLevelValue) return absl::OkStatus();
      int64_t n = 0;
      if (!absl::SimpleAtoi(value, &n)) {
        return absl::InvalidArgumentError(
            absl::StrCat(def.key, " must be a whole number, not '", value, "'"));
      }
      return CheckIntSetting(def.key, n);
    }
    case K::kReal: {
      if (def.default_value == kLevelValue && value == kLevelValue) return absl::OkStatus();
      double x = 0;
      if (!absl::SimpleAtod(value, &x) || !std::isfinite(x) || x < def.min || x > def.max) {
        return absl::InvalidArgumentError(absl::StrCat(def.key, " must be a number ", def.min, "..",
                                                       def.max, ", not '", value, "'"));
      }
      return absl::OkStatus();
    }
    case K::kChoice:
      return CheckChoiceSetting(def.key, value);
    case K::kText:
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

}  // namespace

const std::vector<SettingDef>& SettingDefs() {
  static const std::vector<SettingDef> defs = MakeDefs();
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

absl::Status SetSetting(SearchSettings& settings, absl::string_view name, absl::string_view value) {
  const SettingDef* def = FindSetting(name);
  if (def == nullptr)
    return absl::InvalidArgumentError(absl::StrCat("unknown setting '", name, "'"));
  if (!def->set) {
    return absl::InvalidArgumentError(
        absl::StrCat("setting '", def->key, "' is not a search setting"));
  }
  if (absl::Status s = CheckValue(*def, value); !s.ok()) return s;
  SearchSettings updated = settings;
  if (absl::Status s = def->set(updated, value); !s.ok()) return s;
  settings = std::move(updated);
  return absl::OkStatus();
}

absl::StatusOr<SearchParams> ParamsOf(const SearchSettings& settings) {
  SearchParams params;
  absl::string_view level = settings.level.empty() ? kDefaultLevel : settings.level;
  if (absl::Status s = ApplyLevel(level, &params); !s.ok()) return s;
  for (const SettingDef& def : SettingDefs()) {
    if (def.apply) def.apply(settings, params);
  }
  return params;
}

absl::Status CheckIntSetting(absl::string_view key, int64_t value) {
  const SettingDef* def = FindSetting(key);
  if (def == nullptr || def->kind != SettingKind::kInt) {
    return absl::InternalError(absl::StrCat("no whole-number setting '", key, "'"));
  }
  if (value < def->min || value > def->max) {
    return absl::InvalidArgumentError(
        absl::StrCat(def->key, " must be ", static_cast<int64_t>(def->min), "..",
                     static_cast<int64_t>(def->max), ", not ", value));
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
