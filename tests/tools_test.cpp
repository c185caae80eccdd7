// Records, analysis, match and ladder statistics, and an end-to-end ladder
// with an external engine process and a remote gRPC player.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "eval/evaluate.h"
#include "eval/net.h"
#include "google/protobuf/util/json_util.h"
#include "match/player.h"
#include "match/progress.h"
#include "rules/dice_sequence.h"
#include "search/expectimax.h"
#include "search/tt.h"
#ifdef UCKERS_HAVE_GRPC
#include "server/server.h"
#endif
#include "ladder/ladder.h"
#include "ladder/ratings.h"
#include "match/match.h"
#include "match/multi_side_match.h"
#include "match/play_game.h"
#include "match/stats.h"
#include "record/text.h"
#include "review/review.h"
#include "tests/endgame_file.h"
#include "tests/random_game.h"
#include "tests/test_util.h"
#include "tune/spsa.h"
#include "wire/record.h"

namespace uckers::testing {
namespace {

TEST(Spsa, WeightStartsAtItsDefaultOrAtAGivenValue) {
  absl::StatusOr<SpsaWeight> lane = ParseSpsaWeight("lane_pips");
  ASSERT_TRUE(lane.ok());
  EXPECT_EQ(lane->value, kDefaultWeights.lane_pips);
  EXPECT_DOUBLE_EQ(lane->c, 0.2 * kDefaultWeights.lane_pips);
  absl::StatusOr<SpsaWeight> entry = ParseSpsaWeight("eval.entry_pips=23.5");
  ASSERT_TRUE(entry.ok());
  EXPECT_EQ(entry->name, "entry_pips");
  EXPECT_EQ(entry->value, 23.5);
  EXPECT_DOUBLE_EQ(entry->c, 0.2 * kDefaultWeights.entry_pips);
}

TEST(Spsa, UnknownWeightOrBadStartIsRefusedByName) {
  for (const char* item : {"no_such", "eval.lane_pips=-1", "lane_pips=x", "block_lookahead"}) {
    absl::StatusOr<SpsaWeight> w = ParseSpsaWeight(item);
    ASSERT_FALSE(w.ok()) << item;
    EXPECT_TRUE(absl::StrContains(w.status().message(), item)) << w.status();
  }
}

// theta += gain * c * delta * result, and never below zero.
TEST(Spsa, UpdateMovesAlongThePerturbationByTheResult) {
  std::vector<SpsaWeight> theta = {{"a", 10, 2}, {"b", 0.1, 1}};
  SpsaUpdate(theta, {+1, -1}, 0.5, 0.2);
  EXPECT_DOUBLE_EQ(theta[0].value, 10 + 0.5 * 2 * 0.2);
  EXPECT_DOUBLE_EQ(theta[1].value, 0.0);  // 0.1 - 0.1 clamped at 0
  SpsaUpdate(theta, {+1, +1}, 0.5, -0.2);
  EXPECT_DOUBLE_EQ(theta[0].value, 10.0);
}

TEST(Spsa, GainStartsAtAFifthAndDecays) {
  EXPECT_NEAR(SpsaGain(0, 1000), 0.2 * std::pow(100.0 / 101.0, 0.602), 1e-12);
  for (int k = 1; k < 1000; ++k) EXPECT_LT(SpsaGain(k, 1000), SpsaGain(k - 1, 1000));
  EXPECT_GT(SpsaGain(0, 1), 0.0);
}

TEST(Spsa, SettingsAreMatchPlayerSettings) {
  std::vector<SpsaWeight> theta = {{"lane_pips", 4, 0.8}, {"blob_pips", 3, 0.6}};
  EXPECT_EQ(SpsaSettings(theta), "eval.lane_pips=4,eval.blob_pips=3");
  EXPECT_EQ(SpsaSettings(theta, {0.8, -3.6}), "eval.lane_pips=4.8,eval.blob_pips=0");
}

// Two iterations of one pair at the fastest level: runs, prints, and keeps
// every weight within its steps of the start.
TEST(Spsa, ShortRunPrintsSettingsAndStaysNearTheStart) {
  SpsaConfig config;
  config.theta = {*ParseSpsaWeight("lane_pips"), *ParseSpsaWeight("tempo_pips")};
  config.iterations = 2;
  config.pairs = 1;
  config.level = "beginner";
  FILE* out = std::tmpfile();
  absl::StatusOr<std::vector<SpsaWeight>> tuned = RunSpsa(config, out);
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  std::rewind(out);
  char line[512] = {};
  ASSERT_NE(std::fgets(line, sizeof line, out), nullptr);
  std::fclose(out);
  EXPECT_TRUE(absl::StartsWith(line, "settings: eval.lane_pips=")) << line;
  for (size_t i = 0; i < tuned->size(); ++i) {
    EXPECT_LE(std::abs((*tuned)[i].value - config.theta[i].value), 2 * 0.2 * config.theta[i].c);
  }
}

// By hand: 400 log10(3) for a 3-of-4 score.
TEST(Stats, EloOfAThreeQuarterScore) {
  EXPECT_NEAR(EloFromScore(0.75), 190.8485, 1e-3);
  EXPECT_NEAR(EloFromScore(0.5), 0.0, 1e-12);
  EXPECT_NEAR(EloFromScore(0.25), -190.8485, 1e-3);
}

// Pairs 1, 1, 0.5, 0: mean 0.625, sample sd 0.4787, se 0.2394,
// interval 0.625 +- 0.4691, scores 0.1559 .. 1 (clamped to +1000 Elo).
TEST(Stats, PairIntervalFromThePairsOwnVariance) {
  EloEstimate e = EloFromPairs({1, 1, 0.5, 0});
  EXPECT_NEAR(e.elo, EloFromScore(0.625), 1e-9);
  EXPECT_NEAR(e.elo, 88.7395, 1e-3);  // 400 log10(0.625 / 0.375)
  EXPECT_NEAR(
      e.low,
      EloFromScore(0.625 - 1.959964 * std::sqrt((0.140625 * 2 + 0.015625 + 0.390625) / 3 / 4)),
      1e-2);
  EXPECT_DOUBLE_EQ(e.high, 1000.0);
}

// Scores 0.5 + 0.4 luck exactly: the slope is 0.4 and every adjusted score
// 0.5. Luck that tells nothing of the scores (here: uncorrelated by
// construction) is not taken out.
TEST(Stats, LuckAdjustmentTakesOutTheFittedMultipleOfTheLuck) {
  std::vector<double> luck = {-0.3, 0.1, 0.4, -0.2, 0.0};
  std::vector<double> scores;
  for (double l : luck) scores.push_back(0.5 + 0.4 * l);
  LuckAdjusted a = AdjustForLuck(scores, luck);
  EXPECT_NEAR(a.slope, 0.4, 1e-12);
  for (double s : a.scores) EXPECT_NEAR(s, 0.5, 1e-12);
  LuckAdjusted none = AdjustForLuck({1, 0, 1, 0}, {0.1, 0.1, -0.1, -0.1});
  EXPECT_NEAR(none.slope, 0.0, 1e-12);
  EXPECT_EQ(none.scores, (std::vector<double>{1, 0, 1, 0}));
  EXPECT_EQ(AdjustForLuck({1}, {0.3}).slope, 0);  // one pair: nothing to fit
}

// Two players, 3 wins of 4: Elo 400 log10 3 = 190.85; Fisher information
// 4 * 0.75 * 0.25 = 0.75 per nat^2, so the 95 % half-width is
// 1.96 * sqrt(1/0.75) * 400 / ln 10 = 393.15.
TEST(Ratings, TwoPlayersThreeWinsOfFour) {
  std::vector<EloRating> r = MaximumLikelihoodElo({{0, 1}, {3, 0}});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_DOUBLE_EQ(r[0].elo, 0.0);
  EXPECT_NEAR(r[1].elo, 190.8485, 1e-3);
  EXPECT_NEAR(r[1].high - r[1].elo, 393.1532, 1e-2);
  EXPECT_NEAR(r[1].elo - r[1].low, 393.1532, 1e-2);
}

// A beats B 3-1, B beats C 3-1, A beats C 9-1 is not consistent; take a
// consistent table instead: with equal results everywhere, all equal.
TEST(Ratings, EvenResultsGiveEqualRatings) {
  std::vector<EloRating> r = MaximumLikelihoodElo({{0, 5, 5}, {5, 0, 5}, {5, 5, 0}});
  for (const EloRating& e : r) EXPECT_NEAR(e.elo, 0.0, 1e-9);
}

// A chain A > B > C by 3 of 4 each, and A-C unplayed: the likelihood puts
// B at -190.85 and C at -381.70 relative to A.
TEST(Ratings, ChainOfResultsAddsUp) {
  std::vector<EloRating> r = MaximumLikelihoodElo({{0, 3, 0}, {1, 0, 3}, {0, 1, 0}});
  EXPECT_NEAR(r[1].elo, -190.8485, 1e-3);
  EXPECT_NEAR(r[2].elo, -381.6970, 1e-3);
}

// Pairs 1, 1, .5, 0, 1, .5: mean 2/3, variance 0.138889; s0 = 0.5,
// s1 = 1/(1+10^(-10/400)) = 0.514387; LLR = 6 (s1-s0)(2 mean - s0 - s1) /
// (2 var) = 0.099117.
TEST(Sprt, LogLikelihoodRatioByHand) {
  EXPECT_NEAR(SprtLlr({1, 1, 0.5, 0, 1, 0.5}, 0, 10), 0.0991167, 1e-6);
}

TEST(Sprt, BoundsForFivePercentErrors) {
  EXPECT_NEAR(SprtLowerBound(0.05, 0.05), -2.944439, 1e-6);
  EXPECT_NEAR(SprtUpperBound(0.05, 0.05), 2.944439, 1e-6);
}

constexpr const char* kRecord =
    "[Rules \"navy\"]\n[RY \"a\"]\n[GB \"b\"]\n[Seed \"7\"]\n[Result \"*\"]\n\n"
    "63:rb-0,r0-3 41:r3-8 52:- 11:- 66:bb-0,bb-0\n";

TEST(Records, TextRoundTripsAndJsonToo) {
  absl::StatusOr<Record> r = wire::ParseRecord(kRecord);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->game.items().size(), 5u);
  EXPECT_EQ(r->seed, 7u);
  absl::StatusOr<Record> again = wire::ParseRecord(RecordToText(*r));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(wire::ToMessage(*again).SerializeAsString(), wire::ToMessage(*r).SerializeAsString());
  absl::StatusOr<Record> json = wire::ParseRecord(wire::RecordToJson(*r));
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(wire::ToMessage(*json).SerializeAsString(), wire::ToMessage(*r).SerializeAsString());
}

TEST(Records, IllegalItemIsRefusedWithItsNumber) {
  absl::StatusOr<Record> r = wire::ParseRecord("63:rb-0,r0-3 41:r3-9\n");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), "item 2 '41:r3-9'")) << r.status();
}

