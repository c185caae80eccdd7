// The service's engines reused between calls (server/engine_pool.h): made
// once a slot, run on threads of their own, stopped when the call says so,
// and made as new for each call, so that no call sees another's state.
#include "server/engine_pool.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "rules/ufen.h"
#include "server/api.h"

namespace uckers {
namespace {

TEST(EnginePool, SequentialCallsReuseOneEngineOnAThreadOfItsOwn) {
  EnginePool pool(4, 1);
  std::atomic<bool> stop{false};
  std::thread::id caller = std::this_thread::get_id();
  for (int i = 0; i < 5; ++i) {
    std::thread::id ran;
    absl::Status s = pool.Run(
        EngineOptions(), std::nullopt, &stop, [] { return false; },
        [&](Engine&) { ran = std::this_thread::get_id(); });
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_NE(ran, caller);
  }
  EXPECT_EQ(pool.made(), 1);
}

TEST(EnginePool, ConcurrentCallsGetEnginesOfTheirOwnUpToTheSize) {
  EnginePool pool(2, 1);
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  auto call = [&] {
    std::atomic<bool> stop{false};
    absl::Status s = pool.Run(
        EngineOptions(), std::nullopt, &stop, [] { return false; },
        [&](Engine&) {
          int now = ++inside;
          most = std::max(most.load(), now);
          std::this_thread::sleep_for(std::chrono::milliseconds(30));
          --inside;
        });
    EXPECT_TRUE(s.ok()) << s;
  };
  std::thread a(call), b(call), c(call);
  a.join();
  b.join();
  c.join();
  EXPECT_EQ(pool.made(), 2);
  EXPECT_LE(most.load(), 2);
}

// A call that asks for a large table gets it, and the pool does not keep
// it: between calls the pool holds its own size of table a slot.
TEST(EnginePool, ALargeTableAskedForIsGivenBackAfterItsCall) {
  EnginePool pool(1, 1);
  std::atomic<bool> stop{false};
  EngineOptions small;
  small.hash_mb = 1;
  ASSERT_TRUE(pool.Run(
                      small, std::nullopt, &stop, [] { return false; }, [](Engine&) {})
                  .ok());
  const size_t held = pool.FreeTableBytes();
  EngineOptions large;
  large.hash_mb = 32;
  size_t during = 0;
  ASSERT_TRUE(pool.Run(
                      large, std::nullopt, &stop, [] { return false; },
                      [&](Engine& e) { during = e.TableBytes(); })
                  .ok());
  EXPECT_GT(during, 16 * held);
  EXPECT_EQ(pool.FreeTableBytes(), held);
}

TEST(EnginePool, TheCallersStopReachesTheWork) {
  EnginePool pool(1, 1);
  std::atomic<bool> stop{false};
  auto start = std::chrono::steady_clock::now();
  auto asked = [&] {
    return std::chrono::steady_clock::now() - start > std::chrono::milliseconds(20);
  };
  bool saw_stop = false;
  absl::Status s = pool.Run(EngineOptions(), std::nullopt, &stop, asked, [&](Engine&) {
    while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    saw_stop = true;
  });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(saw_stop);
}

TEST(EnginePool, AnEngineIsMadeAsNewForEachCall) {
  EnginePool pool(1, 1);
  std::atomic<bool> stop{false};
  EngineOptions six;
  ASSERT_TRUE(six.Set("Rules", "six").ok());
  Position start = *ParseUfen("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -", Rules());
  ASSERT_TRUE(pool.Run(
                      six, std::nullopt, &stop, [] { return false; },
                      [&](Engine& e) { EXPECT_EQ(e.position().num_sides(), 3); })
                  .ok());
  ASSERT_TRUE(pool.Run(
                      EngineOptions(), start, &stop, [] { return false; },
                      [&](Engine& e) {
                        EXPECT_EQ(ToUfen(e.position()), ToUfen(start));
                        EXPECT_TRUE(e.game().items().empty());
                      })
                  .ok());
  EXPECT_EQ(pool.made(), 1);
}

TEST(EnginePool, AnEngineThatCannotBeMadeSoSaysWhyAndRunsNothing) {
  EnginePool pool(1, 1);
  std::atomic<bool> stop{false};
  EngineOptions six;
  ASSERT_TRUE(six.Set("Rules", "six").ok());
  Position navy = *ParseUfen("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -", Rules());
  bool ran = false;
  absl::Status s = pool.Run(
      six, navy, &stop, [] { return false; }, [&](Engine&) { ran = true; });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(ran);
}

// The same request answers the same before and after calls of other
// rules, layouts, tables and settings on the one engine of the pool.
v1::BestMoveRequest NavyRequest() {
  v1::BestMoveRequest r;
  r.mutable_position()->set_ufen("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  r.mutable_throw_()->set_die1(6);
  r.mutable_throw_()->set_die2(3);
  r.mutable_options()->set_level("expert");
  r.mutable_options()->set_multipv(4);
  return r;
}

std::string Answer(Api& api, const v1::BestMoveRequest& request) {
  v1::BestMoveResponse response;
  absl::Status s = api.BestMove(CallControl{}, request, &response);
  EXPECT_TRUE(s.ok()) << s;
  response.set_time_ms(0);
  return response.SerializeAsString();
}

TEST(EnginePool, TheSameRequestAnswersTheSameBeforeAndAfterOtherCalls) {
  ServiceLimits limits;
  limits.max_searches = 1;  // one engine: every call on it
  Api api(limits);
  std::string before = Answer(api, NavyRequest());
  for (const char* rules : {"six", "navy+solo", "six+solo", "wafu"}) {
    v1::BestMoveRequest other = NavyRequest();
    other.set_rules(rules);
    other.mutable_position()->set_ufen("startpos");
    other.mutable_throw_()->set_die1(6);
    other.mutable_throw_()->set_die2(6);
    other.mutable_options()->set_level("grandmaster");
    other.mutable_options()->set_hash_mb(8);
    Answer(api, other);
  }
  v1::BestMoveRequest mcts = NavyRequest();
  mcts.mutable_options()->set_algorithm(v1::ALGORITHM_MCTS);
  mcts.mutable_limits()->set_nodes(500);
  Answer(api, mcts);
  v1::JudgePlayRequest judge;
  judge.mutable_position()->set_ufen("startpos");
  judge.mutable_throw_()->set_die1(6);
  judge.mutable_throw_()->set_die2(3);
  judge.set_play("rb-0,r0-3");
  v1::JudgePlayResponse judged;
  ASSERT_TRUE(api.JudgePlay(CallControl{}, judge, &judged).ok());
  EXPECT_EQ(Answer(api, NavyRequest()), before);
}

}  // namespace
}  // namespace uckers
