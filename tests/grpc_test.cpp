// The gRPC service in process: every RPC, bad inputs, deadlines,
// cancellation, the search limit and concurrent calls.
#include <functional>
#include <optional>
#include <thread>

#include "absl/strings/match.h"
#include "engine/options.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/health_check_service_interface.h"
#include "rules/dice_sequence.h"
#include "server/proto_convert.h"
#include "server/server.h"
#include "tests/endgame_file.h"
#include "tests/test_util.h"
#include "uckers/v1/engine.grpc.pb.h"

namespace uckers::testing {
namespace {

class GrpcTest : public ::testing::Test {
 protected:
  void StartServer(ServiceLimits limits = {}) {
    ServerConfig config;
    config.address = "127.0.0.1:0";
    config.limits = limits;
    config.grace_ms = 500;
    auto server = Server::Start(config);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                   grpc::InsecureChannelCredentials());
    stub_ = v1::Engine::NewStub(channel_);
  }
  void SetUp() override { StartServer(); }

  static v1::Position Ufen(const std::string& ufen) {
    v1::Position p;
    p.set_ufen(ufen);
    return p;
  }
  static v1::Throw Dice(int a, int b) {
    v1::Throw t;
    t.set_die1(a);
    t.set_die2(b);
    return t;
  }

  std::unique_ptr<Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Engine::Stub> stub_;
};

constexpr const char* kMid = "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -";

TEST_F(GrpcTest, GetEngineInfoListsOptionsRulesetsSwitchesAndLevels) {
  grpc::ClientContext ctx;
  v1::EngineInfo info;
  ASSERT_TRUE(stub_->GetEngineInfo(&ctx, {}, &info).ok());
  EXPECT_EQ(info.name(), "Uckers");
  EXPECT_GE(info.options_size(), 6);
  EXPECT_EQ(info.switches_size(), kNumSwitches);
  EXPECT_EQ(info.implemented_switches_size(), kNumSwitches);
  EXPECT_GE(info.levels_size(), 6);
  EXPECT_GE(info.rulesets_size(), 4);
}

TEST_F(GrpcTest, ListLegalPlaysGivesEveryPlayWithItsPosition) {
  grpc::ClientContext ctx;
  v1::ListLegalPlaysRequest req;
  *req.mutable_position() = Ufen(std::string(kStartUfen));
  *req.mutable_throw_() = Dice(6, 6);
  req.set_structured_positions(true);
  v1::ListLegalPlaysResponse resp;
  ASSERT_TRUE(stub_->ListLegalPlays(&ctx, req, &resp).ok());
  ASSERT_EQ(resp.plays_size(), 2);
  EXPECT_EQ(resp.plays(0).play(), "rb-0,r0-6");
  EXPECT_EQ(resp.plays(0).position_after().ufen(), "b,b,b,6/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_EQ(resp.plays(0).position_after().structured().colours(0).squares(3), "6");
}

TEST_F(GrpcTest, StructuredPositionIsAcceptedLikeItsUfen) {
  v1::ListLegalPlaysRequest a, b;
  *a.mutable_position() = Ufen(kMid);
  *a.mutable_throw_() = Dice(6, 3);
  a.set_structured_positions(true);
  b = a;
  {
    grpc::ClientContext ctx;
    v1::ListLegalPlaysResponse r;
    ASSERT_TRUE(stub_->ListLegalPlays(&ctx, a, &r).ok());
    *b.mutable_position()->mutable_structured() = r.plays(0).position_after().structured();
    *a.mutable_position() = Ufen(r.plays(0).position_after().ufen());
  }
  grpc::ClientContext c1, c2;
  v1::ListLegalPlaysResponse ra, rb;
  ASSERT_TRUE(stub_->ListLegalPlays(&c1, a, &ra).ok());
  ASSERT_TRUE(stub_->ListLegalPlays(&c2, b, &rb).ok());
  EXPECT_EQ(ra.SerializeAsString(), rb.SerializeAsString());
}

// RULES.md §9 var. G: suck-back and blow-back attempts (UFEN k, K) travel in
// the structured position both ways.
TEST_F(GrpcTest, StructuredPositionCarriesLaneAttempts) {
  v1::ListLegalPlaysRequest req;
  req.set_rules("navy+suck_back");
  *req.mutable_position() = Ufen("b,b,b,11/b,b,52,54/b,b,b,b/b,b,b,b g Kg1");
  *req.mutable_throw_() = Dice(4, 3);  // misses 52 and 54
  req.set_structured_positions(true);
  v1::ListLegalPlaysResponse resp;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub_->ListLegalPlays(&ctx, req, &resp).ok());
  }
  const v1::PlayOutcome* miss = nullptr;
  for (const v1::PlayOutcome& p : resp.plays()) {
    if (p.play() == "wg52") miss = &p;
  }
  ASSERT_NE(miss, nullptr);
  const v1::StructuredPosition& s = miss->position_after().structured();
  ASSERT_EQ(s.blow_back_attempts_size(), 1);
  EXPECT_EQ(s.blow_back_attempts(0).colour(), v1::COLOUR_GREEN);
  EXPECT_EQ(s.blow_back_attempts(0).attempts(), 2);
  *req.mutable_position()->mutable_structured() = s;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->ListLegalPlays(&ctx, req, &resp).ok());
  for (const v1::PlayOutcome& p : resp.plays()) EXPECT_NE(p.play()[0], 'w') << p.play();
}

