#include "tools/match/player.h"

#include <atomic>
#include <cmath>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "endgame/table.h"
#include "search/levels.h"
#include "search/search.h"
#include "search/settings.h"
#include "tools/match/baselines.h"
#include "tools/match/external_player.h"
#ifdef UCKERS_HAVE_GRPC
#include "tools/match/remote_player.h"
#endif

namespace uckers {
namespace {

// The engine's own search at some level and limits.
class EnginePlayer : public Player {
 public:
  EnginePlayer(const Rules& rules, const SearchParams& params, const SearchLimits& limits,
               size_t hash_mb)
      : rules_(rules), params_(params), limits_(limits), tt_(hash_mb) {}

  absl::Status NewGame(uint64_t) override {
    tt_.Clear();
    return absl::OkStatus();
  }

  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override {
    SearchReport r = SearchPlay(pos, rules_, t, params_, limits_, &tt_, never_, nullptr);
    return PlayResult{r.candidates[0].play, r.candidates[0].after};
  }

  void SetClocks(const Clocks& clocks) override { limits_.clocks = clocks; }

 private:
  Rules rules_;
  SearchParams params_;
  SearchLimits limits_;
  TranspositionTable tt_;
  std::atomic<bool> never_{false};
};

struct Settings {
  SearchParams params;
  SearchLimits limits;
  int64_t handshake_ms = kDefaultHandshakeMs;    // cmd: and grpc: players
  std::string go_limits;                         // the same limits as `go` arguments, for programs
  std::shared_ptr<const EndgameTable> endgames;  // endgames=FILE (shared, kept alive)
  std::optional<TimeControl> time_control;       // tc=
};

absl::Status ApplySetting(absl::string_view item, Settings& s) {
  std::vector<std::string> kv = absl::StrSplit(item, absl::MaxSplits('=', 1));
  if (kv.size() != 2)
    return absl::InvalidArgumentError(absl::StrCat("setting '", item, "' is not key=value"));
  const std::string& key = kv[0];
  const std::string& value = kv[1];
  int64_t n = 0;
  double x = 0;
  bool is_int = absl::SimpleAtoi(value, &n) && n >= 0;
  if (absl::SimpleAtod(value, &x) && !std::isfinite(x)) {
    return absl::InvalidArgumentError(absl::StrCat("setting '", item, "': not a finite number"));
  }
  if (key == "objective" || key == "eval" || key == "search") {  // the settings table's choices
    if (absl::Status c = CheckChoiceSetting(key, value); !c.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("setting '", item, "': ", c.message()));
    }
    if (key == "objective")
      s.params.objective = value == "win" ? Objective::kWin : Objective::kPoints;
    if (key == "search") s.params.algorithm = *AlgorithmByName(value);
    if (key == "eval" && EvalKindByName(value)) s.params.eval = *EvalKindByName(value);
  } else if (absl::StartsWith(key, "eval.") && absl::SimpleAtod(value, &x)) {
    double* weight = EvalWeightByName(s.params.weights, key.substr(5));
    if (!weight) return absl::InvalidArgumentError(absl::StrCat("unknown weight '", key, "'"));
    *weight = x;
  } else if (key == "endgames") {
    absl::StatusOr<std::shared_ptr<const EndgameTable>> table = EndgameTable::LoadShared(value);
    if (!table.ok()) return table.status();
    s.endgames = *table;
    s.params.endgame = s.endgames.get();
  } else if (key == "netfile") {
    absl::StatusOr<const Net*> net = LoadNetShared(value);
    if (!net.ok()) return net.status();
    s.params.net = *net;
    s.params.eval = EvalKind::kNet;
  } else if (key == "rollout_plies" && is_int && n > 0 && n <= 1000) {
    s.params.rollout_plies = static_cast<int>(n);
  } else if (key == "rollout_width" && is_int) {
    s.params.rollout_width = static_cast<int>(n);
  } else if (key == "trials" && is_int && n > 0) {
    s.params.rollout_trials = static_cast<int>(n);
  } else if (key == "exploration" && absl::SimpleAtod(value, &x) && x >= 0 && x <= 10) {
    s.params.mcts_exploration = x;
  } else if (key == "throws" && (value == "sampled" || value == "stratified")) {
    s.params.mcts_stratified = value == "stratified";
  } else if (key == "noise" && absl::SimpleAtod(value, &x) && x >= 0) {
    s.params.noise = x;
  } else if (key == "seed" && is_int) {
    s.params.seed = static_cast<uint64_t>(n);
  } else if (key == "ending_extension" && is_int && n <= 4) {
    s.params.ending_extension = static_cast<int>(n);
  } else if (key == "filter" && is_int) {
    s.params.filter_width = static_cast<int>(n);
  } else if (key == "handshake" && is_int && n > 0 && n <= 600000) {
    s.handshake_ms = n;
  } else if (key == "tc") {
    absl::StatusOr<TimeControl> tc = ParseTimeControl(value);
    if (!tc.ok()) return tc.status();
    s.time_control = *tc;
  } else if (key == "movetime" && is_int && n > 0) {
    s.limits.movetime_ms = n;
    absl::StrAppend(&s.go_limits, " movetime ", n);
  } else if (key == "depth" && is_int && n > 0 && n <= 64) {
    s.limits.depth = static_cast<int>(n);
    absl::StrAppend(&s.go_limits, " depth ", n);
  } else if (key == "nodes" && is_int && n > 0) {
    s.limits.nodes = static_cast<uint64_t>(n);
    absl::StrAppend(&s.go_limits, " nodes ", n);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("bad player setting '", item, "'"));
  }
  return absl::OkStatus();
}