TEST(Records, TruncatedRecordIsRefused) {
  absl::StatusOr<Record> r = wire::ParseRecord("[Result \"RY 1\"]\n63:rb-0,r0-3\n");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), "truncated")) << r.status();
}

TEST(Records, MalformedHeaderAndItemAreRefused) {
  EXPECT_FALSE(wire::ParseRecord("[Result \"RY 4\"]\n").ok());
  EXPECT_FALSE(wire::ParseRecord("[Seed \"x\"]\n").ok());
  EXPECT_FALSE(wire::ParseRecord("63rb-0\n").ok());
  EXPECT_FALSE(wire::ParseRecord("[Rules \"army\"]\n").ok());
}

// A random game under mess until it has made a stack (RULES.md §9), as
// `<throw>:<play>` items, and the position it reached.
std::string StackedMessGame(Position* reached) {
  Rules mess = R("mess");
  std::mt19937_64 rng(5);
  Position pos = Position::Start(mess);
  std::string items;
  for (int step = 0; step < 2000 && pos.stack_order() == 0; ++step) {
    Throw t;
    Play play;
    if (!RandomStep(pos, mess, rng, &t, &play)) break;
    absl::StrAppend(&items, ThrowToString(t), ":", PlayToString(play), " ");
  }
  *reached = pos;
  return items;
}

