#pragma once

#include <array>

namespace uckers {

// A throw of two dice, high die first (order does not matter in Uckers).
struct Throw {
  int high = 1;
  int low = 1;

  bool IsDouble() const { return high == low; }
  int Sixes() const { return (high == 6) + (low == 6); }
  bool HasSix() const { return high == 6; }
  // Chance weight out of 36: 1 for a double, 2 otherwise.
  int Weight() const { return IsDouble() ? 1 : 2; }
  friend bool operator==(const Throw&, const Throw&) = default;
};

// Builds a throw from two dice in any order; both must be 1..6.
constexpr Throw MakeThrow(int d1, int d2) { return d1 >= d2 ? Throw{d1, d2} : Throw{d2, d1}; }

// The 21 distinct throws, 6-6 first down to 1-1; weights sum to 36.
constexpr std::array<Throw, 21> AllThrows() {
  std::array<Throw, 21> throws{};
  int n = 0;
  for (int high = 6; high >= 1; --high) {
    for (int low = high; low >= 1; --low) throws[n++] = Throw{high, low};
  }
  return throws;
}

inline constexpr std::array<Throw, 21> kThrows = AllThrows();

}  // namespace uckers
