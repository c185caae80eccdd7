// The learned evaluation (eval/net.h) and its training (learn/).
#include "eval/net.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/options.h"
#include "gtest/gtest.h"
#include "learn/selfplay.h"
#include "learn/td.h"
#include "rules/dice_sequence.h"
#include "search/levels.h"
#include "search/search.h"
#ifdef UCKERS_HAVE_GRPC
#include "server/proto_convert.h"
#endif
#include "match/player.h"
#include "tests/endgame_file.h"
#include "tests/random_game.h"

namespace uckers {
namespace {

// The same position with every colour moved one seat on: colour c's pieces
// and flags become colour c+1's. The game is the same, seen from another
// seat, so the thrower's view must not change.
Position Rotated(const Position& pos) {
  Position r = pos;
  uint8_t released = 0;
  for (int c = 0; c < kNumColours; ++c) {
    r.SetPieces(NextColour(c), pos.pieces(c));
    if (pos.released(c)) released |= 1 << NextColour(c);
  }
  r.SetReleased(released);
  r.SetToThrow(NextColour(pos.to_throw()));
  return r;
}

std::string TempPath(const char* name) {
  return ::testing::TempDir() + "/" + name + std::to_string(::getpid());
}

// Every evaluation of `net` on sampled positions is a distribution.
void ExpectDistributions(const Net& net) {
  for (const Position& pos : testing::SamplePositions(Rules(), 50, 1)) {
    Evaluation e = net.Evaluate(pos);
    double sum = 0;
    for (double p : e.p) {
      EXPECT_GE(p, 0);
      sum += p;
    }
    EXPECT_NEAR(sum, 1, 1e-5);
  }
}

TEST(Net, EvaluationIsAProbabilityDistributionOverTheSixOutcomes) {
  ExpectDistributions(Net::Random(Rules(), 32, 7));
}

TEST(Net, FinishedGameGetsItsExactOutcome) {
  Position pos = Position::Start(Rules());
  for (int c : {kRed, kYellow}) pos.SetPieces(c, {kHome, kHome, kHome, kHome});
  Net net = Net::Random(Rules(), 16, 3);
  Evaluation e = net.Evaluate(pos);
  Evaluation exact = Evaluate(pos, Rules());
  for (int i = 0; i < kNumOutcomes; ++i) EXPECT_EQ(e.p[i], exact.p[i]);
}

TEST(NetInputs, AreTheThrowersViewWhicheverSeatThrows) {
  for (const Position& pos : testing::SamplePositions(Rules(), 40, 2)) {
    if (pos.challenge_active()) continue;  // its square is relative already
    NetInputs a = EncodeNetInputs(pos, Rules()), b = EncodeNetInputs(Rotated(pos), Rules());
    ASSERT_EQ(a.num_active, b.num_active);
    for (int i = 0; i < a.num_active; ++i) EXPECT_EQ(a.active[i], b.active[i]);
    for (int j = 0; j < kNetDenseInputs; ++j) EXPECT_NEAR(a.dense[j], b.dense[j], 1e-6);
  }
}

TEST(NetInputs, ChangeWhenAPieceMoves) {
  Position pos = Position::Start(Rules());
  NetInputs before = EncodeNetInputs(pos, Rules());
  pos.MovePiece(kRed, kBase, 5);
  NetInputs after = EncodeNetInputs(pos, Rules());
  std::vector<int> a(before.active.begin(), before.active.begin() + before.num_active);
  std::vector<int> b(after.active.begin(), after.active.begin() + after.num_active);
  EXPECT_NE(a, b);
}

TEST(NetFile, RoundTripsToTheSameEvaluations) {
  Net net = Net::Random(Rules(), 24, 11);
  net.set_games_trained(1234);
  absl::StatusOr<Net> back = Net::FromBytes(net.ToBytes(), "test");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->games_trained(), 1234u);
  EXPECT_EQ(back->ToBytes(), net.ToBytes());
  for (const Position& pos : testing::SamplePositions(Rules(), 20, 3)) {
    EXPECT_EQ(back->Evaluate(pos).p, net.Evaluate(pos).p);
  }
}

TEST(NetFile, RecordsTheSwitchesOfItsRuleset) {
  Rules wafu = *Rules::Preset("wafu");
  absl::StatusOr<Net> back = Net::FromBytes(Net::Random(wafu, 8, 1).ToBytes(), "test");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->rules(), wafu);
  EXPECT_EQ(SwitchList(wafu), "+suck_back+snake_eyes");
}

TEST(NetFile, DamagedOrForeignFilesAreRefusedNamingTheFault) {
  std::string good = Net::Random(Rules(), 8, 1).ToBytes();
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 1;
  EXPECT_NE(Net::FromBytes(flipped, "f").status().message().find("checksum"), std::string::npos);
  EXPECT_NE(Net::FromBytes(good.substr(0, 100), "f").status().message().find("ends inside"),
            std::string::npos);
  EXPECT_NE(Net::FromBytes("hello", "f").status().message().find("magic"), std::string::npos);
  std::string version = good;
  version[8] = 9;  // the format version follows the magic
  EXPECT_NE(Net::FromBytes(version, "f").status().message().find("format version"),
            std::string::npos);
}

TEST(NetFile, MissingFileIsAnError) {
  absl::StatusOr<Net> net = Net::Load("/nonexistent/dir/net.unet");
  EXPECT_FALSE(net.ok());
  EXPECT_NE(net.status().message().find("/nonexistent/dir/net.unet"), std::string::npos);
}

TEST(NetFile, UnwritablePathIsAnErrorAndLeavesNoFile) {
  EXPECT_FALSE(Net::Random(Rules(), 4, 1).Save("/nonexistent/dir/net.unet").ok());
}

TEST(TdLabels, LambdaOneTeachesEveryPositionTheGamesOutcome) {
  Net net = Net::Random(Rules(), 16, 5);
  SelfPlayGame game = PlaySelfPlayGame(net, 99, 1.0);
  ASSERT_TRUE(game.finished);
  ASSERT_EQ(game.samples.size(), game.won.size());
  for (size_t t = 0; t < game.samples.size(); ++t) {
    float win = game.samples[t].target[kWinPlain] + game.samples[t].target[kWinEightPiecer] +
                game.samples[t].target[kWinInHarbour];
    EXPECT_NEAR(win, game.won[t] ? 1 : 0, 1e-5) << "position " << t;
  }
}

TEST(TdLabels, LambdaZeroTeachesTheNextPositionsValue) {
  Net net = Net::Random(Rules(), 16, 5);
  SelfPlayGame game = PlaySelfPlayGame(net, 99, 0.0);
  ASSERT_TRUE(game.finished);
  // The target of position t is the net's value of position t + 1, turned to
  // t's team: its win probability is win[t+1] or 1 - win[t+1].
  for (size_t t = 0; t + 1 < game.samples.size(); ++t) {
    const auto& target = game.samples[t].target;
    float win = target[kWinPlain] + target[kWinEightPiecer] + target[kWinInHarbour];
    float next = game.win[t + 1];
    EXPECT_TRUE(std::abs(win - next) < 1e-5 || std::abs(win - (1 - next)) < 1e-5) << t;
  }
}

TEST(TdLabels, SelfPlayIsDeterministicForASeed) {
  Net net = Net::Random(Rules(), 16, 5);
  SelfPlayGame a = PlaySelfPlayGame(net, 42, 0.7), b = PlaySelfPlayGame(net, 42, 0.7);
  EXPECT_EQ(a.throws, b.throws);
  EXPECT_EQ(a.win, b.win);
}