// docs/records.md: a record carries the full switch list beside the
// ruleset's name, and is replayed by those switches.
TEST(Records, RecordCarriesItsSwitchesAndReplaysByThem) {
  GameResult game;
  game.game = Game(R("mess"));
  Record record = RecordOf(game, "a", "b", 1);
  EXPECT_EQ(record.rules, "mess");
  EXPECT_EQ(record.switches,
            "navy+blob_on_blob+snake_eyes+no_partner_pipe_moves+mixie_stack+superblob");
  Position reached;
  std::string items = StackedMessGame(&reached);
  ASSERT_NE(reached.stack_order(), 0);
  absl::StatusOr<Record> r = wire::ParseRecord(absl::StrCat(
      "[Rules \"mess\"]\n[Switches \"", R("mess").SwitchList(), "\"]\n\n", items, "\n"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(absl::StrContains(RecordToText(*r), "[Switches \"navy+blob_on_blob+"));
  const Position& replayed = r->game.position();
  EXPECT_EQ(ToUfen(replayed), ToUfen(reached));
  // Recorded switches win over the name: the same 1-1 under "navy" moves
  // nothing, under mess (snake eyes) it brings red out.
  absl::StatusOr<Record> navy = wire::ParseRecord("[Rules \"mess\"]\n[Switches \"navy\"]\n11:-\n");
  ASSERT_TRUE(navy.ok()) << navy.status();
  EXPECT_EQ(ToUfen(navy->game.position()), "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// docs/records.md: a record naming only a preset is read by the preset's
// meaning today (mess with mixie_stack: the stacks come back).
TEST(Records, OlderRecordNamingOnlyAPresetIsReadByTodaysMeaning) {
  Position reached;
  std::string items = StackedMessGame(&reached);
  absl::StatusOr<Record> r = wire::ParseRecord(absl::StrCat("[Rules \"mess\"]\n\n", items));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->game.position(), reached);
}

// docs/records.md: a replay that fails says which switches it was read with.
TEST(Records, FailedReplayNamesTheSwitchesItWasReadWith) {
  absl::StatusOr<Record> r = wire::ParseRecord("[Rules \"mess\"]\n66:rb-0,rb-0 41:r0-9\n");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(
      r.status().message(),
      "(read with rules "
      "navy+blob_on_blob+snake_eyes+no_partner_pipe_moves+mixie_stack+superblob)"))
      << r.status();
}

// Red can knock off Green's last piece, two steps from home, with its 6-6;
// the play made runs a piece into the lane instead.
TEST(Analysis, FlagsAKnownBlunderAsVeryBad) {
  absl::StatusOr<Record> r =
      wire::ParseRecord("[Start \"3,40,h,h/h,h,h,48/h,h,h,h/h,h,h,h r -\"]\n66:r40-52\n");
  ASSERT_TRUE(r.ok()) << r.status();
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> a = AnalyseGame(*r, "", stop);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->items.size(), 1u);
  EXPECT_EQ(a->items[0].best_play, "r3-9,r40-46");
  EXPECT_EQ(a->items[0].mark, Mark::kVeryBad);
  EXPECT_GE(a->items[0].equity_lost, kVeryBad);
  EXPECT_EQ(a->teams[0].very_bad, 1);
  EXPECT_EQ(a->teams[0].rating, "Beginner");
  EXPECT_TRUE(absl::StrContains(AnalysisToSvg(*a), "<circle"));
}

// With an endgame table, the plays of a covered position are
// valued exactly and the item says so. Red's two pieces (on 30 and 53)
// against green's last: 2-1 can take 53 home (the only winning chance
// kept), or run 30 on.
TEST(Analysis, CoveredPositionsAreValuedExactlyWithATable) {
  absl::StatusOr<Record> r =
      wire::ParseRecord("[Start \"30,53,h,h/40,h,h,h/h,h,h,h/h,h,h,h r pyb\"]\n21:r30-33\n");
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<EndgameTable> table = EndgameTable::Load(NavyOneAgainstTwoFile(), Rules{});
  ASSERT_TRUE(table.ok()) << table.status();
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> exact = AnalyseGame(*r, "", stop, nullptr, &*table);
  ASSERT_TRUE(exact.ok()) << exact.status();
  ASSERT_EQ(exact->items.size(), 1u);
  const AnalysedItem& item = exact->items[0];
  EXPECT_TRUE(item.choice);
  EXPECT_TRUE(item.exact);
  std::optional<EndgameChoice> best = table->BestPlay(
      *ParseUfen("30,53,h,h/40,h,h,h/h,h,h,h/h,h,h,h r pyb", Rules{}), Rules{}, Throw{2, 1});
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(item.best_play, PlayToString(best->play));
  absl::StatusOr<GameAnalysis> searched = AnalyseGame(*r, "", stop);
  ASSERT_TRUE(searched.ok());
  EXPECT_FALSE(searched->items[0].exact);
  EXPECT_NE(AnalysisToText(*exact).find("exact"), std::string::npos);
}

// Each marked decision is shown in full: who made it, the
// position (board and UFEN), the throw, the play and the best plays with
// their equities and differences.
TEST(Analysis, TheReportShowsEachMarkedDecisionInFull) {
  absl::StatusOr<Record> r =
      wire::ParseRecord("[Start \"3,40,h,h/h,h,h,48/h,h,h,h/h,h,h,h r -\"]\n66:r40-52\n");
  ASSERT_TRUE(r.ok()) << r.status();
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> a = AnalyseGame(*r, "", stop);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->items[0].colour, "Red");
  EXPECT_EQ(a->items[0].ufen, "3,40,h,h/48,h,h,h/h,h,h,h/h,h,h,h r -");
  ASSERT_GE(a->items[0].candidates.size(), 2u);
  EXPECT_EQ(a->items[0].candidates[0].play, "r3-9,r40-46");
  std::string text = AnalysisToText(*a);
  EXPECT_TRUE(absl::StrContains(text, "#1 ?? Red (team RY) threw 66 and played r40-52: very bad"))
      << text;
  EXPECT_TRUE(absl::StrContains(text, "ufen 3,40,h,h/48,h,h,h/h,h,h,h/h,h,h,h r -")) << text;
  EXPECT_TRUE(absl::StrContains(text, "  1. r3-9,r40-46")) << text;
  EXPECT_TRUE(absl::StrContains(text, "(1.000 errors a decision)")) << text;
}

