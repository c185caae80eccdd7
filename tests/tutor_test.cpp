// The tutor's calls (Engine::Judge, Engine::MapThrows): the verdicts and the next
// throw's map, checked against the searches they stand for; the review's
// dice statistics.
#include <random>
#include <set>

#include "engine/coach.h"
#include "engine/engine.h"
#include "eval/terms.h"
#include "gtest/gtest.h"
#include "learn/term_fit.h"
#include "review/review.h"
#include "rules/checked.h"
#include "rules/dice_sequence.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/ufen.h"
#include "search/levels.h"
#include "tests/random_game.h"

namespace uckers::testing {
namespace {

// An engine of `rules` set to `pos`, its table 2 MiB.
std::unique_ptr<Engine> EngineAt(const Position& pos, const Rules& rules) {
  EngineOptions options;
  options.rules = rules;
  options.hash_mb = 2;
  auto engine = std::make_unique<Engine>(options);
  EXPECT_TRUE(engine->SetPosition(pos).ok());
  return engine;
}

absl::StatusOr<Judgement> JudgePlay(const Position& pos, const Rules& rules, Throw t,
                                    const std::string& play, const std::string& level,
                                    const std::atomic<bool>& stop) {
  return EngineAt(pos, rules)->Judge(t, play, level, stop);
}

absl::StatusOr<ThrowMap> MapThrows(const Position& pos, const Rules& rules,
                                   const std::string& level, const std::atomic<bool>& stop) {
  return EngineAt(pos, rules)->MapThrows(level, stop);
}

absl::StatusOr<SearchReport> Search(const Position& pos, const Rules& rules,
                                    const SearchRequest& request, const std::atomic<bool>& stop) {
  return EngineAt(pos, rules)->Search(request, stop);
}

// Mid-game positions of random navy games, none finished.
std::vector<Position> MidGamePositions(int count) {
  Rules rules;
  std::vector<Position> out;
  std::mt19937_64 rng(2026);
  while (static_cast<int>(out.size()) < count) {
    Position pos = Position::Start(rules);
    int steps = 20 + static_cast<int>(rng() % 120);
    bool alive = true;
    for (int i = 0; i < steps && alive; ++i) alive = RandomStep(pos, rules, rng);
    if (alive && !pos.IsGameOver()) out.push_back(pos);
  }
  return out;
}

// A throw with a choice of plays in `pos`, if any.
std::optional<Throw> ThrowWithChoice(const Position& pos, const Rules& rules) {
  for (Throw t : kThrows) {
    if (SortedLegalPlays(pos, rules, t).size() > 1) return t;
  }
  return std::nullopt;
}

TEST(Tutor, TheBestPlayLosesNothingAndIsUnmarked) {
  Rules rules;
  std::atomic<bool> stop{false};
  int judged = 0;
  for (const Position& pos : MidGamePositions(12)) {
    std::optional<Throw> t = ThrowWithChoice(pos, rules);
    if (!t) continue;
    absl::StatusOr<Judgement> first =
        JudgePlay(pos, rules, *t, PlayToString(SortedLegalPlays(pos, rules, *t)[0].play), "", stop);
    ASSERT_TRUE(first.ok()) << first.status();
    std::string best = PlayToString(first->candidates[0].play);
    absl::StatusOr<Judgement> j = JudgePlay(pos, rules, *t, best, "", stop);
    ASSERT_TRUE(j.ok()) << j.status();
    EXPECT_EQ(j->equity_lost, 0);
    EXPECT_EQ(j->mark, Mark::kNone);
    EXPECT_EQ(PlayToString(j->played.play), best);
    EXPECT_EQ(j->level, kTutorLevel);
    ++judged;
  }
  EXPECT_GE(judged, 8);
}

TEST(Tutor, AJudgedPlaysEquityIsTheSearchsValueOfThePositionItLeadsTo) {
  // At expert (two plies): each play's value is the search, one ply less
  // deep, of the position before the next throw, for the thrower.
  Rules rules;
  std::atomic<bool> stop{false};
  int compared = 0;
  for (const Position& pos : MidGamePositions(6)) {
    std::optional<Throw> t = ThrowWithChoice(pos, rules);
    if (!t) continue;
    std::vector<PlayResult> plays = SortedLegalPlays(pos, rules, *t);
    for (const PlayResult& p : plays) {
      absl::StatusOr<Judgement> j = JudgePlay(pos, rules, *t, PlayToString(p.play), "expert", stop);
      ASSERT_TRUE(j.ok()) << j.status();
      ASSERT_GE(j->depth, 2);
      if (p.after.IsGameOver()) continue;
      SearchRequest request;
      request.level = "expert";
      request.objective = Objective::kPoints;
      request.limits.depth = j->depth - 1;
      absl::StatusOr<SearchReport> after = Search(p.after, rules, request, stop);
      ASSERT_TRUE(after.ok()) << after.status();
      Evaluation e = after->eval;
      if (TeamOf(p.after.to_throw()) != TeamOf(pos.to_throw())) e = e.Flipped();
      EXPECT_NEAR(j->played.eval.Equity(), e.Equity(), 1e-9) << PlayToString(p.play);
      EXPECT_NEAR(j->played.eval.Win(), e.Win(), 1e-9);
      EXPECT_NEAR(j->equity_lost, j->candidates[0].eval.Equity() - e.Equity(), 1e-9);
      EXPECT_EQ(j->mark, MarkFor(j->equity_lost));
      ++compared;
    }
  }
  EXPECT_GE(compared, 10);
}

TEST(Tutor, TermsCountWhatAPlayLeavesOnTheBoard) {
  // From the start, 6-6 enters two red pieces as a blob on the doorstep
  // (RULES.md §2, §4): one blob made, two pieces out of base, none exposed.
  Rules rules;
  Position start = Position::Start(rules);
  absl::StatusOr<PlayResult> blob = ParsePlay("rb-0,rb-0", start, rules, MakeThrow(6, 6));
  ASSERT_TRUE(blob.ok()) << blob.status();
  PlayTerms t = TermsOf(start, *blob, rules);
  EXPECT_EQ(t.blobs_made, 1);
  EXPECT_EQ(t.blobs_broken, 0);
  EXPECT_EQ(t.entered, 2);
  EXPECT_EQ(t.home, 0);
  EXPECT_EQ(t.exposed, 0);
  EXPECT_EQ(t.hit_chance, 0);
  EXPECT_EQ(t.knocked_off, 0);
  EXPECT_LT(t.race_pips, t.opponent_race_pips);  // two pieces out of base
}

TEST(Tutor, AJudgedPlayNamesTheTermsInWhichItDiffersFromTheBest) {
  Rules rules;
  std::atomic<bool> stop{false};
  int explained = 0;
  for (const Position& pos : MidGamePositions(8)) {
    std::optional<Throw> t = ThrowWithChoice(pos, rules);
    if (!t) continue;
    for (const PlayResult& p : SortedLegalPlays(pos, rules, *t)) {
      absl::StatusOr<Judgement> j = JudgePlay(pos, rules, *t, PlayToString(p.play), "", stop);
      ASSERT_TRUE(j.ok()) << j.status();
      const Candidate& best = j->candidates[0];
      PlayTerms b = TermsOf(pos, {best.play, best.after}, rules);
      PlayTerms mine = TermsOf(pos, p, rules);
      if (p.after == best.after) {
        EXPECT_TRUE(j->differences.empty());
        continue;
      }
      std::vector<TermDifference> d = Differences(b, mine, pos.layout_id());
      ASSERT_EQ(j->differences.size(), d.size());
      for (size_t k = 0; k < d.size(); ++k) {
        EXPECT_EQ(j->differences[k].term, d[k].term);
        EXPECT_NE(j->differences[k].best, j->differences[k].play) << d[k].term;
      }
      // Two different positions differ in a term or leave the same counts.
      explained += !d.empty();
    }
  }
  EXPECT_GE(explained, 10);
}

// Red's blob on 22 with Green's pieces four and six behind it (RULES.md
// §4: a blob of one colour cannot be hit, a single piece can): with 2-1,
// splitting it leaves two pieces to Green's next throw, moving the piece
// on 35 leaves none.
constexpr const char* kBlobUnderFire = "b,22,22,35/b,b,3,5/b,b,b,b/b,b,b,b r -";

TEST(Tutor, AReasonAgainstAPlayThatLeavesPiecesEnPriseCostsItChanceToWin) {
  Rules rules;
  absl::StatusOr<Position> pos = ParseUfen(kBlobUnderFire, rules);
  ASSERT_TRUE(pos.ok()) << pos.status();
  std::atomic<bool> stop{false};
  absl::StatusOr<Judgement> j = JudgePlay(*pos, rules, MakeThrow(2, 1), "r22-23,r22-24", "", stop);
  ASSERT_TRUE(j.ok()) << j.status();
  // The engine prefers a play that keeps the blob.
  EXPECT_GT(j->equity_lost, 0.01);
  EXPECT_GT(j->candidates[0].eval.Win(), j->played.eval.Win());
  std::set<std::string> against;
  double total = 0;
  for (const TermDifference& d : j->differences) {
    total += d.win_chance;
    if (d.win_chance < 0) against.insert(d.term);
  }
  EXPECT_TRUE(against.count("exposed")) << "the pieces it leaves open";
  EXPECT_TRUE(against.count("hit_chance"));
  EXPECT_TRUE(against.count("blobs_broken"));
  EXPECT_LT(total, 0);
  // The piece most in danger: on 23, five squares in front of Green's 18.
  for (const TermDifference& d : j->differences) {
    EXPECT_EQ(d.colour, d.term == "hit_chance" ? 1 : -1) << d.term;
    EXPECT_EQ(d.squares, d.term == "hit_chance" ? 5 : 0) << d.term;
  }
}

TEST(Tutor, TheSafePlaysReasonsAgainstTheSplitFavourIt) {
  // The same terms seen from the split: against it the safe play gains.
  Rules rules;
  absl::StatusOr<Position> pos = ParseUfen(kBlobUnderFire, rules);
  ASSERT_TRUE(pos.ok()) << pos.status();
  absl::StatusOr<PlayResult> split = ParsePlay("r22-23,r22-24", *pos, rules, MakeThrow(2, 1));
  absl::StatusOr<PlayResult> safe = ParsePlay("r35-38", *pos, rules, MakeThrow(2, 1));
  ASSERT_TRUE(split.ok() && safe.ok());
  std::vector<TermDifference> d =
      Differences(TermsOf(*pos, *split, rules), TermsOf(*pos, *safe, rules), pos->layout_id());
  ASSERT_FALSE(d.empty());
  for (const TermDifference& t : d) {
    if (t.term == "exposed" || t.term == "hit_chance" || t.term == "blobs_broken") {
      EXPECT_GT(t.win_chance, 0) << t.term;
    }
  }
}

TEST(Tutor, AReasonsSizeIsItsChangeTimesTheLayoutsFittedChancePerUnit) {
  PlayTerms best, play;
  best.exposed = 0;
  play.exposed = 3;
  best.race_pips = 400;
  play.race_pips = 410;
  for (int l = 0; l < kNumLayouts; ++l) {
    LayoutId layout = static_cast<LayoutId>(l);
    const std::array<double, kNumTerms>& per_unit = TermWinChance(layout);
    std::vector<TermDifference> d = Differences(best, play, layout);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].term, "exposed");
    EXPECT_DOUBLE_EQ(d[0].win_chance, 3 * per_unit[0]);
    EXPECT_EQ(d[1].term, "race_pips");
    EXPECT_DOUBLE_EQ(d[1].win_chance, 10 * per_unit[6]);
    // Every layout's fit leaves a piece open to a hit against the mover.
    EXPECT_LT(per_unit[1], 0) << "hit_chance, layout " << l;
  }
}

