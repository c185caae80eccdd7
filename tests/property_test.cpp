// Random-game property tests, run under every ruleset (OpenSpiel style):
// invariants that must hold at every state of every game.
#include <set>

#include "eval/evaluate.h"
#include "tests/random_game.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

constexpr int kGamesPerRuleset = 40;
constexpr int kMaxSteps = 5000;

// RULES.md §2: all pieces on a main-track square belong to one team.
bool TeamsApart(const Position& pos) {
  int owner[kTrackSquares];
  std::fill(owner, owner + kTrackSquares, -1);
  for (int c = 0; c < kNumColours; ++c) {
    for (Square sq : pos.pieces(c)) {
      if (!OnTrack(sq)) continue;
      int abs = (13 * c + sq) % 52;
      if (owner[abs] >= 0 && owner[abs] != TeamOf(c)) return false;
      owner[abs] = TeamOf(c);
    }
  }
  return true;
}

void CheckPosition(const Position& pos, const Rules& rules, const std::string& where) {
  ASSERT_TRUE(pos.IsOk()) << where;
  ASSERT_EQ(pos.key(), pos.ComputeKey()) << where;
  ASSERT_TRUE(TeamsApart(pos)) << where;
  for (int c = 0; c < kNumColours; ++c) {
    for (Square sq : pos.pieces(c)) ASSERT_TRUE(sq >= kBase && sq <= kHome) << where;
  }
  absl::StatusOr<Position> reparsed = ParseUfen(ToUfen(pos), rules);
  ASSERT_TRUE(reparsed.ok()) << where << ": " << reparsed.status();
  ASSERT_EQ(*reparsed, pos) << where;
  Evaluation e = Evaluate(pos, rules);
  double sum = 0;
  for (double p : e.p) {
    ASSERT_GE(p, 0.0) << where;
    sum += p;
  }
  ASSERT_NEAR(sum, 1.0, 1e-9) << where;
}

// Every play of every throw: distinct results, and its text parses back to it.
void CheckPlays(const Position& pos, const Rules& rules, const std::string& where) {
  PlayList plays;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, rules, t, &plays);
    ASSERT_EQ(plays.empty(), pos.IsGameOver()) << where;
    std::set<uint64_t> keys;
    for (const PlayResult& r : plays) {
      ASSERT_TRUE(keys.insert(r.after.key()).second) << where << " duplicate result";
      ASSERT_TRUE(r.after.IsOk()) << where;
      std::string text = PlayToString(r.play);
      absl::StatusOr<PlayResult> parsed = ParsePlay(text, pos, rules, t);
      ASSERT_TRUE(parsed.ok()) << where << " " << text << ": " << parsed.status();
      ASSERT_EQ(parsed->after, r.after) << where << " " << text;
      ASSERT_EQ(PlayToString(parsed->play), text) << where;
    }
  }
}

class RandomGames : public ::testing::TestWithParam<std::string> {};

