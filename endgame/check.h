#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "endgame/table.h"

namespace uckers {

struct BellmanCheck {
  int positions = 0;     // positions checked
  double max_error = 0;  // largest |table value - Bellman right-hand side|
  std::string worst;     // UFEN of the position with that error
};

// Checks the table against the expectimax equations: on `positions` random
// positions of its class (each turned by a random number of seats, with the
// playing colour or its released partner to throw), the table's value must
// equal the average over the 21 throws of the best play's value, the plays
// and successors from the engine's move generator and the successors'
// values from the table. An error if a successor is not covered.
absl::StatusOr<BellmanCheck> CheckBellman(const EndgameTable& table, int positions, uint64_t seed);

}  // namespace uckers
