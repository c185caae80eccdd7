// Perft counts: the fast generator against PROTOCOL.md's published counts
// and against the independent slow generator of tests/reference/.
#include "rules/perft.h"

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

// Perft of a case at every depth up to its own equals the reference's.
void ExpectPerftAgreesWithReference(const Case& c) {
  for (int depth = 1; depth <= c.depth; ++depth) {
    EXPECT_EQ(FastPerft(c.ufen, c.rules, depth), reference::Perft(c.ufen, c.rules, depth))
        << c.ufen << " [" << c.rules << "] depth " << depth;
  }
}

TEST(Perft, MidGamePositionsAgreeWithReferenceGenerator) {
  for (const Case& c : kCases) ExpectPerftAgreesWithReference(c);
}

// The sorted result UFENs of every legal play, from the fast generator.
std::vector<std::string> FastResults(const Position& pos, const Rules& rules, Throw t) {
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  std::vector<std::string> out;
  for (const PlayResult& r : plays) out.push_back(ToUfen(r.after));
  std::sort(out.begin(), out.end());
  return out;
}

// Plays `games` random games under `text`; at every position, every throw's
// plays must lead to exactly the positions the reference generator finds, and
// every game must end. Returns how many suck-back or blow-back calls were made.
int RandomGamesAgreeWithReference(const std::string& text, int games) {
  Rules rules = R(text);
  std::mt19937_64 rng(std::hash<std::string>()(text));
  int calls = 0;
  for (int game = 0; game < games; ++game) {
    Position pos = Position::Start(rules);
    int step = 0;
    for (; step < 3000; ++step) {
      std::string ufen = ToUfen(pos);
      for (Throw t : kThrows) {
        EXPECT_EQ(FastResults(pos, rules, t), reference::LegalResults(ufen, text, t.high, t.low))
            << ufen << " [" << text << "] throw " << t.high << t.low;
        if (::testing::Test::HasFailure()) return calls;
      }
      Play played;
      if (!RandomStep(pos, rules, rng, nullptr, &played)) break;
      calls += played.kind == PlayKind::kSuckBack || played.kind == PlayKind::kBlowBack;
    }
    EXPECT_TRUE(pos.IsGameOver()) << text << " game " << game << " after " << step
                                  << " steps: " << ToUfen(pos);
  }
  return calls;
}

// Random games under every ruleset agree with the reference throw by throw.
TEST(Perft, RandomGamesAgreeWithReferenceGeneratorThrowByThrow) {
  for (const std::string& text : AllRulesets()) RandomGamesAgreeWithReference(text, 6);
}

// docs/architecture.md, "A new rule switch": every switch of RULES.md §9
// and §11 is played by the independent reference generator too, random
// games under it agreeing throw by throw. A switch added to rules/ alone
// fails here, named.
TEST(Perft, EverySwitchIsPlayedAlikeByTheReferenceGenerator) {
  for (int i = 0; i < kNumSwitches; ++i) {
    Switch s = static_cast<Switch>(i);
    std::string text =
        absl::StrCat(s == Switch::kTeamsOfThree ? "six" : "navy", "+", SwitchName(s));
    SCOPED_TRACE(absl::StrCat("switch ", SwitchName(s), " (", text,
                              "): the reference generator, tests/reference/reference.cpp, "
                              "plays it too"));
    RandomGamesAgreeWithReference(text, 2);
  }
}

// ------------------------------------------------- boards and sides (§11)

// PROTOCOL.md: the start position gives 22, 583, 21213, 994540 on every
// board and side layout (RULES.md §11), the independent reference agreeing.
TEST(Perft, StartPositionCountsAreTheSameOnEveryLayout) {
  const uint64_t expected[] = {1, 22, 583, 21213, 994540};
  for (const char* rules : {"six", "six+teams_of_three", "six+solo", "navy+solo"}) {
    std::string ufen = ToUfen(Position::Start(R(rules)));
    for (int depth = 0; depth <= 4; ++depth) {
      EXPECT_EQ(FastPerft(ufen, rules, depth), expected[depth]) << rules << " depth " << depth;
    }
    for (int depth = 1; depth <= 3; ++depth) {
      EXPECT_EQ(reference::Perft(ufen, rules, depth), expected[depth])
          << rules << " reference depth " << depth;
    }
  }
}

// PROTOCOL.md: 22, 583, 22065, 1197915 from the start under
// navy+doubles_throw_again (RULES.md §9): a double earns a throw.
TEST(Perft, StartPositionWithDoublesThrowAgainMatchesProtocol) {
  const uint64_t expected[] = {1, 22, 583, 22065, 1197915};
  for (int depth = 0; depth <= 4; ++depth) {
    EXPECT_EQ(FastPerft(std::string(kStartUfen), "navy+doubles_throw_again", depth),
              expected[depth])
        << "depth " << depth;
  }
  EXPECT_EQ(reference::Perft(std::string(kStartUfen), "navy+doubles_throw_again", 3), 22065u);
}

