#include "engine/perft.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

// PROTOCOL.md: perft from the start position under navy.
TEST(Perft, StartPositionNavyDepth1To3) {
  Position start = Position::Start(Rules());
  EXPECT_EQ(Perft(start, Rules(), 1), 22u);
  EXPECT_EQ(Perft(start, Rules(), 2), 583u);
  EXPECT_EQ(Perft(start, Rules(), 3), 21213u);
}

}  // namespace
}  // namespace uckers::testing
