// record/game.h: one game (rules, start, throws and plays) as every front
// sees it.
#include "record/game.h"

#include <atomic>
#include <random>

#include "record/record.h"
#include "record/text.h"
#include "review/review.h"
#include "rules/notation.h"
#include "rules/ufen.h"
#include "tests/random_game.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

TEST(Game, StartsAtTheRulesetsStartPosition) {
  Game game(R("mess"));
  EXPECT_EQ(game.position(), Position::Start(R("mess")));
  EXPECT_TRUE(game.items().empty());
}

// RULES.md §4: plays are checked and stored in their canonical spelling.
TEST(Game, PlaysAreCheckedAndKeptCanonical) {
  Game game;
  ASSERT_TRUE(game.PlayItem("63:rb-0,r0-3").ok());
  ASSERT_EQ(game.items().size(), 1u);
  EXPECT_EQ(game.items()[0].play, "rb-0,r0-3");
  EXPECT_EQ(ToUfen(game.position()), "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

TEST(Game, AnIllegalPlayLeavesTheGameUnchanged) {
  Game game;
  Position before = game.position();
  EXPECT_FALSE(game.PlayItem("53:r0-8").ok());
  EXPECT_FALSE(game.PlayItem("63").ok());
  EXPECT_FALSE(game.PlayItem("73:-").ok());
  EXPECT_EQ(game.position(), before);
  EXPECT_TRUE(game.items().empty());
}

TEST(Game, TakeBackReturnsToThePositionBeforeTheLastPlay) {
  Game game;
  ASSERT_TRUE(game.PlayItem("63:rb-0,r0-3").ok());
  ASSERT_TRUE(game.PlayItem("52:r3-10").ok());
  ASSERT_TRUE(game.TakeBack());
  EXPECT_EQ(ToUfen(game.position()), "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r -");
  ASSERT_TRUE(game.TakeBack());
  EXPECT_FALSE(game.TakeBack());
  EXPECT_EQ(game.position(), Position::Start(Rules()));
}

// docs/records.md: a game's record plays back into the same game, from a
// set-up start too, with its rules by their switch list.
TEST(Game, ItsRecordPlaysBackIntoTheSameGame) {
  const std::string start = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r -";
  absl::StatusOr<Game> game = Game::FromStart(R("selsey"), start);
  ASSERT_TRUE(game.ok());
  ASSERT_TRUE(game->PlayItem("62:xr20").ok());
  ASSERT_TRUE(game->PlayItem("61:-").ok());
  Record record = RecordOf(*game);
  EXPECT_EQ(StartUfen(record.game), start);
  EXPECT_EQ(record.switches, R("selsey").SwitchList());
  absl::StatusOr<Record> back = ParseTextRecord(RecordToText(record));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->game.position(), game->position());
  EXPECT_EQ(back->game.items().size(), 2u);
  EXPECT_EQ(back->game.rules(), R("selsey"));
}

TEST(Game, ARecordWithABadItemIsRefusedNamingIt) {
  Game game;
  ASSERT_TRUE(game.PlayItem("63:rb-0,r0-3").ok());
  absl::StatusOr<Record> back = ParseTextRecord(RecordToText(RecordOf(game)) + "99:\n");
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("item 2"), std::string::npos) << back.status();
}

// A random game under `rules` kept as a Game, `max_items` throws at most.
Game RandomGame(const Rules& rules, uint64_t seed, int max_items) {
  Game game(rules);
  std::mt19937_64 rng(seed);
  PlayList plays;
  for (int i = 0; i < max_items && !game.IsOver(); ++i) {
    Throw t = RandomThrow(rng);
    GenerateLegalPlays(game.position(), rules, t, &plays);
    const PlayResult& r = plays[rng() % plays.size()];
    EXPECT_TRUE(game.Play(t, PlayToString(r.play, game.position().board())).ok());
  }
  return game;
}

