// The Connect front (server/connect_server.h): every method over HTTP/JSON
// and binary protobuf, the server stream, errors, deadlines, the search
// limit, CORS and metrics; answers equal to gRPC's for the same requests.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "dealer/dealer.h"
#include "engine/engine.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/create_channel.h"
#include "httplib.h"
#include "protocol/uci.h"
#include "record/game.h"
#include "record/text.h"
#include "rules/dice_sequence.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "server/call_metrics.h"
#include "server/connect_server.h"
#include "server/server.h"
#include "server/web_integrity.h"
#include "tests/test_util.h"
#include "uckers/v1/engine.grpc.pb.h"
#include "wire/record.h"

namespace uckers::testing {
namespace {

class ConnectTest : public ::testing::Test {
 protected:
  void Start(ServiceLimits limits = {}, std::vector<std::string> cors = {}) {
    ServerConfig config;
    config.address = "127.0.0.1:0";
    config.limits = limits;
    config.grace_ms = 500;
    auto grpc_server = Server::Start(config);
    ASSERT_TRUE(grpc_server.ok()) << grpc_server.status();
    grpc_ = std::move(*grpc_server);
    ConnectConfig http;
    http.address = "127.0.0.1:0";
    http.cors_origins = std::move(cors);
    auto server = ConnectServer::Start(http, &grpc_->api());
    ASSERT_TRUE(server.ok()) << server.status();
    http_ = std::move(*server);
    client_ = std::make_unique<httplib::Client>("127.0.0.1", http_->port());
    client_->set_read_timeout(30, 0);
  }
  void SetUp() override { Start(); }
  void TearDown() override {
    if (http_) http_->Shutdown();
    if (grpc_) grpc_->Shutdown();
  }

  httplib::Result Post(const std::string& method, const std::string& body,
                       const std::string& type = "application/json",
                       httplib::Headers headers = {}) {
    return client_->Post(("/uckers.v1.Engine/" + method).c_str(), headers, body, type.c_str());
  }

  std::unique_ptr<Server> grpc_;
  std::unique_ptr<ConnectServer> http_;
  std::unique_ptr<httplib::Client> client_;
};

constexpr char kPlays[] = R"({"position":{"ufen":"startpos"},"throw":{"die1":6,"die2":6}})";

TEST_F(ConnectTest, AUnaryJsonCallAnswersAsGrpcDoes) {
  httplib::Result r = Post("ListLegalPlays", kPlays);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  v1::ListLegalPlaysResponse over_http;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &over_http).ok());

  auto stub = v1::Engine::NewStub(grpc::CreateChannel(absl::StrCat("127.0.0.1:", grpc_->port()),
                                                      grpc::InsecureChannelCredentials()));
  v1::ListLegalPlaysRequest request;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(kPlays, &request).ok());
  grpc::ClientContext ctx;
  v1::ListLegalPlaysResponse over_grpc;
  ASSERT_TRUE(stub->ListLegalPlays(&ctx, request, &over_grpc).ok());
  EXPECT_EQ(over_http.SerializeAsString(), over_grpc.SerializeAsString());
}

TEST_F(ConnectTest, ABinaryProtobufCallIsAnsweredInKind) {
  v1::GetStartPositionRequest request;
  request.set_rules("selsey");
  httplib::Result r = Post("GetStartPosition", request.SerializeAsString(), "application/proto");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  v1::GetStartPositionResponse response;
  ASSERT_TRUE(response.ParseFromString(r->body));
  EXPECT_EQ(response.rules(), "selsey");
}

TEST_F(ConnectTest, ErrorsAreConnectErrorsWithTheirHttpStatus) {
  struct Case {
    std::string method, body, type;
    int status;
    std::string code;
  };
  for (const Case& c : std::vector<Case>{
           {"ListLegalPlays", R"({"position":{"ufen":"bad"}})", "application/json", 400,
            "invalid_argument"},
           {"ListLegalPlays", "{not json", "application/json", 400, "invalid_argument"},
           {"ListLegalPlays", R"({"nosuchfield":1})", "application/json", 400, "invalid_argument"},
           {"ListLegalPlays", "{}", "text/plain", 415, "invalid_argument"},
           {"NoSuchMethod", "{}", "application/json", 404, "unimplemented"},
           {"Analyse", "{}", "application/json", 415, "invalid_argument"},
       }) {
    httplib::Result r = Post(c.method, c.body, c.type);
    ASSERT_TRUE(r) << c.method;
    EXPECT_EQ(r->status, c.status) << c.method << " " << c.body;
    EXPECT_NE(r->body.find("\"code\":\"" + c.code + "\""), std::string::npos) << r->body;
  }
}

