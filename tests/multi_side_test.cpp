// The search and evaluation for more than two sides (search/multi_side.h,
// RULES.md §11).
#include "search/multi_side.h"

#include <atomic>
#include <numeric>
#include <random>

#include "eval/evaluate.h"
#include "rules/movegen.h"
#include "search/door.h"
#include "search/multi_side_mcts.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

const char* kLayouts[] = {"six", "six+teams_of_three", "navy+solo", "six+solo"};

double Sum(const SideValues& v) {
  return std::accumulate(v.win.begin(), v.win.begin() + v.sides, 0.0);
}

MultiSideReport Checked(const absl::StatusOr<MultiSideReport>& r) {
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : MultiSideReport{};
}

MultiSideReport Search(const Position& pos, const Rules& rules, std::optional<Throw> dice,
                       MultiSideParams params = {}, SearchLimits limits = {}) {
  std::atomic<bool> stop{false};
  return Checked(SearchMultiSide(pos, rules, dice, params, limits, stop));
}

// The position after `plies` random throws and plays from the start.
Position RandomPosition(const Rules& rules, uint64_t seed, int plies) {
  Position pos = Position::Start(rules);
  std::mt19937_64 rng(seed);
  for (int ply = 0; ply < plies && !pos.IsGameOver(); ++ply) {
    PlayList plays;
    GenerateLegalPlays(pos, rules, kThrows[rng() % kThrows.size()], &plays);
    pos = plays[rng() % plays.size()].after;
  }
  return pos;
}

// RULES.md §11: every side's chance, summing to one, on random positions of
// every layout.
TEST(MultiSide, ClassicValuesAreEverySidesChanceSummingToOne) {
  std::mt19937_64 rng(7);
  for (const char* text : kLayouts) {
    Rules rules = R(text);
    Position pos = Position::Start(rules);
    for (int ply = 0; ply < 300 && !pos.IsGameOver(); ++ply) {
      SideValues v = ClassicSideValues(pos);
      ASSERT_EQ(v.sides, pos.num_sides()) << text;
      EXPECT_NEAR(Sum(v), 1.0, 1e-9) << text;
      for (int s = 0; s < v.sides; ++s) EXPECT_GT(v.win[s], 0.0) << text;
      PlayList plays;
      GenerateLegalPlays(pos, rules, kThrows[rng() % kThrows.size()], &plays);
      pos = plays[rng() % plays.size()].after;
    }
  }
}

TEST(MultiSide, AtTheStartTheSideToThrowLeadsAndTheOthersAreEqual) {
  for (const char* text : kLayouts) {
    SideValues v = ClassicSideValues(Position::Start(R(text)));
    for (int s = 2; s < v.sides; ++s) EXPECT_NEAR(v.win[s], v.win[1], 1e-12) << text;
    EXPECT_GT(v.win[0], v.win[1]) << text;  // red throws first: the tempo
  }
}

TEST(MultiSide, AFinishedGameIsWonByItsWinnerAlone) {
  Rules rules = R("navy+solo");
  Position pos = P("b,b,b,b/h,h,h,h/b,b,b,b/b,b,b,b r -", rules);
  ASSERT_TRUE(pos.IsGameOver());
  SideValues v = ClassicSideValues(pos);
  EXPECT_EQ(v.win[1], 1.0);
  EXPECT_EQ(Sum(v), 1.0);
}

TEST(MultiSide, EachSideTakesThePlayThatWinsAtOnce) {
  Rules rules = R("navy+solo");
  // Red's last piece is two from home; a 2 takes it there and wins.
  Position pos = P("h,h,h,54/b,b,b,30/b,b,b,20/b,b,b,10 r -", rules);
  for (int depth : {1, 2}) {
    MultiSideParams params;
    params.max_depth = depth;
    MultiSideReport r = Search(pos, rules, MakeThrow(2, 1), params);
    ASSERT_FALSE(r.candidates.empty());
    EXPECT_TRUE(r.candidates[0].after.IsGameOver()) << PlayToString(r.candidates[0].play);
    EXPECT_EQ(r.values.win[0], 1.0);
  }
}

// With two sides the game is zero-sum: max^n and paranoid are the same search.
TEST(MultiSide, WithTwoSidesMaxnAndParanoidAgree) {
  Rules rules = R("six+teams_of_three");
  Position pos = RandomPosition(rules, 3, 40);
  ASSERT_FALSE(pos.IsGameOver());
  MultiSideParams maxn, paranoid;
  paranoid.mode = MultiSideMode::kParanoid;
  MultiSideReport a = Search(pos, rules, MakeThrow(6, 3), maxn);
  MultiSideReport b = Search(pos, rules, MakeThrow(6, 3), paranoid);
  ASSERT_FALSE(a.candidates.empty());
  EXPECT_EQ(a.candidates[0].play, b.candidates[0].play);
  EXPECT_NEAR(a.values.win[0], b.values.win[0], 1e-12);
}

