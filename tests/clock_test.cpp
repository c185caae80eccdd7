// Time controls in matches and ladders: the `tc=` setting,
// a player's clock over a game, losses on time and their records.
#include "match/clock.h"

#include <chrono>
#include <thread>

#include "match/match.h"
#include "match/play_game.h"
#include "match/player.h"
#include "record/text.h"
#include "tests/test_util.h"
#include "wire/record.h"

namespace uckers::testing {
namespace {

TEST(TimeControl, ParsesMovesSecondsAndIncrement) {
  absl::StatusOr<TimeControl> tc = ParseTimeControl("40/10+0.1");
  ASSERT_TRUE(tc.ok()) << tc.status();
  EXPECT_EQ(tc->moves, 40);
  EXPECT_EQ(tc->base_ms, 10'000);
  EXPECT_EQ(tc->increment_ms, 100);
  EXPECT_EQ(TimeControlText(*tc), "40/10+0.1");
  tc = ParseTimeControl("2.5");
  ASSERT_TRUE(tc.ok());
  EXPECT_EQ(tc->moves, 0);
  EXPECT_EQ(tc->base_ms, 2500);
  EXPECT_EQ(tc->increment_ms, 0);
  EXPECT_EQ(TimeControlText(*tc), "2.5");
}

TEST(TimeControl, MalformedOrOutOfRangeIsRefusedNamingIt) {
  for (const char* bad : {"", "0", "10+", "+1", "10+-1", "0/10", "40/", "x/10", "10+0.1+1", "1e3",
                          "-5", "10s", "inf", "9000000000"}) {
    absl::StatusOr<TimeControl> tc = ParseTimeControl(bad);
    ASSERT_FALSE(tc.ok()) << bad;
    EXPECT_NE(tc.status().message().find(absl::StrCat("'", bad, "'")), std::string::npos) << bad;
  }
}

TEST(GameClock, AddsTheIncrementAndTheNextPeriodAfterItsMoves) {
  GameClock clock(*ParseTimeControl("2/1+0.5"));
  EXPECT_EQ(clock.moves_to_go(), 2);
  EXPECT_TRUE(clock.Charge(300));
  EXPECT_DOUBLE_EQ(clock.left_ms(), 1000 - 300 + 500);
  EXPECT_EQ(clock.moves_to_go(), 1);
  EXPECT_TRUE(clock.Charge(200));
  EXPECT_DOUBLE_EQ(clock.left_ms(), 1200 - 200 + 500 + 1000);
  EXPECT_EQ(clock.moves_to_go(), 2);
}

TEST(GameClock, ADecisionLongerThanTheTimeLeftRunsItOut) {
  GameClock clock(*ParseTimeControl("1+5"));
  EXPECT_FALSE(clock.Charge(1000.5));  // the increment comes after, too late
}

// Thinks for `ms` on every decision, then plays the first legal play.
class SlowPlayer : public Player {
 public:
  explicit SlowPlayer(int ms) : ms_(ms) {}
  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
    PlayList plays;
    GenerateLegalPlays(pos, Rules(), t, &plays);
    return plays[0];
  }
  void SetClocks(const Clocks& clocks) override { told.push_back(clocks); }
  std::vector<Clocks> told;

 private:
  int ms_;
};

TEST(GameClock, APlayerWhoseClockRunsOutLosesOnTimeAsAPlainLoss) {
  SlowPlayer slow(30), quick(0);
  slow.set_time_control(*ParseTimeControl("0.1"));  // 100 ms: four decisions at most
  Player* players[2] = {&slow, &quick};
  GameResult game = PlayGame(players, Rules(), 7);
  EXPECT_EQ(game.time_loss_team, 0);
  EXPECT_EQ(game.winner_team, 1);
  EXPECT_EQ(game.level, OutcomeLevel::kWin);
  EXPECT_EQ(game.forfeit_team, -1);
  EXPECT_LE(game.choices[0], 4);
  ASSERT_FALSE(slow.told.empty());
  EXPECT_EQ(*slow.told[0].time_ms[0], 100);  // its own clock, whole
  EXPECT_FALSE(slow.told[0].time_ms[1]);     // the other team plays untimed
  EXPECT_TRUE(quick.told.empty());           // an untimed player is not told
}

TEST(GameClock, ALossOnTimeIsRecordedAndTheRecordReadsBack) {
  SlowPlayer slow(30), quick(0);
  slow.set_time_control(*ParseTimeControl("0.1"));
  Player* players[2] = {&quick, &slow};
  GameResult game = PlayGame(players, Rules(), 7);
  ASSERT_EQ(game.time_loss_team, 1);
  Record record = RecordOf(game, "quick", "slow", 7);
  EXPECT_EQ(record.termination, "time");
  EXPECT_EQ(record.winner, "RY");
  EXPECT_EQ(record.points, 1);
  std::string text = RecordToText(record);
  EXPECT_NE(text.find("[Termination \"time\"]"), std::string::npos);
  absl::StatusOr<Record> back = wire::ParseRecord(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->termination, "time");
}

TEST(GameClock, ARecordClaimingALossOnTimeByTheWrongTeamIsRefused) {
  // Red is to throw after no items: only team RY can have run out.
  const std::string text = "[Result \"RY 1\"]\n[Termination \"time\"]\n\n";
  EXPECT_FALSE(wire::ParseRecord(text).ok());
  EXPECT_TRUE(wire::ParseRecord("[Result \"GB 1\"]\n[Termination \"time\"]\n\n").ok());
  EXPECT_FALSE(wire::ParseRecord("[Result \"GB 2\"]\n[Termination \"time\"]\n\n").ok());
  EXPECT_FALSE(wire::ParseRecord("[Result \"GB 1\"]\n[Termination \"resigned\"]\n\n").ok());
}

TEST(Match, TimeControlSettingIsCheckedAndTheEngineKeepsWithinItsClock) {
  MatchConfig config;
  config.player_a = "expert,tc=0";
  config.progress = false;
  absl::StatusOr<v1::MatchReport> bad = RunMatch(config);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("time control '0'"), std::string::npos);
  // 2 s for the game: the engine budgets it (deepening past its level's
  // depth where that fits: TimeManager.ALongClockLetsTheSearchDeepenPastTheLevel)
  // and never runs out.
  config.player_a = "expert,tc=2";
  config.player_b = "expert";
  config.pairs = 1;
  absl::StatusOr<v1::MatchReport> report = RunMatch(config);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->a_time_losses(), 0);
  EXPECT_EQ(report->b_time_losses(), 0);  // no clock, no loss on time
  EXPECT_EQ(report->a_forfeits() + report->b_forfeits(), 0);
}

}  // namespace
}  // namespace uckers::testing