// The same limits as the text protocol's and gRPC's
// (GrpcTest.LimitsAreReadAsByEveryFront): the same words.
TEST_F(ConnectTest, LimitsAreReadAsByEveryFront) {
  const std::pair<const char*, const char*> cases[] = {
      {R"("depth":65)", "depth must be 1..64, not 65"},
      {R"("movetimeMs":"-5")", "movetime must be 1..8640000000 ms"},
      {R"("nodes":"-1")", "nodes must be 1 or more, not -1"},
      {R"("btimeMs":"5000")", "wtime is missing"},
  };
  for (const auto& [limits, words] : cases) {
    httplib::Result r =
        Post("BestMove", absl::StrCat(R"({"position":{"ufen":"startpos"},)",
                                      R"("throw":{"die1":6,"die2":3},"limits":{)", limits, "}}"));
    ASSERT_TRUE(r) << limits;
    EXPECT_EQ(r->status, 400) << limits << ": " << r->body;
    EXPECT_NE(r->body.find(words), std::string::npos) << r->body;
  }
}

TEST_F(ConnectTest, AMovesToGoBelowZeroIsRefusedAsByEveryFront) {
  httplib::Result r = Post("BestMove", R"({"position":{"ufen":"startpos"},)"
                                       R"("throw":{"die1":6,"die2":3},)"
                                       R"("limits":{"wtimeMs":"5000","movestogo":-1}})");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(r->body.find("movestogo must be 0..1000"), std::string::npos) << r->body;
}

// movestogo 0: the rest of the game, as `go ... movestogo 0` and gRPC's.
TEST_F(ConnectTest, AMovesToGoOfZeroIsTheRestOfTheGameAsOnEveryFront) {
  httplib::Result r =
      Post("BestMove", R"({"position":{"ufen":"startpos"},)"
                       R"("throw":{"die1":6,"die2":3},)"
                       R"("limits":{"wtimeMs":"5000","btimeMs":"5000","movestogo":0}})");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  v1::BestMoveResponse answer;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &answer).ok());
  EXPECT_EQ(answer.play(), "rb-0,r0-3");
}

// The three fronts reach the search through the same Engine call
// (Engine::Search, engine/engine.h): the same request, the same settings (the
// text protocol's Hash set to the service's default table of 2 MiB) give
// the same play after the same number of nodes.
TEST_F(ConnectTest, BestMoveOverGrpcConnectAndTheTextProtocolIsOneSearch) {
  constexpr char kRequest[] = R"({"position":{"ufen":"b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -"},)"
                              R"("throw":{"die1":6,"die2":3},"limits":{"depth":2}})";
  httplib::Result r = Post("BestMove", kRequest);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  v1::BestMoveResponse over_connect;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &over_connect).ok());

  auto stub = v1::Engine::NewStub(grpc::CreateChannel(absl::StrCat("127.0.0.1:", grpc_->port()),
                                                      grpc::InsecureChannelCredentials()));
  v1::BestMoveRequest request;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(kRequest, &request).ok());
  grpc::ClientContext ctx;
  v1::BestMoveResponse over_grpc;
  ASSERT_TRUE(stub->BestMove(&ctx, request, &over_grpc).ok());

  Engine engine;
  std::ostringstream out;
  UciLoop loop(engine, out);
  for (const char* line :
       {"setoption name Hash value 2", "position ufen b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -",
        "go dice 6 3 depth 2"}) {
    loop.HandleLine(line);
  }
  engine.Wait();
  std::string text = out.str();
  EXPECT_NE(text.find(absl::StrCat("info depth 2 nodes ", over_grpc.nodes(), " ")),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(absl::StrCat("bestmove ", over_grpc.play())), std::string::npos) << text;
  EXPECT_EQ(over_connect.play(), over_grpc.play());
  EXPECT_EQ(over_connect.nodes(), over_grpc.nodes());
  EXPECT_EQ(over_grpc.depth(), 2);
}

TEST_F(ConnectTest, AnOversizedBodyIsRefused) {
  httplib::Result r = Post("ListLegalPlays", std::string(5 << 20, ' '));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
}

TEST_F(ConnectTest, ConnectTimeoutMsIsTheSearchsDeadline) {
  auto start = std::chrono::steady_clock::now();
  httplib::Result r =
      Post("BestMove",
           R"({"position":{"ufen":"startpos"},"throw":{"die1":6,"die2":3},"limits":{"depth":12}})",
           "application/json", {{"Connect-Timeout-Ms", "300"}});
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;  // the best play found in time
  EXPECT_NE(r->body.find("\"play\""), std::string::npos);
  EXPECT_LT(ms, 2000);
  httplib::Result bad = Post("BestMove", "{}", "application/json", {{"Connect-Timeout-Ms", "x"}});
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
}

