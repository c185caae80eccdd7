// How a net plays against `random` when it knows its opponent draws at
// random: the games `uckers match --a <net player> --b random --pairs N
// --seed S` plays (the same dice and the same random draws), with the
// player built here instead of from a level, so that it can model the
// opponent. The player looks one throw ahead (--depth 1: the play whose
// position the net values best) or two (--depth 2: each play's position
// valued by the mean over the other team's 21 throws of its best reply,
// --replies best, or of the mean over its legal plays, --replies random,
// the exact value of the game against `random` one throw deep). With
// --marked the positions where the random team throws carry the input
// that says so (learn/selfplay.h, MarkRandomThrower), for a net trained
// by `uckers train --opponent random`.
//
//   build/bench/random_response NET [--marked] [--depth 1|2]
//       [--replies best|random] [--pairs N] [--seed S] [--threads T]
//
// Prints the net player's share of the games with a 95 % interval and its
// time a move. Exit 2 for a bad argument, 1 for a net that does not load.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "eval/evaluate.h"
#include "eval/net.h"
#include "learn/selfplay.h"
#include "match/baselines.h"
#include "match/play_game.h"
#include "rules/movegen.h"

namespace uckers {
namespace {

struct Config {
  std::string net_file;
  bool marked = false;
  int depth = 1;
  bool random_replies = false;
  int pairs = 1000;
  uint64_t seed = 1;
  int threads = 2;
};

class NetPlayer : public Player {
 public:
  NetPlayer(const Net& net, const Config& c) : net_(net), c_(c) {}

  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override {
    auto start = std::chrono::steady_clock::now();
    int team = TeamOf(pos.to_throw());
    PlayList plays;
    GenerateLegalPlays(pos, net_.rules(), t, &plays);
    const PlayResult* best = &plays[0];
    double best_win = -1;
    for (const PlayResult& r : plays) {
      double win = c_.depth == 1 ? WinFor(r.after, team) : TwoThrows(r.after, team);
      if (win > best_win) {
        best_win = win;
        best = &r;
      }
    }
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++moves_;
    return *best;
  }

  double seconds() const { return seconds_; }
  int64_t moves() const { return moves_; }

 private:
  // `team`'s chance of winning in `pos` by the net (exact when it is over).
  double WinFor(const Position& pos, int team) {
    NetInputs in;
    Evaluation e = ValueAgainstRandom(net_, pos, c_.marked ? 1 - team : -1, &in);
    return TeamOf(pos.to_throw()) == team ? e.Win() : 1 - e.Win();
  }

  // `team`'s chance after the other team's throw in `pos` and its reply
  // (its best, or the mean of its plays); where `team` throws again, the
  // position's own value.
  double TwoThrows(const Position& pos, int team) {
    if (pos.IsGameOver() || TeamOf(pos.to_throw()) == team) return WinFor(pos, team);
    double sum = 0;
    PlayList replies;
    for (Throw t : kThrows) {
      GenerateLegalPlays(pos, net_.rules(), t, &replies);
      double value = c_.random_replies ? 0 : 2;
      for (const PlayResult& r : replies) {
        double win = WinFor(r.after, team);
        value = c_.random_replies ? value + win / replies.size() : std::min(value, win);
      }
      sum += value * t.Weight() / 36.0;
    }
    return sum;
  }

  const Net& net_;
  const Config& c_;
  double seconds_ = 0;
  int64_t moves_ = 0;
};

int Usage(const std::string& why) {
  std::fprintf(stderr,
               "random_response: %s\nusage: random_response NET [--marked] [--depth 1|2] "
               "[--replies best|random] [--pairs N] [--seed S] [--threads T]\n",
               why.c_str());
  return 2;
}

int Main(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--marked") {
      c.marked = true;
    } else if (arg == "--depth" || arg == "--pairs" || arg == "--threads") {
      const char* v = value();
      int n = 0;
      if (v == nullptr || !absl::SimpleAtoi(v, &n) || n < 1 || (arg == "--depth" && n > 2) ||
          (arg == "--threads" && n > 64)) {
        return Usage(arg + ": give a number (depth 1 or 2, threads 1..64, pairs at least 1)");
      }
      (arg == "--depth" ? c.depth : arg == "--pairs" ? c.pairs : c.threads) = n;
    } else if (arg == "--seed") {
      const char* v = value();
      if (v == nullptr || !absl::SimpleAtoi(v, &c.seed)) return Usage("--seed: give a number");
    } else if (arg == "--replies") {
      const char* v = value();
      std::string r = v ? v : "";
      if (r != "best" && r != "random") return Usage("--replies: best or random");
      c.random_replies = r == "random";
    } else if (arg.rfind("--", 0) == 0 || !c.net_file.empty()) {
      return Usage("'" + arg + "' is not an argument");
    } else {
      c.net_file = arg;
    }
  }
  if (c.net_file.empty()) return Usage("give the net's weights file");
  absl::StatusOr<Net> loaded = Net::Load(c.net_file);
  if (!loaded.ok()) {
    std::fprintf(stderr, "random_response: %s\n", std::string(loaded.status().message()).c_str());
    return 1;
  }
  const Net& net = *loaded;
  if (net.per_side()) return Usage("a net of the four-sided game of two teams");
  std::atomic<int> next{0}, wins{0}, games{0};
  std::atomic<int64_t> moves{0};
  std::vector<double> seconds(c.threads, 0);
  auto worker = [&](int k) {
    NetPlayer player(net, c);
    RandomPlayer random(net.rules(), 2000);  // as `uckers match --b random` seeds it
    for (int i; (i = next.fetch_add(1)) < c.pairs;) {
      uint64_t dice_seed = c.seed + i;
      Player* first[2] = {&player, &random};
      Player* second[2] = {&random, &player};
      wins += PlayGame(first, net.rules(), dice_seed).winner_team == 0;
      wins += PlayGame(second, net.rules(), dice_seed).winner_team == 1;
      games += 2;
    }
    seconds[k] = player.seconds();
    moves += player.moves();
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < c.threads; ++k) pool.emplace_back(worker, k);
  worker(0);
  for (std::thread& t : pool) t.join();
  double total_seconds = 0;
  for (double s : seconds) total_seconds += s;
  double p = static_cast<double>(wins) / games;
  double half = 1.96 * std::sqrt(p * (1 - p) / games);
  std::printf(
      "%s%s, depth %d%s: %d of %d games against random, %.2f %% [%.2f, %.2f]; %.2f ms a move "
      "(seed %llu)\n",
      c.net_file.c_str(), c.marked ? " (marked)" : "", c.depth,
      c.depth == 2 ? (c.random_replies ? ", replies random" : ", replies best") : "",
      static_cast<int>(wins), static_cast<int>(games), 100 * p, 100 * (p - half), 100 * (p + half),
      1000 * total_seconds / std::max<int64_t>(1, moves), static_cast<unsigned long long>(c.seed));
  return 0;
}

}  // namespace
}  // namespace uckers

int main(int argc, char** argv) { return uckers::Main(argc, argv); }
