#include "match/player.h"

#include <atomic>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "endgame/table.h"
#include "match/baselines.h"
#include "match/external_player.h"
#include "search/door.h"
#include "search/levels.h"
#include "search/limits.h"
#include "search/opponent_model.h"
#include "search/search.h"
#include "search/settings.h"
#ifdef UCKERS_HAVE_GRPC
#include "match/remote_player.h"
#endif

namespace uckers {
namespace {

// The engine's own search at some level and limits, through the search's
// door (search/door.h) on every layout.
class SearchPlayer : public Player {
 public:
  SearchPlayer(const Rules& rules, const SearchRequest& request, size_t hash_mb)
      : rules_(rules), request_(request), tt_(hash_mb), judge_(rules) {}

  absl::Status NewGame(uint64_t) override {
    tt_.Clear();
    // What the opponent's plays told in the last game holds in this one.
    judge_.NewGame();
    return absl::OkStatus();
  }

  void NewOpponent() override { judge_.NewOpponent(); }

  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override {
    if (Judges()) {
      // Opponent=auto: the other team's plays in this game and the ones
      // before against the same opponent; with more sides, each other
      // side's in this game.
      OpponentJudge::Verdict verdict = judge_.Against(pos);
      request_.opponent_looks_random = verdict.evidence.LooksRandom();
      request_.random_sides = verdict.random_sides;
    }
    request_.dice = t;
    absl::StatusOr<SearchReport> r = SearchPosition(pos, rules_, request_, &tt_, never_);
    if (!r.ok()) return r.status();
    return PlayResult{r->candidates[0].play, r->candidates[0].after};
  }

  void Observe(const Position& before, Throw t, const PlayResult& chosen) override {
    if (Judges()) judge_.Observe(before, t, chosen.after);
  }

  void SetClocks(const Clocks& clocks) override { request_.limits.clocks = clocks; }

 private:
  // Whether the other sides are judged by their plays (Opponent=auto).
  bool Judges() const { return request_.opponent == OpponentModel::kAuto; }