TEST(TdLabels, ExploringCutsTheLambdaReturnAtEachRandomPlay) {
  // At lambda 1 without exploring every target is the game's outcome; with
  // exploring, a position before a random play is taught the value of the
  // position where that play was drawn, never the game the play led to: its
  // target is the outcome only if no random play came after it.
  Net net = Net::Random(Rules(), 16, 5);
  SelfPlayGame game = PlaySelfPlayGame(net, 99, 1.0, 0, nullptr, 1, nullptr, 0.3);
  ASSERT_TRUE(game.finished);
  int cut = 0;
  for (size_t t = 0; t < game.samples.size(); ++t) {
    const auto& target = game.samples[t].target;
    float win = target[kWinPlain] + target[kWinEightPiecer] + target[kWinInHarbour];
    if (std::abs(win - (game.won[t] ? 1 : 0)) < 1e-5) continue;
    ++cut;
    bool from_later = false;
    for (size_t u = t; u < game.win.size() && !from_later; ++u) {
      from_later = std::abs(win - game.win[u]) < 1e-5 || std::abs(win - (1 - game.win[u])) < 1e-5;
    }
    EXPECT_TRUE(from_later) << "position " << t << " is taught " << win;
  }
  EXPECT_GT(cut, 0);
}

TEST(TdLabels, ExploringIsDeterministicForASeedAndPlaysOtherGames) {
  Net net = Net::Random(Rules(), 16, 5);
  SelfPlayGame a = PlaySelfPlayGame(net, 42, 0.7, 0, nullptr, 1, nullptr, 0.2);
  SelfPlayGame b = PlaySelfPlayGame(net, 42, 0.7, 0, nullptr, 1, nullptr, 0.2);
  SelfPlayGame own = PlaySelfPlayGame(net, 42, 0.7);
  EXPECT_EQ(a.win, b.win);
  EXPECT_NE(a.win, own.win);
}

bool Marked(const NetInputs& in) {
  return std::find(in.active.begin(), in.active.begin() + in.num_active, kRandomThrowerInput) !=
         in.active.begin() + in.num_active;
}

TEST(TdLabels, AgainstARandomTeamItsThrowsAreMarked) {
  // The inputs are read from the thrower's side: the positions where the
  // random team throws carry the mark, the net's team's do not. The draws
  // are the seed's, and other than the net's own plays.
  Net net = Net::Random(Rules(), 16, 5);
  SelfPlayGame game = PlaySelfPlayGame(net, 42, 0.7, 0, nullptr, 1, nullptr, 0, 1);
  SelfPlayGame again = PlaySelfPlayGame(net, 42, 0.7, 0, nullptr, 1, nullptr, 0, 1);
  SelfPlayGame own = PlaySelfPlayGame(net, 42, 0.7);
  ASSERT_TRUE(game.finished);
  int marked = 0;
  for (size_t t = 0; t < game.positions.size(); ++t) {
    bool random_throws = TeamOf(game.positions[t].to_throw()) == 1;
    EXPECT_EQ(Marked(game.samples[t].inputs), random_throws) << "position " << t;
    marked += random_throws;
  }
  EXPECT_GT(marked, 5);
  for (const TdSample& s : own.samples) EXPECT_FALSE(Marked(s.inputs));
  EXPECT_EQ(game.win, again.win);
  EXPECT_NE(game.win, own.win);
}

TEST(TdLabels, AgainstARandomTeamTheReturnRunsThroughItsPlaysUncut) {
  // At lambda 1 every position of the game against a random team is taught
  // the game's outcome: no random play cuts the return, as exploring does.
  Net net = Net::Random(Rules(), 16, 5);
  SelfPlayGame game = PlaySelfPlayGame(net, 99, 1.0, 0, nullptr, 1, nullptr, 0, 0);
  ASSERT_TRUE(game.finished);
  for (size_t t = 0; t < game.samples.size(); ++t) {
    const auto& target = game.samples[t].target;
    float win = target[kWinPlain] + target[kWinEightPiecer] + target[kWinInHarbour];
    EXPECT_NEAR(win, game.won[t] ? 1 : 0, 1e-5) << "position " << t;
  }
}

TEST(TdLabels, TheRandomThrowersMarkKeepsTheInputsInOrder) {
  Net net = Net::Random(Rules(), 16, 5);
  NetInputs in = net.Encode(Position::Start(Rules()));
  int before = in.num_active;
  MarkRandomThrower(&in);
  MarkRandomThrower(&in);  // a second mark changes nothing
  EXPECT_EQ(in.num_active, before + 1);
  EXPECT_TRUE(std::is_sorted(in.active.begin(), in.active.begin() + in.num_active));
  EXPECT_TRUE(Marked(in));
}

// The mean cross-entropy of `net` on a fixed set of labelled positions.
double CrossEntropy(const Net& net, const std::vector<TdSample>& samples) {
  double loss = 0;
  for (const TdSample& s : samples) {
    Evaluation e = net.Evaluate(s.inputs);
    for (int k = 0; k < kNumOutcomes; ++k) {
      if (s.target[k] > 0) loss -= s.target[k] * std::log(std::max(e.p[k], 1e-12));
    }
  }
  return loss / samples.size();
}

TEST(Train, AShortRunLowersTheLossOnGamesItHasNotSeen) {
  // Games of a fixed random net, labelled by their outcomes (λ = 1).
  Net judge = Net::Random(Rules(), 8, 77);
  std::vector<TdSample> held_out;
  for (uint64_t g = 0; g < 20; ++g) {
    SelfPlayGame game = PlaySelfPlayGame(judge, 1000000 + g, 1.0);
    held_out.insert(held_out.end(), game.samples.begin(), game.samples.end());
  }
  TrainConfig c;
  c.hidden = 32;
  c.games = 300;
  c.checkpoint_every = 300;
  c.out = TempPath("short.unet");
  std::ostringstream log;
  double before = CrossEntropy(Net::Random(Rules(), c.hidden, c.seed), held_out);
  ASSERT_TRUE(Train(c, log).ok()) << log.str();
  absl::StatusOr<Net> trained = Net::Load(c.out);
  ASSERT_TRUE(trained.ok()) << trained.status();
  EXPECT_EQ(trained->games_trained(), 300u);
  EXPECT_LT(CrossEntropy(*trained, held_out), before - 0.05);
  std::remove(c.out.c_str());
  std::remove((c.out + ".ckpt").c_str());
}

// Trains `c` once straight through and once stopped half way and resumed
// from its checkpoint; the two weights files' bytes, and the log.
std::pair<std::string, std::string> WholeAndResumed(TrainConfig c, const std::string& name,
                                                    std::string* log_text) {
  c.checkpoint_every = c.games / 2;
  c.out = TempPath((name + "_whole.unet").c_str());
  std::ostringstream log;
  EXPECT_TRUE(Train(c, log).ok()) << log.str();
  TrainConfig half = c;
  half.out = TempPath((name + "_half.unet").c_str());
  half.games = c.games / 2;
  EXPECT_TRUE(Train(half, log).ok()) << log.str();
  half.games = c.games;  // resumes from half.out's checkpoint
  EXPECT_TRUE(Train(half, log).ok()) << log.str();
  *log_text = log.str();
  absl::StatusOr<Net> a = Net::Load(c.out), b = Net::Load(half.out);
  for (const std::string& p : {c.out, half.out}) {
    std::remove(p.c_str());
    std::remove((p + ".ckpt").c_str());
  }
  if (!a.ok() || !b.ok()) return {"", "unreadable"};
  return {a->ToBytes(), b->ToBytes()};
}

TEST(Train, AResumedRunEndsWhereAnUnbrokenOneEnds) {
  TrainConfig c;
  c.hidden = 16;
  c.games = 96;
  std::string log;
  auto [whole, resumed] = WholeAndResumed(c, "shallow", &log);
  EXPECT_NE(log.find("resuming from"), std::string::npos);
  EXPECT_EQ(whole, resumed);
}

TEST(Train, AnInitNetOfOtherRulesNeedsInitOtherRules) {
  std::string navy_file = TempPath("init_navy.unet");
  ASSERT_TRUE(Net::Random(Rules(), 8, 3).Save(navy_file).ok());
  TrainConfig c;
  c.rules = *Rules::Preset("selsey");
  c.games = 8;
  c.checkpoint_every = 8;
  c.init = navy_file;
  c.out = TempPath("init_selsey.unet");
  std::ostringstream log;
  absl::Status refused = Train(c, log);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("--init_other_rules"), std::string::npos) << refused;
  c.init_other_rules = true;
  ASSERT_TRUE(Train(c, log).ok());
  absl::StatusOr<Net> trained = Net::Load(c.out);
  ASSERT_TRUE(trained.ok()) << trained.status();
  EXPECT_EQ(trained->rules(), *Rules::Preset("selsey"));
  EXPECT_EQ(trained->games_trained(), 8u);
  for (const std::string& f : {navy_file, c.out, c.out + ".ckpt"}) std::remove(f.c_str());
}

