// The tutor's latency (docs/frontend.md): JudgePlay and the throw map, as
// the facade answers them (no wire), over the positions of games in which
// each side plays the tutor's best play with seeded dice. At each throw with
// a choice, a uniformly random legal play is judged; every
// `map_every`-th position before a throw is mapped. One call before the
// clock loads the net. Prints p50, p90, p99 and the largest time of each
// call, in milliseconds.
//
// usage: tutor_latency [judgements] [level] [seed] [map_every]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/coach.h"
#include "engine/engine.h"
#include "rules/checked.h"
#include "rules/dice_sequence.h"
#include "rules/notation.h"

namespace uckers {
namespace {

double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(q * (v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

void Print(const char* what, const std::vector<double>& ms) {
  if (ms.empty()) return;
  std::printf("%-10s %5zu calls  p50 %7.2f ms  p90 %7.2f ms  p99 %7.2f ms  max %7.2f ms\n", what,
              ms.size(), Percentile(ms, 0.5), Percentile(ms, 0.9), Percentile(ms, 0.99),
              *std::max_element(ms.begin(), ms.end()));
}

int Run(int judgements, const std::string& level, uint64_t seed, int map_every) {
  using Clock = std::chrono::steady_clock;
  Rules rules;
  std::mt19937_64 rng(seed);
  DiceSequence dice(seed);
  std::atomic<bool> stop{false};
  std::vector<double> judge_ms, map_ms;
  Position pos = Position::Start(rules);
  Engine engine;  // the tutor's calls, on the engine controller (no endgame table)
  // One call before the clock: the first loads the net.
  (void)engine.Judge(MakeThrow(6, 3), "rb-0,r0-3", level, stop);
  int positions = 0;
  while (static_cast<int>(judge_ms.size()) < judgements) {
    if (pos.IsGameOver()) pos = Position::Start(rules);
    if (map_every > 0 && positions++ % map_every == 0) {
      (void)engine.SetPosition(pos);
      auto start = Clock::now();
      absl::StatusOr<ThrowMap> map = engine.MapThrows(level, stop);
      map_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      if (!map.ok()) {
        std::fprintf(stderr, "tutor_latency: %s\n", std::string(map.status().message()).c_str());
        return 1;
      }
    }
    Throw t = dice.Next();
    std::vector<PlayResult> plays = SortedLegalPlays(pos, rules, t);
    std::uniform_int_distribution<size_t> pick(0, plays.size() - 1);
    std::string play = PlayToString(plays[pick(rng)].play);
    (void)engine.SetPosition(pos);
    auto start = Clock::now();
    absl::StatusOr<Judgement> j = engine.Judge(t, play, level, stop);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (!j.ok()) {
      std::fprintf(stderr, "tutor_latency: %s\n", std::string(j.status().message()).c_str());
      return 1;
    }
    if (plays.size() > 1) judge_ms.push_back(ms);
    pos = j->candidates[0].after;
  }
  std::printf("level %s, seed %llu, navy\n", level.empty() ? kTutorLevel : level.c_str(),
              static_cast<unsigned long long>(seed));
  Print("JudgePlay", judge_ms);
  Print("ThrowMap", map_ms);
  return 0;
}

}  // namespace
}  // namespace uckers

int main(int argc, char** argv) {
  int judgements = argc > 1 ? std::atoi(argv[1]) : 300;
  std::string level = argc > 2 ? argv[2] : "";
  uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  int map_every = argc > 4 ? std::atoi(argv[4]) : 5;
  if (judgements < 1 || map_every < 0) {
    std::fprintf(stderr,
                 "usage: tutor_latency [judgements >= 1] [level] [seed] [map_every >= 0]\n");
    return 2;
  }
  return uckers::Run(judgements, level, seed, map_every);
}