TEST_F(ConnectTest, AnalyseIsAConnectServerStreamEndingWithItsEndMessage) {
  std::string message =
      R"({"position":{"ufen":"startpos"},"throw":{"die1":6,"die2":3},"limits":{"depth":2}})";
  std::string body(5, '\0');
  for (int i = 0; i < 4; ++i) body[1 + i] = static_cast<char>(message.size() >> (24 - 8 * i));
  body += message;
  httplib::Result r = Post("Analyse", body, "application/connect+json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  std::vector<std::pair<int, std::string>> envelopes;
  for (size_t at = 0; at + 5 <= r->body.size();) {
    uint32_t n = 0;
    for (int i = 1; i <= 4; ++i) n = n << 8 | static_cast<uint8_t>(r->body[at + i]);
    envelopes.push_back({static_cast<uint8_t>(r->body[at]), r->body.substr(at + 5, n)});
    at += 5 + n;
  }
  ASSERT_GE(envelopes.size(), 2u);
  EXPECT_EQ(envelopes.back().first, 2);  // the end-of-stream message
  EXPECT_EQ(envelopes.back().second, "{}");
  v1::AnalyseResponse last;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(envelopes[envelopes.size() - 2].second, &last)
          .ok());
  EXPECT_TRUE(last.final());
}

TEST_F(ConnectTest, SearchesPastTheLimitAreResourceExhausted) {
  ServiceLimits limits;
  limits.max_searches = 1;
  TearDown();
  Start(limits);
  std::thread busy([&] {
    httplib::Client c("127.0.0.1", http_->port());
    c.set_read_timeout(30, 0);
    c.Post("/uckers.v1.Engine/BestMove", {{"Connect-Timeout-Ms", "1500"}},
           R"({"position":{"ufen":"startpos"},"throw":{"die1":6,"die2":3},"limits":{"depth":12}})",
           "application/json");
  });
  for (int i = 0; i < 200 && grpc_->api().active_searches() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  httplib::Result r = Post("Evaluate", R"({"position":{"ufen":"startpos"}})");
  busy.join();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 429);
  EXPECT_NE(r->body.find("resource_exhausted"), std::string::npos) << r->body;
}

