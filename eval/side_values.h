#pragma once

#include <array>

#include "rules/types.h"

namespace uckers {

// Every side's probability of winning in a game of more than two sides
// (RULES.md §11), sides numbered by their first colour in turn order
// (Layout); they sum to 1.
struct SideValues {
  int sides = 0;
  std::array<double, kMaxColours> win{};
};

}  // namespace uckers