TEST(Tutor, AShortFitFindsThatAPieceOpenToAHitCostsTheMoverChance) {
  // The sign the shipped table has (TermWinChance), from a fit of its own.
  absl::StatusOr<TermFit> fit = FitTermWinChance(Rules(), 30, 1, "expert");
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_GT(fit->pairs, 1000);
  EXPECT_GT(fit->r2, 0.1);
  EXPECT_LT(fit->per_unit[1], 0) << "hit_chance";
  EXPECT_LT(fit->per_unit[3], 0) << "blobs_broken";
  EXPECT_GT(fit->per_unit[4], 0) << "knocked_off";
  EXPECT_FALSE(FitTermWinChance(Rules(), 0, 1, "expert").ok());
  EXPECT_FALSE(FitTermWinChance(Rules(), 1, 1, "wizard").ok());
}

// RULES.md §11: the terms on the six-sided board and with every colour its
// own side. Every play of a throw with a choice is judged: each reason of
// a play that is not the best has its size, the term's change times the
// layout's fitted chance per unit, and the reasons of the plays the
// engine gives up add up, on average, against them.
void ExpectTermsOnLayout(const std::string& name) {
  absl::StatusOr<Rules> rules = Rules::Parse(name);
  ASSERT_TRUE(rules.ok()) << rules.status();
  std::atomic<bool> stop{false};
  int explained = 0, losing = 0;
  double against = 0;
  for (const Position& pos : SamplePositions(*rules, 16, 77)) {
    std::optional<Throw> t = ThrowWithChoice(pos, *rules);
    if (!t) continue;
    std::vector<PlayResult> plays = SortedLegalPlays(pos, *rules, *t);
    if (plays.size() > 8) plays.resize(8);
    for (const PlayResult& p : plays) {
      absl::StatusOr<Judgement> j =
          JudgePlay(pos, *rules, *t, PlayToString(p.play, pos.board()), "expert", stop);
      ASSERT_TRUE(j.ok()) << name << ": " << j.status();
      if (p.after == j->candidates[0].after) {
        EXPECT_TRUE(j->differences.empty()) << name;
        continue;
      }
      const Candidate& best = j->candidates[0];
      std::vector<TermDifference> d = Differences(TermsOf(pos, {best.play, best.after}, *rules),
                                                  TermsOf(pos, p, *rules), pos.layout_id());
      ASSERT_EQ(j->differences.size(), d.size()) << name;
      double total = 0;
      for (size_t k = 0; k < d.size(); ++k) {
        EXPECT_EQ(j->differences[k].term, d[k].term) << name;
        EXPECT_DOUBLE_EQ(j->differences[k].win_chance, d[k].win_chance) << name;
        total += d[k].win_chance;
      }
      explained += !d.empty();
      if (j->equity_lost > 0.005) {
        ++losing;
        against += total;
      }
    }
  }
  EXPECT_GE(explained, 5) << name;
  ASSERT_GT(losing, 0) << name;
  EXPECT_LT(against / losing, 0) << name << ": the reasons of a worse play are against it";
}