// A unary search whose client hangs up mid-call is cancelled well before
// its own limits (httplib does not say so: see HangUpWatch).
TEST_F(ConnectTest, AClientHangingUpCancelsItsUnarySearch) {
  std::string body = R"({"position":{"ufen":"startpos"},"throw":{"die1":6,"die2":3},)"
                     R"("limits":{"depth":12,"movetimeMs":20000}})";
  std::string request = absl::StrCat(
      "POST /uckers.v1.Engine/BestMove HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Content-Type: application/json\r\nConnect-Timeout-Ms: 30000\r\nContent-Length: ",
      body.size(), "\r\n\r\n", body);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(http_->port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(write(fd, request.data(), request.size()), static_cast<ssize_t>(request.size()));
  for (int i = 0; i < 400 && grpc_->api().active_searches() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(grpc_->api().active_searches(), 1);
  close(fd);
  auto hung_up = std::chrono::steady_clock::now();
  while (grpc_->api().active_searches() > 0 &&
         std::chrono::steady_clock::now() - hung_up < std::chrono::seconds(5)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(grpc_->api().active_searches(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - hung_up, std::chrono::seconds(2));
}

TEST_F(ConnectTest, CorsAnswersOnlyTheOriginsAllowed) {
  TearDown();
  Start({}, {"http://board.example"});
  httplib::Result allowed =
      client_->Options("/uckers.v1.Engine/BestMove", {{"Origin", "http://board.example"}});
  ASSERT_TRUE(allowed);
  EXPECT_EQ(allowed->get_header_value("Access-Control-Allow-Origin"), "http://board.example");
  httplib::Result other =
      client_->Options("/uckers.v1.Engine/BestMove", {{"Origin", "http://elsewhere.example"}});
  ASSERT_TRUE(other);
  EXPECT_FALSE(other->has_header("Access-Control-Allow-Origin"));
}

TEST_F(ConnectTest, MetricsCountRequestsErrorsAndSearches) {
  Post("ListLegalPlays", kPlays);
  Post("ListLegalPlays", "{}", "text/plain");
  httplib::Result r = client_->Get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_NE(r->body.find(R"(uckers_requests_total{front="connect",method="ListLegalPlays"} 2)"),
            std::string::npos)
      << r->body;
  EXPECT_NE(r->body.find(R"(code="invalid_argument"} 1)"), std::string::npos) << r->body;
  EXPECT_NE(r->body.find("uckers_searches_running 0"), std::string::npos) << r->body;
}

// An HTTP-only probe (a load balancer's, Kubernetes' httpGet) gets 200
// while the front takes calls, and nothing once it has stopped.
TEST_F(ConnectTest, HealthzAnswersWhileTheFrontTakesCallsAndNotAfter) {
  httplib::Result r = client_->Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "SERVING\n");
  EXPECT_EQ(r->get_header_value("Cache-Control"), "no-store");
  http_->StopTaking();
  httplib::Client after("127.0.0.1", http_->port());
  after.set_connection_timeout(1);
  httplib::Result gone = after.Get("/healthz");
  EXPECT_FALSE(gone && gone->status == 200);
}

TEST_F(ConnectTest, MetricsCountTheGrpcFrontToo) {
  auto stub = v1::Engine::NewStub(grpc::CreateChannel(absl::StrCat("127.0.0.1:", grpc_->port()),
                                                      grpc::InsecureChannelCredentials()));
  v1::GetStartPositionRequest good;
  v1::GetStartPositionRequest bad;
  bad.set_rules("navy+no_such_switch");
  v1::GetStartPositionResponse out;
  for (const auto* request : {&good, &good, &bad}) {
    grpc::ClientContext ctx;
    stub->GetStartPosition(&ctx, *request, &out);
  }
  httplib::Result r = client_->Get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_NE(r->body.find(R"(uckers_requests_total{front="grpc",method="GetStartPosition"} 3)"),
            std::string::npos)
      << r->body;
  EXPECT_NE(
      r->body.find(
          R"(uckers_errors_total{front="grpc",method="GetStartPosition",code="invalid_argument"} 1)"),
      std::string::npos)
      << r->body;
  EXPECT_NE(
      r->body.find(R"(uckers_request_seconds_count{front="grpc",method="GetStartPosition"} 3)"),
      std::string::npos)
      << r->body;
}

TEST_F(ConnectTest, ATakenPortIsAnError) {
  ConnectConfig again;
  again.address = absl::StrCat("127.0.0.1:", http_->port());
  EXPECT_FALSE(ConnectServer::Start(again, &grpc_->api()).ok());
}

TEST_F(ConnectTest, TheWebBoardIsServedAtTheRoot) {
  httplib::Result root = client_->Get("/");
  ASSERT_TRUE(root);
  EXPECT_EQ(root->status, 200);
  EXPECT_EQ(root->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(root->body.find("<script type=\"module\" src=\"app.js\""), std::string::npos);
  httplib::Result app = client_->Get("/app.js");
  ASSERT_TRUE(app);
  EXPECT_EQ(app->status, 200);
  EXPECT_EQ(app->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  // Every call the board makes is a method of the public API.
  EXPECT_NE(app->body.find("api.legalPlays"), std::string::npos);
}

// Every page pins the board's scripts (server/web_integrity.h): its import
// map gives each script's SHA-384 as served, its module script carries its
// own, and its policy allows that one inline script by its hash.
TEST_F(ConnectTest, TheBoardsScriptsArePinnedByTheirIntegrity) {
  for (const char* path : {"/", "/practice.html", "/rules.html"}) {
    httplib::Result page = client_->Get(path);
    ASSERT_TRUE(page) << path;
    size_t open = page->body.find("<script type=\"importmap\">");
    ASSERT_NE(open, std::string::npos) << path;
    open += std::string("<script type=\"importmap\">").size();
    std::string map = page->body.substr(open, page->body.find("</script>", open) - open);
    for (const char* script : {"dealer.js", "app.js", "board.js", "words.js"}) {
      httplib::Result js = client_->Get(absl::StrCat("/", script));
      ASSERT_TRUE(js);
      EXPECT_NE(map.find(absl::StrCat("\"./", script, "\":\"", IntegrityOf(js->body), "\"")),
                std::string::npos)
          << path << ": " << script << " not pinned as served: " << map;
    }
    unsigned char md[32];
    unsigned int size = 0;
    ASSERT_EQ(EVP_Digest(map.data(), map.size(), md, &size, EVP_sha256(), nullptr), 1);
    std::string b64(44, '\0');
    EVP_EncodeBlock(reinterpret_cast<unsigned char*>(b64.data()), md, size);
    EXPECT_NE(page->get_header_value("Content-Security-Policy")
                  .find(absl::StrCat("script-src 'self' 'sha256-", b64, "'")),
              std::string::npos)
        << path << ": " << page->get_header_value("Content-Security-Policy");
    EXPECT_EQ(page->get_header_value_count("Content-Security-Policy"), 1u) << path;
  }
  httplib::Result root = client_->Get("/");
  httplib::Result app = client_->Get("/app.js");
  ASSERT_TRUE(root && app);
  EXPECT_NE(root->body.find(absl::StrCat("src=\"app.js\" integrity=\"", IntegrityOf(app->body))),
            std::string::npos);
}

TEST_F(ConnectTest, NoPathLeavesTheWebBoardsFiles) {
  for (const char* path : {"/nothing.js", "/../CMakeLists.txt", "/%2e%2e/CMakeLists.txt",
                           "/web/index.html", "/metrics.txt"}) {
    httplib::Result r = client_->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 404) << path;
  }
}

// A dealt game over Connect, as a front-end plays it: the commitment comes
// first, in the answer to StartDealtGame; no throw can be had before the
// binding; each throw follows with its client value and the play before
// it; the reveal's secret hashes to the commitment that came first and
// recomputes every throw.
TEST_F(ConnectTest, ADealtGamesCommitmentComesBeforeItsFirstThrow) {
  std::vector<std::string> log;  // the answers, in the order they came
  auto call = [&](const std::string& method, const std::string& body,
                  google::protobuf::Message* out) {
    httplib::Result r = Post(method, body);
    if (!r || r->status != 200) return r ? r->status : -1;
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, out).ok()) << r->body;
    log.push_back(method);
    return 200;
  };
  v1::DealThrowResponse early;
  EXPECT_EQ(call("DealThrow", R"({"token":"","index":"0"})", &early), 400);
  v1::StartDealtGameResponse start;
  ASSERT_EQ(call("StartDealtGame", "{}", &start), 200);
  ASSERT_EQ(start.commitment().size(), 64u);
  std::string seed = "chosen-after-the-commitment";
  v1::BindDealtGameResponse bound;
  ASSERT_EQ(call("BindDealtGame",
                 absl::StrCat(R"({"token":")", start.token(), R"(","clientSeed":")", seed,
                              R"(","rules":"navy"})"),
                 &bound),
            200);
  EXPECT_EQ(bound.commitment(), start.commitment());
  Game game;
  std::vector<std::pair<int, int>> dealt;
  std::vector<std::string> values;
  std::string play;
  for (int i = 0; !game.IsOver() && i < 20000; ++i) {
    v1::DealThrowResponse d;
    values.push_back(
        absl::StrCat(absl::Hex(0xc0ffee, absl::kZeroPad16), absl::Hex(i, absl::kZeroPad16)));
    ASSERT_EQ(
        call("DealThrow",
             absl::StrCat(R"({"token":")", start.token(), R"(","index":")", i,
                          R"(","clientValue":")", values.back(), R"(","play":")", play, R"("})"),
             &d),
        200);
    ASSERT_EQ(d.index(), i);
    dealt.emplace_back(d.throw_().die1(), d.throw_().die2());
    Throw t = MakeThrow(d.throw_().die1(), d.throw_().die2());
    PlayList plays;
    GenerateLegalPlays(game.position(), game.rules(), t, &plays);
    play = PlayToString(plays[0].play);
    ASSERT_TRUE(game.Play(t, play).ok());
  }
  ASSERT_TRUE(game.IsOver());
  v1::RevealDealtGameResponse revealed;
  ASSERT_EQ(call("RevealDealtGame",
                 absl::StrCat(R"({"token":")", start.token(), R"(","recordText":""})"), &revealed),
            400);  // an empty record is not the game played
  std::string record_json;
  ASSERT_TRUE(
      google::protobuf::util::MessageToJsonString(wire::ToMessage(RecordOf(game)), &record_json)
          .ok());
  ASSERT_EQ(call("RevealDealtGame",
                 absl::StrCat(R"({"token":")", start.token(), R"(","record":)", record_json, "}"),
                 &revealed),
            200);
  ASSERT_GE(log.size(), 4u);
  EXPECT_EQ(log.front(), "StartDealtGame");
  EXPECT_EQ(log[1], "BindDealtGame");
  EXPECT_EQ(log[2], "DealThrow");
  EXPECT_EQ(log.back(), "RevealDealtGame");
  absl::StatusOr<dealer::Secret> secret = dealer::SecretFromHex(revealed.secret());
  ASSERT_TRUE(secret.ok()) << secret.status();
  EXPECT_EQ(dealer::Commitment(*secret), start.commitment());
  for (size_t i = 0; i < dealt.size(); ++i) {
    EXPECT_EQ(dealer::DealDice(*secret, seed, i, *dealer::ClientValueFromHex(values[i])), dealt[i])
        << i;
  }
  absl::StatusOr<Record> revealed_record = wire::FromMessage(revealed.record());
  ASSERT_TRUE(revealed_record.ok()) << revealed_record.status();
  EXPECT_TRUE(VerifyDealtDice(*revealed_record).ok());
}