TEST(Train, ACheckpointForOtherRulesIsRefused) {
  TrainConfig c;
  c.hidden = 8;
  c.games = 8;
  c.checkpoint_every = 8;
  c.out = TempPath("rules.unet");
  std::ostringstream log;
  ASSERT_TRUE(Train(c, log).ok());
  c.rules = *Rules::Preset("selsey");
  c.games = 16;
  absl::Status s = Train(c, log);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("selsey"), std::string::npos) << s;
  std::remove(c.out.c_str());
  std::remove((c.out + ".ckpt").c_str());
}

TEST(EvalChoice, AGivenNetServesOnlyTheRulesItWasTrainedFor) {
  Net navy = Net::Random(Rules(), 8, 1);
  SearchParams p;
  p.net = &navy;
  EXPECT_EQ(ResolveEvaluation(p, Rules()).net, &navy);
  Rules selsey = *Rules::Preset("selsey");
  EXPECT_NE(ResolveEvaluation(p, selsey).net, &navy);
  p.eval = EvalKind::kClassic;
  EXPECT_EQ(ResolveEvaluation(p, Rules()).net, nullptr);
}

TEST(EvalChoice, TheEvaluationInUseIsNamed) {
  SearchParams p;
  p.eval = EvalKind::kClassic;
  EXPECT_EQ(EvaluationInUse(p, Rules()), "classic");
  Net navy = Net::Random(Rules(), 8, 1);
  p.eval = EvalKind::kNet;
  p.net = &navy;
  EXPECT_EQ(EvaluationInUse(p, Rules()).rfind("net (", 0), 0u);
}

}  // namespace
}  // namespace uckers

namespace uckers {
namespace {

TEST(EvalOption, TextProtocolTakesNetClassicOrTheLevels) {
  EngineOptions o;
  EXPECT_TRUE(o.Set("Eval", "classic").ok());
  EXPECT_EQ(o.eval, EvalKind::kClassic);
  EXPECT_TRUE(o.Set("eval", "level").ok());
  EXPECT_FALSE(o.eval.has_value());
  absl::Status bad = o.Set("Eval", "neural");
  EXPECT_NE(bad.message().find("Eval"), std::string::npos) << bad;
  EXPECT_NE(bad.message().find("classic"), std::string::npos) << bad;
}

#ifdef UCKERS_HAVE_GRPC  // needs the gRPC front
TEST(EvalOption, GrpcFieldIsCheckedByName) {
  v1::SearchLimits limits;
  v1::SearchOptions options;
  SearchRequest request;
  options.set_eval("classic");
  ASSERT_TRUE(proto::SearchRequestFrom(limits, options, 4, &request).ok());
  EXPECT_EQ(request.eval, EvalKind::kClassic);
  options.set_eval("neural");
  absl::Status s = proto::SearchRequestFrom(limits, options, 4, &request);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("options.eval"), std::string::npos) << s;
}
#endif  // UCKERS_HAVE_GRPC

TEST(EvalOption, PlayerSettingsChooseTheEvaluationOrAWeightsFile) {
  EXPECT_TRUE(MakePlayer("expert,eval=classic", Rules(), 1).ok());
  EXPECT_FALSE(MakePlayer("expert,eval=neural", Rules(), 1).ok());
  absl::StatusOr<std::unique_ptr<Player>> missing =
      MakePlayer("expert,netfile=/nonexistent/x.unet", Rules(), 1);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/x.unet"), std::string::npos);
}

TEST(EvalOption, TheClassicLevelIsExpertOnTheClassicEvaluation) {
  SearchParams classic, expert;
  ASSERT_TRUE(ApplyLevel("classic", &classic).ok());
  ASSERT_TRUE(ApplyLevel("expert", &expert).ok());
  EXPECT_EQ(classic.eval, EvalKind::kClassic);
  EXPECT_EQ(expert.eval, EvalKind::kNet);
  EXPECT_EQ(classic.max_depth, expert.max_depth);
  EXPECT_EQ(classic.filter_width, expert.filter_width);
}

}  // namespace
}  // namespace uckers

namespace uckers {
namespace {

// A teacher (another net, here of another kind) values the lookahead
// target: its one-throw value, or with teacher_depth 0 its evaluation.
TEST(TdLabels, ATeacherValuesTheLookaheadTarget) {
  Net student = Net::RandomDeep(Rules(), {16, 8}, 5);
  Net teacher = Net::Random(Rules(), 16, 6);
  Position start = Position::Start(Rules());
  SelfPlayGame deep = PlaySelfPlayGame(student, 7, 0.7, 1.0, &teacher, 1);
  SelfPlayGame flat = PlaySelfPlayGame(student, 7, 0.7, 1.0, &teacher, 0);
  ASSERT_TRUE(deep.finished && flat.finished);
  Evaluation one_throw = LookaheadValue(teacher, start), own = teacher.Evaluate(start);
  for (int k = 0; k < kNumOutcomes; ++k) {
    EXPECT_NEAR(deep.samples[0].target[k], one_throw.p[k], 1e-5);
    EXPECT_NEAR(flat.samples[0].target[k], own.p[k], 1e-5);
  }
  // The samples carry the student's inputs (encoding 3).
  NetInputs expected = student.Encode(start);
  ASSERT_EQ(flat.samples[0].inputs.num_active, expected.num_active);
  for (int i = 0; i < expected.num_active; ++i) {
    EXPECT_EQ(flat.samples[0].inputs.active[i], expected.active[i]);
  }
}

// With an endgame table (docs/endgames.md) every position it covers is
// taught its exact value, whatever the λ-return or lookahead would say.
TEST(TdLabels, PositionsATableCoversAreTaughtTheirExactValues) {
  Rules rules;
  absl::StatusOr<EndgameTable> table = EndgameTable::Load(testing::NavyOneAgainstTwoFile(), rules);
  ASSERT_TRUE(table.ok()) << table.status();
  Net net = Net::Random(rules, 16, 5);
  int covered = 0;
  for (uint64_t seed = 1; seed <= 300 && covered < 3; ++seed) {
    SelfPlayGame game = PlaySelfPlayGame(net, seed, 0.7, 0.5, nullptr, 1, &*table);
    ASSERT_EQ(game.positions.size(), game.samples.size());
    int exact = 0;
    for (size_t t = 0; t < game.samples.size(); ++t) {
      std::optional<EndgameValues> v = table->Probe(game.positions[t], rules);
      if (!v) continue;
      ++exact;
      for (int k = 0; k < kNumOutcomes; ++k) {
        EXPECT_NEAR(game.samples[t].target[k], (*v)[k], 1e-6) << "seed " << seed << " t " << t;
      }
    }
    EXPECT_EQ(exact, game.exact) << "seed " << seed;
    covered += exact;
  }
  EXPECT_GE(covered, 3) << "no self-play game reached a position the table covers";
}

// Training with a table other than the net's rules' is refused before
// anything is written.
TEST(TdLabels, ATableOfOtherRulesIsRefused) {
  TrainConfig c;
  c.rules = *Rules::Parse("navy");
  c.endgames = testing::SelseyOneAgainstOneFile();
  c.games = 8;
  c.out = ::testing::TempDir() + "/table-other-rules.unet";
  std::ostringstream log;
  absl::Status s = Train(c, log);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("throw_after_challenge"), std::string::npos) << s.message();
  EXPECT_FALSE(std::ifstream(c.out).good());
}

TEST(TdLabels, FullLookaheadTeachesTheOneThrowExpectimaxValue) {
  Net net = Net::Random(Rules(), 16, 5);
  SelfPlayGame game = PlaySelfPlayGame(net, 7, 0.7, 1.0);
  ASSERT_TRUE(game.finished);
  // Replay the first position: the start, whose lookahead is known.
  Evaluation start = LookaheadValue(net, Position::Start(Rules()));
  for (int k = 0; k < kNumOutcomes; ++k) {
    EXPECT_NEAR(game.samples[0].target[k], start.p[k], 1e-5);
  }
  double sum = 0;
  for (double p : start.p) sum += p;
  EXPECT_NEAR(sum, 1, 1e-5);
}

}  // namespace
}  // namespace uckers