struct Checkpoint {
  const char* ufen;
  const char* rules;
  uint64_t nodes[3];  // perft 1, 2, 3
};

// PROTOCOL.md's perft checkpoints of the new rulesets.
const Checkpoint kCheckpoints[] = {
    {"9,9,40,77/b,3,3,70/20,78,h,h/b,b,1,80/b,12,12,30/b,b,50,h r -", "six", {153, 16392, 1617003}},
    {"9,9,40,77/b,3,3,70/20,78,h,h/b,b,1,80/b,12,12,30/b,b,50,h r -",
     "six+blob_on_blob+superblob",
     {153, 16398, 1618216}},
    {"b,20,33,33/b,8,8,60/b,72,79,h/h,h,h,h/0,46,81,h/b,30,30,70 b pb",
     "six+teams_of_three",
     {117, 11136, 1118100}},
    {"b,9,9,52/0,0,40,78/b,60,77,h/b,b,20,20/b,b,b,10/74,80,h,h y -",
     "six+solo",
     {32, 1531, 93907}},
    {"b,b,9,30/b,b,b,45/b,b,40,40/b,b,b,20 r -", "navy+solo", {66, 3984, 232115}},
    {"b,b,9,30/b,b,b,45/b,b,40,40/b,b,b,20 r -", "navy+doubles_throw_again", {97, 8408, 794629}},
    {"b,b,9,9/b,b,49,49/b,b,45,45/b,31,31,31 b -", "navy+superblob+blob_on_blob", {27, 723, 23352}},
};

TEST(Perft, NewRulesetCheckpointsMatchProtocol) {
  for (const Checkpoint& c : kCheckpoints) {
    for (int depth = 1; depth <= 3; ++depth) {
      EXPECT_EQ(FastPerft(c.ufen, c.rules, depth), c.nodes[depth - 1])
          << c.ufen << " [" << c.rules << "] depth " << depth;
    }
  }
}

TEST(Perft, NewRulesetCheckpointsAgreeWithReferenceGenerator) {
  for (const Checkpoint& c : kCheckpoints) {
    for (int depth = 1; depth <= 2; ++depth) {
      EXPECT_EQ(reference::Perft(c.ufen, c.rules, depth), c.nodes[depth - 1])
          << c.ufen << " [" << c.rules << "] reference depth " << depth;
    }
  }
}

// Random games on every layout, with the new switches and with every
// switch the layout allows, agree with the reference throw by throw.
TEST(Perft, NewLayoutRandomGamesAgreeWithReferenceGeneratorThrowByThrow) {
  for (const std::string text :
       {"six", "six+teams_of_three", "six+solo", "navy+solo", "navy+doubles_throw_again",
        "navy+superblob+blob_on_blob", "six+mixie_stack+blob_on_blob+superblob",
        "six+teams_of_three+mixie_stack+snake_eyes+no_partner_pipe_moves",
        "six+teams_of_three+suck_back+bounce_back+mixie_can_challenge",
        "six+solo+suck_back+split_single_piece+doubles_throw_again",
        "mess+six_sided+suck_back+double_six_two_throws+doubles_throw_again+one_less_six",
        "navy+solo+snake_eyes+blob_on_blob+superblob+throw_after_challenge"}) {
    RandomGamesAgreeWithReference(text, 2);
  }
}

// ------------------------------------------------------------- suck_back