// The dealt games are held in memory: a game is served by the process that
// started it only, and another key's token is named as such.
TEST_F(ConnectTest, ADealtGameIsServedByTheServerThatStartedItOnly) {
  ServiceLimits limits;
  limits.dealer_key = *dealer::NewKey();
  Api a(limits), b(limits), other(ServiceLimits{});
  v1::StartDealtGameResponse start;
  ASSERT_TRUE(a.StartDealtGame({}, v1::StartDealtGameRequest(), &start).ok());
  v1::BindDealtGameRequest request;
  request.set_token(start.token());
  request.set_client_seed("seed");
  v1::BindDealtGameResponse bound;
  absl::Status s = b.BindDealtGame(request, &bound);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.message().find("no such dealt game"), std::string::npos) << s.message();
  s = other.BindDealtGame(request, &bound);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("sealed under dealer key"), std::string::npos) << s.message();
  EXPECT_TRUE(a.BindDealtGame(request, &bound).ok());
}

TEST_F(ConnectTest, JudgePlayAndThrowMapAnswerOverJson) {
  httplib::Result r = Post("JudgePlay", R"({"position":{"ufen":"startpos"},
      "throw":{"die1":6,"die2":3},"play":"rb-0,r0-3"})");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  v1::JudgePlayResponse judged;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &judged).ok());
  EXPECT_EQ(judged.play(), "rb-0,r0-3");
  EXPECT_EQ(judged.level(), "advanced");
  EXPECT_GE(judged.equity_lost(), 0);
  EXPECT_FALSE(judged.best_play().empty());
  EXPECT_GE(judged.alternatives_size(), 1);
  EXPECT_EQ(judged.alternatives(0).play(), judged.best_play());
  EXPECT_EQ(judged.alternatives(0).equity_lost(), 0);

  r = Post("ThrowMap", R"({"position":{"ufen":"startpos"}})");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  v1::ThrowMapResponse map;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &map).ok());
  ASSERT_EQ(map.throws_size(), 21);
  EXPECT_EQ(map.throws(0).throw_().die1(), 6);
  EXPECT_EQ(map.throws(0).throw_().die2(), 6);
  EXPECT_NEAR(map.throws(0).probability(), 1 / 36.0, 1e-12);

  r = Post("JudgePlay", R"({"position":{"ufen":"startpos"},"throw":{"die1":6,"die2":6},
      "play":"r9-15"})");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(r->body.find("play"), std::string::npos) << r->body;
}