namespace uckers {
namespace {

int RunUckers(const std::string& args) {
  int status = std::system((std::string(UCKERS_BINARY) + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(TrainCommand, BadValuesAreUsageErrors) {
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --hidden 9999"), 2);
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --lambda 2"), 2);
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --rules navy+nonsense"), 2);
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet stray"), 2);
}

// `--block_inputs` widens a deep net of encoding 4 to encoding 6, its new
// inputs at zero weight; it is refused beside --hit_inputs and for a net of
// one hidden layer.
TEST(TrainCommand, BlockInputsWidenADeepNetToEncodingSix) {
  const std::string out = ::testing::TempDir() + "uckers-block-inputs.unet";
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
  const std::string init = std::string(" --init ") + UCKERS_SOURCE_DIR + "/nets/navy.unet";
  ASSERT_EQ(RunUckers("train --out " + out + init + " --block_inputs --games 8 --lr 1e-9"), 0);
  absl::StatusOr<Net> net = Net::Load(out);
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_EQ(net->encoding(), static_cast<uint32_t>(kBlockNetEncodingVersion));
  EXPECT_EQ(net->w1().cols(), kBlockNetInputs);
  EXPECT_EQ(RunUckers("train --out " + out + ".2" + init + " --block_inputs --hit_inputs"), 2);
  EXPECT_EQ(RunUckers("train --out " + out + ".3 --hidden 16 --block_inputs"), 2);
}

TEST(TrainCommand, AnUnwritableFileFailsBeforeAnyGame) {
  EXPECT_EQ(RunUckers("train --out /nonexistent/dir/x.unet --games 100000000"), 1);
}

// `uckers train --average`: the mean of the nets' weights, written as
// --out; nets of other shapes are a usage error, a missing file a failure,
// and neither writes a file.
TEST(TrainCommand, AverageWritesTheMeanOfTheNetsWeights) {
  std::string a = TempPath("avg-a.unet"), b = TempPath("avg-b.unet"), c = TempPath("avg-c.unet"),
              out = TempPath("avg-out.unet");
  Net na = Net::RandomDeep(Rules(), {32, 8}, 21), nb = Net::RandomDeep(Rules(), {32, 8}, 22);
  nb.set_games_trained(500);
  ASSERT_TRUE(na.Save(a).ok());
  ASSERT_TRUE(nb.Save(b).ok());
  ASSERT_TRUE(Net::RandomDeep(Rules(), {16, 8}, 23).Save(c).ok());
  std::remove(out.c_str());
  EXPECT_EQ(RunUckers("train --average " + a + "," + c + " --out " + out), 2);
  EXPECT_EQ(RunUckers("train --average " + a + "," + TempPath("none.unet") + " --out " + out), 1);
  EXPECT_FALSE(Net::Load(out).ok());
  ASSERT_EQ(RunUckers("train --average " + a + "," + b + " --out " + out), 0);
  absl::StatusOr<Net> mean = Net::Load(out);
  ASSERT_TRUE(mean.ok()) << mean.status();
  EXPECT_EQ(mean->games_trained(), 500u);
  EXPECT_FLOAT_EQ(mean->w1()(3, 7), (na.w1()(3, 7) + nb.w1()(3, 7)) / 2);
  EXPECT_FLOAT_EQ(mean->mid_w()[0](5, 2), (na.mid_w()[0](5, 2) + nb.mid_w()[0](5, 2)) / 2);
  EXPECT_FLOAT_EQ(mean->b2()[4], (na.b2()[4] + nb.b2()[4]) / 2);
  for (const std::string& f : {a, b, c, out}) std::remove(f.c_str());
}

TEST(TrainCommand, AShortRunWritesALoadableNet) {
  std::string out = TempPath("cmd.unet");
  ASSERT_EQ(RunUckers("train --out " + out + " --games 16 --checkpoint_every 8 --hidden 8"), 0);
  absl::StatusOr<Net> net = Net::Load(out);
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_EQ(net->games_trained(), 16u);
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
}

}  // namespace
}  // namespace uckers

namespace uckers {
namespace {

// Every net built into the binary is found for the ruleset it was trained
// for, and for no other preset or layout; of a layout of RULES.md §11 with
// a shipped net of any rules, that net serves the layout's own rules.
TEST(ShippedNets, EachServesItsOwnRulesetOnly) {
  std::vector<const Net*> nets = Net::AllShipped();
  ASSERT_FALSE(nets.empty());
  EXPECT_EQ(Net::Shipped(), NetFor(Rules()));
  for (const Net* net : nets) {
    if (net->any_rules()) {
      // A net of any rules serves the rulesets of its layout no preset's
      // net was trained for.
      Rules custom = *Rules::Parse(net->rules().layout().IsFourSidedTeams()
                                       ? "navy+bounce_back"
                                       : net->rules().ToString() + "+bounce_back");
      ASSERT_NE(NetFor(custom), nullptr);
      EXPECT_TRUE(NetFor(custom)->any_rules());
      EXPECT_EQ(NetFor(custom)->rules(), custom);
      continue;
    }
    const Net* any_of_layout = nullptr;
    for (const Net* other : nets) {
      if (other->any_rules() && other->per_side() && other->Serves(net->rules())) {
        any_of_layout = other->ForRules(net->rules());
      }
    }
    EXPECT_EQ(NetFor(net->rules()), any_of_layout ? any_of_layout : net);
    for (const char* preset :
         {"navy", "wafu", "mess", "selsey", "six", "six+teams_of_three", "navy+solo", "six+solo"}) {
      Rules rules = *Rules::Parse(preset);
      if (!(rules == net->rules())) {
        EXPECT_NE(NetFor(rules), net) << preset;
      }
    }
    // A net of the four-sided game of two teams gives the six outcomes,
    // every other one each side's chance.
    EXPECT_EQ(net->per_side(), !net->rules().layout().IsFourSidedTeams());
  }
}

}  // namespace
}  // namespace uckers

namespace uckers {
namespace {

std::vector<int> Active(const NetInputs& in) {
  return std::vector<int>(in.active.begin(), in.active.begin() + in.num_active);
}

// Positions as a search meets them: every play's position for a few throws
// from sampled positions, so that consecutive ones share most inputs.
std::vector<Position> Siblings(const Rules& rules, int count, uint64_t seed) {
  std::vector<Position> out;
  for (const Position& pos : testing::SamplePositions(rules, count, seed)) {
    for (Throw t : {MakeThrow(6, 6), MakeThrow(1, 3), MakeThrow(2, 5)}) {
      PlayList plays;
      GenerateLegalPlays(pos, rules, t, &plays);
      for (int i = 0; i < plays.size(); ++i) {
        if (!plays[i].after.IsGameOver()) out.push_back(plays[i].after);
      }
    }
  }
  return out;
}

TEST(DeepNetInputs, AreAscendingWithinRangeAndTheThrowersView) {
  for (const Position& pos : testing::SamplePositions(Rules(), 60, 5)) {
    NetInputs in = EncodeDeepNetInputs(pos, Rules());
    for (int i = 0; i < in.num_active; ++i) {
      EXPECT_LT(in.active[i], kDeepNetInputs);
      if (i > 0) {
        EXPECT_LT(in.active[i - 1], in.active[i]);
      }
    }
    if (pos.challenge_active()) continue;
    EXPECT_EQ(Active(in), Active(EncodeDeepNetInputs(Rotated(pos), Rules())));
  }
}

// RULES.md §9 "Mixie stack": only the top piece moves, so the inputs say
// whose piece is on top of each stack.
TEST(DeepNetInputs, SayWhichColourTopsAMixieStack) {
  Rules rules = *Rules::Parse("navy+mixie_stack");
  absl::StatusOr<Position> red_top =
      ParseUfen("b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r mr10:ryr", rules);
  absl::StatusOr<Position> yellow_top =
      ParseUfen("b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r mr10:rry", rules);
  ASSERT_TRUE(red_top.ok() && yellow_top.ok());
  NetInputs a = EncodeDeepNetInputs(*red_top, rules), b = EncodeDeepNetInputs(*yellow_top, rules);
  EXPECT_NE(Active(a), Active(b));
  // Red throws (k = 0): red's square 10 is topped by red in the first.
  const int red_ten = kNetSparseInputs + 10;
  EXPECT_NE(std::find(Active(a).begin(), Active(a).end(), red_ten), Active(a).end());
  std::vector<int> bs = Active(b);
  EXPECT_EQ(std::find(bs.begin(), bs.end(), red_ten), bs.end());
  // Without the switch there are no stack inputs.
  NetInputs navy = EncodeDeepNetInputs(*red_top, Rules());
  for (int i = 0; i < navy.num_active; ++i) {
    EXPECT_FALSE(navy.active[i] >= kNetSparseInputs &&
                 navy.active[i] < kNetSparseInputs + kDeepStackInputs);
  }
}

// RULES.md §5: a single piece an opponent stands a die's throw behind can
// be knocked off; the contact inputs say so, by a die's reach or two.
TEST(DeepNetInputs, ContactInputsMarkSinglesWithinReachOfAnOpponent) {
  // Red (to throw) on 20; green's piece 3 squares behind it on red's 17,
  // which is green's 4; yellow's single on yellow's 30 with nobody behind.
  Rules rules;
  absl::StatusOr<Position> pos = ParseUfen("20,b,b,b/4,b,b,b/30,b,b,b/b,b,b,b r -", rules);
  ASSERT_TRUE(pos.ok()) << pos.status();
  NetInputs in = EncodeContactNetInputs(*pos, rules);
  std::vector<int> on = Active(in);
  auto has = [&](int k, int sq, int bucket) {
    int index = kDeepNetInputs + (k * (kLastTrack + 1) + sq) * 2 + bucket;
    return std::find(on.begin(), on.end(), index) != on.end();
  };
  EXPECT_TRUE(has(0, 20, 0));   // red: green a die behind
  EXPECT_FALSE(has(0, 20, 1));  // nothing 7..12 behind
  EXPECT_FALSE(has(2, 30, 0));  // yellow: no opponent behind
  EXPECT_FALSE(has(1, 4, 0));   // green: red is ahead of it, not behind
  // Encoding 3's inputs come first, unchanged.
  NetInputs plain = EncodeDeepNetInputs(*pos, rules);
  for (int i = 0; i < plain.num_active; ++i) EXPECT_EQ(in.active[i], plain.active[i]);
  for (int i = 1; i < in.num_active; ++i) EXPECT_LT(in.active[i - 1], in.active[i]);
}

// RULES.md §5: a knock-off is a die's throw, or both dice's, ending on the
// piece. Of the 36 throws, 11 show a 1; 16 carry a piece 6 squares (a 6,
// or 1+5, 5+1, 2+4, 4+2, 3+3); 6 carry it 7; only 6+6 carries it 12.
TEST(DeepNetInputs, ThrowsReachingADistanceAreTheDiceOrTheirSumMakingIt) {
  auto count = [](int d) { return std::popcount(ThrowsReaching(d)); };
  EXPECT_EQ(count(1), 11);
  EXPECT_EQ(count(3), 13);
  EXPECT_EQ(count(6), 16);
  EXPECT_EQ(count(7), 6);
  EXPECT_EQ(count(10), 3);
  EXPECT_EQ(count(12), 1);
  EXPECT_EQ(count(13), 0);
}

// RULES.md §5: the hit inputs count the throws of 36 that knock a single
// off, from every opponent behind it, each throw once.
TEST(DeepNetInputs, HitInputsCountTheThrowsThatReachASingle) {
  Rules rules;
  auto hit_levels = [&](absl::string_view ufen) {
    absl::StatusOr<Position> pos = ParseUfen(ufen, rules);
    EXPECT_TRUE(pos.ok()) << pos.status();
    NetInputs in = EncodeHitNetInputs(*pos, rules);
    for (int i = 1; i < in.num_active; ++i) EXPECT_LT(in.active[i - 1], in.active[i]);
    NetInputs contact = EncodeContactNetInputs(*pos, rules);
    for (int i = 0; i < contact.num_active; ++i) EXPECT_EQ(in.active[i], contact.active[i]);
    int levels = 0;  // red's single on 20 (k = 0)
    for (int j = 0; j < 5; ++j) {
      const int index = kContactNetInputs + (0 * (kLastTrack + 1) + 20) * 5 + j;
      levels += std::find(in.active.begin(), in.active.begin() + in.num_active, index) !=
                in.active.begin() + in.num_active;
    }
    return levels;
  };
  // Green 3 behind (green's 4 is red's 17): 13 throws, thresholds 2, 6, 11.
  EXPECT_EQ(hit_levels("20,b,b,b/4,b,b,b/30,b,b,b/b,b,b,b r -"), 3);
  // And blue 10 behind (blue's 23 is red's 10): 3 more throws, 16 in all.
  EXPECT_EQ(hit_levels("20,b,b,b/4,b,b,b/30,b,b,b/23,b,b,b r -"), 4);
  // Nobody behind: none.
  EXPECT_EQ(hit_levels("20,b,b,b/b,b,b,b/30,b,b,b/b,b,b,b r -"), 0);
}

// The hit inputs agree with a count made throw by throw: for each of the 36
// throws, whether an opponent piece on the track stands one die, the other,
// or their sum behind a single, its path passing the single before its lane
// (RULES.md §5), over the positions of self-play games.
TEST(DeepNetInputs, HitInputsAgreeWithACountThrowByThrow) {
  Rules rules;
  int singles = 0;
  for (const Position& pos : Siblings(rules, 40, 2)) {
    std::vector<int> on = Active(EncodeHitNetInputs(pos, rules));
    for (int k = 0; k < kNumColours; ++k) {
      const int colour = (pos.to_throw() + k) % kNumColours;
      for (Square sq : pos.pieces(colour)) {
        if (!OnTrack(sq) || pos.CountAt(colour, sq) != 1) continue;
        const int abs = AbsoluteSquare(colour, sq);
        int hits = 0;
        for (int a = 1; a <= 6; ++a) {
          for (int b = 1; b <= 6; ++b) {
            bool hit = false;
            for (int enemy = 0; enemy < kNumColours; ++enemy) {
              if (TeamOf(enemy) == TeamOf(colour)) continue;
              const int target = RelativeSquare(enemy, abs);
              for (Square from : pos.pieces(enemy)) {
                if (!OnTrack(from) || target > kLastTrack) continue;
                const int d = target - from;
                hit |= d == a || d == b || d == a + b;
              }
            }
            hits += hit;
          }
        }
        ++singles;
        for (int j = 0; j < 5; ++j) {
          const int index = kContactNetInputs + (k * (kLastTrack + 1) + sq) * 5 + j;
          const bool is_on = std::find(on.begin(), on.end(), index) != on.end();
          EXPECT_EQ(is_on, hits >= kHitThresholds[j]) << "hits " << hits << " threshold " << j;
        }
      }
    }
  }
  EXPECT_GT(singles, 200);
}

// A net given the hit inputs with zero weights evaluates as before, in
// float and in integers, and its file reads back as encoding 5.
TEST(DeepNet, HitInputsStartWithZeroWeights) {
  Net net = Net::RandomDeep(Rules(), {32, 8, 8}, 12);
  Net hit = net.WithEncoding(kHitNetEncodingVersion);
  EXPECT_EQ(hit.w1().cols(), kHitNetInputs);
  absl::StatusOr<Net> read = Net::FromBytes(hit.ToBytes(), "hit");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->encoding(), static_cast<uint32_t>(kHitNetEncodingVersion));
  net.Quantise();
  int n = 0;
  for (const Position& pos : Siblings(Rules(), 10, 4)) {
    Evaluation a = net.Evaluate(pos), b = read->Evaluate(pos);
    for (int k = 0; k < kNumOutcomes; ++k) EXPECT_EQ(a.p[k], b.p[k]);
    EXPECT_EQ(read->Evaluate(pos).p, read->Evaluate(read->Encode(pos)).p);
    ++n;
  }
  EXPECT_GT(n, 30);
}

// RULES.md §2 and §4: an opponent blob on a piece's path blocks it; one
// right ahead may be challenged (§6). The block inputs of a single on red's
// 20 for a green blob 3, 1 and 9 squares ahead, and for a partner's blob
// (never a block).
TEST(DeepNetInputs, BlockInputsSeeAnOpponentBlobAheadOnThePath) {
  Rules rules;
  auto bands = [&](int colour, int ahead) {
    const int at = RelativeSquare(colour, AbsoluteSquare(0, 20 + ahead));
    std::string rows[4] = {"20,b,b,b", "b,b,b,b", "b,b,b,b", "b,b,b,b"};
    rows[colour] = absl::StrCat(at, ",", at, ",b,b");
    absl::StatusOr<Position> pos =
        ParseUfen(absl::StrCat(rows[0], "/", rows[1], "/", rows[2], "/", rows[3], " r -"), rules);
    EXPECT_TRUE(pos.ok()) << pos.status();
    NetInputs in = EncodeBlockNetInputs(*pos, rules);
    for (int i = 1; i < in.num_active; ++i) EXPECT_LT(in.active[i - 1], in.active[i]);
    NetInputs contact = EncodeContactNetInputs(*pos, rules);
    for (int i = 0; i < contact.num_active; ++i) EXPECT_EQ(in.active[i], contact.active[i]);
    std::string on;
    for (int j = 0; j < kBlockBands; ++j) {
      const int index = kContactNetInputs + 20 * kBlockBands + j;  // red is k = 0
      on += std::find(in.active.begin(), in.active.begin() + in.num_active, index) !=
                    in.active.begin() + in.num_active
                ? '1'
                : '0';
    }
    return on;
  };
  EXPECT_EQ(bands(1, 3), "010");  // green, a die's reach
  EXPECT_EQ(bands(1, 1), "110");  // right ahead: a challenge's square too
  EXPECT_EQ(bands(3, 9), "001");  // blue, both dice's reach
  EXPECT_EQ(bands(2, 3), "000");  // yellow, the partner: never blocks
}

// The block inputs agree with a scan square by square: for each piece on
// the track, an opponent colour with two or more pieces on a square 1, 1..6
// or 7..12 ahead on its path; for each colour, an opponent blob on its
// doorstep (RULES.md §4), over the positions of self-play games.
TEST(DeepNetInputs, BlockInputsAgreeWithAScanSquareBySquare) {
  Rules rules;
  int blocked = 0;
  auto blob_at = [](const Position& pos, int colour, int abs) {
    for (int enemy = 0; enemy < kNumColours; ++enemy) {
      if (TeamOf(enemy) == TeamOf(colour)) continue;
      const int rel = RelativeSquare(enemy, abs);
      if (OnTrack(rel) && pos.CountAt(enemy, rel) >= 2) return true;
    }
    return false;
  };
  for (const Position& pos : Siblings(rules, 40, 2)) {
    std::vector<int> on = Active(EncodeBlockNetInputs(pos, rules));
    auto is_on = [&](int index) { return std::find(on.begin(), on.end(), index) != on.end(); };
    for (int k = 0; k < kNumColours; ++k) {
      const int colour = (pos.to_throw() + k) % kNumColours;
      for (Square sq : pos.pieces(colour)) {
        if (!OnTrack(sq)) continue;
        bool band[3] = {false, false, false};
        for (int d = 1; d <= 12 && sq + d <= kLastTrack; ++d) {
          if (!blob_at(pos, colour, AbsoluteSquare(colour, sq + d))) continue;
          band[0] |= d == 1;
          band[d <= 6 ? 1 : 2] = true;
        }
        const int base = kContactNetInputs + (k * (kLastTrack + 1) + sq) * kBlockBands;
        for (int j = 0; j < kBlockBands; ++j) EXPECT_EQ(is_on(base + j), band[j]) << j;
        blocked += band[1] || band[2];
      }
      const int doorstep = kContactNetInputs + kNumColours * (kLastTrack + 1) * kBlockBands + k;
      EXPECT_EQ(is_on(doorstep), blob_at(pos, colour, AbsoluteSquare(colour, 0)));
    }
  }
  EXPECT_GT(blocked, 20);
}

// A net given the block inputs with zero weights evaluates as before, in
// float and in integers, and its file reads back as encoding 6.
TEST(DeepNet, BlockInputsStartWithZeroWeights) {
  Net net = Net::RandomDeep(Rules(), {32, 8, 8}, 12);
  Net block = net.WithEncoding(kBlockNetEncodingVersion);
  EXPECT_EQ(block.w1().cols(), kBlockNetInputs);
  absl::StatusOr<Net> read = Net::FromBytes(block.ToBytes(), "block");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->encoding(), static_cast<uint32_t>(kBlockNetEncodingVersion));
  net.Quantise();
  int n = 0;
  for (const Position& pos : Siblings(Rules(), 10, 4)) {
    Evaluation a = net.Evaluate(pos), b = read->Evaluate(pos);
    for (int k = 0; k < kNumOutcomes; ++k) EXPECT_EQ(a.p[k], b.p[k]);
    ++n;
  }
  EXPECT_GT(n, 30);
}

TEST(DeepNet, EvaluationIsAProbabilityDistributionOverTheSixOutcomes) {
  Net net = Net::RandomDeep(Rules(), {64, 16, 16}, 3);
  net.Quantise();
  ExpectDistributions(net);
}

// The accumulator kept per thread and colour, updated by the inputs that
// changed, gives exactly what summing every input afresh gives.
TEST(DeepNet, IncrementalAccumulatorEqualsAFreshSum) {
  Net net = Net::RandomDeep(Rules(), {256, 32, 32}, 9);
  net.Quantise();
  Net other = Net::RandomDeep(Rules(), {48, 8}, 10);
  other.Quantise();
  int n = 0;
  for (const Position& pos : Siblings(Rules(), 30, 4)) {
    Evaluation fresh = net.Evaluate(net.Encode(pos));
    EXPECT_EQ(net.Evaluate(pos).p, fresh.p);
    // Another net in between must not leave its sums behind.
    if (++n % 5 == 0) other.Evaluate(pos);
  }
  EXPECT_GT(n, 100);
}

// Kept inputs evaluated through a colour's accumulator (self-play's path)
// give what a fresh sum gives, and a net requantised after its weights
// changed (as training does each batch) is not served the old sums.
TEST(DeepNet, KeptInputsThroughAnAccumulatorEqualAFreshSum) {
  Net net = Net::RandomDeep(Rules(), {64, 16, 8}, 9);
  net.Quantise();
  int n = 0;
  for (const Position& pos : Siblings(Rules(), 20, 4)) {
    NetInputs in = net.Encode(pos);
    EXPECT_EQ(net.Evaluate(in, pos.to_throw()).p, net.Evaluate(in).p);
    ++n;
  }
  EXPECT_GT(n, 50);
  Position start = Position::Start(Rules());
  NetInputs in = net.Encode(start);
  Evaluation before = net.Evaluate(in, start.to_throw());
  net.b1().array() += 0.25f;  // drops the integer copy
  net.Quantise();
  Evaluation after = net.Evaluate(in, start.to_throw());
  EXPECT_NE(after.p, before.p);
  EXPECT_EQ(after.p, net.Evaluate(in).p);
}

// Quantised to int16 the net stays within half a percent of its float
// self in win probability (measured: docs/evaluation.md).
TEST(DeepNet, QuantisedEvaluationStaysCloseToTheFloatOne) {
  Net net = Net::RandomDeep(Rules(), {256, 32, 32}, 12);
  net.Quantise();
  double worst = 0;
  for (const Position& pos : Siblings(Rules(), 20, 6)) {
    NetInputs in = net.Encode(pos);
    worst = std::max(worst, std::abs(net.Evaluate(in).Win() - net.EvaluateFloat(in).Win()));
  }
  EXPECT_LT(worst, 0.005);
  EXPECT_GT(worst, 0);  // it is the integer path that was measured
}

// The widest first layer, every unit saturated and every second-layer
// weight at the same extreme: the int32 sums of the integer path must not
// overflow, so it still agrees with the float one.
TEST(DeepNet, TheWidestFirstLayerSaturatedKeepsItsIntegerSumsInRange) {
  Net net = Net::RandomDeep(Rules(), {Net::kMaxHidden, 8}, 4);
  net.b1().setConstant(4.0f);         // every unit clipped at 1
  net.mid_w()[0].setConstant(0.02f);  // the second layer's sums at their largest
  net.Quantise();
  Position start = Position::Start(Rules());
  NetInputs in = net.Encode(start);
  EXPECT_NEAR(net.Evaluate(in).Win(), net.EvaluateFloat(in).Win(), 0.005);
}

TEST(DeepNet, ChangingItsWeightsDropsTheIntegerCopy) {
  Net net = Net::RandomDeep(Rules(), {32, 8}, 1);
  net.Quantise();
  EXPECT_TRUE(net.quantised());
  net.w1()(0, 0) += 1;
  EXPECT_FALSE(net.quantised());
}

TEST(DeepNetFile, RoundTripsAsFormatTwoAndEvaluatesQuantised) {
  Net net = Net::RandomDeep(Rules(), {64, 16, 8}, 11);
  net.set_games_trained(77);
  std::string bytes = net.ToBytes();
  EXPECT_EQ(bytes[8], 2);  // the format version follows the magic
  absl::StatusOr<Net> back = Net::FromBytes(bytes, "test");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->deep());
  EXPECT_TRUE(back->quantised());
  EXPECT_EQ(back->LayerSizes(), (std::vector<int>{64, 16, 8}));
  EXPECT_EQ(back->ToBytes(), bytes);
  EXPECT_NE(back->Describe().find("1370-64-16-8-6"), std::string::npos) << back->Describe();
}

// Found by net_fuzz: a file cut short inside the weights, its checksum made
// right, was read as a net (a failed read left the reader in place and the
// shorter reads after it fitted).
TEST(NetFile, AFileShortOfItsWeightsIsRefusedEvenWithAGoodChecksum) {
  for (const Net& net : {Net::Random(Rules(), 2, 1), Net::RandomDeep(Rules(), {2, 1}, 1)}) {
    std::string bytes = net.ToBytes();
    std::string cut = bytes.substr(0, bytes.size() - 8 - 24);
    uint64_t h = 1469598103934665603ull;  // FNV-1a, as the file's checksum
    for (unsigned char c : cut) h = (h ^ c) * 1099511628211ull;
    cut.append(reinterpret_cast<const char*>(&h), 8);
    absl::StatusOr<Net> back = Net::FromBytes(cut, "cut");
    ASSERT_FALSE(back.ok());
    EXPECT_NE(back.status().message().find("ends inside the weights"), std::string::npos)
        << back.status();
  }
}

TEST(DeepNetFile, BadLayerCountsAreRefusedNamingTheFault) {
  std::string bytes = Net::RandomDeep(Rules(), {64, 16}, 11).ToBytes();
  // After the magic: format, encoding, inputs, hidden, outputs, layer count.
  std::string zero = bytes;
  zero[8 + 5 * 4] = 0;
  EXPECT_NE(Net::FromBytes(zero, "f").status().message().find("further layers"), std::string::npos);
  std::string wide = bytes;
  wide[8 + 6 * 4 + 1] = 9;  // the first further layer: 2320 units
  EXPECT_NE(Net::FromBytes(wide, "f").status().message().find("units"), std::string::npos);
}

// A deep net is not of the other layouts.
TEST(DeepNet, FitsOnlyTheFourSidedGameOfTwoTeams) {
  Net net = Net::RandomDeep(Rules(), {16, 8}, 1);
  EXPECT_TRUE(net.FitsShapeOf(*Rules::Preset("wafu")));
  EXPECT_FALSE(net.FitsShapeOf(*Rules::Preset("six")));
}

TEST(Train, ADeepNetLearnsAndResumesWhereAnUnbrokenRunEnds) {
  // Games of a fixed random deep net (its encoding), labelled by their
  // outcomes (λ = 1).
  Net judge = Net::RandomDeep(Rules(), {8, 8}, 77);
  std::vector<TdSample> held_out;
  for (uint64_t g = 0; g < 20; ++g) {
    SelfPlayGame game = PlaySelfPlayGame(judge, 1000000 + g, 1.0);
    held_out.insert(held_out.end(), game.samples.begin(), game.samples.end());
  }
  TrainConfig c;
  c.layers = {32, 8, 8};
  c.games = 192;
  std::string log;
  auto [whole, resumed] = WholeAndResumed(c, "deep", &log);
  EXPECT_EQ(whole, resumed);
  absl::StatusOr<Net> a = Net::FromBytes(whole, "whole");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(a->deep());
  EXPECT_LT(CrossEntropy(*a, held_out),
            CrossEntropy(Net::RandomDeep(Rules(), c.layers, c.seed), held_out) - 0.05);
}

// A wider net starts as the narrow one: the new units of every layer have
// no outgoing weights, so every evaluation is the narrow net's.
TEST(DeepNet, AWidenedNetEvaluatesAsTheNarrowNet) {
  Net narrow = Net::RandomDeep(Rules(), {16, 8, 8}, 5);
  Net wide = narrow.Widened({40, 24, 16}, 6);
  EXPECT_EQ(wide.LayerSizes(), (std::vector<int>{40, 24, 16}));
  Rules rules;
  DiceSequence dice(11);
  Position pos = Position::Start(rules);
  PlayList plays;
  for (int i = 0; i < 60 && !pos.IsGameOver(); ++i) {
    Evaluation a = narrow.Evaluate(pos), b = wide.Evaluate(pos);
    for (int k = 0; k < kNumOutcomes; ++k) EXPECT_NEAR(a.p[k], b.p[k], 1e-6) << i;
    GenerateLegalPlays(pos, rules, dice.Next(), &plays);
    pos = plays[i % plays.size()].after;
  }
}

// `--init` with `--layers` widens a deep net's layers and trains on; any
// other change of shape is refused before a game is played.
TEST(TrainCommand, LayersWithInitOnlyWidenTheNet) {
  std::string init = TempPath("narrow.unet"), out = TempPath("wide.unet");
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
  ASSERT_TRUE(Net::RandomDeep(Rules(), {16, 8, 8}, 5).Save(init).ok());
  EXPECT_EQ(RunUckers("train --out " + out + " --init " + init + " --layers 16,4,8"), 2);
  EXPECT_EQ(RunUckers("train --out " + out + " --init " + init + " --layers 8,8,8"), 2);
  EXPECT_EQ(RunUckers("train --out " + out + " --init " + init + " --layers 16,8,8,8"), 2);
  EXPECT_FALSE(std::ifstream(out).good()) << "nothing written";
  EXPECT_EQ(RunUckers("train --out " + out + " --init " + init + " --layers 24,16,8 --games 16"),
            0);
  absl::StatusOr<Net> wide = Net::Load(out);
  ASSERT_TRUE(wide.ok()) << wide.status();
  EXPECT_EQ(wide->LayerSizes(), (std::vector<int>{24, 16, 8}));
  for (const std::string& f : {init, out, out + ".ckpt"}) std::remove(f.c_str());
}

TEST(TrainCommand, ATeacherMustGiveALookaheadOfItsOwnRules) {
  std::string teacher = TempPath("teacher.unet");
  ASSERT_TRUE(Net::Random(*Rules::Preset("wafu"), 8, 1).Save(teacher).ok());
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --rules wafu --teacher " + teacher), 2);
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --lookahead 1 --teacher " + teacher), 2);
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --rules wafu --lookahead 1 --teacher_depth 2 "
                      "--teacher " +
                      teacher),
            2);
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --lookahead 1 --teacher /nonexistent/t.unet"), 1);
  std::remove(teacher.c_str());
}

