// The search: pruned expectimax against brute force, MCTS reproducibility,
// outcome probabilities, limits and stop.
#include "search/search.h"

#include <chrono>
#include <cmath>
#include <set>
#include <string>
#include <thread>

#include "endgame/solver.h"
#include "endgame/table.h"
#include "rules/occupancy.h"
#include "rules/stack.h"
#include "search/expectimax.h"
#include "search/levels.h"
#include "search/opponent_model.h"
#include "search/static_cache.h"
#include "search/tt.h"
#include "tests/random_game.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

// The static evaluation a default search uses: the shipped net where one is
// trained for `rules`, else the classic one.
Evaluation DefaultEval(const Position& pos, const Rules& rules) {
  const Net* net = ResolveEvaluation(SearchParams{}, rules).net;
  return net ? net->Evaluate(pos) : Evaluate(pos, rules);
}

// Plain expectimax, no pruning, no table, no filter: the definition.
double BruteChance(const Position& pos, const Rules& rules, int depth, Objective obj);

double BruteAfter(const Position& after, const Rules& rules, int team, int depth, Objective obj) {
  ScoreRange range = RangeOf(obj);
  double v = depth <= 0 || after.IsGameOver() ? Score(DefaultEval(after, rules), obj)
                                              : BruteChance(after, rules, depth, obj);
  return TeamOf(after.to_throw()) == team ? v : range.Flip(v);
}

double BruteChance(const Position& pos, const Rules& rules, int depth, Objective obj) {
  if (depth <= 0 || pos.IsGameOver()) return Score(DefaultEval(pos, rules), obj);
  if (pos.challenge_active()) {
    // The closed form is itself checked below against throw-by-throw play.
    ADD_FAILURE() << "brute force does not expand challenges";
  }
  double sum = 0;
  int team = TeamOf(pos.to_throw());
  PlayList plays;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, rules, t, &plays);
    double best = -1e9;
    for (const PlayResult& r : plays) {
      best = std::max(best, BruteAfter(r.after, rules, team, depth - 1, obj));
    }
    sum += t.Weight() / 36.0 * best;
  }
  return sum;
}

SearchParams Exact(Objective obj) {
  SearchParams p;
  p.objective = obj;
  p.filter_width = 0;  // the filter is the one deliberate approximation
  p.noise = 0;
  return p;
}

// One search under the default rules, with a fresh table and no stop.
SearchReport SearchOnce(const Position& pos, Throw t, const SearchParams& params,
                        const SearchLimits& limits = {}) {
  Rules rules;
  TranspositionTable tt(1);
  std::atomic<bool> stop{false};
  return SearchPlay(pos, rules, t, params, limits, &tt, stop, nullptr);
}

void ExpectMatchesBruteForce(const Position& pos, const Rules& rules, Throw t, int depth,
                             Objective obj) {
  TranspositionTable tt(1);
  std::atomic<bool> stop{false};
  SearchLimits limits;
  limits.depth = depth;
  SearchReport r = SearchPlay(pos, rules, t, Exact(obj), limits, &tt, stop, nullptr);
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  int team = TeamOf(pos.to_throw());
  double best = -1e9;
  for (const PlayResult& p : plays) {
    best = std::max(best, BruteAfter(p.after, rules, team, depth - 1, obj));
  }
  ASSERT_FALSE(r.candidates.empty());
  double chosen = BruteAfter(r.candidates[0].after, rules, team, depth - 1, obj);
  EXPECT_NEAR(chosen, best, 1e-5) << ToUfen(pos) << " throw " << t.high << t.low;
  EXPECT_NEAR(Score(r.eval, obj), best, 1e-5) << ToUfen(pos);
}

const char* kEndgames[] = {
    "h,h,h,44/h,h,h,40/h,h,h,h/h,h,h,h g py",
    "h,h,h,30/h,h,46,h/h,h,h,h/h,h,h,20 b py",
    "h,h,50,53/h,h,h,h/h,h,h,48/h,h,45,h r -",
    "h,h,h,h/h,h,h,34/h,h,38,h/h,h,h,30 y -",
};

TEST(Expectimax, MatchesBruteForceOnSmallEndgames) {
  Rules rules;
  for (const char* ufen : kEndgames) {
    for (int depth = 1; depth <= 2; ++depth) {
      for (Throw t : {Throw{6, 3}, Throw{5, 5}, Throw{2, 1}, Throw{6, 6}}) {
        ExpectMatchesBruteForce(P(ufen), rules, t, depth, Objective::kWin);
        ExpectMatchesBruteForce(P(ufen), rules, t, depth, Objective::kPoints);
      }
    }
  }
}

TEST(Expectimax, MatchesBruteForceOnRandomMidGamePositions) {
  Rules rules;
  std::mt19937_64 rng(7);
  int checked = 0;
  for (int game = 0; game < 4; ++game) {
    Position pos = Position::Start(rules);
    for (int step = 0; step < 400 && !pos.IsGameOver(); ++step) {
      if (step % 37 == 20 && !pos.challenge_active()) {
        Throw t = RandomThrow(rng);
        ExpectMatchesBruteForce(pos, rules, t, 1, Objective::kWin);
        ExpectMatchesBruteForce(pos, rules, t, 2, Objective::kWin);
        ExpectMatchesBruteForce(pos, rules, t, 2, Objective::kPoints);
        ++checked;
      }
      RandomStep(pos, rules, rng);
    }
  }
  EXPECT_GE(checked, 8);
}

TEST(Expectimax, AnalysisMatchesBruteForceChanceValue) {
  Rules rules;
  for (const char* ufen : kEndgames) {
    TranspositionTable tt(1);
    std::atomic<bool> stop{false};
    SearchLimits limits;
    limits.depth = 2;
    SearchReport r =
        AnalysePosition(P(ufen), rules, Exact(Objective::kWin), limits, &tt, stop, nullptr);
    EXPECT_NEAR(r.eval.Win(), BruteChance(P(ufen), rules, 2, Objective::kWin), 1e-5) << ufen;
  }
}