// RULES.md §9 mixie_stack: a stack's order (UFEN m) travels in the
// structured position both ways.
TEST_F(GrpcTest, StructuredPositionCarriesStackOrder) {
  v1::ListLegalPlaysRequest req;
  req.set_rules("mess");
  *req.mutable_position() = Ufen("b,b,b,10/b,b,b,b/b,b,b,40/b,b,b,b r -");
  *req.mutable_throw_() = Dice(3, 1);  // red 10 to 14, on top of yellow
  req.set_structured_positions(true);
  v1::ListLegalPlaysResponse resp;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub_->ListLegalPlays(&ctx, req, &resp).ok());
  }
  ASSERT_EQ(resp.plays_size(), 1);
  const v1::StructuredPosition& s = resp.plays(0).position_after().structured();
  ASSERT_EQ(s.stacks_size(), 1);
  EXPECT_EQ(s.stacks(0).team(), v1::COLOUR_RED);
  EXPECT_EQ(s.stacks(0).square(), 14);
  ASSERT_EQ(s.stacks(0).order_size(), 2);
  EXPECT_EQ(s.stacks(0).order(0), v1::COLOUR_YELLOW);
  EXPECT_EQ(s.stacks(0).order(1), v1::COLOUR_RED);
  *req.mutable_position()->mutable_structured() = s;  // green to throw
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->ListLegalPlays(&ctx, req, &resp).ok());
  ASSERT_EQ(resp.plays_size(), 1);  // green passes; the stack stays
  EXPECT_EQ(resp.plays(0).position_after().ufen(), "b,b,b,14/b,b,b,b/b,b,b,40/b,b,b,b y mr14:yr");
}

TEST_F(GrpcTest, BadInputsAreInvalidArgumentNamingTheField) {
  struct Case {
    std::string ufen;
    int d1, d2;
    std::string rules;
    std::string field;
  } cases[] = {
      {kMid, 7, 1, "", "throw.die1"},
      {kMid, 3, 0, "", "throw.die2"},
      {"b,b,b/b r -", 3, 1, "", "position.ufen"},
      {kMid, 3, 1, "navy+flying", "rules"},
      {kMid, 3, 1, "wafu+", "rules"},
  };
  for (const Case& c : cases) {
    grpc::ClientContext ctx;
    v1::ListLegalPlaysRequest req;
    *req.mutable_position() = Ufen(c.ufen);
    *req.mutable_throw_() = Dice(c.d1, c.d2);
    req.set_rules(c.rules);
    v1::ListLegalPlaysResponse resp;
    grpc::Status s = stub_->ListLegalPlays(&ctx, req, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.field;
    EXPECT_TRUE(absl::StartsWith(s.error_message(), c.field)) << s.error_message();
  }
  grpc::ClientContext ctx;
  v1::ListLegalPlaysRequest missing;
  v1::ListLegalPlaysResponse resp;
  grpc::Status s = stub_->ListLegalPlays(&ctx, missing, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "position")) << s.error_message();
}