TEST(TrainCommand, BadLayersAreUsageErrors) {
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --layers 256,x"), 2);
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --layers 256"), 2);
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --layers 9999,32"), 2);
  EXPECT_EQ(RunUckers("train --out /tmp/x.unet --layers 256,32 --rules six"), 2);
}

// A net of any rules: one deep net for every four-sided ruleset of two
// teams, its switch inputs (RULES.md §9) set from the rules it plays.
Net AnyRulesNet() {
  Net net = Net::RandomDeep(Rules(), {16, 8, 8}, 21);
  net.set_any_rules(true);
  return net;
}

TEST(NetOfAnyRules, FileRoundTripsAsANetOfAnyRules) {
  std::string path = TempPath("any.unet");
  ASSERT_TRUE(AnyRulesNet().Save(path).ok());
  absl::StatusOr<Net> loaded = Net::Load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_TRUE(loaded->any_rules());
  EXPECT_EQ(loaded->rules(), Rules());
  EXPECT_NE(loaded->Describe().find("rules any"), std::string::npos) << loaded->Describe();
  std::remove(path.c_str());
}

TEST(NetOfAnyRules, ANetOfOneHiddenLayerOfAnyRulesIsRefused) {
  Net shallow = Net::Random(Rules(), 8, 1);
  shallow.set_any_rules(true);
  absl::StatusOr<Net> read = Net::FromBytes(shallow.ToBytes(), "test");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("only a deep net"), std::string::npos) << read.status();
}

