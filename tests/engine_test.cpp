// The engine controller (engine/engine.h), the one door to the search: its
// jobs (go, stop, wait, one at a time), its blocking calls (search,
// evaluation per throw) and the fixed answers every front gets from it.
#include "engine/engine.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "rules/notation.h"

namespace uckers::testing {
namespace {

constexpr const char* kMid = "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -";

// What a job's callbacks heard.
struct Heard {
  std::mutex mu;
  int infos = 0;
  int done = 0;
  std::string best;
};

Engine::DoneCallback DoneInto(Heard* heard) {
  return [heard](const SearchReport&, std::string best) {
    std::lock_guard<std::mutex> lock(heard->mu);
    ++heard->done;
    heard->best = std::move(best);
  };
}

ReportCallback InfoInto(Heard* heard) {
  return [heard](const SearchReport&) {
    std::lock_guard<std::mutex> lock(heard->mu);
    ++heard->infos;
  };
}

GoRequest DiceAtDepth(int d1, int d2, int depth) {
  GoRequest go;
  go.dice = MakeThrow(d1, d2);
  go.limits.depth = depth;
  return go;
}

GoRequest Infinite() {
  GoRequest go;
  go.dice = MakeThrow(6, 3);
  go.limits.infinite = true;
  return go;
}

TEST(Engine, GoAnswersOnItsOwnThreadAndWaitBlocksUntilTheAnswer) {
  Engine engine;
  ASSERT_TRUE(engine.SetPosition(kMid, {}).ok());
  Heard heard;
  ASSERT_TRUE(engine.Go(DiceAtDepth(6, 3, 2), InfoInto(&heard), DoneInto(&heard)).ok());
  engine.Wait();
  EXPECT_FALSE(engine.busy());
  EXPECT_EQ(heard.done, 1);
  EXPECT_EQ(heard.infos, 2);  // one a depth
  EXPECT_EQ(heard.best, "rb-0,r30-33");
}

TEST(Engine, ASecondGoWhileOneRunsIsRefusedAndStartsNothing) {
  Engine engine;
  Heard first, second;
  ASSERT_TRUE(engine.Go(Infinite(), nullptr, DoneInto(&first)).ok());
  absl::Status again = engine.Go(DiceAtDepth(6, 3, 1), nullptr, DoneInto(&second));
  EXPECT_EQ(again.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(again.message().find("a search is running"), std::string::npos) << again;
  engine.Stop();
  engine.Wait();
  EXPECT_EQ(first.done, 1);
  EXPECT_EQ(second.done, 0);
}

TEST(Engine, StopEndsAnInfiniteSearchWhichThenAnswers) {
  Engine engine;
  Heard heard;
  ASSERT_TRUE(engine.Go(Infinite(), nullptr, DoneInto(&heard)).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(engine.RunningInfinite());
  EXPECT_EQ(heard.done, 0);  // an infinite search answers only when stopped
  engine.Stop();
  engine.Wait();
  EXPECT_FALSE(engine.RunningInfinite());
  EXPECT_EQ(heard.done, 1);
  EXPECT_NE(heard.best, "(none)");
}

TEST(Engine, ABlockingSearchWhileAJobRunsIsRefused) {
  Engine engine;
  Heard heard;
  ASSERT_TRUE(engine.Go(Infinite(), nullptr, DoneInto(&heard)).ok());
  std::atomic<bool> stop{false};
  SearchRequest request;
  request.dice = MakeThrow(6, 3);
  request.limits.depth = 1;
  EXPECT_EQ(engine.Search(request, stop).status().code(), absl::StatusCode::kFailedPrecondition);
  engine.Stop();
  engine.Wait();
  EXPECT_TRUE(engine.Search(request, stop).ok());
}

TEST(Engine, GoAndABlockingSearchWithTheSameSettingsGiveTheSameAnswer) {
  Engine by_go, blocking;
  ASSERT_TRUE(by_go.SetPosition(kMid, {}).ok());
  ASSERT_TRUE(blocking.SetPosition(kMid, {}).ok());
  GoRequest go = DiceAtDepth(6, 5, 2);
  std::optional<SearchReport> answered;
  ASSERT_TRUE(
      by_go.Go(go, nullptr, [&](const SearchReport& r, const std::string&) { answered = r; }).ok());
  by_go.Wait();
  std::atomic<bool> stop{false};
  absl::StatusOr<SearchReport> r = blocking.Search(blocking.RequestFor(go), stop);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(answered.has_value());
  EXPECT_EQ(r->nodes, answered->nodes);
  EXPECT_EQ(r->candidates[0].after, answered->candidates[0].after);
}

// The answer EngineService::Evaluate gave with per_throw before the engine
// controller walked the throws itself (gRPC, kMid, depth 1, the default
// table of 2 MiB, navy's net of then, kept as nets/previous/navy.unet): each
// throw's best play, its win chance and equity.
struct OldThrowAnswer {
  int die1, die2;
  const char* best;
  double win, equity;
};
constexpr OldThrowAnswer kOldPerThrow[] = {
    {6, 6, "rb-0,r0-6", 0.5849318646893771, 0.17005228197531874},
    {6, 5, "rb-0,r5-10", 0.5829840030680415, 0.1661430115887903},
    {6, 4, "rb-0,r0-4", 0.5819754819904901, 0.16412056642011308},
    {6, 3, "rb-0,r30-33", 0.5898939562311334, 0.17995132536661806},
    {6, 2, "rb-0,r5-7", 0.5789669574588352, 0.15809307980490317},
    {6, 1, "rb-0,r12-13", 0.5798700726996522, 0.15989184376727117},
    {5, 5, "r5-15", 0.5374070052244662, 0.0748583500412412},
    {5, 4, "r5-14", 0.536984332052791, 0.07401508552725211},
    {5, 3, "r5-10,r30-33", 0.5614056286792337, 0.12296087025485747},
    {5, 2, "r5-12", 0.5505534266033258, 0.10113926742796586},
    {5, 1, "r5-11", 0.5420927631103876, 0.08425012530452314},
    {4, 4, "r5-9,r12-16", 0.5339092362780296, 0.06785347831684341},
    {4, 3, "r5-9,r30-33", 0.5611937095596868, 0.12253623554871496},
    {4, 2, "r5-9,r30-32", 0.5423628046399376, 0.08478874252297963},
    {4, 1, "r5-10", 0.5426396032658332, 0.08534663182749291},
    {3, 3, "r5-8,r30-33", 0.5615453858206045, 0.1232351253151256},
    {3, 2, "r5-7,r30-33", 0.5600301541233641, 0.12019806355742002},
    {3, 1, "r5-6,r30-33", 0.5584640527706224, 0.11705299392690982},
    {2, 2, "r5-9", 0.5423103223266992, 0.08468600206214028},
    {2, 1, "r30-33", 0.5580473484925896, 0.11621907765087691},
    {1, 1, "r5-7", 0.5411421820426661, 0.08233856197999678},
};

TEST(Engine, EvaluatePerThrowIsTheAnswerTheGrpcServiceGaveBefore) {
  EngineOptions options;
  options.hash_mb = 2;
  Engine engine(options);
  ASSERT_TRUE(engine.SetPosition(kMid, {}).ok());
  SearchRequest request;
  ASSERT_TRUE(SetSetting(request, "netfile", UCKERS_SOURCE_DIR "/nets/previous/navy.unet").ok());
  request.limits.depth = 1;
  std::atomic<bool> stop{false};
  absl::StatusOr<EvaluationReport> e = engine.Evaluate(request, true, stop);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_NEAR(e->before.eval.Win(), 0.5598937384964913, 1e-12);
  EXPECT_NEAR(e->before.eval.Equity(), 0.11990104557455661, 1e-12);
  ASSERT_EQ(e->per_throw.size(), 21u);
  for (size_t k = 0; k < 21; ++k) {
    const OldThrowAnswer& old = kOldPerThrow[k];
    const ThrowValue& v = e->per_throw[k];
    EXPECT_EQ(v.dice, MakeThrow(old.die1, old.die2)) << k;
    EXPECT_EQ(PlayToString(v.best.play), old.best) << k;
    EXPECT_NEAR(v.best.eval.Win(), old.win, 1e-12) << old.best;
    EXPECT_NEAR(v.best.eval.Equity(), old.equity, 1e-12) << old.best;
  }
}

TEST(Engine, EvaluateWithoutPerThrowSearchesOnlyBeforeTheThrow) {
  Engine engine;
  SearchRequest request;
  request.limits.depth = 1;
  request.dice = MakeThrow(6, 3);  // ignored: the evaluation is before the throw
  std::atomic<bool> stop{false};
  absl::StatusOr<EvaluationReport> e = engine.Evaluate(request, false, stop);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->per_throw.empty());
  EXPECT_TRUE(e->before.candidates.empty());
}

TEST(Engine, BenchGivesTheRecordedNodesAndSignature) {
  BenchResult r = Engine::Bench();
  EXPECT_EQ(r.nodes, 45434u);
  EXPECT_EQ(r.signature, 0x138aec9b668c4596ull);
}

TEST(Engine, ApplyPlayPlaysOnTheGameAndABadPlayChangesNothing) {
  Engine engine;
  absl::StatusOr<PlayResult> r = engine.ApplyPlay(MakeThrow(6, 3), "rb-0,r0-3");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(engine.position(), r->after);
  EXPECT_EQ(engine.game().items().size(), 1u);
  EXPECT_FALSE(engine.ApplyPlay(MakeThrow(6, 3), "r9-15").ok());
  EXPECT_EQ(engine.game().items().size(), 1u);
}

TEST(Engine, APositionOfAnotherLayoutIsRefused) {
  Engine engine;  // navy: four colours, two teams
  absl::StatusOr<Rules> six = Rules::Parse("six");
  ASSERT_TRUE(six.ok());
  EXPECT_EQ(engine.SetPosition(Position::Start(*six)).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace uckers::testing
