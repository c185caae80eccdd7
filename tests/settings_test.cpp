// The settings table (search/settings.h): every setting declared once and
// reached the same way by `setoption`, a match player's settings and a
// request.
#include "search/settings.h"

#include <gtest/gtest.h>

#include "engine/coach.h"
#include "engine/options.h"
#include "match/player.h"
#include "rules/checked.h"
#include "rules/dice_sequence.h"
#include "rules/rules.h"
#include "search/levels.h"

namespace uckers::testing {
namespace {

TEST(Settings, EveryPlayerSettingIsATableSetting) {
  for (const char* key : {"noise",         "filter",
                          "filter_margin", "ending_extension",
                          "deepening",     "exploration",
                          "throws",        "rollout_plies",
                          "rollout_width", "trials",
                          "netfile",       "seed",
                          "objective",     "eval",
                          "search",        "multipv",
                          "threads",       "hash_mb",
                          "tree_mb",       "multi_side",
                          "deep_filter",   "deep_filter_margin",
                          "opponent"}) {
    const SettingDef* def = FindSetting(key);
    ASSERT_NE(def, nullptr) << key;
    EXPECT_TRUE(def->set) << key;
  }
}

TEST(Settings, NoSettingsMeanTheDefaultLevel) {
  SearchParams level;
  ASSERT_TRUE(ApplyLevel(kDefaultLevel, &level).ok());
  absl::StatusOr<SearchParams> params = ParamsOf(SearchSettings{});
  ASSERT_TRUE(params.ok());
  EXPECT_EQ(params->max_depth, level.max_depth);
  EXPECT_EQ(params->filter_width, level.filter_width);
  EXPECT_EQ(params->noise, level.noise);
  EXPECT_EQ(params->ending_extension, level.ending_extension);
  EXPECT_EQ(params->mcts_exploration, level.mcts_exploration);
  EXPECT_EQ(params->rollout_trials, level.rollout_trials);
}

TEST(Settings, SetoptionOverridesTheLevelUntilSetBackToLevel) {
  EngineOptions options;
  ASSERT_TRUE(options.Set("Filter", "3").ok());
  ASSERT_TRUE(options.Set("Level", "grandmaster").ok());
  EXPECT_EQ(ParamsOf(options)->filter_width, 3);  // outlives the change of level
  ASSERT_TRUE(options.Set("filter", "level").ok());
  SearchParams grandmaster;
  ASSERT_TRUE(ApplyLevel("grandmaster", &grandmaster).ok());
  EXPECT_EQ(ParamsOf(options)->filter_width, grandmaster.filter_width);
}

TEST(Settings, DeepeningIsPartialUnlessSetToWhole) {
  EngineOptions options;
  EXPECT_TRUE(ParamsOf(options)->partial_iteration);
  ASSERT_TRUE(options.Set("Deepening", "whole").ok());
  EXPECT_FALSE(ParamsOf(options)->partial_iteration);
  EXPECT_FALSE(options.Set("Deepening", "half").ok());
  EXPECT_FALSE(ParamsOf(options)->partial_iteration);  // a refused value changes nothing
}

TEST(Settings, APlayerOnlySettingOfOldIsReachedBySetoption) {
  EngineOptions options;
  ASSERT_TRUE(options.Set("Noise", "0.01").ok());
  ASSERT_TRUE(options.Set("Throws", "sampled").ok());
  ASSERT_TRUE(options.Set("Trials", "50").ok());
  absl::StatusOr<SearchParams> params = ParamsOf(options);
  ASSERT_TRUE(params.ok());
  EXPECT_DOUBLE_EQ(params->noise, 0.01);
  EXPECT_FALSE(params->mcts_stratified);
  EXPECT_EQ(params->rollout_trials, 50);
}

TEST(Settings, ABadValueReadsTheSameAtSetoptionAndInAPlayer) {
  const std::string words = "noise must be a number 0..1, not '2'";
  EngineOptions options;
  absl::Status text = options.Set("Noise", "2");
  EXPECT_NE(text.message().find(words), std::string::npos) << text;
  absl::StatusOr<std::unique_ptr<Player>> player = MakePlayer("expert,noise=2", Rules(), 1);
  ASSERT_FALSE(player.ok());
  EXPECT_NE(player.status().message().find(words), std::string::npos) << player.status();
}

TEST(Settings, DeepFilterSetsTheTimedIterationsFilter) {
  EngineOptions options;
  ASSERT_TRUE(options.Set("DeepFilter", "3").ok());
  ASSERT_TRUE(options.Set("deep_filter_margin", "0.02").ok());
  EXPECT_EQ(ParamsOf(options)->deep_filter_width, 3);
  EXPECT_EQ(ParamsOf(options)->deep_filter_margin, 0.02);
  EXPECT_FALSE(options.Set("DeepFilter", "-1").ok());
  EXPECT_FALSE(options.Set("DeepFilterMargin", "2").ok());
  EXPECT_EQ(ParamsOf(options)->deep_filter_width, 3);
  EXPECT_EQ(ParamsOf(options)->deep_filter_margin, 0.02);
}

TEST(Settings, FilterMarginOverridesTheLevelsUntilSetBackToLevel) {
  EngineOptions options;
  ASSERT_TRUE(options.Set("FilterMargin", "0.01").ok());
  EXPECT_EQ(ParamsOf(options)->filter_margin, 0.01);
  EXPECT_FALSE(options.Set("FilterMargin", "1.5").ok());
  EXPECT_EQ(ParamsOf(options)->filter_margin, 0.01);
  ASSERT_TRUE(options.Set("filter_margin", "level").ok());
  SearchParams level;
  ASSERT_TRUE(ApplyLevel(kDefaultLevel, &level).ok());
  EXPECT_EQ(ParamsOf(options)->filter_margin, level.filter_margin);
}

TEST(Settings, ABadValueChangesNothing) {
  EngineOptions options;
  ASSERT_TRUE(options.Set("Filter", "3").ok());
  EXPECT_FALSE(options.Set("Filter", "-1").ok());
  EXPECT_FALSE(options.Set("Exploration", "nan").ok());
  EXPECT_EQ(options.filter, 3);
  EXPECT_FALSE(options.exploration.has_value());
}

TEST(Settings, APlayerTakesItsLimitsThroughTheOneLimitsReader) {
  absl::StatusOr<std::unique_ptr<Player>> player = MakePlayer("expert,depth=65", Rules(), 1);
  ASSERT_FALSE(player.ok());
  EXPECT_NE(player.status().message().find("depth must be 1..64, not 65"), std::string::npos)
      << player.status();
}

TEST(Settings, APlayersLevelIsItsName) {
  absl::StatusOr<std::unique_ptr<Player>> player = MakePlayer("expert,level=casual", Rules(), 1);
  ASSERT_FALSE(player.ok());
  EXPECT_NE(player.status().message().find("its name"), std::string::npos) << player.status();
}

}  // namespace
}  // namespace uckers::testing
