// Not a Google Benchmark: the evaluation checked against the exact endgame
// tables. On decision points sampled from a table's
// class (a throw with at least two plays of different exact value), each
// level searches with the tables off; the table says how much win
// probability its play gave away.
//
//   build/bench/endgame_check navy-2v2.egt [positions] [levels] [seed]
//
// prints, per level: the share of decisions where it played an optimal play
// and its mean loss in win probability per decision. A level written
// `expert@NETFILE` evaluates with the net of that weights file (a candidate)
// instead of the built-in one; `expert:ending_extension=2` (any settings of
// the settings table, `:` between them) searches with those settings.
//
//   build/bench/endgame_check navy-2v2.egt games N [level] [seed]
//
// plays N games of the level against itself (tables off) and prints the
// share that reach a position the table covers, and how many throws before
// the end they reach it.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "endgame/index.h"
#include "endgame/table.h"
#include "eval/net.h"
#include "rules/dice_sequence.h"
#include "rules/movegen.h"
#include "rules/ufen.h"
#include "search/levels.h"
#include "search/search.h"
#include "search/settings.h"
#include "search/tt.h"

namespace uckers {
namespace {

// The exact win probability, for the team that played, of a play's result.
double ExactFor(const EndgameTable& table, const Position& after, int team) {
  if (after.IsGameOver()) return after.WinningTeam() == team ? 1.0 : 0.0;
  std::optional<double> win = table.ProbeWin(after, table.rules());
  if (!win) return -1;  // not covered: cannot be judged
  return TeamOf(after.to_throw()) == team ? *win : 1 - *win;
}

struct Decision {
  Position pos;
  Throw dice;
  double best = 0;
};

// Self-play games of `level` (tables off): how many reach a covered position.
int Games(const EndgameTable& table, int games, const std::string& level, uint64_t seed) {
  const Rules& rules = table.rules();
  SearchParams params;
  if (absl::Status s = ApplyLevel(level, &params); !s.ok()) {
    std::fprintf(stderr, "endgame_check: %s\n", std::string(s.message()).c_str());
    return 2;
  }
  TranspositionTable tt(16);
  std::atomic<bool> stop{false};
  int reached = 0;
  long throws_left = 0, throws_all = 0;
  for (int g = 0; g < games; ++g) {
    DiceSequence dice(seed + static_cast<uint64_t>(g));
    Position pos = Position::Start(rules);
    int first_covered = -1, n = 0;
    for (; !pos.IsGameOver() && n < 20000; ++n) {
      if (first_covered < 0 && table.Probe(pos, rules)) first_covered = n;
      params.seed = seed * 1000003 + static_cast<uint64_t>(n);
      SearchReport r = SearchPlay(pos, rules, dice.Next(), params, {}, &tt, stop, nullptr);
      pos = r.candidates[0].after;
    }
    throws_all += n;
    if (first_covered >= 0) {
      ++reached;
      throws_left += n - first_covered;
    }
  }
  std::printf(
      "%d games of %s against itself (seed %llu): %d reach a covered position (%.1f%%); "
      "%.1f throws a game, %.1f of them left when it is reached\n",
      games, level.c_str(), static_cast<unsigned long long>(seed), reached, 100.0 * reached / games,
      static_cast<double>(throws_all) / games,
      reached ? static_cast<double>(throws_left) / reached : 0.0);
  return 0;
}

int Main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: endgame_check TABLE [positions] [levels,...] [seed]\n");
    return 2;
  }
  absl::StatusOr<EndgameTable> table = EndgameTable::Load(argv[1]);
  if (!table.ok()) {
    std::fprintf(stderr, "endgame_check: %s\n", std::string(table.status().message()).c_str());
    return 1;
  }
  int positions = 2000;
  uint64_t seed = 1;
  if (argc > 2 && std::string(argv[2]) == "games") {
    int games = 0;
    if (argc < 4 || !absl::SimpleAtoi(argv[3], &games) || games < 1) {
      std::fprintf(stderr, "endgame_check: games N: a count, 1 or more\n");
      return 2;
    }
    if (argc > 5 && !absl::SimpleAtoi(argv[5], &seed)) {
      std::fprintf(stderr, "endgame_check: seed: a whole number\n");
      return 2;
    }
    return Games(*table, games, argc > 4 ? argv[4] : std::string(kReferenceLevel), seed);
  }
  std::vector<std::string> levels = LevelNames();
  if (argc > 2 && (!absl::SimpleAtoi(argv[2], &positions) || positions < 1)) {
    std::fprintf(stderr, "endgame_check: positions: a count, 1 or more\n");
    return 2;
  }
  if (argc > 3) levels = absl::StrSplit(argv[3], ',');
  if (argc > 4 && !absl::SimpleAtoi(argv[4], &seed)) {
    std::fprintf(stderr, "endgame_check: seed: a whole number\n");
    return 2;
  }
  const Rules& rules = table->rules();
  std::vector<int> shapes;
  for (int s = 0; s < kNumEndgameShapes; ++s) {
    if (ClassHasShape(table->endgame_class(), s)) shapes.push_back(s);
  }
  // Decision points: a position of the class (turned to a random seat), a
  // throw drawn with its weight, and plays of different exact values.
  std::mt19937_64 rng(seed);
  std::vector<Decision> decisions;
  int tries = 0;
  while (static_cast<int>(decisions.size()) < positions && tries < 1000 * positions) {
    ++tries;
    int shape = shapes[rng() % shapes.size()];
    EndgameSlot slot{shape, static_cast<uint32_t>(rng() % ShapeSize(shape))};
    Position pos = TurnSeats(PositionAt(slot), static_cast<int>(rng() % 4));
    if (pos.IsGameOver() || !table->Probe(pos, rules)) continue;
    int r = static_cast<int>(rng() % 36);
    Throw dice = kThrows[0];
    for (Throw t : kThrows) {
      r -= t.Weight();
      if (r < 0) {
        dice = t;
        break;
      }
    }
    PlayList plays;
    GenerateLegalPlays(pos, rules, dice, &plays);
    int team = TeamOf(pos.to_throw());
    double best = -1, worst = 2;
    bool judged = true;
    for (const PlayResult& p : plays) {
      double v = ExactFor(*table, p.after, team);
      if (v < 0) judged = false;
      best = std::max(best, v);
      worst = std::min(worst, v);
    }
    if (!judged || plays.size() < 2 || best - worst < 1e-4) continue;
    decisions.push_back({pos, dice, best});
  }
  std::printf("table %s: class %s, rules %s; %zu decision points (seed %llu)\n", argv[1],
              std::string(ClassName(table->endgame_class())).c_str(), rules.ToString().c_str(),
              decisions.size(), static_cast<unsigned long long>(seed));
  std::printf("%-13s %9s %12s %12s %9s %9s\n", "level", "optimal", "mean loss", "worst loss",
              "ms/move", "max ms");
  for (const std::string& level : levels) {
    std::vector<std::string> name_net = absl::StrSplit(level, absl::MaxSplits('@', 1));
    // NAME[:key=value...]: the level with settings of the settings table.
    std::vector<std::string> parts = absl::StrSplit(name_net[0], ':');
    SearchSettings settings;
    absl::Status set = SetSetting(settings, "level", parts[0]);
    for (size_t i = 1; set.ok() && i < parts.size(); ++i) {
      std::vector<std::string> kv = absl::StrSplit(parts[i], absl::MaxSplits('=', 1));
      set = kv.size() == 2 ? SetSetting(settings, kv[0], kv[1])
                           : absl::InvalidArgumentError("'" + parts[i] + "': not key=value");
    }
    absl::StatusOr<SearchParams> made =
        set.ok() ? ParamsOf(settings) : absl::StatusOr<SearchParams>(set);
    if (!made.ok()) {
      std::fprintf(stderr, "endgame_check: %s: %s\n", level.c_str(),
                   std::string(made.status().message()).c_str());
      return 2;
    }
    SearchParams params = *made;
    if (name_net.size() > 1) {
      absl::StatusOr<const Net*> net = LoadNetShared(name_net[1]);
      // A net of any rules plays the table's rules.
      const Net* fits = !net.ok()                  ? nullptr
                        : (*net)->any_rules()      ? (*net)->ForRules(rules)
                        : (*net)->rules() == rules ? *net
                                                   : nullptr;
      if (fits == nullptr) {
        std::fprintf(stderr, "endgame_check: %s: %s\n", name_net[1].c_str(),
                     net.ok() ? "a net of other rules than the table's"
                              : std::string(net.status().message()).c_str());
        return net.ok() ? 2 : 1;
      }
      params.net = fits;
      params.eval = EvalKind::kNet;
    }
    params.seed = seed;
    TranspositionTable tt(16);
    std::atomic<bool> stop{false};
    int optimal = 0;
    double loss = 0, worst = 0, slowest = 0;
    auto start = std::chrono::steady_clock::now();
    for (const Decision& d : decisions) {
      auto move_start = std::chrono::steady_clock::now();
      SearchReport r = SearchPlay(d.pos, rules, d.dice, params, {}, &tt, stop, nullptr);
      slowest = std::max(slowest, std::chrono::duration<double, std::milli>(
                                      std::chrono::steady_clock::now() - move_start)
                                      .count());
      double v = ExactFor(*table, r.candidates[0].after, TeamOf(d.pos.to_throw()));
      double lost = std::max(0.0, d.best - v);
      if (lost < 1e-4) ++optimal;
      loss += lost;
      worst = std::max(worst, lost);
    }
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-13s %8.1f%% %12.5f %12.4f %9.2f %9.1f\n", level.c_str(),
                100.0 * optimal / decisions.size(), loss / decisions.size(), worst,
                ms / decisions.size(), slowest);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace uckers

int main(int argc, char** argv) { return uckers::Main(argc, argv); }