// Ballard's Star2 prunes: fewer nodes than plain expectimax, same answer.
TEST(Expectimax, Star2VisitsFewerNodesThanPlainExpectimax) {
  Position pos = P("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  SearchLimits limits;
  limits.depth = 2;
  SearchParams plain = Exact(Objective::kWin);
  plain.star1 = plain.star2 = false;
  SearchReport a = SearchOnce(pos, Throw{6, 3}, plain, limits);
  SearchReport b = SearchOnce(pos, Throw{6, 3}, Exact(Objective::kWin), limits);
  EXPECT_EQ(PlayToString(a.candidates[0].play), PlayToString(b.candidates[0].play));
  EXPECT_NEAR(a.eval.Win(), b.eval.Win(), 1e-5);
  EXPECT_LT(b.nodes, a.nodes);
}

// Killer replies only reorder: a searcher whose killers come from another
// position gives the value a fresh one gives (itself checked against brute
// force above).
TEST(Expectimax, KillerRepliesFromAnotherPositionKeepTheValue) {
  Rules rules;
  SearchParams params = Exact(Objective::kWin);
  std::atomic<bool> never{false};
  Limiter limiter(never, std::nullopt, std::nullopt);
  Position other = P("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  Position target = P("0,7,7,22/b,14,30,45/b,19,19,h/2,2,26,50 g -");
  TranspositionTable tt(1);
  Expectimax used(rules, params, &tt, &limiter);
  used.Chance(other, 2, 0.0, 1.0, nullptr);
  tt.Clear();
  double after_other = used.Chance(target, 2, 0.0, 1.0, nullptr);
  TranspositionTable fresh_tt(1);
  Expectimax fresh(rules, params, &fresh_tt, &limiter);
  EXPECT_NEAR(after_other, fresh.Chance(target, 2, 0.0, 1.0, nullptr), 1e-6);
}

// Expectimax's static cache is read only by the search that filled it.
TEST(Expectimax, StaticValuesCachedByOneSearchAreNotAnothers) {
  Rules rules;
  Position pos = P("0,7,7,22/b,14,30,45/b,19,19,h/2,2,26,50 g -");
  SearchParams classic = Exact(Objective::kWin);
  SearchParams net = classic;
  net.net = ResolveEvaluation(SearchParams{}, rules).net;
  ASSERT_NE(net.net, nullptr);
  std::atomic<bool> never{false};
  Limiter limiter(never, std::nullopt, std::nullopt);
  auto value = [&](const SearchParams& params) {
    TranspositionTable tt(1);
    Expectimax search(rules, params, &tt, &limiter);
    return search.Chance(pos, 2, 0.0, 1.0, nullptr);
  };
  ExpectCachedValuesAreNotShared([&] { return value(classic); }, [&] { return value(net); });
}

TEST(StaticCache, AValueIsFoundOnlyByTheCacheThatStoredItWithItsFlag) {
  StaticCache<Evaluation> a, b;
  Evaluation e;
  e.p[0] = 0.25;
  a.Store(12345, e, true);
  bool flag = false;
  const Evaluation* found = a.Find(12345, &flag);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->p[0], 0.25);
  EXPECT_TRUE(flag);
  EXPECT_EQ(b.Find(12345, &flag), nullptr);
  EXPECT_EQ(a.Find(12345 + StaticCache<Evaluation>::kSlots, &flag), nullptr);  // same slot
  b.Store(12345, e, false);                                                    // takes the slot
  EXPECT_EQ(a.Find(12345, &flag), nullptr);
  EXPECT_NE(b.Find(12345), nullptr);  // the flag is optional
}

// RULES.md §6: 0, 1 or 2 sixes a throw; the closed form against the sum
// over every sequence of throws.
TEST(Expectimax, ChallengeClosedFormMatchesThrowByThrowSum) {
  std::function<double(int)> brute = [&](int k) -> double {
    if (k <= 0) return 1.0;
    return 10.0 / 36.0 * brute(k - 1) + 1.0 / 36.0 * brute(k - 2);
  };
  EXPECT_DOUBLE_EQ(ChallengeSuccessProbability(0), 1.0);
  EXPECT_NEAR(ChallengeSuccessProbability(1), 11.0 / 36.0, 1e-12);
  for (int k = 1; k <= 6; ++k) EXPECT_NEAR(ChallengeSuccessProbability(k), brute(k), 1e-12);
}

TEST(Search, OutcomeProbabilitiesSumToOne) {
  for (const char* ufen : kEndgames) {
    SearchReport r = SearchOnce(P(ufen), Throw{4, 2}, SearchParams());
    double sum = 0;
    for (double p : r.eval.p) sum += p;
    EXPECT_NEAR(sum, 1.0, 1e-6) << ufen;
    for (const Candidate& c : r.candidates) {
      double s = 0;
      for (double p : c.eval.p) s += p;
      EXPECT_NEAR(s, 1.0, 1e-6);
    }
  }
}

// The exposure term's hit chance by its definition (docs/
// evaluation.md), throw by throw: some piece of `attacker` lands on `r` by one
// die, both summed, or entering with a six then the other die, passing and
// landing on no opponent blob.
double HitProbabilityByDefinition(const Position& pos, int attacker, int abs) {
  int r = RelativeSquare(attacker, abs);
  if (r > kLastTrack) return 0.0;
  uint64_t blobs = ComputeOccupancy(pos, attacker).opponent_blobs;
  auto clear = [&](int from, int to) { return !(blobs & SquareRange(from + 1, to)); };
  int hits = 0;
  for (int d1 = 1; d1 <= 6; ++d1) {
    for (int d2 = 1; d2 <= 6; ++d2) {
      bool hit = false;
      for (Square s : pos.pieces(attacker)) {
        // mixie_stack: only a stack's top piece moves (RULES.md §9).
        int top = OnTrack(s) ? StackTopColour(pos, AbsoluteSquare(attacker, s)) : -1;
        if (top >= 0 && top != attacker) continue;
        if (s == kBase && !(blobs & 1)) {
          hit |= r == 0 && (d1 == 6 || d2 == 6);
          hit |= d1 == 6 && r == d2 && clear(0, r);
          hit |= d2 == 6 && r == d1 && clear(0, r);
        } else if (OnTrack(s) && s < r) {
          int k = r - s;
          hit |= (k == d1 || k == d2 || k == d1 + d2) && clear(s, r);
        }
      }
      hits += hit;
    }
  }
  return hits / 36.0;
}

TEST(Evaluation, HitProbabilityCountsTheThrowsThatLandOnTheSquare) {
  int checked = 0;
  ForEachRandomPosition(3, 300, 77, [&](const std::string& name, const Position& pos) {
    for (int attacker = 0; attacker < kNumColours; ++attacker) {
      for (int abs = 0; abs < kTrackSquares; ++abs) {
        ASSERT_EQ(HitProbability(pos, attacker, abs),
                  HitProbabilityByDefinition(pos, attacker, abs))
            << name << " " << ToUfen(pos) << " attacker " << attacker << " square " << abs;
        checked += HitProbability(pos, attacker, abs) > 0;
      }
    }
  });
  EXPECT_GT(checked, 5000);  // the positions did put pieces in reach
}

// RULES.md §9 mixie_stack: a piece under another colour's top piece cannot
// move, so it threatens nothing; on top it does.
TEST(Evaluation, OnlyAStacksTopPieceThreatens) {
  Rules rules = R("navy+mixie_stack");
  Position buried = P("b,b,10,10/b,b,b,14/b,b,b,36/b,b,b,b g mr10:rry", rules);
  Position on_top = P("b,b,10,10/b,b,b,14/b,b,b,36/b,b,b,b g mr10:ryr", rules);
  EXPECT_EQ(HitProbability(buried, kRed, 14), 0.0);
  EXPECT_GT(HitProbability(on_top, kRed, 14), 0.0);
  EXPECT_GT(HitProbability(buried, kYellow, 14), 0.0);
}

TEST(Evaluation, EveryWeightNameNamesItsOwnFieldAndUnknownIsNone) {
  EvalWeights w;
  std::set<double*> fields;
  for (const std::string& name : EvalWeightNames()) {
    double* field = EvalWeightByName(w, name);
    ASSERT_NE(field, nullptr) << name;
    fields.insert(field);
  }
  EXPECT_EQ(fields.size(), EvalWeightNames().size());
  EXPECT_EQ(EvalWeightByName(w, "block_lookahead"), nullptr);  // an int, not swept
  EXPECT_EQ(EvalWeightByName(w, "no_such_weight"), nullptr);
  *EvalWeightByName(w, "lane_pips") = 7.5;
  EXPECT_EQ(w.lane_pips, 7.5);
}

// The candidates of one search of a fixed mid-game position, as text: each
// play with its win probability.
std::string SearchedCandidates(const SearchParams& params, const SearchLimits& limits) {
  Position pos = P("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  SearchReport r = SearchOnce(pos, Throw{6, 3}, params, limits);
  std::string out;
  for (const Candidate& c : r.candidates) {
    out += PlayToString(c.play) + absl::StrCat(":", c.eval.Win(), " ");
  }
  return out;
}

TEST(Mcts, RepeatsExactlyWithASeedAndOneThread) {
  SearchParams params;
  params.algorithm = Algorithm::kMcts;
  params.seed = 42;
  params.multipv = 3;
  SearchLimits limits;
  limits.nodes = 800;
  std::string first = SearchedCandidates(params, limits);
  EXPECT_EQ(first, SearchedCandidates(params, limits));
  EXPECT_FALSE(first.empty());
}

TEST(Mcts, ChoosesALegalPlayAndPrefersAKnockOffHome) {
  SearchParams params;
  params.algorithm = Algorithm::kMcts;
  SearchLimits limits;
  limits.nodes = 500;
  // Red's last piece can go home with the 6 (game won) or not.
  Position pos = P("h,h,h,50/b,b,b,b/h,h,h,h/b,b,b,b r -");
  SearchReport r = SearchOnce(pos, Throw{6, 1}, params, limits);
  EXPECT_EQ(PlayToString(r.candidates[0].play), "r50-h");
}

TEST(Mcts, TreeStopsGrowingAtItsMemoryCap) {
  SearchParams params;
  params.algorithm = Algorithm::kMcts;
  params.mcts_tree_mb = 1;
  SearchLimits limits;
  limits.nodes = 20000;  // uncapped, this tree grows to tens of MiB
  SearchReport r = SearchOnce(Position::Start(Rules()), Throw{6, 6}, params, limits);
  EXPECT_LE(r.tree_bytes, uint64_t{1} << 20);
  EXPECT_GT(r.tree_bytes, uint64_t{1} << 19);  // it did fill
  EXPECT_EQ(r.nodes, 20000u);                  // and playouts went on
  EXPECT_FALSE(r.candidates.empty());
}

TEST(Mcts, TreeBelowItsCapIsTheUncappedTree) {
  SearchParams small;
  small.algorithm = Algorithm::kMcts;
  small.seed = 3;
  small.multipv = 3;
  SearchParams large = small;
  large.mcts_tree_mb = 4096;
  SearchLimits limits;
  limits.nodes = 300;  // a tree well under 256 MiB
  EXPECT_EQ(SearchedCandidates(small, limits), SearchedCandidates(large, limits));
}

// Rollouts: the same seed gives the same trials, so the same report.
TEST(Rollout, RepeatsExactlyWithASeed) {
  SearchParams params;
  params.algorithm = Algorithm::kRollout;
  params.seed = 7;
  params.multipv = 3;
  params.rollout_trials = 40;
  std::string first = SearchedCandidates(params, SearchLimits{});
  EXPECT_EQ(first, SearchedCandidates(params, SearchLimits{}));
  EXPECT_NE(first.find(' '), std::string::npos);
}

// Rollouts: candidates are legal plays, at most rollout_width of them, and
// the node limit (plays evaluated) ends the trials.
TEST(Rollout, KeepsToItsWidthAndNodeLimit) {
  Rules rules;
  SearchParams params;
  params.algorithm = Algorithm::kRollout;
  params.rollout_width = 3;
  params.multipv = 10;
  params.rollout_trials = 1000000;
  SearchLimits limits;
  limits.nodes = 20000;
  Position pos = P("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  SearchReport r = SearchOnce(pos, Throw{6, 3}, params, limits);
  EXPECT_EQ(r.candidates.size(), 3u);
  EXPECT_GE(r.nodes, 20000u);
  EXPECT_LT(r.nodes, 40000u);
  PlayList legal;
  GenerateLegalPlays(pos, rules, Throw{6, 3}, &legal);
  for (const Candidate& c : r.candidates) {
    bool found = false;
    for (const PlayResult& l : legal) found |= l.play == c.play && l.after == c.after;
    EXPECT_TRUE(found) << PlayToString(c.play);
  }
}

// Rollouts find the knock-off: Red's 6-6 can hit Green's last piece, two
// steps from home (green 48 is red 9), or run a piece into the lane.
TEST(Rollout, KnocksOffTheLastPieceBeforeItGetsHome) {
  SearchParams params;
  params.algorithm = Algorithm::kRollout;
  params.rollout_trials = 50;
  Position pos = P("3,40,h,h/h,h,h,48/h,h,h,h/h,h,h,h r -");
  SearchReport r = SearchOnce(pos, Throw{6, 6}, params);
  EXPECT_EQ(PlayToString(r.candidates[0].play), "r3-9,r40-46");
}

// An infinite search (the default level) of 6-3 in a mid-game position,
// ended by `stop` alone.
SearchReport InfiniteSearch(const std::atomic<bool>& stop, const ReportCallback& on_progress) {
  Rules rules;
  SearchLimits limits;
  limits.infinite = true;
  TranspositionTable tt(16);
  Position pos = P("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  return SearchPlay(pos, rules, Throw{6, 3}, SearchParams(), limits, &tt, stop, on_progress);
}

// The search looks at the stop flag every 64 nodes (kTickEvery in
// search/expectimax.cpp): once it is set, the search counts at most that
// many more nodes and reports the last depth it completed. The
// time this takes is measured by search_bench's StopLatency, not here.
TEST(Search, StopEndsASearchWithinOneCheckInterval) {
  std::atomic<bool> stop{false};
  uint64_t nodes_at_stop = 0;
  int depth_at_stop = 0;
  SearchReport r = InfiniteSearch(stop, [&](const SearchReport& report) {
    if (report.depth < 2) return;
    nodes_at_stop = report.nodes;
    depth_at_stop = report.depth;
    stop = true;
  });
  ASSERT_EQ(depth_at_stop, 2);
  EXPECT_EQ(r.depth, 2);
  EXPECT_LE(r.nodes - nodes_at_stop, 64u);
  EXPECT_FALSE(r.candidates.empty());
}

// A stop set by another thread ends an infinite search; the bound only
// catches a search that ignores it.
TEST(Search, StopFromAnotherThreadEndsAnInfiniteSearch) {
  std::atomic<bool> stop{false};
  std::chrono::steady_clock::time_point stopped_at;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stopped_at = std::chrono::steady_clock::now();
    stop = true;
  });
  SearchReport r = InfiniteSearch(stop, nullptr);
  auto ended = std::chrono::steady_clock::now();
  stopper.join();
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(ended - stopped_at).count(),
            2000);
  EXPECT_FALSE(r.candidates.empty());
}

TEST(Search, NodeLimitIsRespected) {
  SearchParams params;
  params.max_depth = 3;
  SearchLimits limits;
  limits.nodes = 5000;
  Position pos = P("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  SearchReport r = SearchOnce(pos, Throw{6, 3}, params, limits);
  EXPECT_LT(r.depth, 3);
  EXPECT_FALSE(r.candidates.empty());
}

// Deepening (search/params.h partial_iteration): an iteration cut short
// by the node limit. `position` and `t` are one where depth 3 prefers
// another play than depth 2.
struct CutShort {
  Position pos;
  Throw t;
  SearchReport depth2;               // the whole depth-2 answer
  std::map<std::string, double> d3;  // every play's depth-3 value
  uint64_t nodes2 = 0, nodes3 = 0;   // nodes of the whole depth-2 and depth-3 searches
};

CutShort MakeCutShort(const char* ufen, Throw t) {
  CutShort c{P(ufen), t, {}, {}, 0, 0};
  SearchParams params;
  SearchLimits limits;
  limits.depth = 2;
  c.depth2 = SearchOnce(c.pos, t, params, limits);
  c.nodes2 = c.depth2.nodes;
  limits.depth = 3;
  params.multipv = 64;  // every play searched with an open window: its exact value
  SearchReport all = SearchOnce(c.pos, t, params, limits);
  for (const Candidate& k : all.candidates) c.d3[PlayToString(k.play)] = k.eval.Win();
  params.multipv = 1;
  c.nodes3 = SearchOnce(c.pos, t, params, limits).nodes;
  return c;
}

constexpr char kDeeperDisagrees[] = "b,b,b,b/b,3,21,21/b,b,b,39/0,0,2,24 b -";

TEST(Deepening, WholeIterationsKeepTheLastWholeAnswerWhenCutShort) {
  CutShort c = MakeCutShort(kDeeperDisagrees, Throw{6, 1});
  SearchParams params;
  params.max_depth = 3;
  params.partial_iteration = false;
  for (int k = 1; k < 20; ++k) {
    SearchLimits limits;
    limits.nodes = c.nodes2 + (c.nodes3 - c.nodes2) * k / 20;
    SearchReport r = SearchOnce(c.pos, c.t, params, limits);
    ASSERT_EQ(r.depth, 2);
    EXPECT_EQ(PlayToString(r.candidates[0].play), PlayToString(c.depth2.candidates[0].play));
    EXPECT_NEAR(r.eval.Win(), c.depth2.eval.Win(), 1e-6);
  }
}

TEST(Deepening, PartialIterationPlaysTheBestOfThePlaysSearchedDeeper) {
  CutShort c = MakeCutShort(kDeeperDisagrees, Throw{6, 1});
  std::string first = PlayToString(c.depth2.candidates[0].play);
  SearchParams params;
  params.max_depth = 3;
  params.partial_iteration = true;
  int changed = 0;
  for (int k = 1; k < 20; ++k) {
    SearchLimits limits;
    limits.nodes = c.nodes2 + (c.nodes3 - c.nodes2) * k / 20;
    SearchReport r = SearchOnce(c.pos, c.t, params, limits);
    ASSERT_EQ(r.depth, 2) << limits.nodes.value();
    std::string best = PlayToString(r.candidates[0].play);
    if (best == first && std::abs(r.eval.Win() - c.depth2.eval.Win()) < 1e-6) continue;
    // Taken from the cut-short iteration: the play's depth-3 value, at
    // least the depth-2 best's.
    EXPECT_NEAR(r.eval.Win(), c.d3[best], 1e-5) << best;
    EXPECT_GE(c.d3[best], c.d3[first] - 1e-9) << best;
    if (best != first) ++changed;
  }
  EXPECT_GT(changed, 0) << "depth 3 never overturned " << first;
}

// DeepFilter (search/params.h deep_filter_width): with time to spend, the
// iterations from depth 4 on keep fewer plays at each decision. An ending
// where depth 4 is cheap and decisions have more than two plays.
constexpr char kCheapDepthFour[] = "h,h,h,h/h,h,h,12/h,h,10,20/h,h,h,38 r -";

uint64_t NodesToDepth(const char* ufen, int depth, bool timed, int deep_filter) {
  SearchParams params;
  params.deep_filter_width = deep_filter;
  SearchLimits limits;
  limits.depth = depth;
  if (timed) limits.movetime_ms = 600000;  // ten minutes: every iteration fits
  return SearchOnce(P(ufen), Throw{6, 1}, params, limits).nodes;
}

TEST(DeepFilter, NarrowsTimedIterationsFromDepthFour) {
  EXPECT_LT(NodesToDepth(kCheapDepthFour, 4, true, 2), NodesToDepth(kCheapDepthFour, 4, true, 0));
}

TEST(DeepFilter, LeavesSearchesWithoutTimeAlone) {
  EXPECT_EQ(NodesToDepth(kCheapDepthFour, 4, false, 2), NodesToDepth(kCheapDepthFour, 4, false, 0));
}

TEST(DeepFilter, LeavesTimedIterationsBeforeDepthFourAlone) {
  EXPECT_EQ(NodesToDepth(kDeeperDisagrees, 3, true, 2), NodesToDepth(kDeeperDisagrees, 3, true, 0));
}

TEST(Search, ThreadsGiveTheSameChoice) {
  SearchParams params;
  SearchLimits limits;
  limits.depth = 2;
  Position pos = P("0,7,7,22/b,14,30,45/b,19,19,h/2,2,26,50 g -");
  SearchReport one = SearchOnce(pos, Throw{5, 4}, params, limits);
  params.threads = 2;
  SearchReport two = SearchOnce(pos, Throw{5, 4}, params, limits);
  EXPECT_EQ(PlayToString(one.candidates[0].play), PlayToString(two.candidates[0].play));
  EXPECT_NEAR(one.eval.Win(), two.eval.Win(), 1e-5);
}

TEST(Levels, EveryLevelAppliesAndUnknownIsRefused) {
  SearchParams params;
  for (const LevelDef& level : Levels()) {
    EXPECT_TRUE(ApplyLevel(level.name, &params).ok()) << level.name;
    EXPECT_EQ(params.max_depth, level.max_depth);
  }
  EXPECT_FALSE(ApplyLevel("godlike", &params).ok());
}

// The 1v1 endgame table (endgame/), built once: 0.1 s.
const EndgameTable& Endgame1v1() {
  static const EndgameTable* table = [] {
    absl::StatusOr<EndgameTable> t = BuildEndgameTable(EndgameClass::k1v1, Rules{}, {}, nullptr);
    EXPECT_TRUE(t.ok()) << t.status();
    return new EndgameTable(std::move(*t));
  }();
  return *table;
}

// Red and green playing one piece each, yellow and blue home and released.
Position OneAgainstOne(int red, int green, int to_throw) {
  Position pos = Position::Start(Rules{});
  pos.SetPieces(kRed, {static_cast<Square>(red), kHome, kHome, kHome});
  pos.SetPieces(kGreen, {static_cast<Square>(green), kHome, kHome, kHome});
  pos.SetPieces(kYellow, {kHome, kHome, kHome, kHome});
  pos.SetPieces(kBlue, {kHome, kHome, kHome, kHome});
  pos.SetReleased(1 << kYellow | 1 << kBlue);
  pos.SetToThrow(to_throw);
  return pos;
}

TEST(Endgame, CoveredRootPlaysTheTablesBestPlay) {
  SearchParams params;
  ASSERT_TRUE(ApplyLevel(kDefaultLevel, &params).ok());
  params.endgame = &Endgame1v1();
  std::mt19937_64 rng(4);
  std::uniform_int_distribution<int> square(kBase, kHome - 1);
  for (int n = 0; n < 200; ++n) {
    Position pos = OneAgainstOne(square(rng), square(rng), static_cast<int>(rng() % 4));
    if (pos.pieces(kRed)[0] >= 0 && pos.pieces(kRed)[0] <= 50 && pos.pieces(kGreen)[0] >= 0 &&
        AbsoluteSquare(kRed, pos.pieces(kRed)[0]) ==
            AbsoluteSquare(kGreen, pos.pieces(kGreen)[0])) {
      continue;  // both teams on one square: not a position
    }
    Throw t = kThrows[rng() % kThrows.size()];
    std::optional<EndgameChoice> best = Endgame1v1().BestPlay(pos, Rules{}, t);
    ASSERT_TRUE(best.has_value()) << ToUfen(pos);
    SearchReport r = SearchOnce(pos, t, params);
    EXPECT_TRUE(r.exact);
    ASSERT_FALSE(r.candidates.empty());
    EXPECT_EQ(r.candidates[0].after, best->after) << ToUfen(pos) << " " << t.high << t.low;
    EXPECT_NEAR(r.eval.Win(), best->values[kEndgameWinPlain], 1e-6);
  }
}

// `expert` looks two throws further in endings (at most four pieces not
// home in all), where few plays make it cheap; elsewhere it keeps its depth,
// and a request's depth limit still rules.
TEST(Levels, ExpertSearchesDeeperInEndings) {
  SearchParams params;
  ASSERT_TRUE(ApplyLevel("expert", &params).ok());
  EXPECT_EQ(params.ending_extension, 2);
  Position ending = OneAgainstOne(30, 10, kRed);
  ending.SetPieces(kRed, {30, 53, kHome, kHome});
  ending.SetPieces(kGreen, {10, 20, kHome, kHome});
  EXPECT_EQ(SearchOnce(ending, Throw{3, 1}, params).depth, params.max_depth + 2);
  Position middle = P("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  EXPECT_EQ(SearchOnce(middle, Throw{3, 1}, params).depth, params.max_depth);
  SearchLimits one;
  one.depth = 1;
  EXPECT_EQ(SearchOnce(ending, Throw{3, 1}, params, one).depth, 1);
}

// The strongest level is never shallower than `expert`: in endings both
// search four throws deep.
TEST(Levels, GrandmasterSearchesEndingsAsDeepAsExpert) {
  SearchParams expert, grandmaster;
  ASSERT_TRUE(ApplyLevel("expert", &expert).ok());
  ASSERT_TRUE(ApplyLevel("grandmaster", &grandmaster).ok());
  EXPECT_EQ(grandmaster.max_depth + grandmaster.ending_extension,
            expert.max_depth + expert.ending_extension);
  EXPECT_GT(grandmaster.max_depth, expert.max_depth);
}

// A search told nothing plays at the strongest playing level: no level
// looks further, in the middle game or in endings.
TEST(Levels, TheDefaultLevelIsTheDeepestPlayingLevel) {
  SearchParams def;
  ASSERT_TRUE(ApplyLevel(kDefaultLevel, &def).ok());
  for (const LevelDef& level : Levels()) {
    EXPECT_LE(level.max_depth, def.max_depth) << level.name;
    EXPECT_LE(level.max_depth + level.ending_extension, def.max_depth + def.ending_extension)
        << level.name;
  }
}

TEST(Endgame, CoveredPositionIsAnalysedExactly) {
  SearchParams params;
  params.endgame = &Endgame1v1();
  Position pos = OneAgainstOne(20, kBase, kGreen);
  std::atomic<bool> stop{false};
  TranspositionTable tt(1);
  SearchReport r = AnalysePosition(pos, Rules{}, params, {}, &tt, stop, nullptr);
  EXPECT_TRUE(r.exact);
  EXPECT_NEAR(r.eval.Win(), *Endgame1v1().ProbeWin(pos, Rules{}), 1e-6);
  EXPECT_NEAR(r.eval.Win() + r.eval.p[kLossPlain], 1.0, 1e-6);
}

TEST(Endgame, SearchLeavesInACoveredClassTakeTheTableValue) {
  // Red has two pieces (not covered); 1-3 takes 55 home and 30 to 33: the
  // play leads to a 1v1 position, valued at depth 1 from the table.
  Position pos = OneAgainstOne(30, 10, kRed);
  pos.SetPieces(kRed, {30, 55, kHome, kHome});
  ASSERT_FALSE(Endgame1v1().Probe(pos, Rules{}).has_value());
  SearchParams params;
  params.max_depth = 1;
  params.endgame = &Endgame1v1();
  params.multipv = 8;
  SearchReport r = SearchOnce(pos, Throw{3, 1}, params);
  EXPECT_FALSE(r.exact);
  bool found = false;
  for (const Candidate& c : r.candidates) {
    if (c.after.CountNotHome(kRed) != 1) continue;
    found = true;
    double table = *Endgame1v1().ProbeWin(c.after, Rules{});  // green to throw
    EXPECT_NEAR(c.eval.Win(), 1 - table, 1e-6) << ToUfen(c.after);
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// A table that cannot be allocated is reported, the old one kept.
TEST(TranspositionTable, AFailedResizeKeepsTheTableAndSaysWhy) {
#if defined(UCKERS_SANITIZED)
  GTEST_SKIP() << "AddressSanitizer aborts on an impossible allocation instead of throwing";
#endif
  TranspositionTable tt(1);
  TtEntry e;
  e.key = 42;
  e.bound = Bound::kExact;
  tt.Store(e);
  absl::Status s = tt.TryResize(size_t{1} << 30);  // a pebibyte
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("keeps its size"), std::string::npos) << s;
  TtEntry out;
  EXPECT_TRUE(tt.Probe(42, &out));
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

constexpr char kClockMid[] = "b,b,5,20/b,b,10,30/b,b,b,40/b,b,b,15 r -";

TEST(TimeManager, SpendsAnEvenShareOfTheClockPlusMostOfTheIncrement) {
  TimeBudget b = AllocateTime(60'010, 100, 0, 30);
  EXPECT_EQ(b.target_ms, 2000 + 90);
  EXPECT_EQ(b.limit_ms, 4 * b.target_ms);
}

TEST(TimeManager, SpendsNearlyAllOnTheLastDecisionBeforeTheControl) {
  TimeBudget b = AllocateTime(1'010, 0, 1, 30);
  EXPECT_EQ(b.target_ms, 900);
  EXPECT_EQ(b.limit_ms, 950);
}

TEST(TimeManager, NeverBudgetsMoreThanAFifthOfTheClockOrHalfAsALimit) {
  TimeBudget b = AllocateTime(10'010, 5'000, 0, 30);
  EXPECT_EQ(b.target_ms, 2000);
  EXPECT_EQ(b.limit_ms, 5000);
}

TEST(TimeManager, AnEmptyClockGivesTheShortestSearch) {
  TimeBudget b = AllocateTime(5, 0, 0, 30);
  EXPECT_EQ(b.target_ms, 1);
  EXPECT_EQ(b.limit_ms, 1);
}

TEST(TimeManager, FewerDecisionsAreLeftNearTheEnd) {
  Rules rules;
  int start = DecisionsLeft(Position::Start(rules), 0);
  int late = DecisionsLeft(P("h,h,h,50/b,b,b,b/h,h,h,h/b,b,b,b r -"), 0);
  EXPECT_GT(start, 40);
  EXPECT_EQ(late, 8);
}

TEST(TimeManager, TheTeamToThrowsClockIsRead) {
  Clocks clocks;
  clocks.time_ms[1] = 1000;
  Position red = P(kClockMid);
  EXPECT_FALSE(BudgetFor(clocks, red).has_value());
  EXPECT_EQ(CheckClocks(clocks, red).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(CheckClocks(clocks, red).message().find("wtime is missing"), std::string::npos);
  clocks.time_ms[0] = 1000;
  EXPECT_TRUE(BudgetFor(clocks, red).has_value());
  EXPECT_TRUE(CheckClocks(clocks, red).ok());
  EXPECT_TRUE(CheckClocks(Clocks{}, red).ok());
}

SearchReport ClockSearch(int64_t clock_ms) {
  Rules rules;
  SearchParams params;  // depth 2, as `expert`
  SearchLimits limits;
  limits.clocks.time_ms[0] = clock_ms;
  limits.clocks.time_ms[1] = clock_ms;
  TranspositionTable tt(16);
  std::atomic<bool> stop{false};
  return SearchPlay(P(kClockMid), rules, Throw{6, 5}, params, limits, &tt, stop, nullptr);
}

TEST(TimeManager, ALongClockLetsTheSearchDeepenPastTheLevel) {
  // 60 s over about 68 decisions: some 0.9 s a decision, enough for depth 3
  // (60 ms here), not for depth 4 (some 2 s).
#if defined(UCKERS_SANITIZED)
  GTEST_SKIP() << "timing: measured in the Release build";
#endif
  EXPECT_GE(ClockSearch(60'000).depth, 3);
}

TEST(TimeManager, AnEmptyClockDoesNotDeepenPastTheLevel) {
  // 1 ms to spend: depth 2 at most (cut short on a loaded machine).
  SearchReport r = ClockSearch(0);
  EXPECT_LE(r.depth, 2);
  EXPECT_FALSE(r.candidates.empty());
}

// The opponent model (SearchParams::random_opponent, the Opponent setting):
// the other team's throws averaged over its plays, on the net trained
// against `random`, its positions marked.
namespace {

// The definition, without pruning: the value of `pos` before its throw for
// its thrower, `depth` throws deep, with `random_team`'s plays averaged and
// the other team's best taken.
double BruteAgainstRandom(const Position& pos, const Net& net, int random_team, int depth) {
  NetInputs in;
  if (depth <= 0 || pos.IsGameOver()) return ValueAgainstRandom(net, pos, random_team, &in).Win();
  EXPECT_FALSE(pos.challenge_active()) << "brute force does not expand challenges";
  int team = TeamOf(pos.to_throw());
  double sum = 0;
  PlayList plays;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, net.rules(), t, &plays);
    double best = -1, mean = 0;
    for (const PlayResult& r : plays) {
      double v = BruteAgainstRandom(r.after, net, random_team, depth - 1);
      if (TeamOf(r.after.to_throw()) != team) v = 1 - v;
      best = std::max(best, v);
      mean += v / plays.size();
    }
    sum += t.Weight() / 36.0 * (team == random_team ? mean : best);
  }
  return sum;
}

SearchParams AgainstRandom(int depth) {
  SearchParams params;
  params.random_opponent = true;
  params.max_depth = depth;
  params.multipv = 64;
  params.filter_width = 0;
  return params;
}

const char* kMidgame = "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -";

}  // namespace

TEST(Opponent, RandomValuesEachPlayByTheNetTrainedAgainstItsMarkedPositions) {
  const Net* net = NetAgainstRandomFor(Rules());
  ASSERT_NE(net, nullptr);
  Position pos = P(kMidgame);
  int team = TeamOf(pos.to_throw());
  SearchReport r = SearchOnce(pos, Throw{5, 4}, AgainstRandom(1));
  ASSERT_GT(r.candidates.size(), 2u);
  for (const Candidate& c : r.candidates) {
    double v = BruteAgainstRandom(c.after, *net, 1 - team, 0);
    if (TeamOf(c.after.to_throw()) != team) v = 1 - v;
    EXPECT_NEAR(c.eval.Win(), v, 1e-6) << PlayToString(c.play);
  }
  // The mark changes the values: the net unmarked gives others.
  NetInputs in;
  EXPECT_GT(std::abs(ValueAgainstRandom(*net, r.candidates[0].after, 1 - team, &in).Win() -
                     ValueAgainstRandom(*net, r.candidates[0].after, -1, &in).Win()),
            1e-3);
}

TEST(Opponent, RandomAveragesTheOtherTeamsThrowOverItsPlays) {
  const Net* net = NetAgainstRandomFor(Rules());
  ASSERT_NE(net, nullptr);
  Position pos = P(kMidgame);
  int team = TeamOf(pos.to_throw());
  SearchLimits limits;
  limits.depth = 2;
  SearchReport r = SearchOnce(pos, Throw{5, 4}, AgainstRandom(2), limits);
  ASSERT_EQ(r.depth, 2);
  ASSERT_GT(r.candidates.size(), 2u);
  for (const Candidate& c : r.candidates) {
    double v = BruteAgainstRandom(c.after, *net, 1 - team, 1);
    if (TeamOf(c.after.to_throw()) != team) v = 1 - v;
    EXPECT_NEAR(c.eval.Win(), v, 1e-5) << PlayToString(c.play);
  }
  // Averaged, not the replies' best: the values differ from the search
  // that takes them as the best, on the same net.
  SearchParams best = AgainstRandom(2);
  best.random_opponent = false;
  best.net = net;
  SearchReport b = SearchOnce(pos, Throw{5, 4}, best, limits);
  EXPECT_GT(r.candidates[0].eval.Win(), b.candidates[0].eval.Win() + 1e-3);
}

TEST(Opponent, ModelsKeepTheirValuesApartInTheTranspositionTable) {
  // One table for searches under both models: each finds what a fresh
  // table gives it, not the other model's values.
  Position pos = P(kMidgame);
  SearchLimits limits;
  limits.depth = 2;
  SearchParams best;
  best.max_depth = 2;
  SearchParams random = AgainstRandom(2);
  random.multipv = 1;
  TranspositionTable shared(1);
  std::atomic<bool> stop{false};
  SearchReport b1 = SearchPlay(pos, Rules(), Throw{5, 4}, best, limits, &shared, stop, nullptr);
  SearchReport r1 = SearchPlay(pos, Rules(), Throw{5, 4}, random, limits, &shared, stop, nullptr);
  SearchReport b2 = SearchPlay(pos, Rules(), Throw{5, 4}, best, limits, &shared, stop, nullptr);
  SearchReport r2 = SearchOnce(pos, Throw{5, 4}, random, limits);
  EXPECT_NEAR(r1.eval.Win(), r2.eval.Win(), 1e-6);
  EXPECT_NEAR(b1.eval.Win(), b2.eval.Win(), 1e-6);
  EXPECT_GT(std::abs(r1.eval.Win() - b1.eval.Win()), 1e-3);
}

TEST(Opponent, RandomIsRefusedWhereNoNetOrSearchServesIt) {
  SearchParams params;
  EXPECT_TRUE(CheckOpponentModel(params, Rules()).ok());
  params.random_opponent = true;
  EXPECT_TRUE(CheckOpponentModel(params, Rules()).ok());
  SearchParams mcts = params;
  mcts.algorithm = Algorithm::kMcts;
  EXPECT_NE(std::string(CheckOpponentModel(mcts, Rules()).message()).find("expectimax, not mcts"),
            std::string::npos);
  SearchParams classic = params;
  classic.eval = EvalKind::kClassic;
  EXPECT_NE(std::string(CheckOpponentModel(classic, Rules()).message())
                .find("not the classic evaluation"),
            std::string::npos);
  absl::Status wafu = CheckOpponentModel(params, *Rules::Parse("wafu"));
  EXPECT_EQ(wafu.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(wafu.message()).find("no net trained against random"), std::string::npos);
  // With more sides max^n averages the other sides' plays, on any
  // evaluation; MCTS-max^n does not model them.
  EXPECT_TRUE(CheckOpponentModel(params, *Rules::Parse("six")).ok());
  EXPECT_TRUE(CheckOpponentModel(classic, *Rules::Parse("six+solo")).ok());
  EXPECT_NE(std::string(CheckOpponentModel(mcts, *Rules::Parse("six")).message())
                .find("with more sides the search must be expectimax (max^n), not mcts"),
            std::string::npos);
}

TEST(Opponent, RandomConsultsNoEndgameTable) {
  // The tables' values assume the best replies.
  SearchParams params;
  params.random_opponent = true;
  params.endgame = &Endgame1v1();
  EXPECT_EQ(ResolveEvaluation(params, Rules()).endgame, nullptr);
  params.random_opponent = false;
  EXPECT_EQ(ResolveEvaluation(params, Rules()).endgame, &Endgame1v1());
}

TEST(Opponent, AutoSearchesAgainstRandomOnceThePlaysLookRandom) {
  // Opponent=auto: the search the front asks for once the other team's
  // plays look random is the one Opponent=random makes; before, the one
  // that assumes the best replies.
  Position pos = P(kMidgame);
  SearchLimits limits;
  limits.depth = 2;
  SearchParams autop = AgainstRandom(2);
  autop.random_opponent = false;
  autop.infer_opponent = true;
  SearchParams best = autop;
  best.infer_opponent = false;
  SearchReport unseen = SearchOnce(pos, Throw{5, 4}, autop, limits);
  SearchReport b = SearchOnce(pos, Throw{5, 4}, best, limits);
  EXPECT_NEAR(unseen.eval.Win(), b.eval.Win(), 1e-9);
  autop.opponent_looks_random = true;
  SearchReport seen = SearchOnce(pos, Throw{5, 4}, autop, limits);
  SearchReport r = SearchOnce(pos, Throw{5, 4}, AgainstRandom(2), limits);
  ASSERT_EQ(seen.candidates.size(), r.candidates.size());
  for (size_t i = 0; i < r.candidates.size(); ++i) {
    EXPECT_NEAR(seen.candidates[i].eval.Win(), r.candidates[i].eval.Win(), 1e-9);
  }
  EXPECT_GT(std::abs(seen.eval.Win() - b.eval.Win()), 1e-3);
}

TEST(Opponent, AutoAssumesTheBestRepliesWhereTheModelCannotServe) {
  // No net against random for wafu, none for MCTS: auto searches as best
  // there, and is no error.
  SearchParams params;
  params.infer_opponent = true;
  params.opponent_looks_random = true;
  EXPECT_TRUE(CheckOpponentModel(params, *Rules::Parse("wafu")).ok());
  EXPECT_FALSE(WithOpponentInferred(params, *Rules::Parse("wafu")).random_opponent);
  EXPECT_TRUE(WithOpponentInferred(params, Rules()).random_opponent);
  params.algorithm = Algorithm::kMcts;
  EXPECT_FALSE(WithOpponentInferred(params, Rules()).random_opponent);
  EXPECT_TRUE(CheckOpponentModel(params, Rules()).ok());
}

// What Opponent=auto goes by (search/opponent_model.h): the log odds of a
// player drawing its plays at random over one judging them.
namespace {

// The definition: ln(1/n) - ln(mean over the temperatures of the judged
// hypothesis' probability of the play chosen), for one decision.
double DecisionLogOdds(const std::vector<double>& wins, int chosen) {
  double n = static_cast<double>(wins.size());
  double best = *std::max_element(wins.begin(), wins.end());
  double judged = 0;
  for (double t : PlayerEvidence::kTemperatures) {
    double sum = 0;
    for (double w : wins) sum += std::exp((w - best) / t);
    double p = std::exp((wins[chosen] - best) / t) / sum;
    judged += ((1 - PlayerEvidence::kJudgedMix) * p + PlayerEvidence::kJudgedMix / n) /
              PlayerEvidence::kTemperatures.size();
  }
  return std::log(1 / n) - std::log(judged);
}

}  // namespace

TEST(OpponentEvidence, PlaysOfEqualValueTellNothing) {
  PlayerEvidence e;
  for (int i = 0; i < 20; ++i) e.Add({0.4, 0.4, 0.4}, i % 3);
  EXPECT_EQ(e.decisions(), 20);
  EXPECT_NEAR(e.LogOdds(), 0, 1e-9);
  EXPECT_FALSE(e.LooksRandom());
}

TEST(OpponentEvidence, LogOddsAreTheRatioOfTheTwoHypothesesLikelihoods) {
  std::vector<double> wins = {0.50, 0.47, 0.40, 0.52};
  for (int chosen = 0; chosen < 4; ++chosen) {
    PlayerEvidence e;
    e.Add(wins, chosen);
    EXPECT_NEAR(e.LogOdds(), DecisionLogOdds(wins, chosen), 1e-9) << chosen;
  }
  // Over two decisions the temperature is one and the same: the judged
  // likelihood is the mean over the temperatures of the product.
  PlayerEvidence two;
  two.Add(wins, 2);
  two.Add(wins, 0);
  double judged = 0;
  for (double t : PlayerEvidence::kTemperatures) {
    double product = 1;
    for (int chosen : {2, 0}) {
      double sum = 0;
      for (double w : wins) sum += std::exp((w - 0.52) / t);
      double p = std::exp((wins[chosen] - 0.52) / t) / sum;
      product *= (1 - PlayerEvidence::kJudgedMix) * p + PlayerEvidence::kJudgedMix / 4;
    }
    judged += product / PlayerEvidence::kTemperatures.size();
  }
  EXPECT_NEAR(two.LogOdds(), std::log(1.0 / 16) - std::log(judged), 1e-9);
}

TEST(OpponentEvidence, TheBestPlayEachTimeNeverLooksRandom) {
  PlayerEvidence e;
  double last = 0;
  for (int i = 0; i < 30; ++i) {
    e.Add({0.30, 0.45 + 0.001 * i, 0.44, 0.20}, 1);
    EXPECT_LT(e.LogOdds(), last);
    last = e.LogOdds();
  }
  EXPECT_FALSE(e.LooksRandom());
}

TEST(OpponentEvidence, ThePoorestPlayEachTimeLooksRandomWithinAFewDecisions) {
  PlayerEvidence e;
  int decisions = 0;
  while (!e.LooksRandom() && decisions < 100) {
    e.Add({0.30, 0.45, 0.44, 0.20}, 3);
    ++decisions;
  }
  EXPECT_TRUE(e.LooksRandom());
  EXPECT_LE(decisions, 3);
}

TEST(OpponentEvidence, TwoStretchesOfPlaysAddUpAsOne) {
  std::vector<std::pair<std::vector<double>, int>> plays = {
      {{0.5, 0.4}, 1}, {{0.3, 0.31, 0.2}, 2}, {{0.6, 0.6, 0.1}, 0}, {{0.2, 0.25}, 0}};
  PlayerEvidence whole, first, second;
  for (size_t i = 0; i < plays.size(); ++i) {
    whole.Add(plays[i].first, plays[i].second);
    (i < 2 ? first : second).Add(plays[i].first, plays[i].second);
  }
  first.Add(second);
  EXPECT_EQ(first.decisions(), 4);
  EXPECT_NEAR(first.LogOdds(), whole.LogOdds(), 1e-12);
}

TEST(OpponentEvidence, EachTeamsDecisionsAreWeighedApart) {
  Rules rules;
  OpponentEvidence evidence(rules);
  Position pos = P(kMidgame);
  int team = TeamOf(pos.to_throw());
  PlayList plays;
  GenerateLegalPlays(pos, rules, Throw{5, 4}, &plays);
  ASSERT_GT(plays.size(), 2);
  evidence.Observe(pos, Throw{5, 4}, plays[1].after);
  EXPECT_EQ(evidence.Of(team).decisions(), 1);
  EXPECT_EQ(evidence.Of(1 - team).decisions(), 0);
  // A position no legal play of the throw leads to tells nothing.
  evidence.Observe(pos, Throw{5, 4}, pos);
  EXPECT_EQ(evidence.Of(team).decisions(), 1);
  // Nor does a throw of one legal play (the start: only a six leaves base).
  Position start = Position::Start(rules);
  GenerateLegalPlays(start, rules, Throw{2, 1}, &plays);
  ASSERT_EQ(plays.size(), 1);
  evidence.Observe(start, Throw{2, 1}, plays[0].after);
  EXPECT_EQ(evidence.Of(TeamOf(start.to_throw())).decisions(),
            TeamOf(start.to_throw()) == team ? 1 : 0);
  evidence.Clear();
  EXPECT_EQ(evidence.Of(team).decisions(), 0);
}

// A decision of the team that throws at `pos` (Throw{5, 4}, not a double:
// the turn then passes to the other team), and the position it leads to.
Position OneDecision(OpponentJudge* judge, const Position& pos, const Rules& rules) {
  PlayList plays;
  GenerateLegalPlays(pos, rules, Throw{5, 4}, &plays);
  EXPECT_GT(plays.size(), 1);
  judge->Observe(pos, Throw{5, 4}, plays[1].after);
  return plays[1].after;
}

TEST(OpponentJudge, TheVerdictIsOnTheTeamNotToThrow) {
  Rules rules;
  OpponentJudge judge(rules);
  Position pos = P(kMidgame);
  const int opponent = TeamOf(pos.to_throw());
  Position mine = OneDecision(&judge, pos, rules);
  ASSERT_NE(TeamOf(mine.to_throw()), opponent);
  OpponentJudge::Verdict verdict = judge.Against(mine);
  EXPECT_EQ(verdict.team, opponent);
  EXPECT_EQ(verdict.evidence.decisions(), 1);
  EXPECT_EQ(judge.Against(pos).evidence.decisions(), 0);
}

TEST(OpponentJudge, ANewGameKeepsTheOpponentsDecisionsNotThePlayers) {
  Rules rules;
  OpponentJudge judge(rules);
  Position pos = P(kMidgame);
  Position mine = OneDecision(&judge, pos, rules);  // the opponent's
  ASSERT_GT(judge.Against(mine).evidence.decisions(), 0);
  OneDecision(&judge, mine, rules);  // the player's own
  judge.NewGame();
  EXPECT_EQ(judge.game().Of(0).decisions() + judge.game().Of(1).decisions(), 0);
  // The opponent's one decision holds in the next game, whatever seat the
  // player then takes; the player's own does not count against it.
  EXPECT_EQ(judge.Against(mine).evidence.decisions(), 1);
  EXPECT_EQ(judge.Against(pos).evidence.decisions(), 1);
}

TEST(OpponentJudge, AnotherOpponentForgetsEveryDecision) {
  Rules rules;
  OpponentJudge judge(rules);
  Position pos = P(kMidgame);
  Position mine = OneDecision(&judge, pos, rules);
  judge.Against(mine);
  judge.NewGame();
  OneDecision(&judge, pos, rules);
  judge.NewOpponent();
  EXPECT_EQ(judge.Against(mine).evidence.decisions(), 0);
}

// With more sides each other side is judged by its own plays: the side
// that takes its poorest play each time comes to look random, the sides
// that take their best do not.
TEST(OpponentJudge, OnALayoutOfMoreSidesEachOtherSideIsJudgedByItsOwnPlays) {
  Rules rules = *Rules::Parse("navy+solo");
  OpponentJudge judge(rules);
  OpponentEvidence values(rules);
  Position pos = Position::Start(rules);
  std::mt19937_64 rng(3);
  for (int ply = 0; ply < 400 && !pos.IsGameOver(); ++ply) {
    Throw t = kThrows[rng() % kThrows.size()];
    PlayList plays;
    GenerateLegalPlays(pos, rules, t, &plays);
    std::vector<double> wins = values.PlayValues(pos, plays);
    const bool poorest = pos.SideOf(pos.to_throw()) == 1;
    int chosen = static_cast<int>((poorest ? std::min_element(wins.begin(), wins.end())
                                           : std::max_element(wins.begin(), wins.end())) -
                                  wins.begin());
    judge.Observe(pos, t, plays[chosen].after);
    pos = plays[chosen].after;
    if (judge.game().Of(1).LooksRandom() && pos.SideOf(pos.to_throw()) == 0) break;
  }
  ASSERT_FALSE(pos.IsGameOver());
  ASSERT_EQ(pos.SideOf(pos.to_throw()), 0);
  OpponentJudge::Verdict verdict = judge.Against(pos);
  EXPECT_EQ(verdict.team, -1);
  EXPECT_EQ(verdict.random_sides, 1u << 1)
      << "decisions of side 1: " << judge.game().Of(1).decisions();
}

}  // namespace
}  // namespace uckers::testing

namespace uckers {
namespace {

// Clear empties the table at once, through the wrap of its generations too.
TEST(TranspositionTable, ClearForgetsEveryEntryThroughTheGenerationsWrap) {
  TranspositionTable tt(1);
  TtEntry e;
  e.key = 12345;
  e.depth = 3;
  e.bound = Bound::kExact;
  e.score = 0.25f;
  TtEntry out;
  for (int clears = 0; clears < 70000; ++clears) {
    tt.Store(e);
    ASSERT_TRUE(tt.Probe(e.key, &out)) << clears;
    tt.Clear();
    ASSERT_FALSE(tt.Probe(e.key, &out)) << "after clear " << clears;
  }
  // A shallower entry replaces a deeper one of an earlier generation.
  tt.Store(e);
  tt.Clear();
  TtEntry shallow = e;
  shallow.depth = 1;
  shallow.score = 0.5f;
  tt.Store(shallow);
  ASSERT_TRUE(tt.Probe(e.key, &out));
  EXPECT_EQ(out.depth, 1);
  EXPECT_EQ(out.score, 0.5f);
}

}  // namespace
}  // namespace uckers
