// Exact endgame tables (endgame/, docs/endgames.md): the 1v1 class built
// here against a brute-force expectimax over whole positions, the Bellman
// equation through the engine's move generator, the symmetries the index
// relies on, the index itself, challenges under way, and the table file.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "endgame/bellman.h"
#include "endgame/check.h"
#include "endgame/index.h"
#include "endgame/solver.h"
#include "endgame/table.h"
#include "gtest/gtest.h"
#include "rules/movegen.h"
#include "rules/turn.h"
#include "rules/ufen.h"

namespace uckers::testing {
namespace {

// Stored values are 16-bit fixed point: each is within half a step of the
// exact value, and an average of them within the same.
constexpr double kStep = 1.0 / 65535.0;
constexpr double kTolerance = 1.5 * kStep;

const EndgameTable& Table1v1() {
  static const EndgameTable* table = [] {
    absl::StatusOr<EndgameTable> t = BuildEndgameTable(EndgameClass::k1v1, Rules{}, {}, nullptr);
    EXPECT_TRUE(t.ok()) << t.status();
    return new EndgameTable(std::move(*t));
  }();
  return *table;
}

std::array<Square, kPiecesPerColour> Row(std::initializer_list<int> squares) {
  std::array<Square, kPiecesPerColour> row;
  row.fill(kHome);
  int i = 0;
  for (int sq : squares) row[i++] = static_cast<Square>(sq);
  return row;
}

// A position of the family: each team's playing colour and its pieces not
// home, the partner home and released; `to_throw` any colour.
Position Family(int mover, std::initializer_list<int> mover_squares, int opponent,
                std::initializer_list<int> opponent_squares, int to_throw) {
  Position pos = Position::Start(Rules{});
  pos.SetPieces(mover, Row(mover_squares));
  pos.SetPieces(PartnerOf(mover), Row({}));
  pos.SetPieces(opponent, Row(opponent_squares));
  pos.SetPieces(PartnerOf(opponent), Row({}));
  pos.SetReleased(static_cast<uint8_t>(1 << PartnerOf(mover) | 1 << PartnerOf(opponent)));
  pos.SetToThrow(to_throw);
  return pos;
}

// A random position of the 1v1 family, any seats, any colour to throw.
Position Random1v1(std::mt19937_64& rng) {
  int mover = static_cast<int>(rng() % 4);
  int opponent = rng() % 2 ? NextColour(mover) : PartnerOf(NextColour(mover));
  std::uniform_int_distribution<int> square(kBase, kHome - 1);
  int to_throw = static_cast<int>(rng() % 4);
  return Family(mover, {square(rng)}, opponent, {square(rng)}, to_throw);
}

struct KeyHash {
  size_t operator()(const Position& p) const { return p.key(); }
};

// Plain value iteration over whole positions, no index, no symmetry: every
// position reachable from the seeds, each throw's plays from the engine,
// Jacobi sweeps until nothing moves. The definition the table must meet.
class BruteForce {
 public:
  explicit BruteForce(const std::vector<Position>& seeds) {
    for (const Position& p : seeds) Id(p);
    for (size_t i = 0; i < positions_.size(); ++i) Expand(i);
    Solve();
  }
  const std::unordered_map<Position, int, KeyHash>& ids() const { return ids_; }
  // The win probability of the team to throw.
  double Win(const Position& p) const { return win_[ids_.at(p)]; }
  bool Has(const Position& p) const { return ids_.count(p) > 0; }

 private:
  // A successor: a finished game (its value for the mover's team) or a
  // position (id), flipped when the other team is to throw.
  struct Edge {
    int id = -1;
    double terminal = 0;
    bool flip = false;
  };
  struct Node {
    std::vector<std::vector<Edge>> throws;  // per throw, per play
  };

  int Id(const Position& p) {
    auto [it, added] = ids_.emplace(p, static_cast<int>(positions_.size()));
    if (added) positions_.push_back(p);
    return it->second;
  }

