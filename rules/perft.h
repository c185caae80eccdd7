#pragma once

#include <atomic>
#include <cstdint>

#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// Leaves of the throw-and-play tree `depth` levels deep (PROTOCOL.md `perft`):
// each level sums over the 21 distinct throws and each throw's distinct
// plays; a finished game is one leaf at any depth. Walks the whole tree; the
// last level counts plays without applying them further. When `stop` is
// given and becomes true, returns early with a partial count.
uint64_t Perft(const Position& pos, const Rules& rules, int depth,
               const std::atomic<bool>* stop = nullptr);

}  // namespace uckers
