// Rollout labels (search/rollout.h: LabelPosition, SamplePosition) and the
// labelled-positions file of `uckers label` (learn/label.h).
#include "learn/label.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#include "endgame/solver.h"
#include "eval/net.h"
#include "learn/td.h"
#include "search/expectimax.h"
#include "search/levels.h"
#include "search/rollout.h"
#include "search/search.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

SearchParams ExpertParams(const Rules& rules) {
  SearchParams p;
  EXPECT_TRUE(ApplyLevel("expert", &p).ok());
  return ResolveEvaluation(p, rules);
}

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/" + std::to_string(::getpid()) + "-" + name;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const char* kMiddle = "b,6,11,36/0,5,36,54/27,38,47,47/b,5,13,55 y -";

// With one throw a rollout and 36 trials, the stratified first throws are
// the 36 ordered throws once each: the label is the exact one-throw
// expectimax value (each throw's best play by the same evaluation).
TEST(RolloutLabel, ThirtySixOneThrowTrialsAreTheDepthOneExpectimaxValue) {
  Rules rules;
  SearchParams params = ExpertParams(rules);
  params.noise = 0;
  Position pos = *ParseUfen(kMiddle, rules);
  PositionLabel label = LabelPosition(pos, rules, params, 36, 1, 7);
  std::atomic<bool> never{false};
  Limiter unlimited(never, std::nullopt, std::nullopt);
  TranspositionTable tt(1);
  Expectimax ex(rules, params, &tt, &unlimited);
  Evaluation exact;
  ex.Chance(pos, 1, -std::numeric_limits<double>::infinity(),
            std::numeric_limits<double>::infinity(), &exact);
  for (int i = 0; i < kNumOutcomes; ++i) EXPECT_NEAR(label.outcomes.p[i], exact.p[i], 1e-9) << i;
  EXPECT_EQ(label.trials, 36);
}

TEST(RolloutLabel, IsReproducibleForASeedAndSumsToOne) {
  Rules rules;
  SearchParams params = ExpertParams(rules);
  Position pos = *ParseUfen(kMiddle, rules);
  PositionLabel a = LabelPosition(pos, rules, params, 40, 6, 11);
  PositionLabel b = LabelPosition(pos, rules, params, 40, 6, 11);
  PositionLabel c = LabelPosition(pos, rules, params, 40, 6, 12);
  double sum = 0;
  for (int i = 0; i < kNumOutcomes; ++i) {
    EXPECT_EQ(a.outcomes.p[i], b.outcomes.p[i]);
    sum += a.outcomes.p[i];
  }
  EXPECT_NEAR(sum, 1.0, 1e-6);                    // the net's float outputs
  EXPECT_NE(a.outcomes.Win(), c.outcomes.Win());  // other dice after the first throw
  EXPECT_GT(a.win_stderr, 0);
}

// Positions an endgame table covers get its exact values, no rollout.
TEST(RolloutLabel, APositionTheTableCoversIsLabelledExactly) {
  Rules rules;
  absl::StatusOr<EndgameTable> table = BuildEndgameTable(EndgameClass::k1v1, rules, {}, nullptr);
  ASSERT_TRUE(table.ok()) << table.status();
  Position pos = *ParseUfen("h,h,h,40/h,h,h,30/h,h,h,h/h,h,h,h r pyb", rules);
  std::optional<EndgameValues> exact = table->Probe(pos, rules);
  ASSERT_TRUE(exact.has_value());
  SearchParams params = ExpertParams(rules);
  params.endgame = &*table;
  PositionLabel label = LabelPosition(pos, rules, params, 36, 8, 1);
  EXPECT_EQ(label.trials, 0);
  for (int i = 0; i < kNumOutcomes; ++i) EXPECT_NEAR(label.outcomes.p[i], (*exact)[i], 1e-6) << i;
  params.endgame = nullptr;
  EXPECT_EQ(LabelPosition(pos, rules, params, 36, 8, 1).trials, 36);
}

TEST(RolloutLabel, SampledPositionsAreBeforeAThrowOfAGameInPlay) {
  Rules rules;
  SearchParams params = ExpertParams(rules);
  int throws = 0;
  Position a = SamplePosition(rules, params, 5, &throws);
  EXPECT_FALSE(a.IsGameOver());
  EXPECT_GT(throws, 20);
  EXPECT_EQ(ToUfen(a), ToUfen(SamplePosition(rules, params, 5)));
}

LabelConfig SmallRun(const std::string& out, int64_t positions) {
  LabelConfig c;
  c.level = "expert";
  EXPECT_TRUE(ApplyLevel(c.level, &c.params).ok());
  c.out = out;
  c.positions = positions;
  c.seed = 3;
  c.trials = 8;
  c.plies = 3;
  c.threads = 2;
  return c;
}

