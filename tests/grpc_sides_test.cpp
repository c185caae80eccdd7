// The gRPC service on every board and side layout (RULES.md §11): start
// positions, legal plays and their effects, the end of a game, the
// multi-side search's best move and every side's chance; what stays with
// the four-sided game of two teams is refused by name, and a client of that
// game sees none of the fields added for the others.
#include <numeric>
#include <random>

#include "absl/strings/match.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/create_channel.h"
#include "record/game.h"
#include "rules/movegen.h"
#include "server/server.h"
#include "tests/test_util.h"
#include "uckers/v1/engine.grpc.pb.h"
#include "wire/record.h"

namespace uckers::testing {
namespace {

class GrpcSidesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServerConfig config;
    config.address = "127.0.0.1:0";
    config.grace_ms = 500;
    auto server = Server::Start(config);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    stub_ = v1::Engine::NewStub(grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                                    grpc::InsecureChannelCredentials()));
  }

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
  static double Sum(const v1::Outcomes& o) {
    return std::accumulate(o.side_win_probabilities().begin(), o.side_win_probabilities().end(),
                           0.0);
  }
  static std::string Json(const google::protobuf::Message& m) {
    std::string out;
    EXPECT_TRUE(google::protobuf::util::MessageToJsonString(m, &out).ok());
    return out;
  }

  std::unique_ptr<Server> server_;
  std::unique_ptr<v1::Engine::Stub> stub_;
};

constexpr const char* kSixStart = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";

TEST_F(GrpcSidesTest, GetStartPositionTakesEveryLayout) {
  struct Case {
    const char* rules;
    int colours;
  };
  for (Case c :
       {Case{"six", 6}, Case{"six+teams_of_three", 6}, Case{"six+solo", 6}, Case{"navy+solo", 4}}) {
    grpc::ClientContext ctx;
    v1::GetStartPositionRequest req;
    req.set_rules(c.rules);
    v1::GetStartPositionResponse resp;
    grpc::Status s = stub_->GetStartPosition(&ctx, req, &resp);
    ASSERT_TRUE(s.ok()) << c.rules << ": " << s.error_message();
    EXPECT_EQ(resp.position().structured().colours_size(), c.colours) << c.rules;
    EXPECT_EQ(resp.position().structured().to_throw(), v1::COLOUR_RED) << c.rules;
    EXPECT_FALSE(resp.result().finished()) << c.rules;
    EXPECT_EQ(resp.colour_sides_size(), c.colours) << c.rules;
  }
}

TEST_F(GrpcSidesTest, GetStartPositionGivesEachColoursSide) {
  grpc::ClientContext ctx;
  v1::GetStartPositionRequest req;
  req.set_rules("six+teams_of_three");
  v1::GetStartPositionResponse resp;
  ASSERT_TRUE(stub_->GetStartPosition(&ctx, req, &resp).ok());
  EXPECT_EQ(std::vector<int>(resp.colour_sides().begin(), resp.colour_sides().end()),
            (std::vector<int>{1, 2, 1, 2, 1, 2}));  // alternate colours, RULES.md §11
}

TEST_F(GrpcSidesTest, AStructuredSixSidedPositionNamesOrangeAndPurple) {
  grpc::ClientContext ctx;
  v1::GetStartPositionRequest req;
  req.set_rules("six");
  *req.mutable_position() = Ufen("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,70/b,b,b,81 p -");
  v1::GetStartPositionResponse resp;
  ASSERT_TRUE(stub_->GetStartPosition(&ctx, req, &resp).ok());
  const v1::StructuredPosition& s = resp.position().structured();
  EXPECT_EQ(s.to_throw(), v1::COLOUR_PURPLE);
  EXPECT_EQ(s.colours(4).squares(3), "70");
  EXPECT_EQ(s.colours(5).squares(3), "81");
  // The structured form is read back as its UFEN.
  grpc::ClientContext again;
  v1::GetStartPositionRequest back;
  back.set_rules("six");
  *back.mutable_position()->mutable_structured() = s;
  v1::GetStartPositionResponse echoed;
  ASSERT_TRUE(stub_->GetStartPosition(&again, back, &echoed).ok());
  EXPECT_EQ(echoed.position().ufen(), resp.position().ufen());
}