TEST(Analysis, TheBestPlayIsNotMarked) {
  absl::StatusOr<Record> r =
      wire::ParseRecord("[Start \"3,40,h,h/h,h,h,48/h,h,h,h/h,h,h,h r -\"]\n66:r3-9,r40-46\n");
  ASSERT_TRUE(r.ok());
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> a = AnalyseGame(*r, "", stop);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->items[0].mark, Mark::kNone);
  EXPECT_NEAR(a->items[0].equity_lost, 0.0, 1e-9);
}

// The bands as measured (docs/analysis.md): each level's
// error rate reviewed at grandmaster falls in its own band.
TEST(Analysis, RatingBandsPutEachLevelsMeasuredErrorRateInItsOwnBand) {
  EXPECT_EQ(RatingFor(0.0), "World class");      // grandmaster, the analysis level
  EXPECT_EQ(RatingFor(0.0006), "Expert");        // expert
  EXPECT_EQ(RatingFor(0.0029), "Advanced");      // advanced
  EXPECT_EQ(RatingFor(0.0038), "Intermediate");  // intermediate
  EXPECT_EQ(RatingFor(0.0103), "Casual");        // casual
  EXPECT_EQ(RatingFor(0.0177), "Beginner");      // beginner
  EXPECT_EQ(RatingFor(0.0215), "Beginner");      // random
  EXPECT_EQ(RatingFor(0.0297), "Beginner");      // greedy
}

// A game under `rules` after `throws` random plays on the dice of `seed`.
Game RandomlyPlayed(const Rules& rules, int throws, uint64_t seed) {
  Game game(rules);
  DiceSequence dice(seed);
  std::mt19937_64 rng(seed);
  PlayList plays;
  for (int n = 0; n < throws && !game.IsOver(); ++n) {
    Throw t = dice.Next();
    GenerateLegalPlays(game.position(), rules, t, &plays);
    game.Play(t, plays[rng() % plays.size()]);
  }
  return game;
}

// Each side's luck at the next throw, for each of the 21 throws, averaged
// as the dice throw them, is zero: the luck-adjusted result has the
// result's expectation. Some throw's luck is not.
void ExpectLuckOfAThrowAveragesToZero(const Rules& rules, int depth = 0) {
  Game game = RandomlyPlayed(rules, 30, 11);
  ASSERT_FALSE(game.IsOver());
  std::vector<double> before = WinLuckBySide(game, depth);
  ASSERT_EQ(static_cast<int>(before.size()), rules.layout().num_sides);
  std::vector<double> mean(before.size(), 0.0);
  double largest = 0;
  PlayList plays;
  for (Throw t : kThrows) {
    Game next = game;
    GenerateLegalPlays(next.position(), rules, t, &plays);
    next.Play(t, plays[0]);
    std::vector<double> after = WinLuckBySide(next, depth);
    for (size_t s = 0; s < mean.size(); ++s) {
      mean[s] += t.Weight() / 36.0 * (after[s] - before[s]);
      largest = std::max(largest, std::abs(after[s] - before[s]));
    }
  }
  for (double m : mean) EXPECT_NEAR(m, 0.0, 1e-9);
  EXPECT_GT(largest, 1e-4);
}

TEST(Luck, OfAThrowAveragesToZeroOverTheThrowsWithTwoTeams) {
  ExpectLuckOfAThrowAveragesToZero(Rules());
}

TEST(Luck, OfAThrowAveragesToZeroOverTheThrowsWithThreeTeams) {  // RULES.md §11
  absl::StatusOr<Rules> six = Rules::Parse("six");
  ASSERT_TRUE(six.ok());
  ExpectLuckOfAThrowAveragesToZero(*six);
}

TEST(Luck, OneThrowDeeperAveragesToZeroOverTheThrowsWithTwoTeams) {
  ExpectLuckOfAThrowAveragesToZero(Rules(), 1);
}

TEST(Luck, OneThrowDeeperAveragesToZeroOverTheThrowsWithThreeTeams) {  // RULES.md §11
  absl::StatusOr<Rules> six = Rules::Parse("six");
  ASSERT_TRUE(six.ok());
  ExpectLuckOfAThrowAveragesToZero(*six, 1);
}

// One throw deeper, a throw's luck for the thrower is the search's
// one-throw value (expectimax at depth 1 by the net) of the actual throw's
// best play, less that value's mean over the 21 throws; each throw's best
// play is the one with the best static value.
TEST(Luck, OneThrowDeeperIsTheSearchsOneThrowValueOfTheBestPlay) {
  Rules rules;
  Game game = RandomlyPlayed(rules, 30, 11);
  const Position& pos = game.position();
  const int team = TeamOf(pos.to_throw());
  SearchParams params;
  params.net = NetFor(rules);
  ASSERT_NE(params.net, nullptr);
  std::atomic<bool> never{false};
  Limiter unlimited(never, std::nullopt, std::nullopt);
  TranspositionTable tt(1);
  Expectimax search(rules, params, &tt, &unlimited);
  const Throw actual = kThrows[7];
  double mean = 0, of_actual = 0;
  PlayList plays;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, rules, t, &plays);
    const Position* best = nullptr;
    double best_win = -1;
    for (const PlayResult& r : plays) {
      Evaluation e =
          r.after.IsGameOver() ? Evaluate(r.after, rules) : params.net->Evaluate(r.after);
      double win = TeamOf(r.after.to_throw()) == team ? e.Win() : 1 - e.Win();
      if (win > best_win) best_win = win, best = &r.after;
    }
    double v = best->IsGameOver() ? best_win : search.Chance(*best, 1, 0.0, 1.0, nullptr);
    if (!best->IsGameOver() && TeamOf(best->to_throw()) != team) v = 1 - v;
    mean += t.Weight() / 36.0 * v;
    if (t == actual) of_actual = v;
  }
  Game next = game;
  GenerateLegalPlays(pos, rules, actual, &plays);
  next.Play(actual, plays[0]);
  double ry_luck = WinLuckBySide(next, 1)[0] - WinLuckBySide(game, 1)[0];
  double expected = (team == 0 ? 1 : -1) * (of_actual - mean);
  EXPECT_NEAR(ry_luck, expected, 1e-9);
  EXPECT_GT(std::abs(expected), 1e-4);
  EXPECT_NE(WinLuckBySide(next, 1)[0], WinLuckBySide(next, 0)[0]);
}