TEST(NetOfAnyRules, EvaluatesEachRulesetWithThatRulesetsSwitchInputs) {
  Net any = AnyRulesNet();
  any.Quantise();
  Rules wafu = *Rules::Preset("wafu");
  Rules bounce = *Rules::Parse("navy+bounce_back");
  EXPECT_EQ(any.ForRules(Rules()), &any);
  const Net* as_wafu = any.ForRules(wafu);
  ASSERT_NE(as_wafu, nullptr);
  EXPECT_EQ(as_wafu->rules(), wafu);
  EXPECT_EQ(any.ForRules(wafu), as_wafu) << "made once per rules";
  EXPECT_EQ(any.ForRules(bounce)->rules(), bounce);
  EXPECT_EQ(any.ForRules(*Rules::Preset("six")), nullptr);
  EXPECT_EQ(any.ForRules(*Rules::Parse("navy+solo")), nullptr);
  Net navy = Net::RandomDeep(Rules(), {16, 8, 8}, 21);
  EXPECT_EQ(navy.ForRules(wafu), nullptr) << "a net of one ruleset has no views";
  // The same position reads the wafu switches' inputs under wafu.
  Position pos = testing::SamplePositions(Rules(), 1, 3)[0];
  Net copy = any;
  copy.set_rules(wafu);
  for (int k = 0; k < kNumOutcomes; ++k) {
    EXPECT_EQ(as_wafu->Evaluate(pos).p[k], copy.Evaluate(pos).p[k]);
  }
  EXPECT_NE(as_wafu->Evaluate(pos).p[0], any.Evaluate(pos).p[0]);
}