TEST(Tutor, TermsExplainPlaysOnTheSixSidedBoard) { ExpectTermsOnLayout("six"); }
TEST(Tutor, TermsExplainPlaysWhenEveryColourOfTheFourIsItsOwnSide) {
  ExpectTermsOnLayout("navy+solo");
}
TEST(Tutor, TermsExplainPlaysWhenEveryColourOfTheSixIsItsOwnSide) {
  ExpectTermsOnLayout("six+solo");
}
TEST(Tutor, TermsExplainPlaysWithTeamsOfThree) { ExpectTermsOnLayout("six+teams_of_three"); }

TEST(Tutor, OnEveryLayoutPiecesLeftOpenToTheNextMoverAreCounted) {
  // Red's blob on 22 split with 2-1, Green four and six behind (§4).
  for (const char* name : {"navy+solo", "six", "six+solo", "six+teams_of_three"}) {
    absl::StatusOr<Rules> rules = Rules::Parse(name);
    ASSERT_TRUE(rules.ok());
    std::string ufen = rules->layout().board.colours == 6
                           ? "b,22,22,35/b,b,3,5/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -"
                           : kBlobUnderFire;
    absl::StatusOr<Position> pos = ParseUfen(ufen, *rules);
    ASSERT_TRUE(pos.ok()) << name << ": " << pos.status();
    absl::StatusOr<PlayResult> split = ParsePlay("r22-23,r22-24", *pos, *rules, MakeThrow(2, 1));
    absl::StatusOr<PlayResult> safe = ParsePlay("r35-38", *pos, *rules, MakeThrow(2, 1));
    ASSERT_TRUE(split.ok() && safe.ok()) << name;
    PlayTerms open = TermsOf(*pos, *split, *rules), kept = TermsOf(*pos, *safe, *rules);
    EXPECT_EQ(open.exposed, 2) << name;
    EXPECT_NEAR(open.hit_chance, 19 / 36.0, 1e-9) << name;  // 4 or 5 with one die or both
    EXPECT_EQ(open.blobs_broken, 1) << name;
    EXPECT_EQ(open.threat_colour, 1) << name;  // Green, five squares behind
    EXPECT_EQ(open.threat_squares, 5) << name;
    EXPECT_EQ(kept.threat_colour, -1) << name;
    EXPECT_EQ(kept.exposed, 0) << name;
    EXPECT_EQ(kept.hit_chance, 0) << name;
    EXPECT_EQ(kept.entered, 3) << name;  // red's side: red's three out of base
  }
}

