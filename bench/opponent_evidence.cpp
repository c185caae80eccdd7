// How the Opponent setting's `auto` judges a player (search/opponent_model.h):
// games of --a against --b on the dice of `uckers match --seed S` (game g
// thrown from seed S + g, --a the first team in even games), each of --b's
// decisions weighed as PlayerEvidence weighs it, each game on its own.
// Prints in how many games --b came to look random, after which of its
// decisions at the median, the share of its decisions a player of
// Opponent=auto would have searched against as random (those after it
// looked random, while it did), and the highest log odds of any game.
// With --dump FILE, each of --b's decisions as a line
// `game chosen v1 v2 ...` (the value of each legal play for --b), to fit
// the hypotheses to.
//
//   build/bench/opponent_evidence --b SPEC [--a SPEC] [--games N] [--seed S]
//       [--threads T] [--dump FILE]
//
// Exit 2 for a bad argument, 1 for a player that cannot be made or a dump
// file that cannot be written.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "match/player.h"
#include "rules/dice_sequence.h"
#include "rules/movegen.h"
#include "search/opponent_model.h"

namespace uckers {
namespace {

struct Config {
  std::string a = "expert";
  std::string b;
  int games = 200;
  uint64_t seed = 1;
  int threads = 2;
  std::string dump;
};

struct GameTrace {
  // Each of b's decisions: the value of each legal play for b, and its choice.
  std::vector<std::pair<std::vector<double>, int>> decisions;
};

absl::StatusOr<GameTrace> PlayOne(const Config& c, const Rules& rules, int g) {
  absl::StatusOr<std::unique_ptr<Player>> a = MakePlayer(c.a, rules, c.seed + g);
  if (!a.ok()) return a.status();
  absl::StatusOr<std::unique_ptr<Player>> b = MakePlayer(c.b, rules, c.seed + g + 7777777);
  if (!b.ok()) return b.status();
  Player* players[2] = {a->get(), b->get()};
  int b_team = 1;
  if (g % 2 == 1) std::swap(players[0], players[1]), b_team = 0;
  for (Player* p : players) {
    if (absl::Status s = p->NewGame(c.seed + g); !s.ok()) return s;
  }
  OpponentEvidence judge(rules);  // values each play as the evidence does
  GameTrace trace;
  Position pos = Position::Start(rules);
  DiceSequence dice(c.seed + g);
  PlayList plays;
  for (int n = 0; n < 50000 && !pos.IsGameOver(); ++n) {
    Throw t = dice.Next();
    GenerateLegalPlays(pos, rules, t, &plays);
    int team = TeamOf(pos.to_throw());
    PlayResult chosen = plays[0];
    if (plays.size() > 1) {
      absl::StatusOr<PlayResult> r = players[team]->Choose(pos, t);
      if (!r.ok()) return r.status();
      chosen = *r;
      if (team == b_team) {
        int index = -1;
        for (int i = 0; i < plays.size(); ++i) {
          if (plays[i].after == chosen.after) index = i;
        }
        trace.decisions.emplace_back(judge.PlayValues(pos, plays), index);
      }
    }
    pos = chosen.after;
  }
  return trace;
}

int Main(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    int64_t n = 0;
    if (!v) {
      std::fprintf(stderr, "opponent_evidence: %s needs a value\n", arg.c_str());
      return 2;
    }
    ++i;
    if (arg == "--a") {
      c.a = v;
    } else if (arg == "--b") {
      c.b = v;
    } else if (arg == "--dump") {
      c.dump = v;
    } else if ((arg == "--games" || arg == "--seed" || arg == "--threads") &&
               absl::SimpleAtoi(v, &n) && n >= 1) {
      if (arg == "--games") c.games = static_cast<int>(n);
      if (arg == "--seed") c.seed = static_cast<uint64_t>(n);
      if (arg == "--threads") c.threads = static_cast<int>(std::min<int64_t>(n, 64));
    } else {
      std::fprintf(stderr, "opponent_evidence: bad argument %s %s\n", arg.c_str(), v);
      return 2;
    }
  }
  if (c.b.empty()) {
    std::fprintf(stderr, "opponent_evidence: --b SPEC is required\n");
    return 2;
  }
  Rules rules;
  for (const std::string& spec : {c.a, c.b}) {
    if (absl::StatusOr<std::unique_ptr<Player>> p = MakePlayer(spec, rules, 1); !p.ok()) {
      std::fprintf(stderr, "opponent_evidence: %s\n", std::string(p.status().message()).c_str());
      return p.status().code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
    }
  }
  std::vector<GameTrace> traces(c.games);
  std::atomic<int> next{0};
  std::mutex mu;
  std::string error;
  std::vector<std::thread> workers;
  for (int w = 0; w < c.threads; ++w) {
    workers.emplace_back([&] {
      for (int g; (g = next++) < c.games;) {
        absl::StatusOr<GameTrace> t = PlayOne(c, rules, g);
        std::lock_guard<std::mutex> lock(mu);
        if (!t.ok()) {
          error = std::string(t.status().message());
          continue;
        }
        traces[g] = *std::move(t);
      }
    });
  }
  for (std::thread& t : workers) t.join();
  if (!error.empty()) {
    std::fprintf(stderr, "opponent_evidence: %s\n", error.c_str());
    return 1;
  }
  if (!c.dump.empty()) {
    std::ofstream out(c.dump);
    for (int g = 0; g < c.games; ++g) {
      for (const auto& [wins, chosen] : traces[g].decisions) {
        out << g << " " << chosen;
        for (double w : wins) out << " " << w;
        out << "\n";
      }
    }
    if (!out.flush()) {
      std::fprintf(stderr, "opponent_evidence: cannot write %s\n", c.dump.c_str());
      return 1;
    }
  }
  // Each game on its own, as a player under Opponent=auto judges it.
  int reached = 0, decisions = 0, modelled = 0;
  std::vector<int> first;
  double highest = -1e300;
  for (const GameTrace& t : traces) {
    PlayerEvidence e;
    bool ever = false;
    for (const auto& [wins, chosen] : t.decisions) {
      // The player's search before this decision went by the ones before.
      modelled += e.LooksRandom();
      e.Add(wins, chosen);
      decisions++;
      highest = std::max(highest, e.LogOdds());
      if (!ever && e.LooksRandom()) {
        ever = true;
        reached++;
        first.push_back(e.decisions());
      }
    }
  }
  std::sort(first.begin(), first.end());
  std::printf(
      "%s observed by %s, %d games, %d decisions of %s: looks random in %d games (%.1f %%), "
      "first after its decision %s at the median; %.1f %% of its decisions were searched "
      "against as random; highest log odds %.2f (the mark: %.1f)\n",
      c.b.c_str(), c.a.c_str(), c.games, decisions, c.b.c_str(), reached, 100.0 * reached / c.games,
      first.empty() ? "-" : absl::StrCat(first[first.size() / 2]).c_str(),
      decisions ? 100.0 * modelled / decisions : 0.0, highest, PlayerEvidence::kRandomLogOdds);
  return 0;
}

}  // namespace
}  // namespace uckers

int main(int argc, char** argv) { return uckers::Main(argc, argv); }
