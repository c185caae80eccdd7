// game/game.h: one game (rules, start, throws and plays) as every front
// sees it (issue 26 point 1).
#include "game/game.h"

#include "engine/ufen.h"
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
  v1::GameRecord record = game->Record();
  EXPECT_EQ(record.start_ufen(), start);
  EXPECT_EQ(record.switches(), R("selsey").SwitchList());
  absl::StatusOr<Game> back = Game::FromRecord(record);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->position(), game->position());
  EXPECT_EQ(back->items().size(), 2u);
  EXPECT_EQ(back->rules(), R("selsey"));
}

TEST(Game, ARecordWithABadItemIsRefusedNamingIt) {
  Game game;
  ASSERT_TRUE(game.PlayItem("63:rb-0,r0-3").ok());
  v1::GameRecord record = game.Record();
  record.add_items()->set_throw_("99");
  absl::StatusOr<Game> back = Game::FromRecord(record);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("item 2"), std::string::npos) << back.status();
}

}  // namespace
}  // namespace uckers::testing