TEST_F(ConnectTest, BestMoveCandidatesNameTheTermsInWhichTheyDifferFromTheBest) {
  httplib::Result r =
      Post("BestMove", R"({"position":{"ufen":"b,10,13,13/b,b,16,19/1,8,8,13/6,6,16,25 y -"},
      "throw":{"die1":5,"die2":3},"options":{"multipv":8,"level":"advanced"}})");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  v1::BestMoveResponse best;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &best).ok());
  ASSERT_EQ(best.candidates_size(), 8);
  EXPECT_EQ(best.candidates(0).differences_size(), 0);
  const std::set<std::string> terms = {
      "exposed",          "hit_chance", "blobs_made",         "blobs_broken", "knocked_off",
      "challenge_chance", "race_pips",  "opponent_race_pips", "entered",      "home"};
  int explained = 0;
  for (int k = 1; k < best.candidates_size(); ++k) {
    for (const v1::TermDifference& d : best.candidates(k).differences()) {
      EXPECT_TRUE(terms.count(d.term())) << d.term();
      EXPECT_NE(d.best(), d.play()) << d.term();
    }
    explained += best.candidates(k).differences_size() > 0;
  }
  EXPECT_GE(explained, 5);
}

// Over JSON the size of each reason is `winChance` (docs/frontend.md,
// "Explained choices"): splitting the blob in front of Green costs chance.
TEST_F(ConnectTest, JudgePlayGivesEachReasonsWinChance) {
  httplib::Result r =
      Post("JudgePlay", R"({"position":{"ufen":"b,22,22,35/b,b,3,5/b,b,b,b/b,b,b,b r -"},
      "throw":{"die1":2,"die2":1},"play":"r22-23,r22-24"})");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_NE(r->body.find("\"winChance\":-"), std::string::npos) << r->body;
  v1::JudgePlayResponse judged;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &judged).ok());
  double total = 0;
  for (const v1::TermDifference& d : judged.differences()) total += d.win_chance();
  EXPECT_LT(total, 0) << r->body;
}

// RULES.md §11 over JSON: the six-sided board's evaluation names every
// side's chance (sideWinProbabilities, side 1 first) and the side to throw.
TEST_F(ConnectTest, EvaluateGivesEverySideAChance) {
  httplib::Result r = Post("Evaluate", R"({"position":{"ufen":"startpos"},"rules":"six"})");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  v1::EvaluateResponse evaluated;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &evaluated).ok());
  ASSERT_EQ(evaluated.evaluation().side_win_probabilities_size(), 3) << r->body;
  double sum = 0;
  for (double p : evaluated.evaluation().side_win_probabilities()) sum += p;
  EXPECT_NEAR(sum, 1.0, 1e-6);
  EXPECT_EQ(evaluated.evaluation().side(), 1);
  EXPECT_NE(r->body.find("\"sideWinProbabilities\""), std::string::npos) << r->body;
}