TEST_P(RandomGames, InvariantsHoldAndEveryGameEnds) {
  Rules rules = R(GetParam());
  std::mt19937_64 rng(std::hash<std::string>()(GetParam()) ^ 0x5eed);
  for (int game = 0; game < kGamesPerRuleset; ++game) {
    Position pos = Position::Start(rules);
    int step = 0;
    for (; step < kMaxSteps; ++step) {
      std::string where =
          absl::StrCat(GetParam(), " game ", game, " step ", step, ": ", ToUfen(pos));
      CheckPosition(pos, rules, where);
      if (game < 4) CheckPlays(pos, rules, where);
      if (!RandomStep(pos, rules, rng)) break;
    }
    ASSERT_LT(step, kMaxSteps) << "game did not end: " << ToUfen(pos);
    ASSERT_TRUE(pos.IsGameOver());
    ASSERT_NE(pos.Outcome(), OutcomeLevel::kNone);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryRuleset, RandomGames, ::testing::ValuesIn(AllRulesets()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// RULES.md §11: on any board, the pieces on a main-track square belong to
// one side.
bool SidesApart(const Position& pos) {
  const Board& b = pos.board();
  std::vector<int> owner(b.track, -1);
  for (int c = 0; c < b.colours; ++c) {
    for (Square sq : pos.pieces(c)) {
      if (!b.OnTrack(sq)) continue;
      int abs = b.Absolute(c, sq);
      if (owner[abs] >= 0 && owner[abs] != pos.SideOf(c)) return false;
      owner[abs] = pos.SideOf(c);
    }
  }
  return true;
}

void CheckLayoutPosition(const Position& pos, const Rules& rules, const std::string& where) {
  ASSERT_EQ(pos.layout_id(), rules.layout_id()) << where;
  ASSERT_TRUE(pos.IsOk()) << where;
  ASSERT_TRUE(SidesApart(pos)) << where;
  absl::StatusOr<Position> reparsed = ParseUfen(ToUfen(pos), rules);
  ASSERT_TRUE(reparsed.ok()) << where << ": " << reparsed.status();
  ASSERT_EQ(*reparsed, pos) << where;
  // A released colour moves a partner of its own side (never itself).
  if (pos.released(pos.to_throw()) && !pos.IsGameOver()) {
    int moving = pos.MovingColour();
    ASSERT_NE(moving, pos.to_throw()) << where;
    ASSERT_EQ(pos.SideOf(moving), pos.SideOf(pos.to_throw())) << where;
  }
}

void CheckLayoutPlays(const Position& pos, const Rules& rules, const std::string& where) {
  PlayList plays;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, rules, t, &plays);
    ASSERT_EQ(plays.empty(), pos.IsGameOver()) << where;
    std::set<uint64_t> keys;
    for (const PlayResult& r : plays) {
      ASSERT_TRUE(keys.insert(r.after.key()).second) << where << " duplicate result";
      std::string text = PlayToString(r.play, pos.board());
      absl::StatusOr<PlayResult> parsed = ParsePlay(text, pos, rules, t);
      ASSERT_TRUE(parsed.ok()) << where << " " << text << ": " << parsed.status();
      ASSERT_EQ(parsed->after, r.after) << where << " " << text;
    }
  }
}

// RULES.md §11: every game on every layout ends with one side home; the
// points are zero-sum, the winners scoring against each losing side 1..3.
class RandomLayoutGames : public ::testing::TestWithParam<std::string> {};

TEST_P(RandomLayoutGames, InvariantsHoldAndEveryGameEndsWithZeroSumPoints) {
  Rules rules = R(GetParam());
  std::mt19937_64 rng(std::hash<std::string>()(GetParam()) ^ 0x5eed);
  for (int game = 0; game < kGamesPerRuleset / 2; ++game) {
    Position pos = Position::Start(rules);
    int step = 0;
    for (; step < kMaxSteps; ++step) {
      std::string where =
          absl::StrCat(GetParam(), " game ", game, " step ", step, ": ", ToUfen(pos));
      CheckLayoutPosition(pos, rules, where);
      if (game < 2) CheckLayoutPlays(pos, rules, where);
      if (!RandomStep(pos, rules, rng)) break;
    }
    ASSERT_LT(step, kMaxSteps) << "game did not end: " << ToUfen(pos);
    ASSERT_TRUE(pos.IsGameOver());
    int winners = pos.WinningSide();
    SidePoints points = pos.Points();
    int sum = 0;
    for (int side = 0; side < pos.num_sides(); ++side) {
      sum += points[side];
      if (side == winners) continue;
      ASSERT_GE(-points[side], 1) << ToUfen(pos);
      ASSERT_LE(-points[side], 3) << ToUfen(pos);
    }
    ASSERT_EQ(sum, 0) << ToUfen(pos);
    ASSERT_GE(points[winners], pos.num_sides() - 1) << ToUfen(pos);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryLayout, RandomLayoutGames, ::testing::ValuesIn(AllLayoutRulesets()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// OpenSpiel: the chance node's outcomes have weights summing to one.
TEST(Chance, TwentyOneThrowsWeighThirtySix) {
  int total = 0;
  std::set<std::pair<int, int>> seen;
  for (Throw t : kThrows) {
    total += t.Weight();
    EXPECT_TRUE(seen.insert({t.high, t.low}).second);
    EXPECT_GE(t.high, t.low);
  }
  EXPECT_EQ(kThrows.size(), 21u);
  EXPECT_EQ(total, 36);
}

}  // namespace
}  // namespace uckers::testing