  Rules rules_;
  SearchRequest request_;
  TranspositionTable tt_;
  OpponentJudge judge_;  // the opponent's plays, this game's and the ones before
  std::atomic<bool> never_{false};
};

// A player's settings: every search setting of the table
// (search/settings.h), its limits, and what only a match player has.
struct Settings {
  SearchSettings search;
  LimitsInput limits_in;                                // movetime=, depth=, nodes=
  SearchLimits limits;                                  // ...read by MakeLimits
  std::vector<std::pair<std::string, double>> weights;  // eval.NAME=X
  int64_t handshake_ms = kDefaultHandshakeMs;           // cmd: and grpc: players
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
  auto bad = [&](const absl::Status& st) {
    return absl::Status(st.code(), absl::StrCat("setting '", item, "': ", st.message()));
  };
  int64_t n = 0;
  bool is_int = absl::SimpleAtoi(value, &n);
  double x = 0;
  if (absl::StartsWith(key, "eval.")) {
    if (!absl::SimpleAtod(value, &x) || !std::isfinite(x)) {
      return bad(absl::InvalidArgumentError("not a finite number"));
    }
    SearchParams probe;
    if (!EvalWeightByName(probe.weights, key.substr(5))) {
      return absl::InvalidArgumentError(absl::StrCat("unknown weight '", key, "'"));
    }
    s.weights.emplace_back(key.substr(5), x);
  } else if (key == "endgames") {
    absl::StatusOr<std::shared_ptr<const EndgameTable>> table = EndgameTable::LoadShared(value);
    if (!table.ok()) return table.status();
    s.endgames = *table;
  } else if (key == "handshake") {
    if (!is_int || n < 1 || n > 600000) {
      return bad(absl::InvalidArgumentError("handshake must be 1..600000 ms"));
    }
    s.handshake_ms = n;
  } else if (key == "tc") {
    absl::StatusOr<TimeControl> tc = ParseTimeControl(value);
    if (!tc.ok()) return tc.status();
    s.time_control = *tc;
  } else if (key == "movetime" || key == "depth" || key == "nodes") {
    if (!is_int)
      return bad(absl::InvalidArgumentError(absl::StrCat(key, " must be a whole number")));
    std::optional<int64_t>& field = key == "movetime" ? s.limits_in.movetime_ms
                                    : key == "depth"  ? s.limits_in.depth
                                                      : s.limits_in.nodes;
    field = n;
    absl::StatusOr<SearchLimits> limits = MakeLimits(s.limits_in);  // the one range of each
    if (!limits.ok()) return bad(limits.status());
    s.limits = *limits;
    absl::StrAppend(&s.go_limits, " ", key, " ", n);
  } else if (key == "level" || key == "rules") {
    return bad(absl::InvalidArgumentError(
        key == "level" ? "a player's level is its name (`expert,...`)" : "the match's --rules"));
  } else if (const SettingDef* def = FindSetting(key); def != nullptr && def->key == key) {
    if (absl::Status st = SetSetting(s.search, key, value); !st.ok()) return bad(st);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("bad player setting '", item, "'"));
  }
  return absl::OkStatus();
}

// The player of `name` with settings `s`, before its time control
// (`remote_level` serves `grpc:` players, which a build without gRPC lacks).
absl::StatusOr<std::unique_ptr<Player>> MakeUntimedPlayer(
    const std::string& name, [[maybe_unused]] const std::string& remote_level, const Settings& s,
    const Rules& rules, uint64_t seed) {
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
  SearchRequest request;
  static_cast<SearchSettings&>(request) = s.search;
  if (name == "mcts") request.algorithm = Algorithm::kMcts;
  request.limits = s.limits;
  request.endgames = s.endgames.get();
  request.weights = s.weights;
  absl::StatusOr<SearchParams> params = RequestParams(request);
  if (!params.ok()) return params.status();
  if (absl::Status st = CheckOpponentModel(*params, rules); !st.ok()) return st;
  return std::unique_ptr<Player>(new SearchPlayer(rules, request, request.hash_mb));
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
  s.search.seed = seed;
  bool remote = absl::StartsWith(name, "grpc:");
  std::string remote_level;
  if (remote && name.find('@') != std::string::npos) {  // grpc:host:port@level
    remote_level = name.substr(name.find('@') + 1);
    name = name.substr(0, name.find('@'));
  }
  if (name != "random" && name != "greedy" && name != "mcts" && !absl::StartsWith(name, "cmd:") &&
      !remote) {
    SearchParams probe;
    if (absl::Status st = ApplyLevel(name, &probe); !st.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "player '", spec,
          "': expected random, greedy, mcts, cmd:<program> or a level: ", st.message()));
    }
    s.search.level = name;
  }
  if (!rest.empty()) {
    std::set<std::string> keys;
    for (absl::string_view item : absl::StrSplit(rest, ',')) {
      std::string key(item.substr(0, item.find('=')));
      if (!keys.insert(key).second) {
        return absl::InvalidArgumentError(
            absl::StrCat("player '", spec, "': setting '", key, "' given twice"));
      }
      if ((name == "random" || name == "greedy") && !absl::StartsWith(item, "tc=")) {
        return absl::InvalidArgumentError(
            absl::StrCat("player '", spec, "': setting '", item, "': ", name,
                         " does not search; it takes no setting but tc="));
      }
      if (absl::Status st = ApplySetting(item, s); !st.ok()) {
        // A file that cannot be read keeps its code (the work cannot be done);
        // a malformed setting is a usage error.
        return absl::Status(st.code(), absl::StrCat("player '", spec, "': ", st.message()));
      }
    }
  }
  if (s.endgames && !(s.endgames->rules() == rules)) {
    return absl::InvalidArgumentError(
        absl::StrCat("player '", spec, "': endgames: the table was built for rules ",
                     s.endgames->rules().ToString(), ", the game plays ", rules.ToString()));
  }
  if (const Net* net = s.search.net;
      net != nullptr && !(net->rules() == rules) && !(net->any_rules() && net->Serves(rules))) {
    return absl::InvalidArgumentError(
        absl::StrCat("player '", spec, "': netfile: the net in ", s.search.net_path,
                     " is for rules ", net->any_rules() ? "of any switches of " : "",
                     net->rules().ToString(), ", the game plays ", rules.ToString()));
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
    std::string ending = l.ending_extension > 0
                             ? absl::StrCat(" (", l.max_depth + l.ending_extension, " in endings)")
                             : "";
    absl::StrAppend(&out, "  ", l.name, ": depth ", l.max_depth, ending, ", filter ",
                    l.filter_width, ", noise ", l.noise,
                    l.name == kDefaultLevel ? " (the default level)" : "", "\n");
  }
  absl::StrAppend(&out,
                  "settings, each as ,key=value after the player (`expert,movetime=100`):\n"
                  "  movetime=MS depth=1..64 nodes=N  search limits (movetime is spent)\n"
                  "  tc=40/10+0.1 | 10+0.1 | 60       a clock: running out loses the game\n"
                  "  endgames=FILE                    an endgame table for the match's rules\n"
                  "  eval.NAME=X                      a weight of the classic evaluation\n"
                  "  handshake=MS (1..600000)         time a cmd: or grpc: player has to start\n"
                  "and every engine setting (the text protocol's options) by its key:\n");
  for (const SettingDef& def : SettingDefs()) {
    if (!def.set || def.key == "level") continue;
    std::string values;
    if (def.kind == SettingKind::kChoice) {
      values = absl::StrJoin(def.choices, "|");
    } else if (def.kind == SettingKind::kText) {
      values = "FILE";
    } else {
      values = absl::StrCat(def.min, "..", def.max);
    }
    std::string left = absl::StrCat("  ", def.key, "=", values);
    if (left.size() < 35) left.resize(35, ' ');
    absl::StrAppend(&out, left, " ", def.help, " (default ",
                    def.default_value.empty() ? "none" : def.default_value, ")\n");
  }
  return out;
}

}  // namespace uckers
