// How well the evaluations predict the winner on the reference level's games:
// plays self-play games with the reference level (`expert`, which searches
// with the shipped net), seeded dice, and for every position before a throw
// compares each evaluation's win probability for the team to throw with how
// often that team won: the calibration table by decile and the mean log
// loss (0.693 is a coin flip). The net never trained on these games (its
// training games are its own depth-1 self-play), so every game is held out.
//
// usage: net_calibration [games] [seed] [netfile]
//   netfile: another net of navy or of any rules (a candidate), judged on
//            the same positions
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <vector>

#include "bench/calibration.h"
#include "eval/net.h"
#include "search/levels.h"
#include "search/search.h"

namespace uckers {
namespace {

int Run(int games, uint64_t seed, const char* other_file) {
  Rules rules;
  const Net* net = NetFor(rules);
  if (!net) {
    std::fprintf(stderr, "net_calibration: no shipped net for navy\n");
    return 1;
  }
  std::optional<Net> other;
  if (other_file != nullptr) {
    absl::StatusOr<Net> loaded = Net::Load(other_file);
    // A net of any rules is judged playing navy.
    const Net* fits = !loaded.ok()               ? nullptr
                      : loaded->any_rules()      ? loaded->ForRules(rules)
                      : loaded->rules() == rules ? &*loaded
                                                 : nullptr;
    if (fits == nullptr) {
      std::fprintf(
          stderr, "net_calibration: %s: %s\n", other_file,
          loaded.ok() ? "not a net of navy" : std::string(loaded.status().message()).c_str());
      return 1;
    }
    other = *fits;
  }
  SearchParams params;
  if (!ApplyLevel(kReferenceLevel, &params).ok()) return 1;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> die(1, 6);
  Calibration by_net, by_classic, by_other;
  TranspositionTable tt(16);
  std::atomic<bool> stop{false};
  for (int g = 0; g < games; ++g) {
    Position pos = Position::Start(rules);
    std::vector<std::pair<Position, int>> seen;
    while (!pos.IsGameOver()) {
      seen.push_back({pos, TeamOf(pos.to_throw())});
      SearchReport r =
          SearchPlay(pos, rules, MakeThrow(die(rng), die(rng)), params, {}, &tt, stop, nullptr);
      pos = r.candidates[0].after;
    }
    for (const auto& [p, team] : seen) {
      bool win = team == pos.WinningTeam();
      by_net.Add(net->Evaluate(p).Win(), win);
      by_classic.Add(Evaluate(p, rules).Win(), win);
      if (other) by_other.Add(other->Evaluate(p).Win(), win);
    }
  }
  std::printf("%d games of the reference level (%s), seed %llu\n", games,
              std::string(kReferenceLevel).c_str(), static_cast<unsigned long long>(seed));
  by_net.Print("net");
  by_classic.Print("classic");
  if (other) by_other.Print(other_file);
  return 0;
}

}  // namespace
}  // namespace uckers

int main(int argc, char** argv) {
  int games = argc > 1 ? std::atoi(argv[1]) : 300;
  uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  return uckers::Run(std::max(games, 1), seed, argc > 3 ? argv[3] : nullptr);
}