// A game played over JSON on the six-sided board, each play the engine's
// best, ends with a winning side; a clock is refused on the way, naming it.
TEST_F(ConnectTest, AWholeSixSidedGamePlaysOverJson) {
  httplib::Result start = Post("GetStartPosition", R"({"rules":"six+solo"})");
  ASSERT_TRUE(start);
  v1::GetStartPositionResponse begun;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(start->body, &begun).ok());
  std::string ufen = begun.position().ufen();
  DiceSequence dice(7);
  bool finished = false;
  for (int turn = 0; turn < 3000 && !finished; ++turn) {
    auto [d1, d2] = dice.NextDice();
    std::string where =
        absl::StrCat(R"({"position":{"ufen":")", ufen, R"("},"rules":"six+solo","throw":{"die1":)",
                     d1, R"(,"die2":)", d2, "}");
    httplib::Result best = Post("BestMove", where + R"(,"options":{"level":"beginner"}})");
    ASSERT_TRUE(best);
    ASSERT_EQ(best->status, 200) << best->body;
    v1::BestMoveResponse chosen;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(best->body, &chosen).ok());
    httplib::Result applied = Post("ApplyPlay", where + R"(,"play":")" + chosen.play() + R"("})");
    ASSERT_TRUE(applied);
    ASSERT_EQ(applied->status, 200) << applied->body;
    v1::ApplyPlayResponse next;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(applied->body, &next).ok());
    ufen = next.position().ufen();
    finished = next.result().finished();
    if (finished) {
      EXPECT_GE(next.result().winner_side(), 1);
      EXPECT_LE(next.result().winner_side(), 6);
      EXPECT_EQ(next.result().side_points_size(), 6);
    }
  }
  EXPECT_TRUE(finished) << ufen;
  httplib::Result clock = Post(
      "BestMove",
      R"({"position":{"ufen":"startpos"},"rules":"six","throw":{"die1":6,"die2":3},"limits":{"btimeMs":900}})");
  ASSERT_TRUE(clock);
  EXPECT_EQ(clock->status, 400);
  EXPECT_NE(clock->body.find("clocks"), std::string::npos) << clock->body;
}

// The coach over HTTP on every layout of more sides than two teams: the
// tutor's judgement and the throw map, as the gRPC front gives them.
TEST_F(ConnectTest, TheTutorAndTheThrowMapAnswerOnEveryLayout) {
  for (auto [rules, sides] : {std::pair{"navy+solo", 4}, std::pair{"six", 3},
                              std::pair{"six+teams_of_three", 2}, std::pair{"six+solo", 6}}) {
    std::string where = absl::StrCat(R"({"position":{"ufen":"startpos"},"rules":")", rules, "\"");
    httplib::Result best = Post("BestMove", where + R"(,"throw":{"die1":6,"die2":6}})");
    ASSERT_TRUE(best);
    ASSERT_EQ(best->status, 200) << rules << " " << best->body;
    v1::BestMoveResponse chosen;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(best->body, &chosen).ok());
    httplib::Result judged = Post(
        "JudgePlay", where + R"(,"throw":{"die1":6,"die2":6},"play":")" + chosen.play() + R"("})");
    ASSERT_TRUE(judged);
    ASSERT_EQ(judged->status, 200) << rules << " " << judged->body;
    v1::JudgePlayResponse judgement;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(judged->body, &judgement).ok());
    EXPECT_EQ(judgement.play(), chosen.play()) << rules;
    EXPECT_EQ(judgement.evaluation().side_win_probabilities_size(), sides) << rules;
    httplib::Result map = Post("ThrowMap", where + "}");
    ASSERT_TRUE(map);
    ASSERT_EQ(map->status, 200) << rules << " " << map->body;
    v1::ThrowMapResponse mapped;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(map->body, &mapped).ok());
    EXPECT_EQ(mapped.throws_size(), 21) << rules;
    EXPECT_EQ(mapped.evaluation().side_win_probabilities_size(), sides) << rules;
  }
}

// docs/architecture.md, "A new RPC": every method of uckers.v1.Engine has a
// route in the Connect front (an empty request reaches the method, which
// answers it or names what is wrong; never "no method"), and a metrics
// series of its own. A method added to the proto without its route fails
// here, naming it.
TEST_F(ConnectTest, EveryMethodOfTheServiceHasARouteAndAMetricsName) {
  const google::protobuf::ServiceDescriptor* engine =
      v1::EngineInfo::descriptor()->file()->FindServiceByName("Engine");
  ASSERT_NE(engine, nullptr);
  for (int i = 0; i < engine->method_count(); ++i) {
    const google::protobuf::MethodDescriptor* m = engine->method(i);
    std::string type = m->server_streaming() ? "application/connect+json" : "application/json";
    std::string body = m->server_streaming() ? std::string("\0\0\0\0\2{}", 7) : "{}";
    httplib::Result r = Post(m->name(), body, type);
    ASSERT_TRUE(r) << m->name();
    EXPECT_EQ(r->body.find("no method"), std::string::npos)
        << m->name() << " has no Connect route (server/connect_server.cpp): " << r->body;
    EXPECT_NE(r->status, 404) << m->name() << ": " << r->body;
    EXPECT_EQ(MetricsMethodName(m->name()), m->name()) << m->name() << " has no metrics name";
  }
}