absl::Status RunLabel(const LabelConfig& c) {
  std::ostringstream log;
  std::atomic<bool> stop{false};
  return Label(c, log, stop);
}

// A run stopped and resumed writes the file a run never stopped writes: a
// position depends on the seed and its index alone.
TEST(LabelFile, AStoppedRunResumesToTheSameFile) {
  std::string whole = TempPath("whole.jsonl"), parts = TempPath("parts.jsonl");
  std::remove(whole.c_str());
  std::remove(parts.c_str());
  ASSERT_TRUE(RunLabel(SmallRun(whole, 7)).ok());
  ASSERT_TRUE(RunLabel(SmallRun(parts, 3)).ok());
  ASSERT_TRUE(RunLabel(SmallRun(parts, 7)).ok());
  std::string text = Slurp(whole);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 7);
  EXPECT_EQ(Slurp(parts), text);
  EXPECT_NE(text.find(R"("source":"rollout")"), std::string::npos);
  std::remove(whole.c_str());
  std::remove(parts.c_str());
}

// A line cut short (a killed worker) is dropped and labelled again: no
// position is lost, none is written twice.
TEST(LabelFile, ALineCutShortIsLabelledAgain) {
  std::string whole = TempPath("whole2.jsonl"), cut = TempPath("cut.jsonl");
  std::remove(whole.c_str());
  std::remove(cut.c_str());
  ASSERT_TRUE(RunLabel(SmallRun(whole, 5)).ok());
  std::string text = Slurp(whole);
  size_t third = 0;
  for (int i = 0; i < 3; ++i) third = text.find('\n', third) + 1;
  {
    std::ofstream out(cut, std::ios::binary);
    out << text.substr(0, third + 40);  // three lines and the start of a fourth
  }
  ASSERT_TRUE(RunLabel(SmallRun(cut, 5)).ok());
  EXPECT_EQ(Slurp(cut), text);
  std::remove(whole.c_str());
  std::remove(cut.c_str());
}

TEST(LabelFile, AFileOfOtherSettingsIsRefusedAndLeftAsItIs) {
  std::string path = TempPath("other.jsonl");
  std::remove(path.c_str());
  ASSERT_TRUE(RunLabel(SmallRun(path, 2)).ok());
  std::string before = Slurp(path);
  LabelConfig other = SmallRun(path, 4);
  other.trials = 16;
  absl::Status s = RunLabel(other);
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_NE(s.message().find("other settings"), std::string::npos) << s;
  EXPECT_EQ(Slurp(path), before);
  std::remove(path.c_str());
}

TEST(LabelFile, OtherLayoutsAndBadCountsAreRefused) {
  std::string path = TempPath("six.jsonl");
  std::remove(path.c_str());
  LabelConfig c = SmallRun(path, 2);
  c.rules = *Rules::Parse("six");
  EXPECT_TRUE(absl::IsInvalidArgument(RunLabel(c)));
  c = SmallRun(path, 2);
  c.trials = 0;
  EXPECT_TRUE(absl::IsInvalidArgument(RunLabel(c)));
  std::ifstream in(path);
  EXPECT_FALSE(in.good()) << "nothing written";
}

TEST(LabelFile, AnUnwritableFileIsAnErrorOfItsOwn) {
  absl::Status s = RunLabel(SmallRun("/nonexistent-dir/labels.jsonl", 2));
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(absl::IsInvalidArgument(s)) << s;
  EXPECT_NE(s.message().find("/nonexistent-dir/labels.jsonl"), std::string::npos) << s;
}

// A run labelling with a net of a file (a candidate) says so in every line,
// labels by that net, and its settings name the same run for a database
// worker, which loads the file itself.
TEST(LabelFile, ANetFileLabelsByThatNetAndNamesItInEveryLine) {
  std::string net = TempPath("labeller.unet"), built_in = TempPath("built-in.jsonl"),
              by_file = TempPath("by-file.jsonl");
  std::remove(built_in.c_str());
  std::remove(by_file.c_str());
  ASSERT_TRUE(Net::Random(Rules(), 8, 3).Save(net).ok());
  ASSERT_TRUE(RunLabel(SmallRun(built_in, 3)).ok());
  LabelConfig c = SmallRun(by_file, 3);
  c.netfile = net;
  ASSERT_TRUE(UseLabelNet(&c).ok());
  ASSERT_TRUE(RunLabel(c).ok());
  const std::string text = Slurp(by_file);
  const std::string settings = LabelSettings(c);
  EXPECT_NE(settings.find(absl::StrCat(R"("netfile":")", net, "\"")), std::string::npos);
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    EXPECT_NE(line.find(settings), absl::string_view::npos) << line;
  }
  EXPECT_NE(text.substr(text.find("outcomes")), Slurp(built_in).substr(text.find("outcomes")))
      << "a random net labels otherwise than the built-in one";
  absl::StatusOr<LabelConfig> worker = LabelConfigFromSettings(settings);
  ASSERT_TRUE(worker.ok()) << worker.status();
  EXPECT_EQ(worker->params.net, c.params.net);
  std::remove(net.c_str());
  std::remove(built_in.c_str());
  std::remove(by_file.c_str());
}