// A chance node averages the best decision of each throw (weights 1/36 and
// 2/36): the search's value before the throw is that average.
TEST(MultiSide, TheValueBeforeTheThrowAveragesTheThrowsBestPlays) {
  Rules rules = R("six");
  Position pos = P("9,9,40,77/b,3,3,70/20,78,h,h/b,b,1,80/b,12,12,30/b,b,50,h r -", rules);
  MultiSideParams params;
  params.max_depth = 1;
  SideValues before = Search(pos, rules, std::nullopt, params).values;
  std::array<double, kMaxColours> expected{};
  for (Throw t : kThrows) {
    SideValues v = Search(pos, rules, t, params).values;
    for (int s = 0; s < v.sides; ++s) expected[s] += v.win[s] * t.Weight() / 36.0;
  }
  for (int s = 0; s < before.sides; ++s) EXPECT_NEAR(before.win[s], expected[s], 1e-12);
}

TEST(MultiSide, AMovetimeIsKeptAndAStopEndsTheSearch) {
  Rules rules = R("six+solo");
  Position pos = P("b,9,9,52/0,0,40,78/b,60,77,h/b,b,20,20/b,b,b,10/74,80,h,h y -", rules);
  SearchLimits limits;
  limits.movetime_ms = 150;
  MultiSideReport r = Search(pos, rules, MakeThrow(6, 6), {}, limits);
  EXPECT_GE(r.depth, 1);
  EXPECT_LT(r.time_ms, 1000);
  std::atomic<bool> stop{true};
  absl::StatusOr<MultiSideReport> stopped =
      SearchMultiSide(pos, rules, MakeThrow(6, 6), {}, SearchLimits{}, stop);
  ASSERT_TRUE(stopped.ok());
  EXPECT_FALSE(stopped->candidates.empty());  // depth 1 is always whole
}

// Shallow pruning changes no choice and no root value, and searches less.
TEST(MultiSide, ShallowPruningKeepsTheChoiceAndTheRootValues) {
  uint64_t with = 0, without = 0, pruned = 0;
  for (const char* layout : {"navy+solo", "six"}) {
    Rules rules = R(layout);
    std::mt19937_64 rng(17);
    for (int game = 0; game < 3; ++game) {
      Position pos = Position::Start(rules);
      for (int ply = 0; ply < 30 + 10 * game && !pos.IsGameOver(); ++ply) {
        PlayList plays;
        GenerateLegalPlays(pos, rules, kThrows[rng() % kThrows.size()], &plays);
        pos = plays[rng() % plays.size()].after;
      }
      if (pos.IsGameOver()) continue;
      MultiSideParams on, off;
      on.max_depth = off.max_depth = 3;
      on.filter_width = off.filter_width = 3;
      off.shallow_pruning = false;
      Throw t = kThrows[rng() % kThrows.size()];
      MultiSideReport a = Search(pos, rules, t, on);
      MultiSideReport b = Search(pos, rules, t, off);
      ASSERT_EQ(a.candidates.size(), b.candidates.size());
      for (size_t i = 0; i < a.candidates.size(); ++i) {
        EXPECT_EQ(a.candidates[i].play, b.candidates[i].play) << layout << " " << i;
        for (int s = 0; s < a.values.sides; ++s) {
          EXPECT_NEAR(a.candidates[i].values.win[s], b.candidates[i].values.win[s], 1e-12);
        }
      }
      EXPECT_EQ(b.pruned, 0u);
      with += a.nodes;
      without += b.nodes;
      pruned += a.pruned;
    }
  }
  EXPECT_GT(pruned, 0u);
  EXPECT_LT(with, without);
}