  void Expand(size_t i) {
    Position pos = positions_[i];
    Node node;
    PlayList plays;
    int team = TeamOf(pos.to_throw());
    for (Throw t : kThrows) {
      GenerateLegalPlays(pos, Rules{}, t, &plays);
      std::vector<Edge> edges;
      for (const PlayResult& r : plays) {
        Edge e;
        if (r.after.IsGameOver()) {
          e.terminal = r.after.WinningTeam() == team ? 1.0 : 0.0;
        } else {
          e.id = Id(r.after);
          e.flip = TeamOf(r.after.to_throw()) != team;
        }
        edges.push_back(e);
      }
      node.throws.push_back(edges);
    }
    nodes_.push_back(std::move(node));
  }

  void Solve() {
    win_.assign(positions_.size(), 0.5);
    for (int sweep = 0; sweep < 100000; ++sweep) {
      std::vector<double> next(win_.size());
      double change = 0;
      for (size_t i = 0; i < nodes_.size(); ++i) {
        double sum = 0;
        for (int k = 0; k < 21; ++k) {
          double best = -1;
          for (const Edge& e : nodes_[i].throws[k]) {
            double v = e.id < 0 ? e.terminal : (e.flip ? 1 - win_[e.id] : win_[e.id]);
            best = std::max(best, v);
          }
          sum += kThrows[k].Weight() * best;
        }
        next[i] = sum / 36;
        change = std::max(change, std::abs(next[i] - win_[i]));
      }
      win_ = std::move(next);
      if (change < 1e-11) return;
    }
    ADD_FAILURE() << "brute force did not settle";
  }