// The player of `name` with settings `s`, before its time control.
absl::StatusOr<std::unique_ptr<Player>> MakeUntimedPlayer(const std::string& name,
                                                          const std::string& remote_level,
                                                          const Settings& s, const Rules& rules,
                                                          uint64_t seed) {
  if (name == "random") return std::unique_ptr<Player>(new RandomPlayer(rules, seed));
  if (name == "greedy") return std::unique_ptr<Player>(new GreedyPlayer(rules));
  if (absl::StartsWith(name, "cmd:")) {
    int64_t timeout = 10000 + 20 * s.limits.movetime_ms.value_or(1000);
    return std::unique_ptr<Player>(
        new ExternalPlayer(name.substr(4), rules, s.go_limits, timeout, s.handshake_ms));
  }
  if (absl::StartsWith(name, "grpc:")) {
#ifdef UCKERS_HAVE_GRPC
    v1::SearchLimits limits;
    if (s.limits.movetime_ms) limits.set_movetime_ms(static_cast<int>(*s.limits.movetime_ms));
    if (s.limits.nodes) limits.set_nodes(static_cast<int64_t>(*s.limits.nodes));
    if (s.limits.depth) limits.set_depth(*s.limits.depth);
    return std::unique_ptr<Player>(
        new RemotePlayer(name.substr(5), rules, limits, remote_level, s.handshake_ms));
#else
    return absl::FailedPreconditionError(
        absl::StrCat("player '", name, "': this build has no gRPC (UCKERS_GRPC=OFF)"));
#endif
  }
  SearchParams params = s.params;
  if (name == "mcts") params.algorithm = Algorithm::kMcts;
  return std::unique_ptr<Player>(new EnginePlayer(rules, params, s.limits, 16));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Player>> MakePlayer(const std::string& spec, const Rules& rules,
                                                   uint64_t seed) {
  // A command line may itself hold commas only before the first ",key=".
  std::string name = spec;
  std::string rest;
  size_t settings_at = std::string::npos;
  for (size_t i = spec.find(','); i != std::string::npos; i = spec.find(',', i + 1)) {
    size_t eq = spec.find('=', i);
    size_t next = spec.find(',', i + 1);
    if (eq != std::string::npos && (next == std::string::npos || eq < next)) {
      settings_at = i;
      break;
    }
  }
  if (settings_at != std::string::npos) {
    name = spec.substr(0, settings_at);
    rest = spec.substr(settings_at + 1);
  }
  Settings s;
  s.params.seed = seed;
  bool remote = absl::StartsWith(name, "grpc:");
  std::string remote_level;
  if (remote && name.find('@') != std::string::npos) {  // grpc:host:port@level
    remote_level = name.substr(name.find('@') + 1);
    name = name.substr(0, name.find('@'));
  }
  if (!absl::StartsWith(name, "cmd:")) {
    if (absl::Status st = ApplyLevel(kDefaultLevel, &s.params); !st.ok()) return st;
  }
  if (name != "random" && name != "greedy" && name != "mcts" && !absl::StartsWith(name, "cmd:") &&
      !remote) {
    if (absl::Status st = ApplyLevel(name, &s.params); !st.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "player '", spec,
          "': expected random, greedy, mcts, cmd:<program> or a level: ", st.message()));
    }
  }
  if (!rest.empty()) {
    for (absl::string_view item : absl::StrSplit(rest, ',')) {
      if (absl::Status st = ApplySetting(item, s); !st.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("player '", spec, "': ", st.message()));
      }
    }
  }
  if (s.endgames && !(s.endgames->rules() == rules)) {
    return absl::InvalidArgumentError(
        absl::StrCat("player '", spec, "': endgames: the table was built for rules ",
                     s.endgames->rules().ToString(), ", the game plays ", rules.ToString()));
  }
  absl::StatusOr<std::unique_ptr<Player>> player =
      MakeUntimedPlayer(name, remote_level, s, rules, seed);
  if (player.ok() && s.time_control) (*player)->set_time_control(*s.time_control);
  return player;
}

absl::Status CheckPlayerStarts(const std::string& spec, const Rules& rules) {
  absl::StatusOr<std::unique_ptr<Player>> player = MakePlayer(spec, rules, 0);
  if (!player.ok()) return player.status();
  if (absl::Status s = (*player)->NewGame(0); !s.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("player '", spec, "' cannot start: ", s.message()));
  }
  return absl::OkStatus();
}

std::string PlayerHelp() {
  std::string out =
      "players: random | greedy | mcts | a level | cmd:<program> | grpc:<target>[@<level>]\n"
      "levels, weakest first:\n";
  for (const LevelDef& l : Levels()) {
    absl::StrAppend(&out, "  ", l.name, ": depth ", l.max_depth, ", filter ", l.filter_width,
                    ", noise ", l.noise, l.ending_extension > 0 ? ", ending extension" : "",
                    l.name == kDefaultLevel ? " (the default level)" : "", "\n");
  }
  absl::StrAppend(&out,
                  "settings, each as ,key=value after the player (`expert,movetime=100`):\n"
                  "  movetime=MS depth=1..64 nodes=N  search limits (movetime is spent)\n"
                  "  tc=40/10+0.1 | 10+0.1 | 60       a clock: running out loses the game\n"
                  "  objective=win|points eval=level|net|classic search=expectimax|mcts|rollout\n"
                  "  seed=N noise=X filter=N ending_extension=0..4\n"
                  "  endgames=FILE netfile=FILE       an endgame table, a net's weights\n"
                  "  rollout_plies=1..1000 rollout_width=N trials=N  rollouts\n"
                  "  exploration=0..10 throws=sampled|stratified     MCTS\n"
                  "  eval.NAME=X                      a weight of the classic evaluation\n"
                  "  handshake=MS (1..600000)         time a cmd: or grpc: player has to start\n");
  return out;
}

}  // namespace uckers