// suck_back (RULES.md §9 var. G, read in docs/rules-reading.md "Suck back
// and blow back"): hand-made positions with pieces in lanes, opponents in
// line with them and attempt counters already set, under wafu and under
// navy plus the switch (with others beside it).
const Case kSuckBackCases[] = {
    // Red on green's 50, green lane pieces hit by some throws only.
    {"b,b,b,11/b,b,52,54/b,b,b,b/b,b,b,b r -", "wafu", 2},
    // A red blob and yellow (mixie) on green's 50, a green lane blob, kg1.
    {"b,5,11,11/b,20,53,53/b,b,b,37/b,b,b,b r kg1", "navy+suck_back", 2},
    // The caller is blocked by a blue blob on 12 (and may challenge it).
    {"b,b,b,11/b,b,b,53/b,b,b,b/b,b,25,25 r -", "navy+suck_back", 2},
    // The caller's next square holds a blue single.
    {"b,b,b,11/b,b,b,53/b,b,b,b/b,b,b,25 r -", "navy+suck_back", 2},
    // Green blows back against a red and yellow mixie, one attempt used.
    {"b,b,b,11/b,b,54,55/b,b,b,37/b,b,b,b g Kg1", "wafu", 2},
    // Every lane has a piece and every in-line square an opponent; each
    // colour to throw, counters of both kinds at 1 and 2.
    {"b,11,37,52/b,11,37,53/b,b,11,54/11,37,55,h r kr1,kg1,Kb1", "wafu", 1},
    {"b,11,37,52/b,11,37,53/b,b,11,54/11,37,55,h g ky2,Kr2,Kg1", "wafu", 1},
    {"b,11,37,52/b,11,37,53/b,b,11,54/11,37,55,h y kg2,kb1,Ky1", "wafu", 1},
    {"b,11,37,52/b,11,37,53/b,b,11,54/11,37,55,h b kr2,Kb2", "navy+suck_back+split_single_piece",
     1},
    // Counters at two: no more calls of that kind.
    {"b,b,b,11/b,b,b,53/b,b,b,b/b,b,b,b r kg2,Kg2", "navy+suck_back", 2},
    {"b,b,b,11/b,b,b,53/b,b,b,b/b,b,b,b g kg2,Kg1", "navy+suck_back", 2},
    // Released red calls with yellow; yellow's lane piece is locked.
    {"h,h,h,h/b,b,b,53/b,b,b,37/b,b,b,b r pr", "navy+suck_back", 2},
    {"h,h,h,h/11,b,b,b/b,b,b,54/b,b,b,b r pr", "navy+suck_back+no_partner_pipe_moves", 2},
    // The winning play with a blow-back counter standing.
    {"h,h,h,h/b,b,11,20/h,h,h,52/b,b,b,b r pr,Ky1", "wafu", 2},
    // A challenge under way, a snake-eyes second throw, owed throws.
    {"b,b,b,11/b,b,b,55/b,b,b,b/b,b,25,25 r c11:2,kg1", "navy+suck_back", 2},
    {"b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r Sr,kg1", "wafu", 2},
    {"b,b,b,11/b,b,b,53/b,b,b,b/b,b,b,b r x1,kg1", "navy+suck_back+double_six_two_throws", 2},
    // Another colour's first throw still to come: red's 1-1 is ordinary.
    {"b,b,b,11/b,b,b,52/b,b,b,b/b,b,b,b r sy", "wafu", 2},
    // Lane pieces that bounce, and a blow back beside them.
    {"b,b,b,11/b,b,52,55/b,b,b,b/b,b,b,b g -", "navy+suck_back+bounce_back", 2},
};

TEST(Perft, SuckBackPositionsAgreeWithReferenceGeneratorThrowByThrow) {
  for (const Case& c : kSuckBackCases) {
    Rules rules = R(c.rules);
    Position pos = P(c.ufen, rules);
    for (Throw t : kThrows) {
      EXPECT_EQ(FastResults(pos, rules, t), reference::LegalResults(c.ufen, c.rules, t.high, t.low))
          << c.ufen << " [" << c.rules << "] throw " << t.high << t.low;
    }
  }
}

TEST(Perft, SuckBackPositionsPerftAgreesWithReferenceGenerator) {
  for (const Case& c : kSuckBackCases) ExpectPerftAgreesWithReference(c);
}

// Random games with suck_back beside other switches (AllRulesets has wafu
// and navy+suck_back): RandomStep takes a call half the time one is legal,
// and calls are made.
TEST(Perft, SuckBackRandomGamesAgreeWithReferenceGeneratorThrowByThrow) {
  for (const std::string text : {"wafu+no_partner_pipe_moves+bounce_back+split_single_piece",
                                 "navy+suck_back+double_six_two_throws+mixie_can_challenge"}) {
    EXPECT_GT(RandomGamesAgreeWithReference(text, 6), 10) << text;
  }
}

// ------------------------------------------------------------ mixie_stack

// mixie_stack (RULES.md §9 "Mixie stack"): from the start the counts under
// navy+mixie_stack and mess, depth by depth, equal the reference's.
TEST(Perft, MixieStackStartPositionAgreesWithReferenceGenerator) {
  for (const char* rules : {"navy+mixie_stack", "mess"}) {
    Position start = Position::Start(R(rules));
    std::string ufen = ToUfen(start);
    for (int depth = 1; depth <= 3; ++depth) {
      EXPECT_EQ(FastPerft(ufen, rules, depth), reference::Perft(ufen, rules, depth))
          << rules << " depth " << depth;
    }
  }
}

// The start counts under navy+mixie_stack: as navy's until a stack can form
// (PROTOCOL.md's 22, 583, 21213), which takes a red and a yellow piece out.
TEST(Perft, MixieStackStartCountsAreNavysToDepthThree) {
  const uint64_t expected[] = {1, 22, 583, 21213};
  for (int depth = 0; depth <= 3; ++depth) {
    EXPECT_EQ(FastPerft(std::string(kStartUfen), "navy+mixie_stack", depth), expected[depth]);
  }
}

