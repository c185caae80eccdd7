#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

// Every engine setting, declared once (as Stockfish's ucioption table): its
// text-protocol option name, its key in match/ladder player settings and
// gRPC's SearchOptions, its kind, range or choices, default and help. The
// text protocol's `uci` listing and `setoption`, the gRPC checks, the
// facade and the player settings all read this table, so each range is
// checked in one place and the error reads the same at every front.
namespace uckers {

enum class SettingKind { kInt, kChoice, kText };

// The largest MCTS tree a setting may ask for, MiB (TreeMemory, tree_mb).
inline constexpr int64_t kMaxTreeMb = 65536;

struct SettingDef {
  std::string option;  // text protocol: "MultiPV"
  std::string key;     // player settings and gRPC fields: "multipv"
  SettingKind kind = SettingKind::kInt;
  int64_t min = 0;                   // kInt
  int64_t max = 0;                   // kInt
  std::vector<std::string> choices;  // kChoice
  std::string default_value;
  std::string help;
};

// The table, in the order `uci` lists it.
const std::vector<SettingDef>& SettingDefs();

// The setting whose option name or key is `name` (case-insensitive), or
// nullptr.
const SettingDef* FindSetting(absl::string_view name);

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