TEST(NetOfAnyRules, ChangingItsWeightsDropsItsViews) {
  Net any = AnyRulesNet();
  Rules wafu = *Rules::Preset("wafu");
  const Net* before = any.ForRules(wafu);
  Position pos = testing::SamplePositions(Rules(), 1, 4)[0];
  double old_value = before->Evaluate(pos).p[0];
  any.b2()[0] += 1.0f;
  const Net* after = any.ForRules(wafu);
  EXPECT_NE(after->Evaluate(pos).p[0], old_value);
}

TEST(EvalChoice, ANetOfAnyRulesServesEveryFourSidedRulesetOfTwoTeams) {
  Net any = AnyRulesNet();
  SearchParams p;
  p.net = &any;
  Rules custom = *Rules::Parse("navy+bounce_back+one_less_six");
  const Net* used = ResolveEvaluation(p, custom).net;
  ASSERT_NE(used, nullptr);
  EXPECT_TRUE(used->any_rules());
  EXPECT_EQ(used->rules(), custom);
  EXPECT_NE(EvaluationInUse(p, custom).find("rules any (playing navy+bounce_back+one_less_six)"),
            std::string::npos)
      << EvaluationInUse(p, custom);
  Rules six = *Rules::Preset("six");
  EXPECT_EQ(ResolveEvaluation(p, six).net, NetFor(six)) << "another layout: its own net";
}