TEST(LabelFile, ANetFileOfOtherRulesOrMissingIsRefused) {
  std::string wafu = TempPath("wafu-labeller.unet");
  ASSERT_TRUE(Net::Random(*Rules::Preset("wafu"), 8, 1).Save(wafu).ok());
  LabelConfig c = SmallRun(TempPath("never.jsonl"), 2);
  c.netfile = wafu;
  absl::Status s = UseLabelNet(&c);
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_NE(s.message().find("wafu"), std::string::npos) << s;
  c.netfile = TempPath("no-such.unet");
  s = UseLabelNet(&c);
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(absl::IsInvalidArgument(s)) << "a file that cannot be read is not a usage error";
  EXPECT_EQ(c.params.net, nullptr);
  std::remove(wafu.c_str());
}

// The win probability of every line of a labels file, in order.
std::vector<double> Wins(const std::string& text) {
  std::vector<double> wins;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    absl::StatusOr<LabelRead> read = ReadLabelLine(line, Rules());
    EXPECT_TRUE(read.ok()) << read.status();
    if (read.ok()) wins.push_back(read->outcomes[0] + read->outcomes[1] + read->outcomes[2]);
  }
  return wins;
}

// The win probabilities a run writes to its file `c.out`, made afresh and
// removed after.
std::vector<double> WinsOfRun(const LabelConfig& c) {
  std::remove(c.out.c_str());
  absl::Status s = RunLabel(c);
  EXPECT_TRUE(s.ok()) << s;
  std::vector<double> wins = Wins(Slurp(c.out));
  std::remove(c.out.c_str());
  return wins;
}

// A search one throw deep values each throw's best play statically: the
// label 36 rollouts of one throw give (the same positions, drawn from the
// seed and index alone).
TEST(SearchLabel, DepthOneIsTheLabelOfThirtySixOneThrowRollouts) {
  LabelConfig by_search = SmallRun(TempPath("depth1.jsonl"), 4);
  by_search.depth = 1;
  LabelConfig by_rollout = SmallRun(TempPath("rolled1.jsonl"), 4);
  by_rollout.trials = 36;
  by_rollout.plies = 1;
  std::vector<double> a = WinsOfRun(by_search), b = WinsOfRun(by_rollout);
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), 4u);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 2e-6) << i;
}

// A run labelled by search names its depth (not trials and plies) in every
// line, marks its labels "search", resumes to the file of a run never
// stopped, and its settings name the same run for a database worker.
TEST(SearchLabel, ARunNamesItsDepthInEveryLineAndResumesToTheSameFile) {
  std::string whole = TempPath("depth2-whole.jsonl"), parts = TempPath("depth2-parts.jsonl");
  std::remove(whole.c_str());
  std::remove(parts.c_str());
  LabelConfig c = SmallRun(whole, 5);
  c.depth = 2;
  ASSERT_TRUE(RunLabel(c).ok());
  LabelConfig first = c;
  first.out = parts;
  first.positions = 2;
  ASSERT_TRUE(RunLabel(first).ok());
  LabelConfig rest = first;
  rest.positions = 5;
  ASSERT_TRUE(RunLabel(rest).ok());
  const std::string text = Slurp(whole);
  EXPECT_EQ(Slurp(parts), text);
  EXPECT_EQ(LabelSettings(c), R"("rules":"navy","level":"expert","seed":3,"depth":2)");
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    EXPECT_NE(line.find(LabelSettings(c)), absl::string_view::npos) << line;
    EXPECT_NE(line.find(R"("source":"search")"), absl::string_view::npos) << line;
  }
  absl::StatusOr<LabelConfig> worker = LabelConfigFromSettings(LabelSettings(c));
  ASSERT_TRUE(worker.ok()) << worker.status();
  EXPECT_EQ(worker->depth, 2);
  EXPECT_EQ(LabelSettings(*worker), LabelSettings(c));
  std::remove(whole.c_str());
  std::remove(parts.c_str());
}