TEST(Luck, OfOneTeamIsTheOthersLossWithTwoTeams) {
  std::vector<double> luck = WinLuckBySide(RandomlyPlayed(Rules(), 60, 12));
  ASSERT_EQ(luck.size(), 2u);
  EXPECT_NE(luck[0], 0);
  EXPECT_DOUBLE_EQ(luck[0], -luck[1]);
}

// A match of `pairs` pairs from `seed` without a progress line.
MatchConfig QuietMatch(const std::string& a, const std::string& b, int pairs, uint64_t seed) {
  MatchConfig config;
  config.player_a = a;
  config.player_b = b;
  config.pairs = pairs;
  config.seed = seed;
  config.progress = false;
  return config;
}

TEST(Match, LuckOneThrowDeeperIsReportedAndKeepsTheGames) {
  MatchConfig config = QuietMatch("advanced", "greedy", 6, 7);
  config.luck = true;
  config.luck_depth = 1;
  absl::StatusOr<v1::MatchReport> deep = RunMatch(config);
  ASSERT_TRUE(deep.ok()) << deep.status();
  EXPECT_EQ(deep->luck_depth(), 1);
  config.luck_depth = 0;
  absl::StatusOr<v1::MatchReport> flat = RunMatch(config);
  ASSERT_TRUE(flat.ok()) << flat.status();
  EXPECT_EQ(flat->luck_depth(), 0);
  EXPECT_EQ(deep->a_wins(), flat->a_wins());
  EXPECT_NE(deep->a_luck_per_game(), flat->a_luck_per_game());
}

TEST(Match, LuckDepthIsRefusedWithoutLuckOrPastOne) {
  MatchConfig config;
  config.pairs = 1;
  config.progress = false;
  config.luck_depth = 1;
  EXPECT_TRUE(absl::IsInvalidArgument(RunMatch(config).status()));
  config.luck = true;
  config.luck_depth = 2;
  EXPECT_TRUE(absl::IsInvalidArgument(RunMatch(config).status()));
}

TEST(Match, LuckAdjustedResultHasANarrowerInterval) {
  MatchConfig config;
  config.player_a = "expert";
  config.player_b = "advanced";
  config.pairs = 30;
  config.seed = 7;
  config.concurrency = 2;
  config.progress = false;
  config.luck = true;
  absl::StatusOr<v1::MatchReport> r = RunMatch(config);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->luck_adjusted());
  EXPECT_LT(r->adjusted_elo_high() - r->adjusted_elo_low(), r->elo_high() - r->elo_low());
  EXPECT_LT(r->adjusted_a_win_rate_low(), r->adjusted_a_win_rate());
  EXPECT_GT(r->adjusted_a_win_rate_high(), r->adjusted_a_win_rate());
  config.luck = false;
  absl::StatusOr<v1::MatchReport> plain = RunMatch(config);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->luck_adjusted());
  EXPECT_EQ(plain->a_wins(), r->a_wins());
}

TEST(Match, ResumedMatchMeasuresTheSameLuckAsTheWholeOne) {
  std::string dir = ::testing::TempDir() + "uckers-luck-resume";
  std::filesystem::remove_all(dir);
  MatchConfig config;
  config.player_a = "intermediate";
  config.player_b = "greedy";
  config.pairs = 10;
  config.progress = false;
  config.luck = true;
  config.records_dir = dir;
  absl::StatusOr<v1::MatchReport> whole = RunMatch(config);
  config.resume = true;
  absl::StatusOr<v1::MatchReport> resumed = RunMatch(config);
  ASSERT_TRUE(whole.ok() && resumed.ok());
  EXPECT_EQ(resumed->pairs_resumed(), 10);
  EXPECT_NE(whole->a_luck_per_game(), 0);
  EXPECT_DOUBLE_EQ(resumed->a_luck_per_game(), whole->a_luck_per_game());
  EXPECT_DOUBLE_EQ(resumed->adjusted_elo(), whole->adjusted_elo());
  std::filesystem::remove_all(dir);
}

TEST(Match, LuckAdjustedShareUnderThreeTeamsHasANarrowerInterval) {  // RULES.md §11
  MultiSideMatchConfig config;
  absl::StatusOr<Rules> six = Rules::Parse("six");
  ASSERT_TRUE(six.ok());
  config.rules = *six;
  config.player_a = "greedy";
  config.player_b = "random";
  config.sequences = 12;
  config.seed = 7;
  config.progress = false;
  config.luck = true;
  absl::StatusOr<v1::MatchReport> r = RunMultiSideMatch(config);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->luck_adjusted());
  EXPECT_LT(r->adjusted_a_win_rate_high() - r->adjusted_a_win_rate_low(),
            r->a_win_rate_high() - r->a_win_rate_low());
}

TEST(Match, DuplicatePairsGiveTheSameReportAtAnyConcurrency) {
  MatchConfig config;
  config.player_a = "intermediate";
  config.player_b = "greedy";
  config.pairs = 6;
  config.progress = false;
  config.concurrency = 1;
  absl::StatusOr<v1::MatchReport> one = RunMatch(config);
  config.concurrency = 3;
  absl::StatusOr<v1::MatchReport> three = RunMatch(config);
  ASSERT_TRUE(one.ok() && three.ok());
  EXPECT_EQ(one->a_wins(), three->a_wins());
  EXPECT_EQ(one->games(), 12);
  EXPECT_EQ(one->a_wins() + one->b_wins(), 12);
}

TEST(Match, BadPlayerSpecificationIsRefused) {
  MatchConfig config;
  config.player_a = "wizard";
  config.progress = false;
  EXPECT_FALSE(RunMatch(config).ok());
  config.player_a = "expert,movetime=fast";
  EXPECT_FALSE(RunMatch(config).ok());
}

TEST(Match, PairsOrConcurrencyOutOfRangeAreRefusedByName) {
  MatchConfig config;
  config.player_a = "random";
  config.player_b = "random";
  config.progress = false;
  config.pairs = kMaxPairs + 1;  // would not fit in memory if it were taken
  absl::StatusOr<v1::MatchReport> report = RunMatch(config);
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(absl::StrContains(report.status().message(), "pairs")) << report.status();
  config.pairs = 1;
  config.concurrency = kMaxConcurrency + 1;
  report = RunMatch(config);
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(absl::StrContains(report.status().message(), "concurrency")) << report.status();
}