// RULES.md §11 "The end with more than two sides", docs/records.md: a
// finished six-sided game's record names the winning side by its colours
// and the points summed over the losing sides, and reads back as text.
TEST(Record, SixSidedGameNamesTheWinningSideAndPlaysBack) {
  Game game = RandomGame(R("six"), 11, 100000);
  ASSERT_TRUE(game.IsOver());
  Record record = RecordOf(game);
  int winner = game.position().WinningSide();
  EXPECT_EQ(record.winner, SideName(game.position().layout(), winner));
  EXPECT_EQ(record.points, game.position().Points()[winner]);
  EXPECT_GE(record.points, 2);  // 1..3 from each of two losing sides
  record.side_players.push_back({"GO", "expert"});
  std::string text = RecordToText(record);
  EXPECT_NE(text.find("[GO \"expert\"]"), std::string::npos) << text;
  absl::StatusOr<Record> back = ParseTextRecord(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->game.items().size(), record.game.items().size());
  EXPECT_EQ(back->winner, record.winner);
  EXPECT_EQ(RecordPlayer(*back, game.position().layout(), 1), "expert");
}

// RULES.md §11: every colour for itself names each side by one letter.
TEST(Record, SoloSidesAreNamedByOneColour) {
  Layout layout = R("navy+solo").layout();
  EXPECT_EQ(SideNames(layout), "R G Y B");
  EXPECT_EQ(SideByName(layout, "Y"), 2);
  EXPECT_EQ(SideByName(layout, "RY"), -1);
  EXPECT_EQ(SideNames(R("six+teams_of_three").layout()), "RYO GBP");
}

TEST(Record, AHeaderNamingNoSideOfTheRulesIsRefused) {
  absl::StatusOr<Record> r = ParseTextRecord("[Rules \"navy+solo\"]\n[RB \"x\"]\n\n63:rb-0,r0-3\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("header RB names no side"), std::string::npos) << r.status();
  r = ParseTextRecord("[Rules \"six\"]\n[RY \"x\"]\n\n63:rb-0,r0-3\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("RY and GB headers"), std::string::npos) << r.status();
}

TEST(Record, AWrongResultOfMoreSidesIsRefused) {
  Game game = RandomGame(R("navy+solo"), 5, 100000);
  ASSERT_TRUE(game.IsOver());
  Record record = RecordOf(game);
  record.points++;
  absl::StatusOr<Record> back = ParseTextRecord(RecordToText(record));
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("the result says"), std::string::npos) << back.status();
}

TEST(Record, ALossOnTimeNeedsTwoSides) {
  Game game = RandomGame(R("six"), 3, 10);
  Record record = RecordOf(game);
  record.termination = "time";
  record.winner = "GO";
  record.points = 1;
  absl::StatusOr<Record> back = ParseTextRecord(RecordToText(record));
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("needs two sides"), std::string::npos) << back.status();
}

// The review rates every side of a game of more sides: a row per side, and
// every side's chance before each throw, summing to one.
TEST(Review, RatesEverySideOfASixSidedGame) {
  Game game = RandomGame(R("six"), 7, 40);
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> a = AnalyseGame(game, "advanced", stop);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->teams.size(), 3u);
  EXPECT_EQ(a->teams[0].team, "RB");
  EXPECT_EQ(a->teams[1].team, "GO");
  EXPECT_EQ(a->teams[2].team, "YP");
  int decisions = 0;
  for (const TeamAnalysis& t : a->teams) decisions += t.decisions;
  EXPECT_GT(decisions, 0);
  ASSERT_EQ(a->items.size(), 40u);
  for (const AnalysedItem& item : a->items) {
    ASSERT_EQ(item.side_wins_before.size(), 3u);
    double sum = 0;
    for (double w : item.side_wins_before) sum += w;
    EXPECT_NEAR(sum, 1.0, 1e-6);  // the side net computes in float
    EXPECT_GE(item.equity_lost, 0);
  }
  // Random plays give something away somewhere.
  double lost = 0;
  for (const TeamAnalysis& t : a->teams) lost += t.equity_lost;
  EXPECT_GT(lost, 0);
  EXPECT_NE(AnalysisToSvg(*a).find("Every side's win probability"), std::string::npos);
}

}  // namespace
}  // namespace uckers::testing