// Two throws deep is not one throw deep: the second throw changes labels.
TEST(SearchLabel, DepthTwoLooksFurtherThanDepthOne) {
  LabelConfig c = SmallRun(TempPath("d1.jsonl"), 4);
  c.depth = 1;
  std::vector<double> a = WinsOfRun(c);
  c.out = TempPath("d2.jsonl");
  c.depth = 2;
  std::vector<double> b = WinsOfRun(c);
  ASSERT_EQ(a.size(), b.size());
  int differ = 0;
  for (size_t i = 0; i < a.size(); ++i) differ += std::abs(a[i] - b[i]) > 1e-4;
  EXPECT_GT(differ, 0);
}

TEST(SearchLabel, ADepthOutOfRangeIsRefusedAndNothingWritten) {
  std::string path = TempPath("deep.jsonl");
  std::remove(path.c_str());
  LabelConfig c = SmallRun(path, 2);
  c.depth = kMaxLabelDepth + 1;
  absl::Status s = RunLabel(c);
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_NE(s.message().find("--depth"), std::string::npos) << s;
  c.depth = -1;
  EXPECT_TRUE(absl::IsInvalidArgument(RunLabel(c)));
  std::ifstream in(path);
  EXPECT_FALSE(in.good()) << "nothing written";
  EXPECT_FALSE(
      LabelConfigFromSettings(R"("rules":"navy","level":"expert","seed":3,"depth":0)").ok());
  EXPECT_FALSE(
      LabelConfigFromSettings(R"("rules":"navy","level":"expert","seed":3,"depth":9)").ok());
}

// --- Supervised training on the labels (learn/td.h, TrainOnLabels) ---

// A labels file of `n` positions, made once per test program.
const std::string& SmallLabels() {
  static const std::string path = [] {
    std::string p = TempPath("train-labels.jsonl");
    std::remove(p.c_str());
    EXPECT_TRUE(RunLabel(SmallRun(p, 60)).ok());
    return p;
  }();
  return path;
}

TrainConfig SupervisedRun(const std::string& out, int epochs) {
  TrainConfig c;
  c.labels = SmallLabels();
  c.out = out;
  c.hidden = 16;
  c.epochs = epochs;
  c.learning_rate = 1e-2;
  c.minibatch = 16;
  c.seed = 5;
  return c;
}

// The training cross-entropy of each pass, from the log.
std::vector<double> PassLosses(const std::string& log) {
  std::vector<double> losses;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    size_t at = line.find("train cross-entropy ");
    if (absl::StartsWith(line, "pass ") && at != absl::string_view::npos) {
      losses.push_back(std::stod(std::string(line.substr(at + 20, 6))));
    }
  }
  return losses;
}

TEST(TrainOnLabels, ANewNetLearnsTheLabelsItIsTaught) {
  std::string out = TempPath("learns.unet");
  std::ostringstream log;
  ASSERT_TRUE(TrainOnLabels(SupervisedRun(out, 12), log).ok()) << log.str();
  std::vector<double> losses = PassLosses(log.str());
  ASSERT_EQ(losses.size(), 12u) << log.str();
  EXPECT_LT(losses.back(), losses.front() - 0.05) << log.str();
  EXPECT_NE(log.str().find("54 labels to train on, 6 held out"), std::string::npos) << log.str();
  EXPECT_TRUE(Net::Load(out).ok());
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
}

// Deterministic for a seed, and a run resumed from its checkpoint ends with
// the weights of one never stopped.
TEST(TrainOnLabels, AResumedRunEndsWithTheSameWeights) {
  std::string whole = TempPath("whole.unet"), parts = TempPath("parts.unet");
  std::ostringstream log;
  ASSERT_TRUE(TrainOnLabels(SupervisedRun(whole, 4), log).ok()) << log.str();
  ASSERT_TRUE(TrainOnLabels(SupervisedRun(parts, 2), log).ok()) << log.str();
  ASSERT_TRUE(TrainOnLabels(SupervisedRun(parts, 4), log).ok()) << log.str();
  EXPECT_TRUE(Slurp(parts) == Slurp(whole)) << "the weights differ";
  for (const std::string& f : {whole, parts}) {
    std::remove(f.c_str());
    std::remove((f + ".ckpt").c_str());
  }
}

TEST(TrainOnLabels, LabelsOfOtherRulesAreRefusedByLine) {
  TrainConfig c = SupervisedRun(TempPath("wafu.unet"), 1);
  c.rules = *Rules::Parse("wafu");
  std::ostringstream log;
  absl::Status s = TrainOnLabels(c, log);
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_NE(s.message().find("line 1: labels of rules 'navy', not wafu"), std::string::npos) << s;
  c.labels = TempPath("missing.jsonl");
  EXPECT_TRUE(absl::IsNotFound(TrainOnLabels(c, log)));
}

}  // namespace
}  // namespace uckers::testing