TEST_F(GrpcSidesTest, ABadSideInputIsInvalidArgumentNamingTheField) {
  struct Case {
    const char* rules;
    std::string ufen;
    int players;
    const char* field;
  };
  for (const Case& c : {
           // Four fields under the six-sided rules, and six under navy.
           Case{"six", "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", 0, "position.ufen"},
           Case{"navy", kSixStart, 0, "position.ufen"},
           Case{"six", kSixStart, 4, "players"},
           Case{"navy+solo", "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", 3, "players"},
           Case{"six+navy", kSixStart, 0, "rules"},
           Case{"navy+teams_of_three", "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", 0, "rules"},
       }) {
    grpc::ClientContext ctx;
    v1::ListLegalPlaysRequest req;
    req.set_rules(c.rules);
    *req.mutable_position() = Ufen(c.ufen);
    *req.mutable_throw_() = Dice(6, 1);
    req.set_players(c.players);
    v1::ListLegalPlaysResponse resp;
    grpc::Status s = stub_->ListLegalPlays(&ctx, req, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.rules << " " << c.ufen;
    EXPECT_TRUE(absl::StartsWith(s.error_message(), std::string(c.field) + ":"))
        << s.error_message();
  }
}

TEST_F(GrpcSidesTest, AStructuredPositionOfTheWrongBoardIsRefusedByField) {
  grpc::ClientContext ctx;
  v1::GetStartPositionRequest req;
  req.set_rules("navy");
  v1::StructuredPosition* s = req.mutable_position()->mutable_structured();
  for (int c = 0; c < 4; ++c) {
    v1::ColourPieces* pieces = s->add_colours();
    for (int k = 0; k < 4; ++k) pieces->add_squares("b");
  }
  s->set_to_throw(v1::COLOUR_ORANGE);  // no orange on the four-sided board
  v1::GetStartPositionResponse resp;
  grpc::Status status = stub_->GetStartPosition(&ctx, req, &resp);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(status.error_message(), "position.structured.to_throw: "))
      << status.error_message();
}

TEST_F(GrpcSidesTest, ListLegalPlaysOnTheSixSidedBoardGivesTheSideToThrowNext) {
  grpc::ClientContext ctx;
  v1::ListLegalPlaysRequest req;
  req.set_rules("six");
  // Purple's piece on 70 with 5-3 reaches its lane at 78; the side after
  // purple is red's (red and blue, side 1).
  *req.mutable_position() = Ufen("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,70 p -");
  *req.mutable_throw_() = Dice(5, 3);
  v1::ListLegalPlaysResponse resp;
  ASSERT_TRUE(stub_->ListLegalPlays(&ctx, req, &resp).ok());
  ASSERT_GE(resp.plays_size(), 1);
  bool found = false;
  for (const v1::PlayOutcome& p : resp.plays()) {
    if (p.play() != "p70-78") continue;
    found = true;
    ASSERT_EQ(p.effects().moves_size(), 1);
    EXPECT_EQ(p.effects().moves(0).colour(), v1::COLOUR_PURPLE);
    EXPECT_EQ(p.effects().moves(0).to(), "78");
    EXPECT_EQ(p.effects().moves(0).to_absolute(), -1);  // in the lane
    EXPECT_EQ(p.effects().next().to_throw(), v1::COLOUR_RED);
    EXPECT_EQ(p.effects().next().side(), 1);
    EXPECT_EQ(p.effects().next().player_side(), 1);
    EXPECT_EQ(p.effects().next().team(), v1::TEAM_UNSPECIFIED);
  }
  EXPECT_TRUE(found);
}