// A new method is fuzzed through both fronts: it has a case of its own in
// service_fuzz (one case a method, the first byte picking it) and a seed
// request in connect_fuzz's corpus (docs/architecture.md, "A new RPC").
TEST(Fuzz, EveryMethodOfTheServiceHasACaseInEachFrontsFuzzer) {
  const google::protobuf::ServiceDescriptor* engine =
      v1::EngineInfo::descriptor()->file()->FindServiceByName("Engine");
  ASSERT_NE(engine, nullptr);
  std::ifstream in(std::string(UCKERS_SOURCE_DIR) + "/fuzz/service_fuzz.cpp");
  std::string fuzzer((std::istreambuf_iterator<char>(in)), {});
  ASSERT_FALSE(fuzzer.empty());
  EXPECT_NE(fuzzer.find(absl::StrCat("data[0] % ", engine->method_count(), ")")), std::string::npos)
      << "service_fuzz's switch should have one case for each of the " << engine->method_count()
      << " methods";
  const std::string corpus = std::string(UCKERS_SOURCE_DIR) + "/fuzz/corpus/connect_fuzz/";
  for (int i = 0; i < engine->method_count(); ++i) {
    const std::string name = engine->method(i)->name();
    EXPECT_TRUE(fuzzer.find("&Api::" + name + ",") != std::string::npos ||
                fuzzer.find("s." + name + "(") != std::string::npos)
        << name << " has no case in fuzz/service_fuzz.cpp";
    const std::string seed =
        (engine->method(i)->server_streaming() ? "stream_json_" : "json_") + name;
    EXPECT_TRUE(std::ifstream(corpus + seed).good())
        << name << " has no seed request in fuzz/corpus/connect_fuzz/ (" << seed << ")";
  }
}

// ServeBytes (the fuzzer's door): a connection's bytes in, the front's
// answers out, with no socket: two requests kept alive, the second a
// method in JSON, and a request httplib cannot parse.
TEST(ConnectBytes, ServeBytesAnswersEachRequestOfAConnectionWithoutASocket) {
  Api api(ServiceLimits{});
  ConnectConfig config;
  std::unique_ptr<ConnectServer> front = ConnectServer::Unbound(config, &api);
  const std::string body = "{\"rules\":\"six\"}";
  std::string out = front->ServeBytes(
      absl::StrCat("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n",
                   "POST /uckers.v1.Engine/GetStartPosition HTTP/1.1\r\nHost: localhost\r\n"
                   "Content-Type: application/json\r\nContent-Length: ",
                   body.size(), "\r\n\r\n", body));
  EXPECT_EQ(out.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << out;
  size_t second = out.find("HTTP/1.1 ", 1);
  ASSERT_NE(second, std::string::npos) << out;
  EXPECT_EQ(out.compare(second, 15, "HTTP/1.1 200 OK"), 0) << out.substr(second);
  EXPECT_NE(out.find("\"rules\":\"six"), std::string::npos) << out.substr(second);
  EXPECT_EQ(front->ServeBytes("GARBAGE\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  EXPECT_EQ(front->ServeBytes(""), "");
}

// The fuzzer's door bounds the request line and the headers as a socket
// does (414, 431, and nothing handled after the refusal), so that the
// fuzzer reaches the bounds too.
TEST(ConnectBytes, ServeBytesBoundsTheRequestLineAndHeadersAsASocketDoes) {
  Api api(ServiceLimits{});
  ConnectConfig config;
  config.max_line_bytes = 256;
  config.max_headers = 3;
  std::unique_ptr<ConnectServer> front = ConnectServer::Unbound(config, &api);
  std::string out = front->ServeBytes(
      absl::StrCat("GET /", std::string(300, 'a'), " HTTP/1.1\r\nHost: localhost\r\n\r\n"));
  EXPECT_EQ(out.rfind("HTTP/1.1 414", 0), 0u) << out;
  out = front->ServeBytes(
      "GET /metrics HTTP/1.1\r\nHost: localhost\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"
      "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(out.rfind("HTTP/1.1 431", 0), 0u) << out;
  EXPECT_EQ(out.find("HTTP/1.1 ", 1), std::string::npos) << "answered after the refusal: " << out;
  out = front->ServeBytes(absl::StrCat(
      "GET /metrics HTTP/1.1\r\nHost: localhost\r\nX: ", std::string(300, 'x'), "\r\n\r\n"));
  EXPECT_EQ(out.rfind("HTTP/1.1 431", 0), 0u) << out;
}

}  // namespace
}  // namespace uckers::testing