TEST(Tutor, AnIllegalPlayOrUnknownLevelIsRefusedByName) {
  Rules rules;
  Position start = Position::Start(rules);
  std::atomic<bool> stop{false};
  absl::Status s = JudgePlay(start, rules, MakeThrow(6, 6), "r9-15", "", stop).status();
  EXPECT_NE(s.message().find("play"), std::string::npos) << s;
  s = JudgePlay(start, rules, MakeThrow(6, 3), "rb-0,r0-3", "wizard", stop).status();
  EXPECT_NE(s.message().find("level"), std::string::npos) << s;
  s = MapThrows(start, rules, "wizard", stop).status();
  EXPECT_NE(s.message().find("level"), std::string::npos) << s;
}

TEST(ThrowMap, EachThrowIsThePerThrowSearchsBestPlayAndValue) {
  Rules rules;
  std::atomic<bool> stop{false};
  for (const Position& pos : MidGamePositions(3)) {
    for (const char* level : {"advanced", "expert"}) {
      absl::StatusOr<ThrowMap> map = MapThrows(pos, rules, level, stop);
      ASSERT_TRUE(map.ok()) << map.status();
      ASSERT_EQ(map->throws.size(), 21u);
      double total = 0;
      Evaluation mean;
      for (size_t k = 0; k < 21; ++k) {
        const ThrowMapEntry& e = map->throws[k];
        EXPECT_EQ(e.dice, kThrows[k]);
        EXPECT_DOUBLE_EQ(e.probability, kThrows[k].Weight() / 36.0);
        total += e.probability;
        mean.AddScaled(e.best.eval, e.probability);
        SearchRequest request;
        request.level = level;
        request.objective = Objective::kPoints;
        request.dice = e.dice;
        absl::StatusOr<SearchReport> r = Search(pos, rules, request, stop);
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_NEAR(e.best.eval.Equity(), r->candidates[0].eval.Equity(), 1e-9) << level;
        EXPECT_NEAR(e.best.eval.Win(), r->candidates[0].eval.Win(), 1e-9) << level;
        EXPECT_EQ(PlayToString(e.best.play), PlayToString(r->candidates[0].play)) << level;
      }
      EXPECT_NEAR(total, 1.0, 1e-12);
      EXPECT_NEAR(map->eval.Equity(), mean.Equity(), 1e-9);
    }
  }
}