// docs/ladder.md "More sides": with two sides Luce's model is Bradley-Terry.
TEST(Ratings, LuceWithTwoSidesIsTheTwoPlayerModel) {
  // Player 0 alone against 1 won 3 of 4; 1 alone against 0 won 2 of 5.
  std::vector<EloRating> luce = LuceElo({{0, 4}, {5, 0}}, {{0, 3}, {2, 0}}, 2);
  std::vector<EloRating> bt = MaximumLikelihoodElo({{0, 3 + 3}, {1 + 2, 0}});
  ASSERT_EQ(luce.size(), 2u);
  EXPECT_NEAR(luce[1].elo, bt[1].elo, 1e-6);
  EXPECT_NEAR(luce[1].low, bt[1].low, 1e-6);
}

// Equal players alone against the other on two of three sides win the fair
// share, a third: rated equal.
TEST(Ratings, LuceRatesAFairShareAsEqual) {
  std::vector<EloRating> r = LuceElo({{0, 300}, {300, 0}}, {{0, 100}, {100, 0}}, 3);
  EXPECT_NEAR(r[1].elo, 0, 1e-6);
  EXPECT_LT(r[1].low, -10);
  EXPECT_GT(r[1].high, 10);
  // Winning half alone where a third is fair is ahead.
  r = LuceElo({{0, 300}, {300, 0}}, {{0, 150}, {100, 0}}, 3);
  EXPECT_LT(r[1].elo, -50);
}

// RULES.md §11: a ladder of more sides seats one player alone against the
// other in turn and rates them by Luce's model.
TEST(Ladder, MoreSidesSeatEachPlayerAloneAndRateThem) {
  LadderConfig ladder;
  ladder.players = {"random", "advanced"};
  ladder.rules = *Rules::Parse("six");
  ladder.pairs = 4;
  ladder.progress = false;
  absl::StatusOr<v1::LadderReport> report = RunLadder(ladder);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->sides(), 3);
  // 4 sequences x 3 seats, each player alone in turn.
  EXPECT_EQ(report->games(), 24);
  ASSERT_EQ(report->players_size(), 2);
  EXPECT_GT(report->players(1).elo(), report->players(0).elo());
  EXPECT_TRUE(absl::StrContains(LadderReportText(*report), "Luce")) << LadderReportText(*report);
  ladder.players = {"random", "cmd:./engine"};
  EXPECT_FALSE(RunLadder(ladder).ok());
}

TEST(Ladder, MorePairsInAllThanTheMaximumAreRefused) {
  LadderConfig ladder;
  // 15 matchups of a million pairs: more than the ten million a ladder may play.
  ladder.players = {"random", "greedy", "beginner", "casual", "intermediate", "expert"};
  ladder.pairs = kMaxPairs;
  ladder.progress = false;
  absl::StatusOr<v1::LadderReport> report = RunLadder(ladder);
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(absl::StrContains(report.status().message(), "pairs")) << report.status();
}

TEST(Ladder, SprtSettingsMustBeFiniteAndOrdered) {
  EXPECT_TRUE(ParseSprt("0,5,0.05,0.05").ok());
  for (const char* bad : {"nan,5,0.05,0.05", "-inf,inf,0.05,0.05", "0,5,nan,0.05", "0,5,0.05,nan",
                          "5,0,0.05,0.05", "0,5,0,0.05", "0,5,0.05", ""}) {
    EXPECT_FALSE(ParseSprt(bad).ok()) << bad;
  }
}

TEST(Records, ReadingADirectoryIsRefusedNamingIt) {
  absl::StatusOr<std::string> text = ReadTextFile(::testing::TempDir(), kMaxRecordBytes);
  ASSERT_FALSE(text.ok());
  EXPECT_TRUE(absl::StrContains(text.status().message(), "directory")) << text.status();
}

TEST(Records, ReadingAnEndlessFileStopsAtTheMaximum) {
  absl::StatusOr<std::string> text = ReadTextFile("/dev/zero", 1 << 20);
  ASSERT_FALSE(text.ok());
  EXPECT_TRUE(absl::StrContains(text.status().message(), "larger than 1 MiB")) << text.status();
}

TEST(Records, UnwritableOutputIsFoundUpFrontAndNoFileIsLeft) {
  std::string missing = absl::StrCat(::testing::TempDir(), "/no-such-dir-", getpid(), "/c.svg");
  EXPECT_FALSE(CheckWritable(missing).ok());
  EXPECT_FALSE(CheckWritable(::testing::TempDir()).ok());
  std::string fresh = absl::StrCat(::testing::TempDir(), "/fresh-", getpid(), ".svg");
  EXPECT_TRUE(CheckWritable(fresh).ok());
  EXPECT_FALSE(std::filesystem::exists(fresh));
}

// One pair of `spec` against random, quietly: for checking player settings.
absl::StatusOr<v1::MatchReport> OnePairAgainstRandom(const std::string& spec) {
  MatchConfig config;
  config.player_a = spec;
  config.player_b = "random";
  config.pairs = 1;
  config.progress = false;
  return RunMatch(config);
}

// MCTS's UCT constant is a player setting, in score units, 0..10.
TEST(Match, ExplorationSettingOutOfRangeIsRefused) {
  for (const char* bad :
       {"mcts,exploration=-0.1", "mcts,exploration=11", "mcts,exploration=wide"}) {
    absl::StatusOr<v1::MatchReport> report = OnePairAgainstRandom(bad);
    ASSERT_FALSE(report.ok()) << bad;
    EXPECT_TRUE(absl::StrContains(report.status().message(), "exploration")) << report.status();
  }
  EXPECT_TRUE(OnePairAgainstRandom("mcts,exploration=0.1,nodes=50").ok());
}

// MCTS's chance nodes take throws "stratified" (the default) or "sampled".
TEST(Match, ThrowsSettingOtherThanSampledOrStratifiedIsRefused) {
  absl::StatusOr<v1::MatchReport> report = OnePairAgainstRandom("mcts,throws=enumerated");
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(absl::StrContains(report.status().message(), "throws")) << report.status();
  EXPECT_TRUE(OnePairAgainstRandom("mcts,throws=sampled,nodes=50").ok());
}