TEST_F(GrpcSidesTest, WithOnePlayerAColourTheNextPlayerIsAColour) {
  grpc::ClientContext ctx;
  v1::ApplyPlayRequest req;
  req.set_rules("six+teams_of_three");
  *req.mutable_position() = Ufen(kSixStart);
  *req.mutable_throw_() = Dice(5, 3);
  req.set_play("-");
  req.set_players(6);
  v1::ApplyPlayResponse resp;
  ASSERT_TRUE(stub_->ApplyPlay(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.effects().next().to_throw(), v1::COLOUR_GREEN);
  EXPECT_EQ(resp.effects().next().side(), 2);  // green, blue and purple
  EXPECT_EQ(resp.effects().next().player_colour(), v1::COLOUR_GREEN);
  EXPECT_EQ(resp.effects().next().player_side(), 0);
}

TEST_F(GrpcSidesTest, AnIllegalPlayOnTheSixSidedBoardIsRefusedByName) {
  grpc::ClientContext ctx;
  v1::ApplyPlayRequest req;
  req.set_rules("six");
  *req.mutable_position() = Ufen(kSixStart);
  *req.mutable_throw_() = Dice(6, 3);
  req.set_play("ob-0");  // orange does not throw now
  v1::ApplyPlayResponse resp;
  grpc::Status s = stub_->ApplyPlay(&ctx, req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(absl::StartsWith(s.error_message(), "play: ")) << s.error_message();
  EXPECT_TRUE(absl::StrContains(s.error_message(), "ob-0")) << s.error_message();
}

TEST_F(GrpcSidesTest, ApplyPlayEndingASixSidedGameGivesTheWinningSideAndEverySidesPoints) {
  grpc::ClientContext ctx;
  v1::ApplyPlayRequest req;
  req.set_rules("six");
  // Red and blue (side 1) one step from home; green and orange have a piece
  // home (1 point), yellow and purple all in base (3 points, RULES.md §11).
  *req.mutable_position() = Ufen("h,h,h,81/b,b,b,h/b,b,b,b/h,h,h,h/b,b,b,b/b,b,b,b r -");
  *req.mutable_throw_() = Dice(2, 1);
  req.set_play("r81-h");
  v1::ApplyPlayResponse resp;
  grpc::Status s = stub_->ApplyPlay(&ctx, req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(resp.result().finished());
  EXPECT_EQ(resp.result().winner_side(), 1);
  EXPECT_EQ(resp.result().winner(), v1::TEAM_UNSPECIFIED);
  EXPECT_EQ(resp.result().points(), 4);
  ASSERT_EQ(resp.result().side_points_size(), 3);
  EXPECT_EQ(resp.result().side_points(0), 4);
  EXPECT_EQ(resp.result().side_points(1), -1);
  EXPECT_EQ(resp.result().side_points(2), -3);
}

TEST_F(GrpcSidesTest, BestMoveOnTheSixSidedBoard) {
  grpc::ClientContext ctx;
  v1::BestMoveRequest req;
  req.set_rules("six");
  *req.mutable_position() = Ufen(kSixStart);
  *req.mutable_throw_() = Dice(6, 3);
  v1::BestMoveResponse resp;
  grpc::Status s = stub_->BestMove(&ctx, req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.play(), "rb-0,r0-3");
  const v1::Outcomes& o = resp.evaluation();
  ASSERT_EQ(o.side_win_probabilities_size(), 3);  // three teams of two
  EXPECT_NEAR(Sum(o), 1.0, 1e-6);
  EXPECT_EQ(o.side(), 1);
  EXPECT_DOUBLE_EQ(o.win_probability(), o.side_win_probabilities(0));
  ASSERT_EQ(resp.candidates_size(), 1);
  EXPECT_EQ(resp.candidates(0).evaluation().side_win_probabilities_size(), 3);
  EXPECT_GT(resp.depth(), 0);
}

TEST_F(GrpcSidesTest, BestMoveGivesAsManyCandidatesAsAskedWithEverySidesChance) {
  grpc::ClientContext ctx;
  v1::BestMoveRequest req;
  req.set_rules("navy+solo");
  *req.mutable_position() = Ufen("b,b,9,30/b,b,b,45/b,b,40,40/b,b,b,20 r -");
  *req.mutable_throw_() = Dice(6, 1);  // five legal plays
  req.mutable_options()->set_multipv(3);
  req.mutable_options()->set_level("beginner");
  v1::BestMoveResponse resp;
  grpc::Status s = stub_->BestMove(&ctx, req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.candidates_size(), 3);
  EXPECT_EQ(resp.candidates(0).play(), resp.play());
  for (const v1::Candidate& c : resp.candidates()) {
    ASSERT_EQ(c.evaluation().side_win_probabilities_size(), 4) << c.play();
    EXPECT_NEAR(Sum(c.evaluation()), 1.0, 1e-6) << c.play();
  }
  // The terms of every layout: each candidate after the best names how it
  // differs, each reason with its size in chance to win.
  EXPECT_EQ(resp.candidates(0).differences_size(), 0);
  int explained = 0;
  for (int k = 1; k < resp.candidates_size(); ++k) {
    for (const v1::TermDifference& d : resp.candidates(k).differences()) {
      EXPECT_NE(d.best(), d.play()) << d.term();
      EXPECT_NE(d.win_chance(), 0) << d.term();
    }
    explained += resp.candidates(k).differences_size() > 0;
  }
  EXPECT_GT(explained, 0);
  EXPECT_GE(resp.candidates(0).evaluation().win(), resp.candidates(2).evaluation().win());
}

TEST_F(GrpcSidesTest, EvaluateGivesEverySideAChance) {
  grpc::ClientContext ctx;
  v1::EvaluateRequest req;
  req.set_rules("six+solo");
  *req.mutable_position() = Ufen("b,b,b,1/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b g -");
  v1::EvaluateResponse resp;
  grpc::Status s = stub_->Evaluate(&ctx, req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.evaluation().side_win_probabilities_size(), 6);
  EXPECT_NEAR(Sum(resp.evaluation()), 1.0, 1e-6);
  EXPECT_EQ(resp.evaluation().side(), 2);  // green to throw
  EXPECT_DOUBLE_EQ(resp.evaluation().win(), resp.evaluation().side_win_probabilities(1));
}

TEST_F(GrpcSidesTest, EvaluatePerThrowSearchesEveryThrowOnTheSixSidedBoard) {
  grpc::ClientContext ctx;
  v1::EvaluateRequest req;
  req.set_rules("six+teams_of_three");
  *req.mutable_position() = Ufen(kSixStart);
  req.set_per_throw(true);
  v1::EvaluateResponse resp;
  grpc::Status s = stub_->Evaluate(&ctx, req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.per_throw_size(), 21);
  for (const v1::ThrowEvaluation& t : resp.per_throw()) {
    EXPECT_EQ(t.evaluation().side_win_probabilities_size(), 2);
    EXPECT_FALSE(t.best_play().empty());
  }
}

TEST_F(GrpcSidesTest, TeamClocksAreRefusedOnTheSixSidedBoard) {
  grpc::ClientContext ctx;
  v1::BestMoveRequest req;
  req.set_rules("six");
  *req.mutable_position() = Ufen(kSixStart);
  *req.mutable_throw_() = Dice(6, 3);
  req.mutable_limits()->set_wtime_ms(5000);
  v1::BestMoveResponse resp;
  grpc::Status s = stub_->BestMove(&ctx, req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("clocks"), std::string::npos) << s.error_message();
  EXPECT_NE(s.error_message().find("movetime"), std::string::npos) << s.error_message();
}

// The coach on every layout of RULES.md §11 (docs/sides.md): the tutor
// judges any legal play against the best by the side's expected points,
// with every side's chance, and the throw map gives each throw's best play.
struct LayoutCase {
  const char* rules;
  const char* ufen;
  int sides;
};
constexpr LayoutCase kLayouts[] = {
    {"navy+solo", "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", 4},
    {"six", kSixStart, 3},
    {"six+teams_of_three", kSixStart, 2},
    {"six+solo", kSixStart, 6},
};

TEST_F(GrpcSidesTest, TheTutorJudgesEveryLegalPlayOnEveryLayout) {
  for (const LayoutCase& c : kLayouts) {
    grpc::ClientContext list_ctx;
    v1::ListLegalPlaysRequest list;
    list.set_rules(c.rules);
    *list.mutable_position() = Ufen(c.ufen);
    *list.mutable_throw_() = Dice(6, 6);
    v1::ListLegalPlaysResponse plays;
    ASSERT_TRUE(stub_->ListLegalPlays(&list_ctx, list, &plays).ok()) << c.rules;
    ASSERT_GE(plays.plays_size(), 2) << c.rules;
    double worst_lost = -1;
    for (const v1::PlayOutcome& p : plays.plays()) {
      grpc::ClientContext ctx;
      v1::JudgePlayRequest judge;
      judge.set_rules(c.rules);
      *judge.mutable_position() = Ufen(c.ufen);
      *judge.mutable_throw_() = Dice(6, 6);
      judge.set_play(p.play());
      v1::JudgePlayResponse judged;
      grpc::Status s = stub_->JudgePlay(&ctx, judge, &judged);
      ASSERT_TRUE(s.ok()) << c.rules << " " << p.play() << ": " << s.error_message();
      EXPECT_EQ(judged.play(), p.play()) << c.rules;
      EXPECT_EQ(judged.legal_plays(), plays.plays_size()) << c.rules;
      EXPECT_GE(judged.equity_lost(), 0) << c.rules;
      EXPECT_EQ(judged.evaluation().side_win_probabilities_size(), c.sides) << c.rules;
      EXPECT_EQ(judged.evaluation().side(), 1) << c.rules;  // red throws, on side 1
      double sum = 0;
      for (double w : judged.best_evaluation().side_win_probabilities()) sum += w;
      EXPECT_NEAR(sum, 1, 1e-6) << c.rules;
      if (judged.play() == judged.best_play()) {
        EXPECT_EQ(judged.equity_lost(), 0) << c.rules;
      }
      worst_lost = std::max(worst_lost, judged.equity_lost());
    }
    EXPECT_GT(worst_lost, 0) << c.rules << ": some play is worse than the best";
  }
}

TEST_F(GrpcSidesTest, TheThrowMapGivesEveryThrowsBestPlayOnEveryLayout) {
  for (const LayoutCase& c : kLayouts) {
    grpc::ClientContext ctx;
    v1::ThrowMapRequest map;
    map.set_rules(c.rules);
    *map.mutable_position() = Ufen(c.ufen);
    v1::ThrowMapResponse mapped;
    grpc::Status s = stub_->ThrowMap(&ctx, map, &mapped);
    ASSERT_TRUE(s.ok()) << c.rules << ": " << s.error_message();
    ASSERT_EQ(mapped.throws_size(), 21) << c.rules;
    double probability = 0;
    for (const v1::ThrowMapEntry& e : mapped.throws()) {
      probability += e.probability();
      EXPECT_FALSE(e.best_play().empty()) << c.rules;
      EXPECT_EQ(e.evaluation().side_win_probabilities_size(), c.sides) << c.rules;
    }
    EXPECT_NEAR(probability, 1, 1e-9) << c.rules;
    double sum = 0;
    for (double w : mapped.evaluation().side_win_probabilities()) sum += w;
    EXPECT_NEAR(sum, 1, 1e-6) << c.rules;
  }
}

TEST_F(GrpcSidesTest, OldClientsSeeNoChangeOnNavy) {
  // The fields added for other layouts stay unset on the four-sided game of
  // two teams: its JSON answers name no side.
  grpc::ClientContext best_ctx;
  v1::BestMoveRequest best;
  *best.mutable_position() = Ufen("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  *best.mutable_throw_() = Dice(6, 3);
  best.mutable_options()->set_multipv(2);
  v1::BestMoveResponse best_resp;
  ASSERT_TRUE(stub_->BestMove(&best_ctx, best, &best_resp).ok());
  EXPECT_FALSE(absl::StrContains(Json(best_resp), "side")) << Json(best_resp);

  grpc::ClientContext apply_ctx;
  v1::ApplyPlayRequest apply;
  *apply.mutable_position() = Ufen("h,h,h,50/b,b,b,b/h,h,h,h/b,b,b,b r -");
  *apply.mutable_throw_() = Dice(6, 1);
  apply.set_play("r50-h");
  apply.set_players(4);
  v1::ApplyPlayResponse applied;
  ASSERT_TRUE(stub_->ApplyPlay(&apply_ctx, apply, &applied).ok());
  EXPECT_EQ(applied.result().winner(), v1::TEAM_RED_YELLOW);
  EXPECT_FALSE(absl::StrContains(Json(applied), "side")) << Json(applied);

  grpc::ClientContext legal_ctx;
  v1::ListLegalPlaysRequest legal;
  *legal.mutable_position() = Ufen("b,b,b,10/b,b,b,1/b,b,b,b/b,b,27,27 r -");
  *legal.mutable_throw_() = Dice(3, 1);
  v1::ListLegalPlaysResponse plays;
  ASSERT_TRUE(stub_->ListLegalPlays(&legal_ctx, legal, &plays).ok());
  EXPECT_FALSE(absl::StrContains(Json(plays), "side")) << Json(plays);

  grpc::ClientContext eval_ctx;
  v1::EvaluateRequest eval;
  *eval.mutable_position() = Ufen("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
  v1::EvaluateResponse evaluated;
  ASSERT_TRUE(stub_->Evaluate(&eval_ctx, eval, &evaluated).ok());
  EXPECT_FALSE(absl::StrContains(Json(evaluated), "side")) << Json(evaluated);
}

TEST_F(GrpcSidesTest, AnalyseStreamsEverySidesChanceOnTheSixSidedBoard) {
  grpc::ClientContext ctx;
  v1::AnalyseRequest req;
  req.set_rules("six");
  *req.mutable_position() = Ufen(kSixStart);
  req.mutable_limits()->set_depth(1);
  auto reader = stub_->Analyse(&ctx, req);
  v1::AnalyseResponse m, last;
  while (reader->Read(&m)) last = m;
  grpc::Status s = reader->Finish();
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(last.final());
  EXPECT_EQ(last.evaluation().side_win_probabilities_size(), 3);
}

// docs/sides.md "Records and the review": a record of the six-sided board
// is reviewed with a row per side and every side's chance before each throw.
TEST_F(GrpcSidesTest, AGameRecordOfTheSixSidedBoardIsReviewedSideBySide) {
  Rules rules = *Rules::Parse("six");
  Game game(rules);
  std::mt19937_64 rng(5);
  PlayList plays;
  for (int i = 0; i < 12; ++i) {
    Throw t = kThrows[rng() % kThrows.size()];
    GenerateLegalPlays(game.position(), rules, t, &plays);
    ASSERT_TRUE(
        game.Play(t, PlayToString(plays[rng() % plays.size()].play, game.position().board())).ok());
  }
  grpc::ClientContext ctx;
  v1::AnalyseGameRequest req;
  *req.mutable_record() = wire::ToMessage(RecordOf(game));
  req.set_level("advanced");
  v1::GameAnalysis resp;
  grpc::Status s = stub_->AnalyseGame(&ctx, req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.teams_size(), 3);
  EXPECT_EQ(resp.teams(1).team(), "GO");
  ASSERT_EQ(resp.items_size(), 12);
  EXPECT_EQ(resp.items(0).side_wins_before_size(), 3);
}

}  // namespace
}  // namespace uckers::testing
