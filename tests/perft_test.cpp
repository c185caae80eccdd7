// Perft counts: the fast generator against PROTOCOL.md's published counts
// and against the independent slow generator of tests/reference/.
#include "engine/perft.h"

#include "tests/random_game.h"
#include "tests/reference/reference.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

uint64_t FastPerft(const std::string& ufen, const std::string& rules, int depth) {
  Rules r = R(rules);
  return Perft(P(ufen, r), r, depth);
}

// PROTOCOL.md: 22, 583, 21213, 994540 at depths 1-4 from the start, navy.
TEST(Perft, StartPositionNavyMatchesProtocol) {
  const uint64_t expected[] = {1, 22, 583, 21213, 994540};
  for (int depth = 0; depth <= 4; ++depth) {
    EXPECT_EQ(FastPerft(std::string(kStartUfen), "navy", depth), expected[depth])
        << "depth " << depth;
  }
}

// A finished game is one leaf at any depth (PROTOCOL.md perft).
TEST(Perft, FinishedGameIsOneLeaf) {
  EXPECT_EQ(FastPerft("h,h,h,h/b,b,3,h/h,h,h,h/b,b,b,b r -", "navy", 3), 1u);
}

struct Case {
  const char* ufen;
  const char* rules;
  int depth;
};

// Mid-game positions chosen to exercise every rule: blobs, mixies, lanes,
// challenges under way, released colours, first-throw flags, owed throws.
const Case kCases[] = {
    {"b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -", "navy", 2},
    {"0,7,7,22/b,14,30,45/b,19,19,h/2,2,26,50 g -", "navy", 2},
    {"3,10,10,b/5,20,47,b/0,0,30,52/b,12,40,h r -", "navy", 3},
    {"9,9,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", "navy", 3},
    {"h,h,h,h/b,20,20,48/b,44,53,h/b,b,7,h r pr", "navy", 2},
    {"h,h,h,h/b,20,20,48/b,44,53,h/b,b,7,h r pr", "mess", 2},
    {"h,h,h,h/5,b,b,b/b,b,b,50/b,b,b,h r -", "navy", 3},
    {"24,25,b,b/b,b,b,b/b,b,b,b/b,b,b,b y -", "navy", 2},
    {"b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb", "mess", 3},
    {"0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g Sr,sgyb", "mess", 3},
    {"1,11,b,b/b,b,b,b/b,b,b,b/25,25,b,b r -", "selsey", 3},
    {"11,b,b,b/b,b,b,b/b,b,b,b/25,25,b,b r c11:2", "selsey", 2},
    {"11,b,b,b/b,b,b,b/b,b,b,b/25,25,b,b r c11:2", "navy", 2},
    {"11,b,b,b/b,b,b,b/b,b,b,b/25,25,b,b r c11:1", "navy+one_less_six", 2},
    {"b,b,b,b/b,b,b,b/b,b,b,b/13,13,13,b r cb:3", "navy", 2},
    {"11,30,b,b/b,b,b,b/37,b,b,b/25,25,b,b r -", "navy", 2},
    {"11,30,b,b/b,b,b,b/37,b,b,b/25,25,b,b r -", "navy+mixie_can_challenge", 2},
    {"4,4,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", "navy+split_single_piece", 3},
    {"48,50,53,55/b,b,b,b/b,b,b,b/10,10,b,b r -", "navy+bounce_back", 3},
    {"10,10,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", "navy+double_six_two_throws", 3},
    {"10,10,b,b/b,b,b,b/b,b,b,b/b,b,b,b r x2", "navy+double_six_two_throws", 2},
    {"20,20,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", "mess", 2},
    {"20,20,30,b/8,8,b,b/b,b,b,b/b,b,b,b r -", "navy", 2},
    {"20,20,30,b/8,8,b,b/b,b,b,b/b,b,b,b r -", "mess", 2},
};

TEST(Perft, MidGamePositionsAgreeWithReferenceGenerator) {
  for (const Case& c : kCases) {
    for (int depth = 1; depth <= c.depth; ++depth) {
      EXPECT_EQ(FastPerft(c.ufen, c.rules, depth),
                reference::Perft(c.ufen, c.rules, depth))
          << c.ufen << " [" << c.rules << "] depth " << depth;
    }
  }
}

// The sorted result UFENs of every legal play, from the fast generator.
std::vector<std::string> FastResults(const Position& pos, const Rules& rules,
                                     Throw t) {
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  std::vector<std::string> out;
  for (const PlayResult& r : plays) out.push_back(ToUfen(r.after));
  std::sort(out.begin(), out.end());
  return out;
}

// Random games under every ruleset: at every position, every throw's plays
// lead to exactly the positions the reference generator finds.
TEST(Perft, RandomGamesAgreeWithReferenceGeneratorThrowByThrow) {
  for (const std::string& text : AllRulesets()) {
    Rules rules = R(text);
    std::mt19937_64 rng(std::hash<std::string>()(text));
    for (int game = 0; game < 6; ++game) {
      Position pos = Position::Start(rules);
      int step = 0;
      for (; step < 3000; ++step) {
        std::string ufen = ToUfen(pos);
        for (Throw t : kThrows) {
          ASSERT_EQ(FastResults(pos, rules, t),
                    reference::LegalResults(ufen, text, t.high, t.low))
              << ufen << " [" << text << "] throw " << t.high << t.low;
        }
        if (!RandomStep(pos, rules, rng)) break;
      }
      EXPECT_TRUE(pos.IsGameOver()) << text << " game " << game << " after "
                                    << step << " steps: " << ToUfen(pos);
    }
  }
}

}  // namespace
}  // namespace uckers::testing