  std::unordered_map<Position, int, KeyHash> ids_;
  std::vector<Position> positions_;
  std::vector<Node> nodes_;
  std::vector<double> win_;
};

const BruteForce& Brute1v1() {
  static const BruteForce* brute = [] {
    std::vector<Position> seeds;
    // Every seat turning of every canonical position, either colour of a
    // team to throw: the seats never turn in play, so all are seeds.
    for (uint32_t i = 0; i < ShapeSize(0); ++i) {
      for (int seats = 0; seats < 4; ++seats) {
        Position pos = TurnSeats(PositionAt({0, i}), seats);
        seeds.push_back(pos);
        pos.SetToThrow(PartnerOf(pos.to_throw()));
        seeds.push_back(pos);
      }
    }
    return new BruteForce(seeds);
  }();
  return *brute;
}

// The table's win probability for the team to throw; fails when not covered.
double TableWin(const Position& pos, const EndgameTable& table = Table1v1()) {
  std::optional<double> win = table.ProbeWin(pos, Rules{});
  EXPECT_TRUE(win.has_value()) << ToUfen(pos);
  return win.value_or(-1);
}

TEST(EndgameTable, OneAgainstOneMatchesBruteForceEverywhere) {
  const BruteForce& brute = Brute1v1();
  // Four seat turnings, two geometries, either colour of a team to throw.
  EXPECT_EQ(brute.ids().size(), 16u * 57 * 57);
  double worst = 0;
  for (const auto& [pos, id] : brute.ids()) {
    worst = std::max(worst, std::abs(TableWin(pos) - brute.Win(pos)));
  }
  EXPECT_LT(worst, kTolerance);
}

TEST(EndgameTable, BellmanEquationHoldsOnRandomPositions) {
  std::mt19937_64 rng(29);
  PlayList plays;
  for (int n = 0; n < 3000; ++n) {
    Position pos = Random1v1(rng);
    int team = TeamOf(pos.to_throw());
    double sum = 0;
    for (Throw t : kThrows) {
      GenerateLegalPlays(pos, Rules{}, t, &plays);
      ASSERT_FALSE(plays.empty());
      double best = -1;
      for (const PlayResult& r : plays) {
        double v =
            r.after.IsGameOver() ? (r.after.WinningTeam() == team ? 1.0 : 0.0) : TableWin(r.after);
        if (!r.after.IsGameOver() && TeamOf(r.after.to_throw()) != team) v = 1 - v;
        best = std::max(best, v);
      }
      sum += t.Weight() * best;
    }
    ASSERT_NEAR(TableWin(pos), sum / 36, kTolerance) << ToUfen(pos);
  }
}

TEST(EndgameTable, TeamsSwappedGiveComplementaryValues) {
  // Every piece and the turn moved one seat on: the other team holds the
  // same game. From one fixed team's view the values are complementary.
  const BruteForce& brute = Brute1v1();
  for (const auto& [pos, id] : brute.ids()) {
    Position swapped = TurnSeats(pos, 1);
    ASSERT_TRUE(brute.Has(swapped)) << ToUfen(swapped);
    double red_team = TeamOf(pos.to_throw()) == 0 ? brute.Win(pos) : 1 - brute.Win(pos);
    double red_team_swapped =
        TeamOf(swapped.to_throw()) == 0 ? brute.Win(swapped) : 1 - brute.Win(swapped);
    ASSERT_NEAR(red_team + red_team_swapped, 1.0, 1e-9) << ToUfen(pos);
    ASSERT_NEAR(TableWin(swapped), brute.Win(swapped), kTolerance) << ToUfen(swapped);
  }
}

TEST(EndgameTable, ReleasedColourThrowingForItsPartnerIsThePartnerThrowing) {
  // The symmetry the index relies on, in the brute force's values.
  const BruteForce& brute = Brute1v1();
  int compared = 0;
  for (const auto& [pos, id] : brute.ids()) {
    Position other = pos;
    other.SetToThrow(PartnerOf(pos.to_throw()));
    if (!brute.Has(other)) continue;
    ASSERT_NEAR(brute.Win(pos), brute.Win(other), 1e-9) << ToUfen(pos);
    ++compared;
  }
  EXPECT_EQ(compared, static_cast<int>(brute.ids().size()));
}

TEST(EndgameTable, BestPlayIsTheArgmaxOfTheSuccessorValues) {
  const EndgameTable& table = Table1v1();
  std::mt19937_64 rng(8);
  PlayList plays;
  for (int n = 0; n < 500; ++n) {
    Position pos = Random1v1(rng);
    Throw t = kThrows[rng() % kThrows.size()];
    std::optional<EndgameChoice> choice = table.BestPlay(pos, Rules{}, t);
    ASSERT_TRUE(choice.has_value()) << ToUfen(pos);
    GenerateLegalPlays(pos, Rules{}, t, &plays);
    int team = TeamOf(pos.to_throw());
    for (const PlayResult& r : plays) {
      double v =
          r.after.IsGameOver() ? (r.after.WinningTeam() == team ? 1.0 : 0.0) : TableWin(r.after);
      if (!r.after.IsGameOver() && TeamOf(r.after.to_throw()) != team) v = 1 - v;
      EXPECT_LE(v, choice->values[kEndgameWinPlain] + 1e-6) << ToUfen(pos);
    }
    bool listed = false;
    for (const PlayResult& r : plays) listed |= r.play == choice->play && r.after == choice->after;
    EXPECT_TRUE(listed);
  }
}

TEST(EndgameTable, ValuesAreSixOutcomesSummingToOne) {
  // RULES.md §8: every team keeps four pieces home, so only plain outcomes.
  std::optional<EndgameValues> v =
      Table1v1().Probe(Family(kRed, {30}, kGreen, {kBase}, kRed), Rules{});
  ASSERT_TRUE(v.has_value());
  EXPECT_NEAR((*v)[0] + (*v)[3], 1.0, 1e-6);
  EXPECT_EQ((*v)[1] + (*v)[2] + (*v)[4] + (*v)[5], 0.0f);
}

TEST(EndgameIndex, EverySlotOfEveryShapeRoundTrips) {
  for (int shape = 0; shape < kNumEndgameShapes; ++shape) {
    for (uint32_t i = 0; i < ShapeSize(shape); ++i) {
      std::optional<EndgameSlot> slot = SlotOf(PositionAt({shape, i}));
      ASSERT_TRUE(slot.has_value()) << ShapeName(shape) << " " << i;
      ASSERT_EQ(*slot, (EndgameSlot{shape, i})) << ToUfen(PositionAt({shape, i}));
    }
  }
  EXPECT_EQ(ClassSize(EndgameClass::k1v1), 6498u);
  EXPECT_EQ(ClassSize(EndgameClass::k2v2), 6498u + 2 * 188442u + 5464818u);
}

TEST(EndgameIndex, PositionsOutsideTheFamilyHaveNoSlot) {
  Position in = Family(kRed, {10, 20}, kBlue, {kBase}, kRed);
  ASSERT_TRUE(SlotOf(in).has_value());
  Position three = Family(kRed, {10, 20, 30}, kBlue, {kBase}, kRed);
  EXPECT_FALSE(SlotOf(three).has_value());
  Position not_released = in;
  not_released.SetReleased(1 << kGreen);  // yellow home, not yet released
  EXPECT_FALSE(SlotOf(not_released).has_value());
  Position both_colours = Family(kRed, {10}, kBlue, {kBase}, kRed);
  both_colours.SetPieces(kYellow, Row({40}));
  both_colours.SetReleased(1 << kGreen);
  EXPECT_FALSE(SlotOf(both_colours).has_value());
  Position over = Family(kRed, {}, kBlue, {kBase}, kRed);
  EXPECT_TRUE(over.IsGameOver());
  EXPECT_FALSE(SlotOf(over).has_value());
}

TEST(EndgameIndex, RulesWithStatesOutsideTheIndexAreRefused) {
  EXPECT_TRUE(CheckEndgameRules(Rules{}).ok());
  EXPECT_TRUE(CheckEndgameRules(*Rules::Parse("selsey+one_less_six+bounce_back")).ok());
  for (const char* text : {"navy+double_six_two_throws", "wafu", "navy+no_partner_pipe_moves"}) {
    absl::Status s = CheckEndgameRules(*Rules::Parse(text));
    EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << text;
  }
  EXPECT_FALSE(BuildEndgameTable(EndgameClass::k1v1, *Rules::Parse("wafu"), {}, nullptr).ok());
}

// A lookup that gives every slot its own made-up value.
std::optional<double> MadeUp(EndgameSlot slot) {
  return ((slot.index * 2654435761u + slot.shape * 40503u) % 1000) / 1000.0;
}

TEST(EndgameChallenge, UnderWayIsValuedByItsForcedThrows) {
  // RULES.md §6: red on 10, green's blob on green's 50 (red's 11): the need
  // is 3 sixes, the declaring six counted. With one counted, the challenge
  // wins with the chance of two more sixes before a throw without one:
  // s(1) = 11/36, s(2) = 10/36 s(1) + 1/36.
  Position pos = Family(kRed, {10}, kGreen, {50, 50}, kRed);
  PlayList plays;
  GenerateLegalPlays(pos, Rules{}, MakeThrow(6, 2), &plays);
  const Position* declared = nullptr;
  for (const PlayResult& r : plays) {
    if (r.play.kind == PlayKind::kChallenge) declared = &r.after;
  }
  ASSERT_NE(declared, nullptr);
  ASSERT_TRUE(declared->challenge_active());
  Position won = Family(kRed, {11}, kGreen, {kBase, kBase}, kGreen);
  Position lost = Family(kRed, {10}, kGreen, {50, 50}, kGreen);
  double s2 = 10.0 / 36 * 11.0 / 36 + 1.0 / 36;
  double expected = s2 * (1 - *MadeUp(*SlotOf(won))) + (1 - s2) * (1 - *MadeUp(*SlotOf(lost)));
  std::optional<double> win = WinFor(*declared, 0, Rules{}, MadeUp);
  ASSERT_TRUE(win.has_value());
  EXPECT_NEAR(*win, expected, 1e-12);
}

TEST(EndgameClosure, EverySuccessorIsFinishedInTheFamilyOrAChallengeLeadingThere) {
  // The 2v2 class on random positions, blobs made likely: WinFor values
  // every successor the engine generates, or the class is not closed.
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int> square(kBase, kHome - 1);
  PlayList plays;
  int challenges = 0;
  for (int n = 0; n < 3000; ++n) {
    int mover = static_cast<int>(rng() % 4);
    int opponent = rng() % 2 ? NextColour(mover) : PartnerOf(NextColour(mover));
    int a = square(rng), b = rng() % 3 ? square(rng) : a;
    int c = square(rng), d = rng() % 3 ? square(rng) : c;
    Position pos = Family(mover, {a, b}, opponent, {c, d}, static_cast<int>(rng() % 4));
    if (OnTrack(a) && OnTrack(c) && AbsoluteSquare(mover, a) == AbsoluteSquare(opponent, c)) {
      continue;  // both teams on one square: not a position
    }
    if (OnTrack(a) && OnTrack(d) && AbsoluteSquare(mover, a) == AbsoluteSquare(opponent, d))
      continue;
    if (OnTrack(b) && OnTrack(c) && AbsoluteSquare(mover, b) == AbsoluteSquare(opponent, c))
      continue;
    if (OnTrack(b) && OnTrack(d) && AbsoluteSquare(mover, b) == AbsoluteSquare(opponent, d))
      continue;
    ASSERT_TRUE(SlotOf(pos).has_value()) << ToUfen(pos);
    for (Throw t : kThrows) {
      GenerateLegalPlays(pos, Rules{}, t, &plays);
      ASSERT_FALSE(plays.empty());
      for (const PlayResult& r : plays) {
        challenges += r.after.challenge_active();
        ASSERT_TRUE(WinFor(r.after, 0, Rules{}, MadeUp).has_value())
            << ToUfen(pos) << " " << PlayToString(r.play) << " -> " << ToUfen(r.after);
      }
    }
  }
  EXPECT_GT(challenges, 0);
}

TEST(EndgameTable, CheckBellmanFindsTheTableConsistent) {
  absl::StatusOr<BellmanCheck> check = CheckBellman(Table1v1(), 500, 5);
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_EQ(check->positions, 500);
  EXPECT_LT(check->max_error, kTolerance);
}

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/endgame_test_" + name;
}

TEST(EndgameFile, RoundTripKeepsEveryValue) {
  std::string path = TempPath("roundtrip.egt");
  ASSERT_TRUE(Table1v1().Save(path).ok());
  absl::StatusOr<EndgameTable> loaded = EndgameTable::Load(path, Rules{});
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->endgame_class(), EndgameClass::k1v1);
  EXPECT_EQ(loaded->size(), Table1v1().size());
  for (uint32_t i = 0; i < ShapeSize(0); ++i) {
    ASSERT_EQ(loaded->WinAt({0, i}), Table1v1().WinAt({0, i}));
  }
  std::remove(path.c_str());
}

