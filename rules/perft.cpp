#include "rules/perft.h"

#include "rules/dice.h"
#include "rules/movegen.h"

namespace uckers {

uint64_t Perft(const Position& pos, const Rules& rules, int depth, const std::atomic<bool>* stop) {
  if (depth <= 0) return 1;
  PlayGenerator generator(pos, rules);
  if (generator.game_over()) return 1;
  // Relaxed: a stop seen one node late costs nothing.
  if (stop && depth >= 2 && stop->load(std::memory_order_relaxed)) return 0;
  PlayList plays;
  uint64_t leaves = 0;
  for (Throw t : kThrows) {
    generator.Generate(t, &plays);
    if (depth == 1) {
      leaves += plays.size();
      continue;
    }
    for (const PlayResult& r : plays) leaves += Perft(r.after, rules, depth - 1, stop);
  }
  return leaves;
}

}  // namespace uckers