TEST(ThrowMap, ItsMeanIsTheSearchsValueBeforeTheThrow) {
  Rules rules;
  std::atomic<bool> stop{false};
  for (const Position& pos : MidGamePositions(3)) {
    absl::StatusOr<ThrowMap> map = MapThrows(pos, rules, "", stop);
    ASSERT_TRUE(map.ok()) << map.status();
    SearchRequest request;
    request.level = kTutorLevel;
    request.objective = Objective::kPoints;
    absl::StatusOr<SearchReport> r = Search(pos, rules, request, stop);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_NEAR(map->eval.Equity(), r->eval.Equity(), 1e-9);
    EXPECT_NEAR(map->eval.Win(), r->eval.Win(), 1e-9);
  }
}

TEST(DiceStats, CountsSixesDoublesAndEachThrowAgainstFairDice) {
  std::vector<Throw> throws = {MakeThrow(6, 6), MakeThrow(6, 3), MakeThrow(2, 2),
                               MakeThrow(5, 1), MakeThrow(3, 6), MakeThrow(1, 1)};
  DiceStats s = DiceStatsOf(throws);
  EXPECT_EQ(s.throws, 6);
  EXPECT_EQ(s.sixes, 4);  // 6-6 counts two
  EXPECT_DOUBLE_EQ(s.expected_sixes, 2.0);
  EXPECT_EQ(s.doubles, 3);
  EXPECT_DOUBLE_EQ(s.expected_doubles, 1.0);
  ASSERT_EQ(s.counts.size(), 21u);
  EXPECT_EQ(ThrowToString(s.counts[0].dice), "66");
  EXPECT_EQ(s.counts[0].count, 1);
  EXPECT_EQ(ThrowToString(s.counts[3].dice), "63");
  EXPECT_EQ(s.counts[3].count, 2);
  EXPECT_DOUBLE_EQ(s.counts[3].expected, 6 * 2 / 36.0);
  EXPECT_EQ(s.degrees_of_freedom, 20);
}