TEST(EndgameFile, RefusedForOtherRulesNamingTheSwitch) {
  std::string path = TempPath("rules.egt");
  ASSERT_TRUE(Table1v1().Save(path).ok());
  absl::StatusOr<EndgameTable> loaded = EndgameTable::Load(path, *Rules::Parse("selsey"));
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(loaded.status().message().find("throw_after_challenge"), std::string::npos)
      << loaded.status();
  std::remove(path.c_str());
}

TEST(EndgameFile, LoadedWithoutRulesTakesTheRulesItsHeaderLists) {
  std::string path = TempPath("anyrules.egt");
  ASSERT_TRUE(Table1v1().Save(path).ok());
  absl::StatusOr<EndgameTable> loaded = EndgameTable::Load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->rules(), Rules{});
  EXPECT_EQ(loaded->WinAt({0, 17}), Table1v1().WinAt({0, 17}));
  absl::Status missing = EndgameTable::Load(TempPath("no-such.egt")).status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.message().find("no-such.egt: cannot open the file"), std::string::npos)
      << missing;
  std::remove(path.c_str());
}

// The table file with `edit` applied to its bytes, loaded.
absl::Status LoadEdited(const std::string& name, void (*edit)(std::string&)) {
  std::string path = TempPath(name);
  EXPECT_TRUE(Table1v1().Save(path).ok());
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  edit(bytes);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  absl::Status s = EndgameTable::Load(path, Rules{}).status();
  std::remove(path.c_str());
  return s;
}

