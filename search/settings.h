#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "search/levels.h"
#include "search/params.h"

// Every engine setting, declared once (as Stockfish's ucioption table): its
// text-protocol option name, its key in match/ladder player settings, gRPC's
// SearchOptions.settings and GetEngineInfo, its kind, range or choices,
// default and help, and the field of SearchSettings it is bound to. The text
// protocol's `uci` listing and `setoption`, the gRPC and Connect checks, the
// engine controller and the match players' `key=value` settings all read this table,
// so each range is checked in one place and the error reads the same at
// every front.
//
// Adding a setting: a field in SearchSettings and one entry in the table
// (settings.cpp) that reads it from text and applies it to SearchParams.
// `setoption`, `uci`, GetEngineInfo, SearchOptions.settings and player specs
// then take it with no other change.
namespace uckers {

enum class SettingKind { kInt, kReal, kChoice, kText };

// The largest MCTS tree a setting may ask for, MiB (TreeMemory, tree_mb).
inline constexpr int64_t kMaxTreeMb = 65536;

// The value of every setting the table binds: what `setoption`, a request's
// options and a player's settings fill in, and what ParamsOf turns into the
// search's parameters. Unset overrides keep the level's value.
struct SearchSettings {
  std::string level = std::string(kDefaultLevel);  // Level (empty: the default)
  std::optional<Objective> objective;              // Objective (unset: win)
  std::optional<Algorithm> algorithm;              // Search (unset: expectimax)
  std::optional<EvalKind> eval;                    // Eval (unset: the level's)
  int multipv = 1;                                 // MultiPV
  int threads = 1;                                 // Threads
  uint64_t seed = 0;                               // Seed
  int hash_mb = kDefaultHashMb;                    // Hash
  int tree_mb = kDefaultTreeMb;                    // TreeMemory
  bool paranoid = false;                           // MultiSide
  OpponentModel opponent = OpponentModel::kAuto;   // Opponent
  std::optional<double> noise;                     // Noise
  std::optional<int> filter;                       // Filter
  std::optional<double> filter_margin;             // FilterMargin
  std::optional<int> deep_filter;                  // DeepFilter
  std::optional<double> deep_filter_margin;        // DeepFilterMargin
  std::optional<int> ending_extension;             // EndingExtension
  std::optional<bool> partial_iteration;           // Deepening
  std::optional<double> exploration;               // Exploration
  std::optional<bool> stratified;                  // Throws
  std::optional<int> rollout_plies;                // RolloutPlies
  std::optional<int> rollout_width;                // RolloutWidth
  std::optional<int> rollout_trials;               // Trials
  std::string net_path;                            // NetFile (empty: none)
  const Net* net = nullptr;                        // ...the net read from it (shared, never freed)
};

struct SettingDef {
  std::string option;  // text protocol: "MultiPV"
  std::string key;     // player settings, gRPC SearchOptions.settings: "multipv"
  SettingKind kind = SettingKind::kInt;
  double min = 0;                    // kInt, kReal
  double max = 0;                    // kInt, kReal
  std::vector<std::string> choices;  // kChoice
  std::string default_value;
  std::string help;
  // Whether a network client may give it (SearchOptions.settings): not the
  // settings that name a file on the server or take the server's resources
  // (threads and memory have their own capped fields).
  bool remote = true;
  // The field of a request's SearchOptions (gRPC, Connect) that carries it,
  // where it has one of its own ("multipv", "algorithm"): the typed field
  // is read through this entry, and the setting given in
  // SearchOptions.settings is refused naming the field. Empty: a remote
  // setting goes in SearchOptions.settings.
  std::string wire_field;
  // Reads a checked value into its field; null for the settings their owner
  // keeps itself (Rules, EndgamePath: they need the rules played).
  std::function<absl::Status(SearchSettings&, absl::string_view)> set;
  // Applies the field to the search's parameters; null when it is not one.
  std::function<void(const SearchSettings&, SearchParams&)> apply;
};

// The table, in the order `uci` lists it.
const std::vector<SettingDef>& SettingDefs();

// The setting whose option name or key is `name` (case-insensitive), or
// nullptr.
const SettingDef* FindSetting(absl::string_view name);

// Sets the setting `name` (option name or key) from text: the value is
// checked against the setting's range or choices; an error names the key
// ("multipv must be 1..64, not 0") and leaves `settings` unchanged. Refuses
// a setting its owner keeps (Rules, EndgamePath) and an unknown name.
absl::Status SetSetting(SearchSettings& settings, absl::string_view name, absl::string_view value);

// The search parameters `settings` stand for: the level's, then every
// setting applied. An error names a bad level or value.
absl::StatusOr<SearchParams> ParamsOf(const SearchSettings& settings);

// Checks a whole-number value of the setting `key`: OK, or an error
// "<key> must be <min>..<max>, not <value>".
absl::Status CheckIntSetting(absl::string_view key, int64_t value);

// Checks a choice of the setting `key`: OK, or an error "<key> must be one
// of <choices>, not '<value>'".
absl::Status CheckChoiceSetting(absl::string_view key, absl::string_view value);

// The preset ruleset names, in RULES.md §10 order, and the level names.
const std::vector<std::string>& PresetNames();
const std::vector<std::string>& LevelNames();

}  // namespace uckers
