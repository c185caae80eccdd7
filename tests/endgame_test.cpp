// The 1v1 endgame table (docs/endgames.md) against the rules core.
#include "endgame/endgame.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

#include "engine/movegen.h"
#include "engine/types.h"
#include "gtest/gtest.h"

namespace uckers {
namespace {

const EndgameTable& NavyTable() {
  static const EndgameTable* table = [] {
    absl::StatusOr<EndgameTable> t = EndgameTable::Build(Rules());
    EXPECT_TRUE(t.ok()) << t.status();
    return new EndgameTable(*std::move(t));
  }();
  return *table;
}

// The successor's value for the team to throw in `from`.
double ValueFor(const EndgameTable& table, const Position& from, const Position& after) {
  int team = TeamOf(from.to_throw());
  if (after.IsGameOver()) return after.WinningTeam() == team ? 1.0 : 0.0;
  std::optional<double> v = table.Probe(after);
  EXPECT_TRUE(v.has_value());
  return TeamOf(after.to_throw()) == team ? *v : 1.0 - *v;
}

double RightHandSide(const EndgameTable& table, const Position& pos) {
  double total = 0;
  PlayList plays;
  for (const Throw& t : kThrows) {
    GenerateLegalPlays(pos, Rules(), t, &plays);
    double best = 0;
    for (const PlayResult& r : plays) best = std::max(best, ValueFor(table, pos, r.after));
    total += best * t.Weight() / 36.0;
  }
  return total;
}

// Red (team 0) and blue (team 1) each with one piece out; yellow and green
// all home and released.
Position RedBlue(Square red, Square blue, int to_throw) {
  Position pos = Position::Start(Rules());
  pos.SetPieces(kRed, {red, kHome, kHome, kHome});
  pos.SetPieces(kBlue, {blue, kHome, kHome, kHome});
  pos.SetPieces(kGreen, {kHome, kHome, kHome, kHome});
  pos.SetPieces(kYellow, {kHome, kHome, kHome, kHome});
  pos.SetReleased(1 << kGreen | 1 << kYellow);
  pos.SetToThrow(to_throw);
  return pos;
}

TEST(Endgame, BellmanEquationHoldsOnRandomClassPositions) {
  const EndgameTable& table = NavyTable();
  std::mt19937_64 rng(29);
  int checked = 0;
  while (checked < 200) {
    std::optional<Position> pos = EndgameTable::PositionAt(rng() % EndgameTable::kSlots, Rules());
    if (!pos.has_value()) continue;
    ASSERT_TRUE(pos->IsOk());
    EXPECT_NEAR(*table.Probe(*pos), RightHandSide(table, *pos), 1e-6);
    ++checked;
  }
}

// RULES.md §4 (exact throw home, rule 10(b)): a piece on lane square 55
// goes home only with a 1 on either die; §3.3: a six earns one more throw. Both teams on 55: V =
// 11/36 + 9/36 V + 16/36 (1 - V), so V = 27/43.
TEST(Endgame, LastPieceOnFiftyFiveAgainstFiftyFiveMatchesHandValue) {
  Position pos = RedBlue(55, 55, kRed);
  ASSERT_TRUE(NavyTable().Probe(pos).has_value());
  EXPECT_NEAR(*NavyTable().Probe(pos), 27.0 / 43.0, 1e-6);
}

TEST(Endgame, PositionOutsideTheClassIsNotCovered) {
  EXPECT_FALSE(NavyTable().Probe(Position::Start(Rules())).has_value());
}

// Rotating every colour one seat on swaps the teams' roles; the board is
// symmetric (§1), so the team to throw, now the other team, keeps its value.
TEST(Endgame, RotatingColoursOneSeatKeepsTheThrowersValue) {
  const EndgameTable& table = NavyTable();
  std::mt19937_64 rng(7);
  for (int n = 0; n < 200;) {
    std::optional<Position> pos = EndgameTable::PositionAt(rng() % EndgameTable::kSlots, Rules());
    if (!pos.has_value()) continue;
    Position rotated = Position::Start(Rules());
    uint8_t released = 0;
    for (int c = 0; c < kNumColours; ++c) {
      rotated.SetPieces(NextColour(c), pos->pieces(c));
      if (pos->released(c)) released |= 1 << NextColour(c);
    }
    rotated.SetReleased(released);
    rotated.SetToThrow(NextColour(pos->to_throw()));
    ASSERT_TRUE(table.Probe(rotated).has_value());
    EXPECT_NEAR(*table.Probe(rotated), *table.Probe(*pos), 1e-6);
    ++n;
  }
}

TEST(Endgame, SaveLoadRoundTripsAndRefusesOtherRules) {
  const EndgameTable& table = NavyTable();
  std::string path = ::testing::TempDir() + "/endgame_test.tbl";
  ASSERT_TRUE(table.Save(path).ok());
  absl::StatusOr<EndgameTable> loaded = EndgameTable::Load(path, Rules());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->size(), table.size());
  Position pos = RedBlue(20, kBase, kBlue);
  EXPECT_EQ(*loaded->Probe(pos), *table.Probe(pos));
  Rules other;
  other.set(Switch::kOneLessSix, true);
  absl::StatusOr<EndgameTable> refused = EndgameTable::Load(path, other);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("rules"), std::string::npos);
  std::remove(path.c_str());
}

TEST(Endgame, LoadRefusesAFileThatIsNotATable) {
  std::string path = ::testing::TempDir() + "/endgame_junk.tbl";
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs("not a table", f);
  std::fclose(f);
  EXPECT_FALSE(EndgameTable::Load(path, Rules()).ok());
  std::remove(path.c_str());
}

TEST(Endgame, BuildRefusesUnmodelledSwitches) {
  Rules rules;
  rules.set(Switch::kSuckBack, true);
  EXPECT_FALSE(EndgameTable::Build(rules).ok());
}

TEST(Endgame, BestPlayHasTheMaximalSuccessorValue) {
  const EndgameTable& table = NavyTable();
  Position pos = RedBlue(40, 10, kYellow);  // yellow moves red
  PlayList plays;
  for (const Throw& t : kThrows) {
    absl::StatusOr<PlayResult> best = table.BestPlay(pos, t);
    ASSERT_TRUE(best.ok()) << best.status();
    GenerateLegalPlays(pos, Rules(), t, &plays);
    double max = 0;
    for (const PlayResult& r : plays) max = std::max(max, ValueFor(table, pos, r.after));
    EXPECT_NEAR(ValueFor(table, pos, best->after), max, 1e-9);
  }
}

}  // namespace
}  // namespace uckers