TEST(EndgameFile, RefusesWrongMagicVersionClassOrCorruptValues) {
  absl::Status magic = LoadEdited("magic.egt", [](std::string& b) { b[0] = 'X'; });
  EXPECT_NE(magic.message().find("bad magic"), std::string::npos) << magic;
  absl::Status version = LoadEdited("version.egt", [](std::string& b) { b[8] = 2; });
  EXPECT_NE(version.message().find("format version 2"), std::string::npos) << version;
  absl::Status cls = LoadEdited(
      "class.egt", [](std::string& b) { b.replace(b.find("class 1v1"), 9, "class 9v9"); });
  EXPECT_NE(cls.message().find("unknown endgame class '9v9'"), std::string::npos) << cls;
  absl::Status corrupt = LoadEdited("corrupt.egt", [](std::string& b) { b[b.size() - 7] ^= 1; });
  EXPECT_NE(corrupt.message().find("checksum"), std::string::npos) << corrupt;
  absl::Status truncated = LoadEdited("short.egt", [](std::string& b) { b.resize(b.size() - 2); });
  EXPECT_EQ(truncated.code(), absl::StatusCode::kDataLoss) << truncated;
  absl::Status missing = EndgameTable::Load(TempPath("no_such_file.egt"), Rules{}).status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound) << missing;
}