TEST(Match, RecordsDirectoryIsCreatedBeforeTheFirstGame) {
  std::string dir = absl::StrCat(::testing::TempDir(), "/match-records-", getpid(), "/new");
  MatchConfig config;
  config.player_a = "random";
  config.player_b = "greedy";
  config.pairs = 1;
  config.progress = false;
  config.records_dir = dir;
  absl::StatusOr<v1::MatchReport> report = RunMatch(config);
  ASSERT_TRUE(report.ok()) << report.status();
  std::FILE* f = std::fopen(absl::StrCat(dir, "/pair-0-1.txt").c_str(), "r");
  EXPECT_NE(f, nullptr);
  if (f) std::fclose(f);
}

// --games_out writes one JSON line per game, each a GameLine.
std::vector<v1::GameLine> ReadGameLines(const std::string& path) {
  std::vector<v1::GameLine> lines;
  absl::StatusOr<std::string> text = ReadTextFile(path, 1 << 20);
  EXPECT_TRUE(text.ok()) << text.status();
  for (absl::string_view l : absl::StrSplit(text.value_or(""), '\n', absl::SkipEmpty())) {
    v1::GameLine line;
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(std::string(l), &line).ok()) << l;
    EXPECT_EQ(l.find('\r'), absl::string_view::npos);
    lines.push_back(line);
  }
  return lines;
}

// Two pairs of intermediate against greedy (seed 40), one JSON line a game
// written to `path`.
MatchConfig TwoPairsLoggedTo(const std::string& path) {
  MatchConfig config = QuietMatch("intermediate", "greedy", 2, 40);
  config.games_out = path;
  return config;
}

TEST(Match, GamesOutHasOneJsonLinePerGameWithItsResult) {
  std::string path = absl::StrCat(::testing::TempDir(), "/games-", getpid(), ".jsonl");
  absl::StatusOr<v1::MatchReport> report = RunMatch(TwoPairsLoggedTo(path));
  ASSERT_TRUE(report.ok()) << report.status();
  std::vector<v1::GameLine> lines = ReadGameLines(path);
  ASSERT_EQ(lines.size(), 4u);
  int a_wins = 0;
  for (const v1::GameLine& l : lines) {
    EXPECT_EQ(l.seed(), 40u + l.pair());
    EXPECT_EQ(l.ry(), l.game() == 1 ? "intermediate" : "greedy");
    EXPECT_EQ(l.end(), "play");
    EXPECT_GT(l.throws(), 20);
    EXPECT_GT(l.decisions_ry() + l.decisions_gb(), 0);
    EXPECT_TRUE(l.points() >= 1 && l.points() <= 3);
    a_wins += l.winner() == (l.game() == 1 ? "RY" : "GB");
  }
  EXPECT_EQ(a_wins, report->a_wins());
}

TEST(Match, GamesOutCarriesEachGamesLuckWithLuck) {
  std::string path = absl::StrCat(::testing::TempDir(), "/games-luck-", getpid(), ".jsonl");
  MatchConfig config = TwoPairsLoggedTo(path);
  config.luck = true;
  absl::StatusOr<v1::MatchReport> report = RunMatch(config);
  ASSERT_TRUE(report.ok()) << report.status();
  std::vector<v1::GameLine> lines = ReadGameLines(path);
  ASSERT_EQ(lines.size(), 4u);
  double a_luck = 0;
  for (const v1::GameLine& l : lines) {
    ASSERT_TRUE(l.has_luck_ry());
    a_luck += l.game() == 1 ? l.luck_ry() : -l.luck_ry();  // A plays RY in game 1
  }
  EXPECT_NEAR(a_luck / 4, report->a_luck_per_game(), 1e-12);
}

TEST(Ladder, GamesOutHasOneJsonLinePerGame) {
  std::string path = absl::StrCat(::testing::TempDir(), "/ladder-games-", getpid(), ".jsonl");
  LadderConfig config;
  config.players = {"random", "greedy", "beginner"};
  config.pairs = 1;
  config.progress = false;
  config.games_out = path;
  absl::StatusOr<v1::LadderReport> report = RunLadder(config);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(ReadGameLines(path).size(), 6u);  // 3 matchups, 1 pair each
}

// A directory that cannot be made (a file is in the way) is refused by name
// before any game is played, not after the whole match.
TEST(Match, RecordsDirectoryThatCannotBeMadeIsRefusedUpFront) {
  std::string file = absl::StrCat(::testing::TempDir(), "/match-records-file-", getpid());
  ASSERT_TRUE(WriteTextFile(file, "").ok());
  MatchConfig config;
  config.player_a = "expert";
  config.player_b = "expert";
  config.pairs = 1000;  // would take minutes if it were played
  config.progress = false;
  config.records_dir = absl::StrCat(file, "/sub");
  absl::StatusOr<v1::MatchReport> report = RunMatch(config);
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(absl::StrContains(report.status().message(), config.records_dir)) << report.status();
  LadderConfig ladder;
  ladder.players = {"expert", "grandmaster"};
  ladder.pairs = 1000;
  ladder.progress = false;
  ladder.records_dir = config.records_dir;
  EXPECT_FALSE(RunLadder(ladder).ok());
}

// A record that cannot be written mid-match (here a directory is in the way
// of one file, as a full disk would fail a write) is counted and named, and
// the match still reports every game instead of throwing the games away.
TEST(Match, RecordThatFailsToWriteIsCountedAndTheMatchStillReports) {
  std::string dir = absl::StrCat(::testing::TempDir(), "/match-unsaved-", getpid());
  ASSERT_TRUE(std::filesystem::create_directories(absl::StrCat(dir, "/pair-1-2.txt")));
  MatchConfig config;
  config.player_a = "random";
  config.player_b = "greedy";
  config.pairs = 3;
  config.progress = false;
  config.records_dir = dir;
  absl::StatusOr<v1::MatchReport> report = RunMatch(config);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->games(), 6);
  EXPECT_EQ(report->records_not_saved(), 1);
  EXPECT_TRUE(absl::StrContains(report->first_record_error(), "pair-1-2.txt"));
  EXPECT_TRUE(absl::StrContains(MatchReportText(*report), "records not saved: 1"));
  EXPECT_TRUE(std::filesystem::is_regular_file(absl::StrCat(dir, "/pair-2-2.txt")));
}

