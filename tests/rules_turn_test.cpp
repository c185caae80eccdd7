// RULES.md §3 (the turn and extra throws) and §5 (game end, outcome levels).
// Expected values worked out by hand from RULES.md and docs/rules-reading.md.
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

bool EndsWith(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// ---------------------------------------------------------------- §3

// RULES.md §3 rule 4: a throw with no six owes no extra throw: the turn
// passes to the next colour.
TEST(Turn, ThrowWithoutASixPassesTheTurn) {
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 3, 1, "r10-14"), "b,b,b,14/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §3 rule 3: a throw showing a six earns one extra throw.
TEST(Turn, SixEarnsOneExtraThrow) {
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 6, 1, "r10-17"), "b,b,b,17/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §3 rule 3: a double six also earns one extra throw (not two: no
// x token under navy).
TEST(Turn, DoubleSixEarnsOnlyOneExtraThrow) {
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 6, 6, "r10-22"), "b,b,b,22/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §3 rule 3: the extra throw is earned even when nothing could be
// moved.
TEST(Turn, ExtraThrowIsEarnedEvenWhenNothingCouldBeMoved) {
  // Red 54 + 6-5: 65, 60, 59 all overshoot; no base piece to enter.
  const std::string ufen = "54,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 5), Strs{"-"});
  EXPECT_EQ(After(ufen, 6, 5, "-"), "54,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §3 rule 4: there is no limit on consecutive sixes.
TEST(Turn, NoLimitOnConsecutiveSixes) {
  std::string ufen = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";
  ufen = After(ufen, 6, 6, "rb-0,rb-0");
  EXPECT_EQ(ufen, "b,b,0,0/b,b,b,b/b,b,b,b/b,b,b,b r -");
  ufen = After(ufen, 6, 6, "rb-0,rb-0");
  EXPECT_EQ(ufen, "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b r -");
  ufen = After(ufen, 6, 6, "r0-12");
  EXPECT_EQ(ufen, "0,0,0,12/b,b,b,b/b,b,b,b/b,b,b,b r -");
  ufen = After(ufen, 6, 5, "r0-11");
  EXPECT_EQ(ufen, "0,0,11,12/b,b,b,b/b,b,b,b/b,b,b,b r -");
  ufen = After(ufen, 6, 4, "r0-10");
  EXPECT_EQ(ufen, "0,10,11,12/b,b,b,b/b,b,b,b/b,b,b,b r -");
  ufen = After(ufen, 6, 3, "r0-9");
  EXPECT_EQ(ufen, "9,10,11,12/b,b,b,b/b,b,b,b/b,b,b,b r -");
  // The seventh six in a row still earns its throw.
  ufen = After(ufen, 6, 1, "r9-16");
  EXPECT_TRUE(EndsWith(ufen, " r -")) << ufen;
}

// RULES.md §3 rule 4: the next colour after Blue is Red.
TEST(Turn, TurnPassesFromBlueBackToRed) {
  const std::string ufen = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,10 b -";
  EXPECT_EQ(After(ufen, 3, 1, "b10-14"), "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,14 r -");
}

// RULES.md §3 rule 3: an extra throw is owed to the thrower whatever his
// play was: entering with a six keeps the throw.
TEST(Turn, EnteringWithASixKeepsTheThrow) {
  const std::string ufen = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b g -";
  EXPECT_EQ(After(ufen, 6, 2, "gb-0,g0-2"), "b,b,b,b/b,b,b,2/b,b,b,b/b,b,b,b g -");
}

// ---------------------------------------------------------------- §5

// RULES.md §5: a team wins when all eight pieces are home; the game ends at
// once, the colour to throw stays the one that made the winning play, and no
// throw is owed even after a six.
TEST(GameEnd, WinningPlayEndsTheGameAndTheWinnerStaysToThrow) {
  // Red 50 + 6-6: 62 overshoots; 6 takes it home. Yellow is all home.
  const std::string ufen = "50,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 6), Strs{"r50-h"});
  EXPECT_EQ(After(ufen, 6, 6, "r50-h"), "h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b r -");
}

// RULES.md §5: the Green-Blue team wins the same way.
TEST(GameEnd, GreenBlueTeamWins) {
  // Green 48 + 5-3 = 56.
  const std::string ufen = "b,b,b,b/48,h,h,h/b,b,b,b/h,h,h,h g -";
  EXPECT_EQ(Plays(ufen, 5, 3), Strs{"g48-h"});
  EXPECT_EQ(After(ufen, 5, 3, "g48-h"), "b,b,b,b/h,h,h,h/b,b,b,b/h,h,h,h g -");
}

// RULES.md §5: a finished position has no legal plays, for any throw.
TEST(GameEnd, FinishedPositionHasNoLegalPlays) {
  const Position pos = P("h,h,h,h/b,b,b,10/h,h,h,h/b,b,b,b g -");
  EXPECT_TRUE(pos.IsGameOver());
  for (const Throw& t : kThrows) {
    PlayList list;
    GenerateLegalPlays(pos, Rules(), t, &list);
    EXPECT_TRUE(list.empty()) << t.high << t.low;
  }
}

// RULES.md §5/§8: a win where the losers have a piece home is a plain win.
TEST(Outcome, WinWhenTheLosersHaveAPieceHome) {
  EXPECT_EQ(P("h,h,h,h/b,b,b,h/h,h,h,h/b,b,b,b r -").Outcome(), OutcomeLevel::kWin);
}

// RULES.md §5/§8: an 8-piecer when the losers have no piece home.
TEST(Outcome, EightPiecerWhenTheLosersHaveNoPieceHome) {
  // A green piece out on the track and a blue one in its lane: none home.
  EXPECT_EQ(P("h,h,h,h/b,b,b,10/h,h,h,h/b,b,b,55 r -").Outcome(), OutcomeLevel::kEightPiecer);
}

// RULES.md §5/§8: 8-piece in harbour when all eight losers are in base.
TEST(Outcome, InHarbourWhenAllTheLosersAreInBase) {
  EXPECT_EQ(P("b,b,b,b/h,h,h,h/b,b,b,b/h,h,h,h g -").Outcome(), OutcomeLevel::kInHarbour);
}

// RULES.md §5: no outcome while the game goes on.
TEST(Outcome, NoneWhileTheGameGoesOn) {
  EXPECT_EQ(P("h,h,h,h/b,b,b,b/50,h,h,h/b,b,b,b r -").Outcome(), OutcomeLevel::kNone);
}

// RULES.md §8: the winners score 1 for a win, 2 for an 8-piecer, 3 for an
// 8-piece in harbour (the outcome level's value is its points).
TEST(Scoring, OutcomeLevelsAreWorthOneTwoThreePoints) {
  EXPECT_EQ(static_cast<int>(P("h,h,h,h/b,b,b,h/h,h,h,h/b,b,b,b r -").Outcome()), 1);
  EXPECT_EQ(static_cast<int>(P("h,h,h,h/b,b,b,10/h,h,h,h/b,b,b,b r -").Outcome()), 2);
  EXPECT_EQ(static_cast<int>(P("h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b r -").Outcome()), 3);
}

}  // namespace
}  // namespace uckers::testing