// Positions with stacks (m tokens), each against the reference.
const Case kStackCases[] = {
    // Red, yellow, red on red's 10: only the top red moves.
    {"b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r mr10:ryr", "navy+mixie_stack", 3},
    // Yellow on top: red's two pieces there are stuck until it leaves.
    {"b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r mr10:rry", "navy+mixie_stack", 3},
    {"b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b y mr10:rry", "navy+mixie_stack", 2},
    // A green and blue stack in front of red, a red stack behind it.
    {"b,5,10,31/b,b,20,20/b,b,36,h/b,46,46,h g mg20:bgbg,mr10:ry", "navy+mixie_stack", 2},
    {"b,5,10,31/b,b,20,20/b,b,36,h/b,46,46,h r mg20:gbbg,mr10:yr",
     "navy+mixie_stack+split_single_piece", 2},
    // A stack behind a blue blob: it may challenge only by its top piece.
    {"b,b,b,11/b,b,b,b/b,b,b,37/b,b,25,25 r mr11:yr", "navy+mixie_stack+mixie_can_challenge", 2},
    {"b,b,b,11/b,b,b,b/b,b,b,37/b,b,25,25 r mr11:ry", "navy+mixie_stack+mixie_can_challenge", 2},
    {"b,b,b,11/b,b,b,b/b,b,b,37/b,b,25,25 r c11:2,mr11:yr", "navy+mixie_stack+mixie_can_challenge",
     2},
    // A stack never makes a blob_on_blob move (mess); green's blob is in front.
    {"b,b,20,20/b,b,8,8/b,b,b,46/b,b,b,b r mr20:rry", "mess", 2},
    {"b,b,20,20/b,b,8,8/b,b,b,46/b,b,b,b r mr20:yrr", "mess", 2},
    // Snake eyes brings red out on top of yellow; a second one sends the
    // yellow pieces of a stack to base.
    {"b,b,b,b/b,b,b,b/b,b,26,26/b,b,b,b r sr", "mess", 2},
    {"b,b,10,10/b,b,b,b/b,b,36,36/b,b,b,b y Sy,mr10:ryry", "mess", 2},
    // Suck back and blow back with a stack in line with green's lane.
    {"b,b,b,11/b,b,b,53/b,b,b,37/b,b,b,b r mr11:yr", "navy+mixie_stack+suck_back", 2},
    {"b,b,b,11/b,b,b,53/b,b,b,37/b,b,b,b r mr11:ry", "navy+mixie_stack+suck_back", 2},
    {"b,b,b,11/b,b,b,53/b,b,b,37/b,b,b,b g mr11:ry", "navy+mixie_stack+suck_back", 2},
};

TEST(Perft, MixieStackPositionsAgreeWithReferenceGenerator) {
  for (const Case& c : kStackCases) ExpectPerftAgreesWithReference(c);
}

// Random games with mixie_stack beside other switches reach stacks often;
// at every position with one, every throw agrees with the reference.
TEST(Perft, MixieStackRandomGamesAgreeWithReferenceWhereStacksStand) {
  for (const std::string text : {"mess+mixie_can_challenge+split_single_piece",
                                 "navy+mixie_stack+suck_back+bounce_back+one_less_six"}) {
    Rules rules = R(text);
    std::mt19937_64 rng(11);
    int stacked = 0;
    for (int game = 0; game < 6; ++game) {
      Position pos = Position::Start(rules);
      for (int step = 0; step < 3000; ++step) {
        if (pos.stack_order() != 0) {
          ++stacked;
          std::string ufen = ToUfen(pos);
          for (Throw t : kThrows) {
            ASSERT_EQ(FastResults(pos, rules, t),
                      reference::LegalResults(ufen, text, t.high, t.low))
                << ufen << " [" << text << "] throw " << t.high << t.low;
          }
        }
        if (!RandomStep(pos, rules, rng)) break;
      }
    }
    EXPECT_GT(stacked, 50) << text;
  }
}

TEST(Perft, MixieStackPositionsAgreeWithReferenceGeneratorThrowByThrow) {
  for (const Case& c : kStackCases) {
    Rules rules = R(c.rules);
    Position pos = P(c.ufen, rules);
    for (Throw t : kThrows) {
      EXPECT_EQ(FastResults(pos, rules, t), reference::LegalResults(c.ufen, c.rules, t.high, t.low))
          << c.ufen << " [" << c.rules << "] throw " << t.high << t.low;
    }
  }
}

}  // namespace
}  // namespace uckers::testing