TEST_F(GrpcTest, ApplyPlayGivesNextPositionAndTheResultWhenTheGameEnds) {
  grpc::ClientContext ctx;
  v1::ApplyPlayRequest req;
  *req.mutable_position() = Ufen("h,h,h,50/b,b,b,b/h,h,h,h/b,b,b,b r -");
  *req.mutable_throw_() = Dice(6, 1);
  req.set_play("r50-h");
  v1::ApplyPlayResponse resp;
  ASSERT_TRUE(stub_->ApplyPlay(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.position().ufen(), "h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b r -");
  EXPECT_TRUE(resp.result().finished());
  EXPECT_EQ(resp.result().winner(), v1::TEAM_RED_YELLOW);
  EXPECT_EQ(resp.result().level(), v1::OUTCOME_LEVEL_IN_HARBOUR);
  EXPECT_EQ(resp.result().points(), 3);
}

TEST_F(GrpcTest, ListLegalPlaysGivesEachPlaysEffects) {
  // RULES.md §5: red 10 + 3-1 lands on absolute 14, green 1 and blue 27,27.
  grpc::ClientContext ctx;
  v1::ListLegalPlaysRequest req;
  *req.mutable_position() = Ufen("b,b,b,10/b,b,b,1/b,b,b,b/b,b,27,27 r -");
  *req.mutable_throw_() = Dice(3, 1);
  v1::ListLegalPlaysResponse resp;
  ASSERT_TRUE(stub_->ListLegalPlays(&ctx, req, &resp).ok());
  ASSERT_EQ(resp.plays_size(), 1);
  const v1::PlayEffects& fx = resp.plays(0).effects();
  ASSERT_EQ(fx.moves_size(), 1);
  EXPECT_EQ(fx.moves(0).colour(), v1::COLOUR_RED);
  EXPECT_EQ(fx.moves(0).from(), "10");
  EXPECT_EQ(fx.moves(0).to(), "14");
  EXPECT_EQ(fx.moves(0).to_absolute(), 14);
  ASSERT_EQ(fx.knocked_off_size(), 3);
  EXPECT_EQ(fx.knocked_off(0).colour(), v1::COLOUR_GREEN);
  EXPECT_EQ(fx.knocked_off(0).to(), "b");
  ASSERT_EQ(fx.blobs_broken_size(), 1);
  EXPECT_TRUE(fx.blobs_broken(0).mixie());
  EXPECT_EQ(fx.next().to_throw(), v1::COLOUR_GREEN);
  EXPECT_EQ(fx.next().player_team(), v1::TEAM_GREEN_BLUE);
  EXPECT_EQ(fx.next().player_colour(), v1::COLOUR_UNSPECIFIED);  // two players
  EXPECT_FALSE(fx.next().extra_throw());
  EXPECT_FALSE(fx.result().finished());
}

TEST_F(GrpcTest, InAFourPlayerGameThePlayerNextIsAColour) {
  grpc::ClientContext ctx;
  v1::ApplyPlayRequest req;
  *req.mutable_position() = Ufen(std::string(kStartUfen));
  *req.mutable_throw_() = Dice(5, 3);
  req.set_play("-");
  req.set_players(4);
  v1::ApplyPlayResponse resp;
  ASSERT_TRUE(stub_->ApplyPlay(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.effects().next().player_colour(), v1::COLOUR_GREEN);
  EXPECT_EQ(resp.effects().next().player_team(), v1::TEAM_GREEN_BLUE);
}

TEST_F(GrpcTest, PlayersOtherThanTwoOrFourIsInvalidArgument) {
  grpc::ClientContext ctx;
  v1::ListLegalPlaysRequest req;
  *req.mutable_position() = Ufen(std::string(kStartUfen));
  *req.mutable_throw_() = Dice(5, 3);
  req.set_players(3);
  v1::ListLegalPlaysResponse resp;
  grpc::Status s = stub_->ListLegalPlays(&ctx, req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "players: 3")) << s.error_message();
}

TEST_F(GrpcTest, ApplyPlayGivesTheChallengesCourse) {
  // RULES.md §6: the third six against a blob of two wins the challenge.
  grpc::ClientContext ctx;
  v1::ApplyPlayRequest req;
  *req.mutable_position() = Ufen("b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:2");
  *req.mutable_throw_() = Dice(6, 1);
  req.set_play("-");
  v1::ApplyPlayResponse resp;
  ASSERT_TRUE(stub_->ApplyPlay(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.effects().challenge().event(), v1::CHALLENGE_EVENT_WON);
  EXPECT_EQ(resp.effects().challenge().sixes_needed(), 3);
  EXPECT_EQ(resp.effects().knocked_off_size(), 2);
  EXPECT_EQ(resp.effects().next().to_throw(), v1::COLOUR_GREEN);
}

TEST_F(GrpcTest, GetStartPositionGivesTheRulesetsStartAndSwitches) {
  grpc::ClientContext ctx;
  v1::GetStartPositionRequest req;
  req.set_rules("mess");
  v1::GetStartPositionResponse resp;
  ASSERT_TRUE(stub_->GetStartPosition(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.rules(), "mess");
  EXPECT_NE(resp.switches().find("+mixie_stack"), std::string::npos) << resp.switches();
  // RULES.md §9 snake_eyes (in mess): every colour's first throw is pending.
  EXPECT_EQ(resp.position().structured().first_throw_pending_size(), 4);
  grpc::ClientContext bad_ctx;
  req.set_rules("navy+no_such_switch");
  EXPECT_EQ(stub_->GetStartPosition(&bad_ctx, req, &resp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(GrpcTest, GetStartPositionChecksAGivenPositionAndSaysIfTheGameIsOver) {
  grpc::ClientContext ctx;
  v1::GetStartPositionRequest req;
  req.set_rules("navy");
  req.mutable_position()->set_ufen("h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b g -");
  v1::GetStartPositionResponse resp;
  ASSERT_TRUE(stub_->GetStartPosition(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.position().ufen(), "h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b g -");
  EXPECT_EQ(resp.position().structured().to_throw(), v1::COLOUR_GREEN);
  EXPECT_TRUE(resp.result().finished());
  EXPECT_EQ(resp.result().winner(), v1::TEAM_RED_YELLOW);
  grpc::ClientContext bad_ctx;
  req.mutable_position()->set_ufen("b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -");
  grpc::Status bad = stub_->GetStartPosition(&bad_ctx, req, &resp);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(bad.error_message().find("position.ufen"), std::string::npos) << bad.error_message();
}

// `uckers serve --endgames FILE`: a covered position is valued
// and played from the table, and the answer says it is exact.
TEST_F(GrpcTest, AnEndgameTableMakesCoveredAnswersExact) {
  ServiceLimits limits;
  auto table = EndgameTable::LoadShared(NavyOneAgainstOneFile());
  ASSERT_TRUE(table.ok()) << table.status();
  limits.endgames = *table;
  server_->Shutdown();
  StartServer(limits);
  v1::BestMoveRequest req;
  *req.mutable_position() = Ufen(kOneAgainstOne);
  *req.mutable_throw_() = Dice(3, 1);
  v1::BestMoveResponse resp;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->BestMove(&ctx, req, &resp).ok());
  EXPECT_TRUE(resp.exact());
  EXPECT_EQ(resp.play(), "r53-h");
  v1::EvaluateRequest eval;
  *eval.mutable_position() = Ufen(kOneAgainstOne);
  v1::EvaluateResponse eval_resp;
  grpc::ClientContext eval_ctx;
  ASSERT_TRUE(stub_->Evaluate(&eval_ctx, eval, &eval_resp).ok());
  EXPECT_TRUE(eval_resp.exact());
  EXPECT_NEAR(eval_resp.evaluation().win_probability(),
              *(*table)->ProbeWin(*ParseUfen(kOneAgainstOne, Rules{}), Rules{}), 1e-4);
  // Outside the table: searched as ever.
  *req.mutable_position() = Ufen("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -");
  *req.mutable_throw_() = Dice(6, 3);
  grpc::ClientContext start_ctx;
  ASSERT_TRUE(stub_->BestMove(&start_ctx, req, &resp).ok());
  EXPECT_FALSE(resp.exact());
}

// A 20 kB play echoed in an error stays a short
// INVALID_ARGUMENT (not RESOURCE_EXHAUSTED from oversized metadata).
TEST_F(GrpcTest, AnErrorQuotesALongInputBriefly) {
  v1::ApplyPlayRequest req;
  *req.mutable_position() = Ufen("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -");
  *req.mutable_throw_() = Dice(6, 3);
  req.set_play(std::string(20000, 'x'));
  v1::ApplyPlayResponse resp;
  grpc::ClientContext ctx;
  grpc::Status s = stub_->ApplyPlay(&ctx, req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_LT(s.error_message().size(), 400u);
  EXPECT_NE(s.error_message().find("bytes in all)"), std::string::npos) << s.error_message();
}

// An analysis whose answer cannot fit the message limit is
// refused up front, before any search.
TEST_F(GrpcTest, AnAnalysisTooLargeToAnswerIsRefusedBeforeTheWork) {
  v1::AnalyseGameRequest req;
  for (int i = 0; i < 30000; ++i) {
    v1::RecordItem* item = req.mutable_record()->add_items();
    item->set_throw_("21");
    item->set_play("-");
  }
  v1::GameAnalysis resp;
  grpc::ClientContext ctx;
  auto start = std::chrono::steady_clock::now();
  grpc::Status s = stub_->AnalyseGame(&ctx, req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_NE(s.error_message().find("the analysis of 30000 items would exceed"), std::string::npos)
      << s.error_message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(server_->api().active_searches(), 0);
}

// Cheap calls do not wait for searches, nor are refused: with
// every search slot taken, 200 concurrent clients' ListLegalPlays calls all
// succeed.
TEST_F(GrpcTest, CheapCallsAreServedBesideAFullHouseOfSearches) {
  ServiceLimits limits;
  limits.max_searches = 2;
  server_->Shutdown();
  StartServer(limits);
  std::vector<std::thread> searches;
  for (int i = 0; i < 2; ++i) {
    searches.emplace_back([&] {
      v1::BestMoveRequest req;
      *req.mutable_position() = Ufen(kMid);
      *req.mutable_throw_() = Dice(5, 2);
      req.mutable_limits()->set_movetime_ms(3000);
      req.mutable_limits()->set_depth(12);
      v1::BestMoveResponse resp;
      grpc::ClientContext ctx;
      stub_->BestMove(&ctx, req, &resp);
    });
  }
  for (int i = 0; i < 400 && server_->api().active_searches() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(server_->api().active_searches(), 2);
  std::atomic<int> failed{0}, done{0};
  std::vector<std::thread> cheap;
  for (int i = 0; i < 200; ++i) {
    cheap.emplace_back([&] {
      v1::ListLegalPlaysRequest req;
      *req.mutable_position() = Ufen(kMid);
      *req.mutable_throw_() = Dice(6, 3);
      for (int k = 0; k < 10; ++k) {
        v1::ListLegalPlaysResponse resp;
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
        if (stub_->ListLegalPlays(&ctx, req, &resp).ok()) {
          ++done;
        } else {
          ++failed;
        }
      }
    });
  }
  for (std::thread& t : cheap) t.join();
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(done, 2000);
  for (std::thread& t : searches) t.join();
}

TEST_F(GrpcTest, RollDiceIsTheSeedsSequenceFromAnyIndex) {
  v1::RollDiceRequest req;
  req.set_seed(17);
  req.set_count(10);
  v1::RollDiceResponse all, tail;
  grpc::ClientContext c1, c2;
  ASSERT_TRUE(stub_->RollDice(&c1, req, &all).ok());
  ASSERT_EQ(all.throws_size(), 10);
  DiceSequence dice(17);
  for (const v1::Throw& t : all.throws()) {
    auto [first, second] = dice.NextDice();
    EXPECT_EQ(t.die1(), first);
    EXPECT_EQ(t.die2(), second);
  }
  req.set_index(7);
  req.set_count(3);
  ASSERT_TRUE(stub_->RollDice(&c2, req, &tail).ok());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(tail.throws(i).die1(), all.throws(7 + i).die1());
    EXPECT_EQ(tail.throws(i).die2(), all.throws(7 + i).die2());
  }
}

// The dealt game's calls over gRPC: bound once, its refusals keeping their
// codes (FAILED_PRECONDITION for a call out of turn).
TEST_F(GrpcTest, ADealtGameIsBoundOnceAndDealtInOrder) {
  v1::StartDealtGameResponse start;
  grpc::ClientContext c1, c2, c3, c4, c5;
  ASSERT_TRUE(stub_->StartDealtGame(&c1, {}, &start).ok());
  v1::BindDealtGameRequest bind;
  bind.set_token(start.token());
  bind.set_client_seed("grpc-seed");
  v1::BindDealtGameResponse bound;
  ASSERT_TRUE(stub_->BindDealtGame(&c2, bind, &bound).ok());
  EXPECT_EQ(bound.commitment(), start.commitment());
  grpc::Status again = stub_->BindDealtGame(&c3, bind, &bound);
  EXPECT_EQ(again.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(again.error_message().find("bound already"), std::string::npos);
  v1::DealThrowRequest deal;
  deal.set_token(start.token());
  deal.set_client_value("00112233445566778899aabbccddeeff");
  v1::DealThrowResponse dealt;
  ASSERT_TRUE(stub_->DealThrow(&c4, deal, &dealt).ok());
  grpc::Status repeated = stub_->DealThrow(&c5, deal, &dealt);
  EXPECT_EQ(repeated.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(repeated.error_message().find("dealt already"), std::string::npos);
}

TEST_F(GrpcTest, RollDiceWithoutASeedChoosesAndReturnsOne) {
  v1::RollDiceResponse a, b;
  grpc::ClientContext c1, c2;
  ASSERT_TRUE(stub_->RollDice(&c1, {}, &a).ok());
  ASSERT_TRUE(stub_->RollDice(&c2, {}, &b).ok());
  EXPECT_EQ(a.throws_size(), 1);
  EXPECT_NE(a.seed(), b.seed());
}

TEST_F(GrpcTest, RollDiceRefusesABadIndexOrCountByName) {
  for (auto [index, count, field] : {std::tuple{-1, 1, "index"}, std::tuple{50000, 1, "index"},
                                     std::tuple{0, 1001, "count"}, std::tuple{0, -2, "count"}}) {
    grpc::ClientContext ctx;
    v1::RollDiceRequest req;
    req.set_seed(1);
    req.set_index(index);
    req.set_count(count);
    v1::RollDiceResponse resp;
    grpc::Status s = stub_->RollDice(&ctx, req, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << field;
    EXPECT_TRUE(absl::StartsWith(s.error_message(), field)) << s.error_message();
  }
}

TEST_F(GrpcTest, ApplyPlayRejectsAnIllegalPlay) {
  grpc::ClientContext ctx;
  v1::ApplyPlayRequest req;
  *req.mutable_position() = Ufen(kMid);
  *req.mutable_throw_() = Dice(6, 3);
  req.set_play("r5-7");
  v1::ApplyPlayResponse resp;
  grpc::Status s = stub_->ApplyPlay(&ctx, req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "play: ")) << s.error_message();
}

TEST_F(GrpcTest, BestMoveReturnsALegalPlayWithEvaluationAndCandidates) {
  grpc::ClientContext ctx;
  v1::BestMoveRequest req;
  *req.mutable_position() = Ufen(kMid);
  *req.mutable_throw_() = Dice(6, 3);
  req.mutable_options()->set_multipv(3);
  v1::BestMoveResponse resp;
  ASSERT_TRUE(stub_->BestMove(&ctx, req, &resp).ok());
  std::vector<std::string> legal = Plays(kMid, 6, 3);
  EXPECT_NE(std::find(legal.begin(), legal.end(), resp.play()), legal.end()) << resp.play();
  EXPECT_EQ(resp.candidates_size(), 3);
  EXPECT_EQ(resp.candidates(0).play(), resp.play());
  const v1::Outcomes& o = resp.evaluation();
  EXPECT_NEAR(o.win() + o.win_eight_piecer() + o.win_in_harbour() + o.loss() +
                  o.loss_eight_piecer() + o.loss_in_harbour(),
              1.0, 1e-6);
  EXPECT_GT(resp.nodes(), 0);
}

// docs/frontend.md, "Explained choices": each reason of a judged play has
// its size in chance to win, negative where it favours the best play.
// Splitting Red's blob on 22 in front of Green leaves two pieces open.
TEST_F(GrpcTest, JudgePlayGivesEachReasonItsChangeInChanceToWin) {
  grpc::ClientContext ctx;
  v1::JudgePlayRequest req;
  *req.mutable_position() = Ufen("b,22,22,35/b,b,3,5/b,b,b,b/b,b,b,b r -");
  *req.mutable_throw_() = Dice(2, 1);
  req.set_play("r22-23,r22-24");
  v1::JudgePlayResponse resp;
  ASSERT_TRUE(stub_->JudgePlay(&ctx, req, &resp).ok());
  ASSERT_GT(resp.differences_size(), 0);
  bool exposed = false;
  for (const v1::TermDifference& d : resp.differences()) {
    EXPECT_NE(d.win_chance(), 0) << d.term();
    if (d.term() == "exposed") {
      exposed = true;
      EXPECT_LT(d.win_chance(), 0);
    }
    if (d.term() == "hit_chance") {  // the piece on 23, five in front of Green
      EXPECT_EQ(d.colour(), v1::COLOUR_GREEN);
      EXPECT_EQ(d.squares(), 5);
    } else {
      EXPECT_EQ(d.colour(), v1::COLOUR_UNSPECIFIED) << d.term();
    }
  }
  EXPECT_TRUE(exposed);
}

// The server caps what one request may ask for, and says
// which cap a request passed.
TEST_F(GrpcTest, LimitsAboveTheServersCapsAreInvalidArgumentNamingTheCap) {
  for (int k = 0; k < 3; ++k) {
    grpc::ClientContext ctx;
    v1::BestMoveRequest req;
    *req.mutable_position() = Ufen(kMid);
    *req.mutable_throw_() = Dice(6, 3);
    if (k == 0) req.mutable_limits()->set_depth(13);
    if (k == 1) req.mutable_limits()->set_nodes(2'000'000'000);
    if (k == 2) req.mutable_limits()->set_movetime_ms(700'000);
    v1::BestMoveResponse resp;
    grpc::Status s = stub_->BestMove(&ctx, req, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << k;
    const char* flag[] = {"--max_depth", "--max_nodes", "--max_movetime_ms"};
    EXPECT_NE(s.error_message().find(flag[k]), std::string::npos) << s.error_message();
  }
}

// The same limits as the text protocol's `go` (ProtocolLimits.*) and
// Connect's (ConnectTest.LimitsAreReadAsByEveryFront): one range each, the
// same words (search/limits.h).
TEST_F(GrpcTest, LimitsAreReadAsByEveryFront) {
  struct Case {
    std::function<void(v1::SearchLimits*)> set;
    std::string words;  // empty: accepted
  } cases[] = {
      {[](v1::SearchLimits* l) { l->set_depth(65); }, "depth must be 1..64, not 65"},
      {[](v1::SearchLimits* l) { l->set_movetime_ms(-5); }, "movetime must be 1..8640000000 ms"},
      {[](v1::SearchLimits* l) { l->set_nodes(-1); }, "nodes must be 1 or more, not -1"},
      {[](v1::SearchLimits* l) { l->set_btime_ms(5000); }, "wtime is missing"},
      {[](v1::SearchLimits* l) { l->set_movestogo(-1); }, "movestogo must be 0..1000"},
      {[](v1::SearchLimits* l) {
         l->set_wtime_ms(5000);
         l->set_btime_ms(5000);
         l->set_movestogo(0);  // the rest of the game, as `go ... movestogo 0`
       },
       ""},
  };
  for (const Case& c : cases) {
    grpc::ClientContext ctx;
    v1::BestMoveRequest req;
    *req.mutable_position() = Ufen(kMid);
    *req.mutable_throw_() = Dice(6, 3);
    c.set(req.mutable_limits());
    v1::BestMoveResponse resp;
    grpc::Status s = stub_->BestMove(&ctx, req, &resp);
    if (c.words.empty()) {
      EXPECT_TRUE(s.ok()) << s.error_message();
    } else {
      EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.words;
      EXPECT_NE(s.error_message().find(c.words), std::string::npos) << s.error_message();
    }
  }
}

TEST_F(GrpcTest, ClocksAreReadForTheTeamToThrowAndCheckedByField) {
  struct Case {
    std::optional<int64_t> wtime, btime;
    int64_t winc;
    int movestogo;
    std::string field;  // empty: accepted
  } cases[] = {
      {5000, 5000, 50, 20, ""},
      {std::nullopt, 5000, 0, 0, "wtime is missing"},
      {5000, std::nullopt, -1, 0, "limits.winc_ms"},
      {5000, std::nullopt, 0, 1001, "limits.movestogo"},
      {int64_t{1} << 50, std::nullopt, 0, 0, "100 days"},
  };
  for (const Case& c : cases) {
    grpc::ClientContext ctx;
    v1::BestMoveRequest req;
    *req.mutable_position() = Ufen(kMid);
    *req.mutable_throw_() = Dice(6, 3);
    if (c.wtime) req.mutable_limits()->set_wtime_ms(*c.wtime);
    if (c.btime) req.mutable_limits()->set_btime_ms(*c.btime);
    req.mutable_limits()->set_winc_ms(c.winc);
    req.mutable_limits()->set_movestogo(c.movestogo);
    v1::BestMoveResponse resp;
    grpc::Status s = stub_->BestMove(&ctx, req, &resp);
    if (c.field.empty()) {
      EXPECT_TRUE(s.ok()) << s.error_message();
      EXPECT_FALSE(resp.play().empty());
    } else {
      EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.field;
      EXPECT_NE(s.error_message().find(c.field), std::string::npos) << s.error_message();
    }
  }
}

TEST_F(GrpcTest, BestMoveOnAFinishedGameIsInvalidArgument) {
  grpc::ClientContext ctx;
  v1::BestMoveRequest req;
  *req.mutable_position() = Ufen("h,h,h,h/b,b,3,h/h,h,h,h/b,b,b,b r -");
  *req.mutable_throw_() = Dice(3, 1);
  v1::BestMoveResponse resp;
  EXPECT_EQ(stub_->BestMove(&ctx, req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(GrpcTest, BestMoveRejectsBadOptions) {
  for (int k = 0; k < 4; ++k) {
    grpc::ClientContext ctx;
    v1::BestMoveRequest req;
    *req.mutable_position() = Ufen(kMid);
    *req.mutable_throw_() = Dice(6, 3);
    std::string field;
    if (k == 0) req.mutable_options()->set_multipv(99), field = "options.multipv";
    if (k == 1) req.mutable_options()->set_level("godlike"), field = "options.level";
    if (k == 2) req.mutable_limits()->set_depth(-1), field = "limits.depth";
    if (k == 3) req.mutable_options()->set_threads(100), field = "options.threads";
    v1::BestMoveResponse resp;
    grpc::Status s = stub_->BestMove(&ctx, req, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << field;
    EXPECT_TRUE(absl::StartsWith(s.error_message(), field)) << s.error_message();
  }
}

// docs/protocol.md, Opponent: a request may model the other team as
// `random` where a net trained against it serves its rules, and is refused
// naming what is missing where none does.
TEST_F(GrpcTest, BestMoveModelsTheOpponentAsRandomWhereANetServesIt) {
  for (const std::string rules : {"navy", "wafu"}) {
    grpc::ClientContext ctx;
    v1::BestMoveRequest req;
    req.set_rules(rules);
    *req.mutable_position() = Ufen(kMid);
    *req.mutable_throw_() = Dice(6, 3);
    (*req.mutable_options()->mutable_settings())["opponent"] = "random";
    v1::BestMoveResponse resp;
    grpc::Status s = stub_->BestMove(&ctx, req, &resp);
    if (rules == "navy") {
      EXPECT_TRUE(s.ok()) << s.error_message();
      EXPECT_FALSE(resp.play().empty());
    } else {
      EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_NE(s.error_message().find("no net trained against random"), std::string::npos)
          << s.error_message();
    }
  }
}

TEST_F(GrpcTest, BestMoveEndsInTimeForTheDeadlineWithItsBestSoFar) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(300));
  v1::BestMoveRequest req;
  *req.mutable_position() = Ufen(kMid);
  *req.mutable_throw_() = Dice(6, 3);
  req.mutable_limits()->set_depth(6);  // far more than 300 ms
  v1::BestMoveResponse resp;
  auto start = std::chrono::steady_clock::now();
  grpc::Status s = stub_->BestMove(&ctx, req, &resp);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start)
                .count();
  ASSERT_TRUE(s.ok()) << s.error_message();  // not DEADLINE_EXCEEDED
  EXPECT_FALSE(resp.play().empty());
  EXPECT_LT(ms, 300);
}

TEST(DeadlineMargin, AShortCallKeepsTheFixedMargin) {
  ServiceLimits limits;  // 25 ms or 5 %
  EXPECT_EQ(DeadlineMargin(std::chrono::milliseconds(300), limits).count(), 25);
}

TEST(DeadlineMargin, ALongCallKeepsAShareOfItsTime) {
  ServiceLimits limits;
  EXPECT_EQ(DeadlineMargin(std::chrono::milliseconds(2000), limits).count(), 100);
}

TEST(DeadlineMargin, IsAtMostOneSecondEvenWithNoDeadline) {
  ServiceLimits limits;
  EXPECT_EQ(DeadlineMargin(std::chrono::milliseconds::max(), limits).count(), 1000);
}

TEST(DeadlineMargin, ACallPastItsDeadlineGetsTheFixedMargin) {
  ServiceLimits limits;
  EXPECT_EQ(DeadlineMargin(std::chrono::milliseconds(-50), limits).count(), 25);
}

// MCTS grows its tree until the deadline; dropping a large tree must not
// hold the answer back past it.
TEST_F(GrpcTest, MctsBestMoveEndsInTimeForTheDeadline) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(2000));
  v1::BestMoveRequest req;
  *req.mutable_position() = Ufen(kMid);
  *req.mutable_throw_() = Dice(5, 2);
  req.mutable_options()->set_algorithm(v1::ALGORITHM_MCTS);
  req.mutable_limits()->set_nodes(1'000'000'000);  // the cap: only the deadline ends it
  v1::BestMoveResponse resp;
  grpc::Status s = stub_->BestMove(&ctx, req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();  // not DEADLINE_EXCEEDED
  EXPECT_FALSE(resp.play().empty());
}

TEST_F(GrpcTest, AnalyseStreamsProgressThenExactlyOneFinalMessage) {
  grpc::ClientContext ctx;
  v1::AnalyseRequest req;
  *req.mutable_position() = Ufen(kMid);
  *req.mutable_throw_() = Dice(5, 2);
  req.mutable_limits()->set_depth(2);
  auto reader = stub_->Analyse(&ctx, req);
  v1::AnalyseResponse m;
  int progress = 0, finals = 0;
  while (reader->Read(&m)) {
    EXPECT_EQ(finals, 0) << "a message after the final one";
    m.final() ? ++finals : ++progress;
  }
  ASSERT_TRUE(reader->Finish().ok());
  EXPECT_GE(progress, 1);
  EXPECT_EQ(finals, 1);
  EXPECT_EQ(m.depth(), 2);
  EXPECT_FALSE(m.best_play().empty());
}

TEST_F(GrpcTest, CancellingAnAnalyseStopsItsSearch) {
  grpc::ClientContext ctx;
  v1::AnalyseRequest req;
  *req.mutable_position() = Ufen(kMid);
  *req.mutable_throw_() = Dice(5, 2);  // no limits: runs until cancelled
  auto reader = stub_->Analyse(&ctx, req);
  v1::AnalyseResponse m;
  ASSERT_TRUE(reader->Read(&m));
  EXPECT_EQ(server_->api().active_searches(), 1);
  ctx.TryCancel();
  while (reader->Read(&m)) {
  }
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
  for (int i = 0; i < 200 && server_->api().active_searches() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(server_->api().active_searches(), 0);
}

TEST_F(GrpcTest, EvaluateGivesTheEvaluationAndOptionallyEveryThrow) {
  grpc::ClientContext ctx;
  v1::EvaluateRequest req;
  *req.mutable_position() = Ufen(kMid);
  req.mutable_limits()->set_depth(1);
  req.set_per_throw(true);
  v1::EvaluateResponse resp;
  ASSERT_TRUE(stub_->Evaluate(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.per_throw_size(), 21);
  int weights = 0;
  double mean = 0;
  for (const v1::ThrowEvaluation& t : resp.per_throw()) {
    weights += t.weight();
    mean += t.weight() / 36.0 * t.evaluation().win_probability();
  }
  EXPECT_EQ(weights, 36);
  EXPECT_NEAR(mean, resp.evaluation().win_probability(), 1e-6);
}

TEST_F(GrpcTest, SearchesPastTheLimitAreResourceExhausted) {
  ServiceLimits limits;
  limits.max_searches = 1;
  StartServer(limits);
  grpc::ClientContext long_ctx;
  v1::AnalyseRequest req;
  *req.mutable_position() = Ufen(kMid);
  *req.mutable_throw_() = Dice(5, 2);
  auto reader = stub_->Analyse(&long_ctx, req);
  v1::AnalyseResponse m;
  ASSERT_TRUE(reader->Read(&m));  // the one slot is taken
  grpc::ClientContext ctx;
  v1::BestMoveRequest best;
  *best.mutable_position() = Ufen(kMid);
  *best.mutable_throw_() = Dice(6, 3);
  v1::BestMoveResponse resp;
  EXPECT_EQ(stub_->BestMove(&ctx, best, &resp).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  grpc::ClientContext quick;  // short calls are still served
  v1::ListLegalPlaysRequest list;
  *list.mutable_position() = Ufen(kMid);
  *list.mutable_throw_() = Dice(6, 3);
  v1::ListLegalPlaysResponse plays;
  EXPECT_TRUE(stub_->ListLegalPlays(&quick, list, &plays).ok());
  long_ctx.TryCancel();
  while (reader->Read(&m)) {
  }
  reader->Finish();
}

TEST_F(GrpcTest, ThirtyTwoConcurrentBestMovesAreAllAnsweredCorrectly) {
  ServiceLimits limits;
  limits.max_searches = 32;
  StartServer(limits);
  std::vector<std::string> legal = Plays(kMid, 4, 1);
  std::atomic<int> good{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 32; ++i) {
    clients.emplace_back([&] {
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
      v1::BestMoveRequest req;
      *req.mutable_position() = Ufen(kMid);
      *req.mutable_throw_() = Dice(4, 1);
      req.mutable_limits()->set_movetime_ms(50);
      v1::BestMoveResponse resp;
      grpc::Status s = stub_->BestMove(&ctx, req, &resp);
      if (s.ok() && std::find(legal.begin(), legal.end(), resp.play()) != legal.end()) ++good;
    });
  }
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(good, 32);
}

// The health service's answer for a service name ("" is the server).
std::string HealthStatusBytes(const std::shared_ptr<grpc::Channel>& channel,
                              const std::string& service) {
  grpc::ClientContext ctx;
  // HealthCheckRequest { string service = 1; }, serialised by hand.
  std::string req;
  if (!service.empty()) req = std::string("\x0a", 1) + char(service.size()) + service;
  grpc::Slice slice(req.data(), req.size());
  grpc::ByteBuffer request(&slice, 1), response;
  grpc::GenericStub generic(channel);
  grpc::CompletionQueue cq;
  auto call = generic.PrepareUnaryCall(&ctx, "/grpc.health.v1.Health/Check", request, &cq);
  call->StartCall();
  grpc::Status status;
  call->Finish(&response, &status, reinterpret_cast<void*>(1));
  void* tag;
  bool ok;
  if (!cq.Next(&tag, &ok) || !status.ok()) return "error: " + status.error_message();
  std::vector<grpc::Slice> slices;
  if (!response.Dump(&slices).ok()) return "error: dump";
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return bytes;
}

TEST_F(GrpcTest, StandardHealthServiceAnswersServing) {
  EXPECT_EQ(HealthStatusBytes(channel_, ""), std::string("\x08\x01", 2));  // SERVING
}

// The service's own name answers too, and goes NOT_SERVING
// once the server has drained (it is NOT_SERVING while it drains).
TEST_F(GrpcTest, HealthAnswersForTheServiceNameAndNothingOnceShutDown) {
  EXPECT_EQ(HealthStatusBytes(channel_, "uckers.v1.Engine"), std::string("\x08\x01", 2));
  EXPECT_NE(HealthStatusBytes(channel_, "no.such.Service").rfind("error", 0), std::string::npos);
  std::thread drain([&] { server_->Shutdown(); });
  drain.join();
  // Once shut down, no new call is taken at all.
  EXPECT_NE(HealthStatusBytes(channel_, "uckers.v1.Engine"), std::string("\x08\x01", 2));
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// One settings table, one range check, the same words at
// every front: the text protocol's setoption, gRPC's SearchOptions, the
// facade and the match players.
TEST(Settings, OneRangeGivesTheSameErrorAtEveryFront) {
  const std::string words = "multipv must be 1..64, not 70";
  EngineOptions options;
  absl::Status text = options.Set("MultiPV", "70");
  EXPECT_NE(text.message().find(words), std::string::npos) << text;

  v1::SearchOptions wire;
  wire.set_multipv(70);
  SearchRequest request;
  absl::Status grpc = proto::SearchRequestFrom({}, wire, 1, &request);
  EXPECT_NE(grpc.message().find("options.multipv: " + words), std::string::npos) << grpc;

  SearchRequest direct;
  direct.multipv = 70;
  absl::Status facade_status = RequestParams(direct).status();
  EXPECT_NE(facade_status.message().find(words), std::string::npos) << facade_status;
}

TEST(Settings, ARequestReachesEveryTableSettingByItsKey) {
  v1::SearchOptions wire;
  (*wire.mutable_settings())["filter"] = "3";
  (*wire.mutable_settings())["noise"] = "0.02";
  (*wire.mutable_settings())["multi_side"] = "paranoid";
  SearchRequest request;
  ASSERT_TRUE(proto::SearchRequestFrom({}, wire, 1, &request).ok());
  absl::StatusOr<SearchParams> params = RequestParams(request);
  ASSERT_TRUE(params.ok()) << params.status();
  EXPECT_EQ(params->filter_width, 3);
  EXPECT_DOUBLE_EQ(params->noise, 0.02);
  EXPECT_TRUE(request.paranoid);
}

TEST(Settings, ARequestMayNotNameAServerFileOrAnUnknownSetting) {
  for (const auto& [key, words] : std::vector<std::pair<std::string, std::string>>{
           {"netfile", "not a setting a request may give"},
           {"endgames", "not a setting a request may give"},
           {"tree_mb", "not a setting a request may give"},
           {"threads", "give it as SearchOptions' own field, options.threads"},
           {"level", "give it as SearchOptions' own field, options.level"},
           {"search", "give it as SearchOptions' own field, options.algorithm"},
           {"bogus", "unknown setting"},
           {"filter", "filter must be 0..1000, not 1001"}}) {
    v1::SearchOptions wire;
    (*wire.mutable_settings())[key] = key == "filter" ? "1001" : "x";
    SearchRequest request;
    absl::Status s = proto::SearchRequestFrom({}, wire, 1, &request);
    EXPECT_NE(s.message().find("options.settings[" + key + "]: " + words), std::string::npos)
        << key << ": " << s;
  }
}

// Each typed field of SearchOptions is read through the settings table's
// entry that names it: its range or choices, in the table's words.
TEST(Settings, EveryTypedFieldOfARequestIsReadThroughItsTableEntry) {
  std::set<std::string> fields;
  for (const SettingDef& def : SettingDefs()) {
    if (def.wire_field.empty()) continue;
    fields.insert(def.wire_field);
    EXPECT_NE(v1::SearchOptions::descriptor()->FindFieldByName(def.wire_field), nullptr)
        << def.key << ": no field " << def.wire_field;
  }
  EXPECT_EQ(fields, (std::set<std::string>{"algorithm", "eval", "hash_mb", "level", "multipv",
                                           "objective", "seed", "threads"}));
  v1::SearchOptions wire;
  wire.set_eval("bogus");
  SearchRequest request;
  absl::Status s = proto::SearchRequestFrom({}, wire, 1, &request);
  EXPECT_NE(s.message().find("options.eval: eval must be one of level, net, classic, not 'bogus'"),
            std::string::npos)
      << s;
  wire.set_eval("classic");
  wire.set_algorithm(v1::ALGORITHM_MCTS);
  wire.set_multipv(3);
  ASSERT_TRUE(proto::SearchRequestFrom({}, wire, 1, &request).ok());
  EXPECT_EQ(request.eval, EvalKind::kClassic);
  EXPECT_EQ(request.algorithm, Algorithm::kMcts);
  EXPECT_EQ(request.multipv, 3);
}

TEST(Settings, TheUciListingComesFromTheTable) {
  ASSERT_EQ(OptionDefs().size(), SettingDefs().size());
  for (size_t i = 0; i < SettingDefs().size(); ++i) {
    EXPECT_EQ(OptionDefs()[i].name, SettingDefs()[i].option);
    EXPECT_EQ(OptionDefs()[i].default_value, SettingDefs()[i].default_value);
  }
}

}  // namespace
}  // namespace uckers::testing
