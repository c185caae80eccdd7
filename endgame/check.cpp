#include "endgame/check.h"

#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "endgame/bellman.h"
#include "rules/ufen.h"

namespace uckers {
namespace {

// A random position of the table's class, not necessarily canonical.
Position RandomPosition(const EndgameTable& table, std::mt19937_64& rng) {
  std::vector<int> shapes;
  for (int s = 0; s < kNumEndgameShapes; ++s) {
    if (ClassHasShape(table.endgame_class(), s)) shapes.push_back(s);
  }
  int shape = shapes[rng() % shapes.size()];
  Position pos = PositionAt({shape, static_cast<uint32_t>(rng() % ShapeSize(shape))});
  if (rng() % 2) pos.SetToThrow(PartnerOf(pos.to_throw()));  // the released partner throws
  return TurnSeats(pos, static_cast<int>(rng() % 4));
}

}  // namespace

absl::StatusOr<BellmanCheck> CheckBellman(const EndgameTable& table, int positions, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto lookup = [&table](EndgameSlot slot) { return table.WinAt(slot); };
  BellmanCheck check;
  for (int i = 0; i < positions; ++i) {
    Position pos = RandomPosition(table, rng);
    std::optional<double> stored = table.ProbeWin(pos, table.rules());
    std::optional<double> expected = ExpectedWin(pos, table.rules(), lookup);
    if (!stored || !expected) {
      return absl::InternalError(absl::StrCat("not covered: ", ToUfen(pos)));
    }
    double error = std::abs(*stored - *expected);
    if (error > check.max_error || check.worst.empty()) {
      check.max_error = std::max(check.max_error, error);
      check.worst = ToUfen(pos);
    }
    ++check.positions;
  }
  return check;
}

}  // namespace uckers