TEST(TrainAnyRules, BatchRulesAreDrawnFromTheSeedAndCoverPresetsAndSwitches) {
  EXPECT_EQ(BatchRules(7, 800), BatchRules(7, 800));
  std::set<std::string> presets;
  std::array<int, kNumSwitches> on{};
  bool differs = false;
  for (int64_t games = 0; games < 400 * 8; games += 8) {
    Rules r = BatchRules(7, games);
    EXPECT_TRUE(r.layout().IsFourSidedTeams()) << r.ToString();
    differs = differs || !(r == BatchRules(8, games));
    for (const char* name : {"navy", "wafu", "mess", "selsey"}) {
      if (r == *Rules::Preset(name)) presets.insert(name);
    }
    for (int s = 0; s < kNumSwitches; ++s) on[s] += r.has(static_cast<Switch>(s));
  }
  EXPECT_EQ(presets.size(), 4u);
  EXPECT_TRUE(differs) << "another seed, other rules";
  for (int s = 0; s < kNumSwitches; ++s) {
    Switch sw = static_cast<Switch>(s);
    bool layout = sw == Switch::kSixSided || sw == Switch::kTeamsOfThree || sw == Switch::kSolo;
    if (layout) {
      EXPECT_EQ(on[s], 0) << SwitchName(sw);
    } else {
      EXPECT_GT(on[s], 20) << SwitchName(sw);
    }
  }
}

TEST(TrainCommand, RulesAnyTrainsADeepNetOfAnyRules) {
  std::string out = TempPath("any_cmd.unet");
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
  EXPECT_EQ(RunUckers("train --out " + out + " --rules any --games 16"), 2) << "not deep";
  EXPECT_EQ(RunUckers("train --out " + out + " --rules any --layers 16,8,8 --endgames x.egt"), 2);
  EXPECT_FALSE(std::ifstream(out).good()) << "nothing written";
  ASSERT_EQ(RunUckers("train --out " + out + " --rules any --layers 16,8,8 --games 16"), 0);
  absl::StatusOr<Net> net = Net::Load(out);
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_TRUE(net->any_rules());
  EXPECT_EQ(net->games_trained(), 16u);
  // Its checkpoint resumes only a run of any rules.
  EXPECT_EQ(RunUckers("train --out " + out + " --layers 16,8,8 --games 24"), 1);
  EXPECT_EQ(RunUckers("train --out " + out + " --rules any --layers 16,8,8 --games 24"), 0);
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
}

TEST(TrainCommand, AnInitNetOfOneRulesetBecomesANetOfAnyRulesOnlyWithInitOtherRules) {
  std::string init = TempPath("any_init.unet"), out = TempPath("any_from.unet");
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
  ASSERT_TRUE(Net::RandomDeep(Rules(), {16, 8, 8}, 5).Save(init).ok());
  EXPECT_EQ(RunUckers("train --out " + out + " --rules any --init " + init + " --games 8"), 1);
  ASSERT_EQ(RunUckers("train --out " + out + " --rules any --init " + init +
                      " --init_other_rules --games 8"),
            0);
  absl::StatusOr<Net> net = Net::Load(out);
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_TRUE(net->any_rules());
  for (const std::string& f : {init, out, out + ".ckpt"}) std::remove(f.c_str());
}

}  // namespace
}  // namespace uckers