TEST(Ladder, RecordThatFailsToWriteIsCountedAndTheLadderStillReports) {
  std::string dir = absl::StrCat(::testing::TempDir(), "/ladder-unsaved-", getpid());
  ASSERT_TRUE(
      std::filesystem::create_directories(absl::StrCat(dir, "/0-random-vs-1-greedy-pair-0-1.txt")));
  LadderConfig config;
  config.players = {"random", "greedy"};
  config.pairs = 2;
  config.progress = false;
  config.records_dir = dir;
  absl::StatusOr<v1::LadderReport> report = RunLadder(config);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->games(), 4);
  EXPECT_EQ(report->records_not_saved(), 1);
  EXPECT_TRUE(absl::StrContains(LadderReportText(*report), "records not saved: 1"));
}

// The real binary as an external engine, driven a command at a time as fast
// as it answers, plays exactly as the built-in level: every pair is split
// one game each, and nothing is forfeited (a race once printed a bestmove
// twice, so the next answer was stale).
TEST(Match, ExternalEngineAnswersEveryPlayOnceAndPlaysLikeTheBuiltInLevel) {
  MatchConfig config;
  config.player_a = "advanced";
  config.player_b = absl::StrCat("cmd:", UCKERS_BINARY, ",depth=1");
  config.pairs = 40;
  config.progress = false;
  config.concurrency = 2;
  absl::StatusOr<v1::MatchReport> report = RunMatch(config);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->a_forfeits() + report->b_forfeits(), 0) << report->first_forfeit();
  EXPECT_EQ(report->pairs_by_a_wins(1), 40);
}

// End to end: the built-in level, the real binary as an external engine
// speaking PROTOCOL.md, and a gRPC endpoint on loopback.
#ifdef UCKERS_HAVE_GRPC  // needs the gRPC front
TEST(Ladder, ExternalEngineAndRemoteGrpcPlayerEndToEnd) {
  ServerConfig server_config;
  server_config.address = "127.0.0.1:0";
  auto server = Server::Start(server_config);
  ASSERT_TRUE(server.ok()) << server.status();
  LadderConfig config;
  config.players = {"intermediate", absl::StrCat("cmd:", UCKERS_BINARY, ",depth=1"),
                    absl::StrCat("grpc:127.0.0.1:", (*server)->port(), "@beginner,depth=1")};
  config.pairs = 2;
  config.concurrency = 2;
  config.progress = false;
  absl::StatusOr<v1::LadderReport> report = RunLadder(config);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->games(), 12);
  for (const v1::LadderPlayer& p : report->players()) EXPECT_EQ(p.games(), 8) << p.name();
  EXPECT_TRUE(absl::StrContains(LadderReportSvg(*report), "<svg"));
}
#endif  // UCKERS_HAVE_GRPC

// The same test on the same dice, once on the games won and once on their
// luck-adjusted results: both find the difference, the second in fewer
// pairs.
TEST(Ladder, LuckAdjustedSprtDecidesInFewerPairs) {
  LadderConfig config;
  config.players = {"advanced", "classic"};
  config.pairs = 3000;
  config.seed = 9;
  config.concurrency = 1;
  config.progress = false;
  config.sprt = SprtConfig{20, 60, 0.05, 0.05};
  absl::StatusOr<v1::LadderReport> plain = RunLadder(config);
  config.luck = true;
  absl::StatusOr<v1::LadderReport> adjusted = RunLadder(config);
  ASSERT_TRUE(plain.ok() && adjusted.ok());
  EXPECT_EQ(plain->sprt().result(), "H1 accepted");
  EXPECT_EQ(adjusted->sprt().result(), "H1 accepted");
  EXPECT_TRUE(adjusted->sprt().luck_adjusted());
  EXPECT_LT(adjusted->games(), plain->games());
  EXPECT_GE(adjusted->games(), 2 * kSprtMinPairs);
}

TEST(Ladder, LuckWithoutSprtIsRefused) {
  LadderConfig config;
  config.players = {"random", "greedy"};
  config.progress = false;
  config.luck = true;
  absl::StatusOr<v1::LadderReport> report = RunLadder(config);
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(report.status()));
  EXPECT_TRUE(absl::StrContains(report.status().message(), "--luck")) << report.status();
}

TEST(Ladder, SprtStopsOnAClearDifference) {
  LadderConfig config;
  config.players = {"intermediate", "random"};
  config.pairs = 400;
  config.progress = false;
  config.sprt = SprtConfig{0, 20, 0.05, 0.05};
  absl::StatusOr<v1::LadderReport> report = RunLadder(config);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->sprt().result(), "H1 accepted");
  EXPECT_LT(report->games(), 800);
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// A match game's dice are the seed's DiceSequence, throw by throw: the dice
// the RollDice call gives for that seed.
TEST(MatchDice, AGamesThrowsAreItsSeedsDiceSequence) {
  Rules rules;
  auto a = MakePlayer("random", rules, 1);
  auto b = MakePlayer("random", rules, 2);
  ASSERT_TRUE(a.ok() && b.ok());
  Player* players[2] = {a->get(), b->get()};
  GameResult game = PlayGame(players, rules, 4242);
  Record record = RecordOf(game, "random", "random", 4242);
  ASSERT_GT(record.game.items().size(), 50u);
  DiceSequence dice(4242);
  for (const PlayedThrow& item : record.game.items()) {
    Throw t = dice.Next();
    ASSERT_EQ(ThrowToString(item.dice), absl::StrCat(t.high, t.low));
  }
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// Into a log (not a terminal) progress is plain lines, one at
// each tenth of the work, never a carriage return.
TEST(Progress, IntoALogItIsPlainLinesAtEachTenth) {
  ::testing::internal::CaptureStderr();
  Progress progress(true, 100);
  progress.set_terminal(false);
  for (int done = 1; done <= 100; ++done) progress.Update(done, 2 * done, "");
  progress.Finish();
  std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.find('\r'), std::string::npos);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 10);
  EXPECT_NE(out.find("100/100 pairs, 200 games"), std::string::npos) << out;
}

TEST(Progress, OnATerminalItRedrawsOneLineWithTheTimeLeft) {
  ::testing::internal::CaptureStderr();
  Progress progress(true, 4);
  progress.set_terminal(true);
  for (int done = 1; done <= 4; ++done) progress.Update(done, 2 * done, "");
  progress.Finish();
  std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(out.begin(), out.end(), '\r'), 4);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1);
  EXPECT_NE(out.find(" s left"), std::string::npos) << out;
}

}  // namespace
}  // namespace uckers::testing