TEST(EndgameTable, ProbeRefusesOtherRulesAndUncoveredPositions) {
  Position pos = Family(kRed, {30}, kGreen, {kBase}, kRed);
  EXPECT_TRUE(Table1v1().Probe(pos, Rules{}).has_value());
  EXPECT_FALSE(Table1v1().Probe(pos, *Rules::Parse("navy+one_less_six")).has_value());
  EXPECT_FALSE(Table1v1().Probe(Family(kRed, {30, 31}, kGreen, {kBase}, kRed), Rules{}));
  EXPECT_FALSE(Table1v1().Probe(Position::Start(Rules{}), Rules{}).has_value());
}

// The Bellman equation at `pos`, through the engine's generator, with the
// successors' values from `table`.
double BellmanRightHandSide(const EndgameTable& table, const Position& pos) {
  int team = TeamOf(pos.to_throw());
  PlayList plays;
  double sum = 0;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, table.rules(), t, &plays);
    EXPECT_FALSE(plays.empty());
    double best = -1;
    for (const PlayResult& r : plays) {
      double v = r.after.IsGameOver() ? (r.after.WinningTeam() == team ? 1.0 : 0.0)
                                      : TableWin(r.after, table);
      if (!r.after.IsGameOver() && TeamOf(r.after.to_throw()) != team) v = 1 - v;
      best = std::max(best, v);
    }
    sum += t.Weight() * best;
  }
  return sum / 36;
}

TEST(EndgameTable, BuiltTableFromFileMeetsTheBellmanEquation) {
  // A table built by `uckers endgames build` (navy), e.g. the 2v2 class: blobs,
  // challenges under way and every shape, which CI does not build.
  const char* path = std::getenv("UCKERS_ENDGAME_FILE");
  if (path == nullptr) GTEST_SKIP() << "UCKERS_ENDGAME_FILE not set";
  absl::StatusOr<EndgameTable> table = EndgameTable::Load(path, Rules{});
  ASSERT_TRUE(table.ok()) << table.status();
  std::mt19937_64 rng(17);
  std::vector<int> shapes;
  for (int s = 0; s < kNumEndgameShapes; ++s) {
    if (ClassHasShape(table->endgame_class(), s)) shapes.push_back(s);
  }
  for (int n = 0; n < 20000; ++n) {
    int shape = shapes[rng() % shapes.size()];
    Position pos = PositionAt({shape, static_cast<uint32_t>(rng() % ShapeSize(shape))});
    if (rng() % 2) pos.SetToThrow(PartnerOf(pos.to_throw()));
    pos = TurnSeats(pos, static_cast<int>(rng() % 4));
    ASSERT_NEAR(TableWin(pos, *table), BellmanRightHandSide(*table, pos), kTolerance)
        << ToUfen(pos);
  }
}

}  // namespace
}  // namespace uckers::testing