// Opponent=random with more sides (docs/sides.md): a side modelled as the
// `random` player takes each of its plays alike, so its decision is worth
// the mean of its plays' values, not its best.
TEST(MultiSide, ASideModelledAsRandomIsWorthTheMeanOfItsPlays) {
  Rules rules = R("navy+solo");
  Position pos = RandomPosition(rules, 5, 40);
  ASSERT_FALSE(pos.IsGameOver());
  const int mover = pos.SideOf(pos.to_throw());
  MultiSideParams params;
  params.max_depth = 2;
  params.filter_width = 1000;
  params.random_sides = 0xF & ~(1u << mover);
  const Throw t{5, 4};
  MultiSideReport report = Search(pos, rules, t, params);
  MultiSideParams best = params;
  best.random_sides = 0;
  MultiSideReport against_best = Search(pos, rules, t, best);
  int checked = 0;
  bool differs = false;
  for (const MultiSideCandidate& c : report.candidates) {
    if (c.after.IsGameOver() || c.after.SideOf(c.after.to_throw()) == mover) continue;
    std::array<double, kMaxColours> expected{};
    for (Throw next : kThrows) {
      PlayList plays;
      GenerateLegalPlays(c.after, rules, next, &plays);
      for (const PlayResult& p : plays) {
        SideValues v = ClassicSideValues(p.after);
        for (int s = 0; s < v.sides; ++s) {
          expected[s] += v.win[s] * next.Weight() / 36.0 / plays.size();
        }
      }
    }
    for (int s = 0; s < c.values.sides; ++s) EXPECT_NEAR(c.values.win[s], expected[s], 1e-9);
    for (const MultiSideCandidate& b : against_best.candidates) {
      if (b.play == c.play && std::abs(b.values.win[mover] - c.values.win[mover]) > 1e-6) {
        differs = true;
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 0);
  EXPECT_TRUE(differs) << "modelling the others as random changed no value";
}

MultiSideReport Mcts(const Position& pos, const Rules& rules, std::optional<Throw> dice,
                     MultiSideMctsParams params = {}, SearchLimits limits = {}) {
  std::atomic<bool> stop{false};
  return Checked(SearchMultiSideMcts(pos, rules, dice, params, limits, stop));
}

// MCTS-max^n: a play that wins at once is the most visited.
TEST(MultiSideMcts, TakesThePlayThatWinsAtOnce) {
  Rules rules = R("navy+solo");
  Position pos = P("h,h,h,54/b,b,b,30/b,b,b,20/b,b,b,10 r -", rules);
  SearchLimits limits;
  limits.nodes = 500;
  MultiSideReport r = Mcts(pos, rules, MakeThrow(2, 1), {}, limits);
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_TRUE(r.candidates[0].after.IsGameOver()) << PlayToString(r.candidates[0].play);
  EXPECT_EQ(r.values.win[0], 1.0);
}

// Its values are every side's chance, summing to one, and the search has
// no randomness: the same position and limit give the same answer.
TEST(MultiSideMcts, ValuesSumToOneAndTheSearchRepeats) {
  Rules rules = R("six");
  Position pos = P("9,9,40,77/b,3,3,70/20,78,h,h/b,b,1,80/b,12,12,30/b,b,50,h r -", rules);
  SearchLimits limits;
  limits.nodes = 2000;
  MultiSideReport a = Mcts(pos, rules, MakeThrow(6, 3), {}, limits);
  MultiSideReport b = Mcts(pos, rules, MakeThrow(6, 3), {}, limits);
  ASSERT_FALSE(a.candidates.empty());
  EXPECT_EQ(a.candidates[0].play, b.candidates[0].play);
  EXPECT_NEAR(Sum(a.values), 1.0, 1e-9);
  EXPECT_EQ(a.nodes, 2000u);  // `nodes` counts playouts
  EXPECT_GE(a.depth, 2);
  // Before the throw: the mean over the playouts, also summing to one.
  MultiSideReport before = Mcts(pos, rules, std::nullopt, {}, limits);
  EXPECT_TRUE(before.candidates.empty());
  EXPECT_NEAR(Sum(before.values), 1.0, 1e-9);
}

// A paranoid MCTS with two sides is the max^n one (zero-sum).
TEST(MultiSideMcts, WithTwoSidesMaxnAndParanoidAgree) {
  Rules rules = R("six+teams_of_three");
  Position pos = RandomPosition(rules, 3, 40);
  ASSERT_FALSE(pos.IsGameOver());
  SearchLimits limits;
  limits.nodes = 1500;
  MultiSideMctsParams paranoid;
  paranoid.mode = MultiSideMode::kParanoid;
  MultiSideReport a = Mcts(pos, rules, MakeThrow(6, 3), {}, limits);
  MultiSideReport b = Mcts(pos, rules, MakeThrow(6, 3), paranoid, limits);
  ASSERT_FALSE(a.candidates.empty());
  EXPECT_EQ(a.candidates[0].play, b.candidates[0].play);
  EXPECT_NEAR(a.values.win[0], b.values.win[0], 1e-12);
}

// MCTS-max^n's static cache is read only by the search that filled it.
TEST(MultiSideMcts, StaticValuesCachedByOneSearchAreNotAnothers) {
  Rules rules = R("navy+solo");
  Position pos = P("b,9,9,52/0,0,40,50/b,30,47,h/b,b,20,20 r -", rules);
  MultiSideMctsParams classic;
  MultiSideMctsParams net;
  net.net = MultiSideNet(rules, EvalKind::kNet);
  ASSERT_NE(net.net, nullptr);
  SearchLimits limits;
  limits.nodes = 1500;
  auto value = [&](const MultiSideMctsParams& params) {
    return Mcts(pos, rules, MakeThrow(6, 3), params, limits).values.win[0];
  };
  ExpectCachedValuesAreNotShared([&] { return value(classic); }, [&] { return value(net); });
}

TEST(MultiSideMcts, AStopEndsTheSearchWithAnAnswer) {
  Rules rules = R("six+solo");
  Position pos = P("b,9,9,52/0,0,40,78/b,60,77,h/b,b,20,20/b,b,b,10/74,80,h,h y -", rules);
  std::atomic<bool> stop{true};
  SearchLimits limits;
  limits.infinite = true;
  absl::StatusOr<MultiSideReport> r =
      SearchMultiSideMcts(pos, rules, MakeThrow(6, 6), {}, limits, stop);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->candidates.empty());
  EXPECT_LE(r->nodes, 64u);
}

}  // namespace
}  // namespace uckers::testing