TEST(DiceStats, ChiSquarePValuesMatchTheTables) {
  // Upper-tail critical values (any statistics table): 20 degrees of
  // freedom, p = 0.05 at 31.410, 0.01 at 37.566; 5 degrees, 0.001 at 20.515.
  EXPECT_NEAR(ChiSquarePValue(31.410, 20), 0.05, 1e-4);
  EXPECT_NEAR(ChiSquarePValue(37.566, 20), 0.01, 1e-4);
  EXPECT_NEAR(ChiSquarePValue(20.515, 5), 0.001, 1e-5);
  EXPECT_NEAR(ChiSquarePValue(19.337, 20), 0.5, 1e-3);  // the median
  EXPECT_DOUBLE_EQ(ChiSquarePValue(0, 20), 1.0);
}

TEST(DiceStats, FairDiceGiveALargePValueAndLoadedDiceATinyOne) {
  std::mt19937_64 rng(7);
  std::vector<Throw> fair, loaded;
  for (int i = 0; i < 3600; ++i) {
    fair.push_back(RandomThrow(rng));
    loaded.push_back(i % 4 == 0 ? MakeThrow(6, 6) : RandomThrow(rng));
  }
  EXPECT_GT(DiceStatsOf(fair).p_value, 0.001);
  EXPECT_LT(DiceStatsOf(loaded).p_value, 1e-9);
  EXPECT_GT(DiceStatsOf(loaded).sixes, DiceStatsOf(loaded).expected_sixes * 1.3);
}

}  // namespace
}  // namespace uckers::testing
