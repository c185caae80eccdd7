// The service under abuse: hostile method names against /metrics, bodies
// over the cap whatever their transfer encoding, calls already past their
// deadline, and the drain on SIGTERM with calls of both fronts in flight.
// Every test talks to 127.0.0.1 only and is bounded in time and count.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <regex>
#include <sstream>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/generic/generic_stub.h"
#include "httplib.h"
#include "server/call_metrics.h"
#include "server/connect_server.h"
#include "server/server.h"
#include "tests/test_util.h"
#include "uckers/v1/engine.grpc.pb.h"

namespace uckers::testing {
namespace {

using Steady = std::chrono::steady_clock;
namespace fs = std::filesystem;

constexpr char kLongSearch[] = R"({"position":{"ufen":"startpos"},"throw":{"die1":6,"die2":3},)"
                               R"("limits":{"depth":12,"movetimeMs":20000}})";

// Both fronts in this process, on ports the system picks.
class Fronts {
 public:
  explicit Fronts(ServiceLimits limits = {}, size_t max_body_bytes = 4 << 20,
                  int64_t idle_timeout_ms = 10000)
      : Fronts(limits, [&] {
          ConnectConfig http;
          http.max_body_bytes = max_body_bytes;
          http.idle_timeout_ms = idle_timeout_ms;
          return http;
        }()) {}
  // The HTTP front with `http`'s settings (its address set here).
  Fronts(ServiceLimits limits, ConnectConfig http) {
    ServerConfig config;
    config.address = "127.0.0.1:0";
    config.limits = limits;
    config.grace_ms = 500;
    auto grpc_server = Server::Start(config);
    EXPECT_TRUE(grpc_server.ok()) << grpc_server.status();
    grpc_ = std::move(*grpc_server);
    http.address = "127.0.0.1:0";
    auto server = ConnectServer::Start(http, &grpc_->api());
    EXPECT_TRUE(server.ok()) << server.status();
    http_ = std::move(*server);
  }
  ~Fronts() {
    http_->Shutdown();
    grpc_->Shutdown();
  }
  std::unique_ptr<httplib::Client> Client() const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", http_->port());
    c->set_read_timeout(30, 0);
    return c;
  }
  std::shared_ptr<grpc::Channel> Channel() const {
    return grpc::CreateChannel(absl::StrCat("127.0.0.1:", grpc_->port()),
                               grpc::InsecureChannelCredentials());
  }

  std::unique_ptr<Server> grpc_;
  std::unique_ptr<ConnectServer> http_;
};

// A unary call to any path by the generic stub; its status.
grpc::Status GenericCall(grpc::GenericStub* stub, const std::string& path,
                         const std::string& body = "") {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  grpc::Slice slice(body.data(), body.size());
  grpc::ByteBuffer request(&slice, 1), response;
  grpc::CompletionQueue cq;
  auto call = stub->PrepareUnaryCall(&ctx, path, request, &cq);
  call->StartCall();
  grpc::Status status;
  call->Finish(&response, &status, reinterpret_cast<void*>(1));
  void* tag;
  bool ok;
  cq.Next(&tag, &ok);
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }
  return status;
}

// A TCP connection to 127.0.0.1:port, or -1.
int Connect(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  timeval tv{20, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  return fd;
}

// Sends `total` bytes of body in chunks of 64 KiB (chunked transfer
// encoding) to a method while reading the answer; the answer (up to EOF).
std::string PostChunked(int port, size_t total) {
  int fd = Connect(port);
  if (fd < 0) return "";
  std::string head =
      "POST /uckers.v1.Engine/ListLegalPlays HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  send(fd, head.data(), head.size(), MSG_NOSIGNAL);
  std::thread sender([fd, total] {
    const size_t chunk = 64 << 10;
    std::string frame = absl::StrCat(absl::Hex(chunk), "\r\n", std::string(chunk, ' '), "\r\n");
    for (size_t sent = 0; sent < total; sent += chunk) {
      if (send(fd, frame.data(), frame.size(), MSG_NOSIGNAL) <= 0) return;
    }
    send(fd, "0\r\n\r\n", 5, MSG_NOSIGNAL);
  });
  std::string answer;
  char buf[4096];
  for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;) answer.append(buf, n);
  shutdown(fd, SHUT_RDWR);
  sender.join();
  close(fd);
  return answer;
}

// The exposition parsed by the Prometheus project's own parser (Debian's
// python3-prometheus-client); "" when it parses and every method label is
// known, else what the parser or the check said.
std::string ParseExposition(const std::string& text) {
  std::string dir = ::testing::TempDir();
  std::string in = dir + "/metrics.txt", out = dir + "/metrics.check";
  std::ofstream(in, std::ios::binary) << text;
  std::string script =
      "import sys\n"
      "from prometheus_client.parser import text_string_to_metric_families\n"
      "known = {'GetEngineInfo','ListLegalPlays','ApplyPlay','BestMove','Evaluate','Analyse',\n"
      "         'AnalyseGame','GetStartPosition','RollDice','unknown'}\n"
      "n = 0\n"
      "for family in text_string_to_metric_families(open(sys.argv[1]).read()):\n"
      "    for sample in family.samples:\n"
      "        n += 1\n"
      "        m = sample.labels.get('method')\n"
      "        if m is not None and m not in known and not m.startswith('grpc.'):\n"
      "            print('unexpected method label', repr(m)[:80]); sys.exit(1)\n"
      "print('ok', n)\n";
  std::ofstream(dir + "/check_metrics.py") << script;
  std::string cmd =
      absl::StrCat("/usr/bin/python3 ", dir, "/check_metrics.py ", in, " > ", out, " 2>&1");
  int rc = std::system(cmd.c_str());
  std::stringstream said;
  said << std::ifstream(out).rdbuf();
  return rc == 0 && said.str().rfind("ok", 0) == 0 ? "" : said.str().substr(0, 2000);
}

std::string RandomName(std::mt19937& rng, int max_length) {
  static const char kWord[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
  std::string name(1 + rng() % max_length, 'x');
  for (char& c : name) c = kWord[rng() % (sizeof kWord - 1)];
  return name;
}

TEST(Metrics, LabelValuesAreEscapedAsTheTextFormatAsks) {
  EXPECT_EQ(EscapeLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  EXPECT_EQ(EscapeLabelValue("BestMove"), "BestMove");
}

TEST(Metrics, OnlyMethodsTheServerServesGetASeriesOfTheirOwn) {
  EXPECT_EQ(MetricsMethodName("BestMove"), "BestMove");
  EXPECT_EQ(MetricsMethodName("grpc.health.v1.Health/Check"), "grpc.health.v1.Health/Check");
  for (const char* name : {"Bestmove", "a\"b/c", "x\ny", "", "uckers.v1.Engine/BestMove"}) {
    EXPECT_EQ(MetricsMethodName(name), "unknown") << name;
  }
}

// 20,000 calls with random and hostile method names over both fronts
// leave /metrics small and parseable, with one `unknown` series a front.
TEST(Metrics, HostileMethodNamesOfBothFrontsShareOneSeriesAndTheExpositionParses) {
  Fronts fronts;
  std::mt19937 rng(7);
  auto client = fronts.Client();
  grpc::GenericStub stub(fronts.Channel());
  const int kEach = 10000;
  int http_answers = 0, grpc_answers = 0;
  for (int i = 0; i < kEach; ++i) {
    std::string name = RandomName(rng, 1500);
    // A bad Connect-Timeout-Ms on every other call: once counted by the
    // name asked for.
    httplib::Headers headers;
    if (i % 2) headers.insert({"Connect-Timeout-Ms", "x"});
    if (auto r = client->Post(("/uckers.v1.Engine/" + name).c_str(), headers, "{}",
                              "application/json")) {
      ++http_answers;
    }
  }
  for (const std::string& path :
       {std::string("/a\"b/c"), std::string("/x\ny/z"), std::string("/q\\\"/r"),
        std::string("/uckers.v1.Engine/No\"Such"), std::string("/GetEngineInfo")}) {
    GenericCall(&stub, path);
    ++grpc_answers;
  }
  for (int i = 0; i < kEach - 5; ++i) {
    std::string path = i % 2 ? absl::StrCat("/", RandomName(rng, 500), "/", RandomName(rng, 500))
                             : absl::StrCat("/uckers.v1.Engine/", RandomName(rng, 1000));
    if (GenericCall(&stub, path).error_code() == grpc::StatusCode::UNIMPLEMENTED) ++grpc_answers;
  }
  EXPECT_EQ(http_answers, kEach);
  EXPECT_EQ(grpc_answers, kEach);
  httplib::Result r = client->Get("/metrics");
  ASSERT_TRUE(r);
  std::cerr << "/metrics: " << r->body.size() << " bytes after " << 2 * kEach << " calls\n";
  EXPECT_LT(r->body.size(), 64u << 10);
  EXPECT_EQ(ParseExposition(r->body), "") << r->body.substr(0, 4000);
  EXPECT_NE(r->body.find(R"(uckers_requests_total{front="connect",method="unknown"} 10000)"),
            std::string::npos)
      << r->body.substr(0, 4000);
  EXPECT_NE(r->body.find(R"(uckers_requests_total{front="grpc",method="unknown"} 10000)"),
            std::string::npos)
      << r->body.substr(0, 4000);
}

TEST(BodyCap, AChunkedBodyOverTheCapIsRefusedWith413AndAConnectError) {
  Fronts fronts({}, 256 << 10);
  std::string answer = PostChunked(fronts.http_->port(), 8 << 20);
  EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << answer.substr(0, 300);
  EXPECT_NE(answer.find(R"("code":"resource_exhausted")"), std::string::npos) << answer;
  EXPECT_NE(answer.find("--max_message_bytes"), std::string::npos) << answer;
  // The front still serves.
  httplib::Result r =
      fronts.Client()->Post("/uckers.v1.Engine/GetEngineInfo", "{}", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

// A Content-Length over the cap is refused at once, before the body: the
// client that waits for the answer before sending gets 413, not the
// request timeout's 408 (httplib read and dropped the whole declared body
// before answering).
TEST(BodyCap, ADeclaredLengthOverTheCapIsRefusedWith413BeforeTheBody) {
  Fronts fronts;
  int fd = Connect(fronts.http_->port());
  ASSERT_GE(fd, 0);
  const std::string head =
      "POST /uckers.v1.Engine/ListLegalPlays HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Content-Type: application/json\r\nContent-Length: 8388608\r\n\r\n";
  ASSERT_EQ(send(fd, head.data(), head.size(), MSG_NOSIGNAL), static_cast<ssize_t>(head.size()));
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  auto start = Steady::now();
  std::string answer;
  char buf[4096];
  ssize_t n = recv(fd, buf, sizeof buf, 0);
  auto waited = Steady::now() - start;  // to the answer's first bytes
  for (; n > 0; n = recv(fd, buf, sizeof buf, 0)) answer.append(buf, static_cast<size_t>(n));
  close(fd);
  EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << answer;
  EXPECT_NE(answer.find("--max_message_bytes"), std::string::npos) << answer;
  EXPECT_LT(waited, std::chrono::seconds(2));
}

TEST(BodyCap, AChunkedBodyUnderTheCapIsServed) {
  Fronts fronts;
  int fd = Connect(fronts.http_->port());
  ASSERT_GE(fd, 0);
  std::string body = R"({"rules":"selsey"})";
  std::string request = absl::StrCat(
      "POST /uckers.v1.Engine/GetStartPosition HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
      absl::Hex(body.size()), "\r\n", body, "\r\n0\r\n\r\n");
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string answer;
  char buf[4096];
  for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;) answer.append(buf, n);
  close(fd);
  EXPECT_EQ(answer.rfind("HTTP/1.1 200", 0), 0u) << answer;
  EXPECT_NE(answer.find("selsey"), std::string::npos) << answer;
}

TEST(Http, UnknownPathsAndMethodsGetAConnectErrorBody) {
  Fronts fronts;
  auto client = fronts.Client();
  struct Case {
    httplib::Result r;
    int status;
    std::string code;
  };
  std::vector<Case> cases;
  cases.push_back({client->Get("/no/such/path"), 404, "not_found"});
  cases.push_back({client->Get("/nothing.js"), 404, "not_found"});
  cases.push_back({client->Post("/no/such/path", "{}", "application/json"), 404, "not_found"});
  cases.push_back({client->Post("/uckers.v1.Engine/NoSuchMethod", "{}", "application/json"), 404,
                   "unimplemented"});
  cases.push_back(
      {client->Put("/uckers.v1.Engine/BestMove", "{}", "application/json"), 405, "unimplemented"});
  cases.push_back({client->Post("/uckers.v1.Engine/GetEngineInfo", std::string(5 << 20, ' '),
                                "application/json"),
                   413, "resource_exhausted"});
  for (const Case& c : cases) {
    ASSERT_TRUE(c.r);
    EXPECT_EQ(c.r->status, c.status) << c.r->body;
    EXPECT_EQ(c.r->get_header_value("Content-Type"), "application/json");
    EXPECT_NE(c.r->body.find("\"code\":\"" + c.code + "\""), std::string::npos) << c.r->body;
  }
}

// Holds the only search slot with a long search over HTTP until destroyed.
class SlotHolder {
 public:
  explicit SlotHolder(const Fronts& fronts) : fronts_(fronts) {
    thread_ = std::thread([this] {
      auto c = fronts_.Client();
      c->Post("/uckers.v1.Engine/BestMove", {{"Connect-Timeout-Ms", "3000"}}, kLongSearch,
              "application/json");
    });
    for (int i = 0; i < 400 && fronts_.grpc_->api().active_searches() == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  ~SlotHolder() { thread_.join(); }

 private:
  const Fronts& fronts_;
  std::thread thread_;
};

TEST(Deadline, AGrpcCallWithinItsSearchMarginIsDeadlineExceededWithoutTakingASlot) {
  ServiceLimits limits;
  limits.max_searches = 1;
  Fronts fronts(limits);
  SlotHolder busy(fronts);
  ASSERT_EQ(fronts.grpc_->api().active_searches(), 1);
  auto stub = v1::Engine::NewStub(fronts.Channel());
  v1::BestMoveRequest request;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(kLongSearch, &request).ok());
  for (int i = 0; i < 20; ++i) {
    grpc::ClientContext ctx;
    // 15 ms away: inside the 25 ms margin, yet not past before it arrives.
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(15));
    v1::BestMoveResponse response;
    grpc::Status s = stub->BestMove(&ctx, request, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << s.error_message();
  }
  httplib::Result m = fronts.Client()->Get("/metrics");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->body.find("resource_exhausted"), std::string::npos) << m->body;
}

TEST(Deadline, AConnectCallWithinItsSearchMarginIsDeadlineExceededWithoutTakingASlot) {
  ServiceLimits limits;
  limits.max_searches = 1;
  Fronts fronts(limits);
  SlotHolder busy(fronts);
  ASSERT_EQ(fronts.grpc_->api().active_searches(), 1);
  auto client = fronts.Client();
  for (const char* ms : {"1", "20"}) {
    httplib::Result r = client->Post("/uckers.v1.Engine/BestMove", {{"Connect-Timeout-Ms", ms}},
                                     kLongSearch, "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 504) << r->body;
    EXPECT_NE(r->body.find(R"("code":"deadline_exceeded")"), std::string::npos) << r->body;
  }
}

// `uckers serve` in a process of its own, for what needs signals or its
// memory figures.
class ServeProcess {
 public:
  explicit ServeProcess(std::vector<std::string> flags) {
    log_ = ::testing::TempDir() + "/serve_" + std::to_string(getpid()) + "_" +
           std::to_string(counter_++) + ".log";
    std::vector<std::string> argv = {UCKERS_BINARY, "serve",  "--address",
                                     "127.0.0.1:0", "--http", "127.0.0.1:0"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    pid_ = fork();
    if (pid_ == 0) {
      int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 1);
      dup2(fd, 2);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    std::regex grpc_port(R"(listening on \S+ \(port (\d+)\))");
    std::regex http_port(R"(Connect \(HTTP/JSON\) on \S+ \(port (\d+)\))");
    for (int i = 0; i < 1000 && (grpc_ == 0 || http_ == 0); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      std::string text = Log();
      std::smatch m;
      if (std::regex_search(text, m, grpc_port)) grpc_ = std::stoi(m[1]);
      if (std::regex_search(text, m, http_port)) http_ = std::stoi(m[1]);
    }
  }
  ~ServeProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  std::string Log() const {
    std::stringstream s;
    s << std::ifstream(log_).rdbuf();
    return s.str();
  }
  // A field of /proc/<pid>/status in KiB (VmRSS, VmHWM).
  int64_t StatusKb(const std::string& field) const {
    std::ifstream in(absl::StrCat("/proc/", pid_, "/status"));
    for (std::string line; std::getline(in, line);) {
      if (line.rfind(field + ":", 0) == 0) {
        int64_t kb = 0;
        std::istringstream(line.substr(field.size() + 1)) >> kb;
        return kb;
      }
    }
    return -1;
  }
  // The exit code, or -1 when it has not exited within `limit`.
  int WaitExit(std::chrono::milliseconds limit) {
    auto until = Steady::now() + limit;
    while (Steady::now() < until) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return -1;
  }

  pid_t pid_ = -1;
  int grpc_ = 0;
  int http_ = 0;

 private:
  static inline int counter_ = 0;
  std::string log_;
  bool exited_ = false;
};

TEST(BodyCap, A200MbChunkedBodyKeepsPeakMemoryGrowthUnderTwiceTheCap) {
  const int64_t cap = 4 << 20;
  ServeProcess serve({"--max_message_bytes", std::to_string(cap)});
  ASSERT_GT(serve.http_, 0) << serve.Log();
  // Warm the front (its threads, its first call) before the baseline.
  httplib::Client c("127.0.0.1", serve.http_);
  ASSERT_TRUE(c.Post("/uckers.v1.Engine/GetEngineInfo", "{}", "application/json"));
  int64_t before = serve.StatusKb("VmRSS");
  std::string answer = PostChunked(serve.http_, 200 << 20);
  int64_t peak = serve.StatusKb("VmHWM");
  EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << answer.substr(0, 300);
  std::cerr << "RSS before " << before << " KiB, peak after a 200 MB chunked body " << peak
            << " KiB (growth " << peak - before << " KiB, cap " << cap / 1024 << " KiB)\n";
  EXPECT_LT((peak - before) * 1024, 2 * cap);
}

// The health service's first answer on a Watch stream, then the next one
// (its status byte: 1 SERVING, 2 NOT_SERVING), by the generic async API.
class HealthWatch {
 public:
  explicit HealthWatch(const std::shared_ptr<grpc::Channel>& channel) : stub_(channel) {
    call_ = stub_.PrepareCall(&ctx_, "/grpc.health.v1.Health/Watch", &cq_);
    call_->StartCall(Tag(1));
    Wait();
    grpc::Slice empty("", 0);
    grpc::ByteBuffer request(&empty, 1);
    call_->Write(request, Tag(2));
    Wait();
    call_->WritesDone(Tag(3));
    Wait();
  }
  ~HealthWatch() {
    ctx_.TryCancel();
    grpc::Status status;
    call_->Finish(&status, Tag(9));
    cq_.Shutdown();
    void* tag;
    bool ok;
    while (cq_.Next(&tag, &ok)) {
    }
  }
  // The status of the next message, 0 when the stream ended.
  int Next() {
    grpc::ByteBuffer message;
    call_->Read(&message, Tag(4));
    if (!Wait()) return 0;
    std::vector<grpc::Slice> slices;
    if (!message.Dump(&slices).ok()) return 0;
    std::string bytes;
    for (const grpc::Slice& s : slices)
      bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    return bytes.size() == 2 && bytes[0] == 0x08 ? bytes[1] : (bytes.empty() ? 0 : -1);
  }

 private:
  static void* Tag(intptr_t n) { return reinterpret_cast<void*>(n); }
  bool Wait() {
    void* tag;
    bool ok = false;
    cq_.Next(&tag, &ok);
    return ok;
  }
  grpc::GenericStub stub_;
  grpc::ClientContext ctx_;
  grpc::CompletionQueue cq_;
  std::unique_ptr<grpc::GenericClientAsyncReaderWriter> call_;
};

// SIGTERM with an HTTP and a gRPC search of 20 s in flight and an idle
// keep-alive HTTP connection: health goes NOT_SERVING at once, neither
// front takes a new call, both searches answer their best so far by the
// grace, and the process exits 0 within the grace and a second.
TEST(Drain, SigtermAnswersSearchesOfBothFrontsByTheGraceAndExitsCleanly) {
  const int grace_ms = 1500;
  ServeProcess serve({"--grace_ms", std::to_string(grace_ms)});
  ASSERT_GT(serve.http_, 0) << serve.Log();
  auto channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", serve.grpc_),
                                     grpc::InsecureChannelCredentials());
  HealthWatch health(channel);
  ASSERT_EQ(health.Next(), 1);  // SERVING
  // An idle connection kept alive after one call.
  int idle = Connect(serve.http_);
  ASSERT_GE(idle, 0);
  std::string get = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  ASSERT_EQ(send(idle, get.data(), get.size(), MSG_NOSIGNAL), static_cast<ssize_t>(get.size()));
  std::string first;
  char buf[4096];
  while (first.find("uckers_searches_running 0\n") == std::string::npos) {
    ssize_t n = recv(idle, buf, sizeof buf, 0);
    ASSERT_GT(n, 0);
    first.append(buf, n);
  }

  int http_status = 0;
  std::string http_body;
  Steady::time_point http_done, grpc_done;
  std::thread http_call([&] {
    httplib::Client c("127.0.0.1", serve.http_);
    c.set_read_timeout(30, 0);
    if (httplib::Result r = c.Post("/uckers.v1.Engine/BestMove", kLongSearch, "application/json")) {
      http_status = r->status;
      http_body = r->body;
    }
    http_done = Steady::now();
  });
  grpc::Status grpc_status;
  v1::BestMoveResponse grpc_answer;
  std::thread grpc_call([&] {
    auto stub = v1::Engine::NewStub(channel);
    v1::BestMoveRequest request;
    google::protobuf::util::JsonStringToMessage(kLongSearch, &request);
    grpc::ClientContext ctx;
    grpc_status = stub->BestMove(&ctx, request, &grpc_answer);
    grpc_done = Steady::now();
  });
  // Both searches running (the gauge of /metrics says 2).
  httplib::Client probe("127.0.0.1", serve.http_);
  for (int i = 0; i < 400; ++i) {
    httplib::Result m = probe.Get("/metrics");
    if (m && m->body.find("uckers_searches_running 2") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  probe.stop();
  auto signalled = Steady::now();
  ASSERT_EQ(kill(serve.pid_, SIGTERM), 0);
  EXPECT_EQ(health.Next(), 2);  // NOT_SERVING
  EXPECT_LT(Steady::now() - signalled, std::chrono::milliseconds(500));
  // The idle connection is closed by the server at once, not after its
  // keep-alive timeout (5 s).
  EXPECT_EQ(recv(idle, buf, sizeof buf, 0), 0);
  EXPECT_LT(Steady::now() - signalled, std::chrono::milliseconds(700));
  close(idle);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // Neither front takes a new call.
  EXPECT_EQ(Connect(serve.http_), -1);
  {
    auto stub = v1::Engine::NewStub(channel);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
    v1::GetEngineInfoRequest request;
    v1::EngineInfo info;
    EXPECT_FALSE(stub->GetEngineInfo(&ctx, request, &info).ok());
  }
  int code = serve.WaitExit(std::chrono::milliseconds(grace_ms + 1000));
  auto exited = Steady::now();
  auto ms = [&](Steady::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t - signalled).count();
  };
  http_call.join();
  grpc_call.join();
  EXPECT_EQ(code, 0) << serve.Log();
  EXPECT_LT(exited - signalled, std::chrono::milliseconds(grace_ms + 1000));
  EXPECT_EQ(http_status, 200) << http_body;
  EXPECT_NE(http_body.find("\"play\""), std::string::npos) << http_body;
  EXPECT_TRUE(grpc_status.ok()) << grpc_status.error_message();
  EXPECT_FALSE(grpc_answer.play().empty());
  std::cerr << "after SIGTERM (grace " << grace_ms << " ms): HTTP search answered at "
            << ms(http_done) << " ms, gRPC at " << ms(grpc_done) << " ms, exit " << code << " at "
            << ms(exited) << " ms\n";
  EXPECT_LT(http_done - signalled, std::chrono::milliseconds(grace_ms));
  EXPECT_LT(grpc_done - signalled, std::chrono::milliseconds(grace_ms));
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// Requests with invalid UTF-8 in a string field: each is refused, and the
// log gets at most ten lines a minute about them, not one each.
// A server whose log reader has gone (stderr a pipe closed after the first
// line, as a supervisor that died leaves it) keeps serving, and drains and
// exits 0 on SIGTERM, though it writes a line then: no SIGPIPE kills it.
TEST(Log, AServerWhoseLogReaderHasGoneServesOnAndExitsCleanly) {
  int err[2];
  ASSERT_EQ(pipe(err), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(err[1], 2);
    close(err[0]);
    close(err[1]);
    execl(UCKERS_BINARY, UCKERS_BINARY, "serve", "--address", "127.0.0.1:0", "--grace_ms", "200",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(err[1]);
  std::string line;
  for (char c; read(err[0], &c, 1) == 1 && c != '\n';) line += c;
  close(err[0]);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(line, m, std::regex(R"(\(port (\d+)\))"))) << line;
  auto channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", m[1].str()),
                                     grpc::InsecureChannelCredentials());
  auto stub = v1::Engine::NewStub(channel);
  v1::EngineInfo info;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  EXPECT_TRUE(stub->GetEngineInfo(&context, {}, &info).ok());
  kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
}

TEST(Log, LinesAboutBadClientInputAreRateLimited) {
  Fronts fronts;
  grpc::GenericStub stub(fronts.Channel());
  // GetStartPositionRequest { rules = "\xff\xfe" }, serialised by hand.
  std::string bad("\x0a\x02\xff\xfe", 4);
  std::string log = ::testing::TempDir() + "/stderr_" + std::to_string(getpid()) + ".txt";
  fflush(stderr);
  int saved = dup(2);
  int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(fd, 2);
  close(fd);
  int refused = 0;
  for (int i = 0; i < 200; ++i) {
    grpc::Status s = GenericCall(&stub, "/uckers.v1.Engine/GetStartPosition", bad);
    refused += !s.ok();
  }
  std::cerr << std::flush;
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  EXPECT_EQ(refused, 200);
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  int lines = 0;
  for (std::string line; std::getline(text, line);)
    lines += line.find("UTF-8") != std::string::npos;
  EXPECT_GE(lines, 1) << text.str().substr(0, 2000);
  EXPECT_LE(lines, 10) << text.str().substr(0, 2000);
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// A request header sent one byte at a time, never finished: a socket each.
std::vector<int> SlowClients(int port, int n) {
  std::vector<int> fds;
  for (int i = 0; i < n; ++i) {
    int fd = Connect(port);
    if (fd >= 0 && send(fd, "P", 1, MSG_NOSIGNAL) == 1) fds.push_back(fd);
  }
  return fds;
}

// 50 clients sending their headers slowly (three times the 16 threads
// started at once) do not stop a normal call: each connection gets a
// thread of its own.
TEST(SlowClients, FiftySlowSocketsDoNotStopTheHttpFront) {
  Fronts fronts;
  std::vector<int> slow = SlowClients(fronts.http_->port(), 50);
  ASSERT_EQ(slow.size(), 50u);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto client = fronts.Client();
  client->set_read_timeout(3, 0);
  auto start = Steady::now();
  httplib::Result r = client->Post("/uckers.v1.Engine/GetEngineInfo", "{}", "application/json");
  auto took = Steady::now() - start;
  for (int fd : slow) close(fd);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_LT(took, std::chrono::milliseconds(1000));
}

// A connection that has not finished its request headers within the idle
// timeout is closed.
TEST(SlowClients, AConnectionSlowerThanTheIdleTimeoutIsClosed) {
  Fronts fronts({}, 4 << 20, /*idle_timeout_ms=*/300);
  std::vector<int> slow = SlowClients(fronts.http_->port(), 1);
  ASSERT_EQ(slow.size(), 1u);
  auto start = Steady::now();
  bool closed = false;
  while (!closed && Steady::now() - start < std::chrono::seconds(3)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    send(slow[0], "O", 1, MSG_NOSIGNAL);  // a byte at a time, never the whole header
    char c;
    ssize_t n = recv(slow[0], &c, 1, MSG_DONTWAIT);
    closed = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
  }
  close(slow[0]);
  EXPECT_TRUE(closed);
  EXPECT_LT(Steady::now() - start, std::chrono::milliseconds(1500));
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// What the server answered (up to its end of stream, at most 10 s) while
// `send_all` sent on the same connection from a thread of its own.
std::string AnswerWhileSending(int port, const std::function<void(int fd)>& send_all) {
  int fd = Connect(port);
  if (fd < 0) return "";
  timeval tv{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::thread sender([&] { send_all(fd); });
  std::string answer;
  char buf[4096];
  auto end = Steady::now() + std::chrono::seconds(10);
  for (ssize_t n; Steady::now() < end && (n = recv(fd, buf, sizeof buf, 0)) > 0;) {
    answer.append(buf, n);
  }
  shutdown(fd, SHUT_RDWR);
  sender.join();
  close(fd);
  return answer;
}

// Sends `head`, then `filler` bytes of 'a' in pieces of 64 KiB, then `tail`.
std::function<void(int)> Sends(std::string head, size_t filler, std::string tail) {
  return [=](int fd) {
    if (send(fd, head.data(), head.size(), MSG_NOSIGNAL) <= 0) return;
    std::string piece(64 << 10, 'a');
    for (size_t sent = 0; sent < filler; sent += piece.size()) {
      size_t n = std::min(piece.size(), filler - sent);
      if (send(fd, piece.data(), n, MSG_NOSIGNAL) <= 0) return;
    }
    send(fd, tail.data(), tail.size(), MSG_NOSIGNAL);
  };
}

std::string StatusLine(const std::string& answer) { return answer.substr(0, answer.find('\r')); }

// 64 MiB of request line with no newline: refused at the line's cap with
// 414 and a Connect error, not buffered until the client stops.
TEST(RequestLimits, ARequestLineWithNoNewlineIsRefusedWith414AtTheCap) {
  Fronts fronts;
  auto start = Steady::now();
  std::string answer =
      AnswerWhileSending(fronts.http_->port(), Sends("GET /", size_t{64} << 20, ""));
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 414 URI Too Long") << answer.substr(0, 300);
  EXPECT_NE(answer.find(R"({"code":"resource_exhausted")"), std::string::npos);
  EXPECT_NE(answer.find("--http_max_line_bytes"), std::string::npos);
  EXPECT_LT(Steady::now() - start, std::chrono::seconds(3));
  // The front still serves.
  httplib::Result r = fronts.Client()->Get("/index.html");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

TEST(RequestLimits, AHeaderLongerThanTheCapIsRefusedWith431) {
  Fronts fronts;
  std::string answer = AnswerWhileSending(
      fronts.http_->port(),
      Sends("GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ", 100000, "\r\n\r\n"));
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 431 Request Header Fields Too Large")
      << answer.substr(0, 300);
  EXPECT_NE(answer.find(R"({"code":"resource_exhausted")"), std::string::npos);
}

std::string Headers(int n, size_t value_bytes) {
  std::string out;
  for (int i = 0; i < n; ++i)
    absl::StrAppend(&out, "X-H", i, ": ", std::string(value_bytes, 'v'), "\r\n");
  return out;
}

// 40,000 headers are refused with 431; 100 (the cap, Host among them)
// are served.
TEST(RequestLimits, MoreHeadersThanTheCapAreRefusedWith431) {
  Fronts fronts;
  const std::string get = "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  std::string many =
      AnswerWhileSending(fronts.http_->port(), Sends(get + Headers(40000, 90), 0, "\r\n"));
  EXPECT_EQ(StatusLine(many), "HTTP/1.1 431 Request Header Fields Too Large")
      << many.substr(0, 300);
  EXPECT_NE(many.find("--http_max_headers"), std::string::npos);
  // Host, 98 others and Connection: 100.
  std::string at_cap = AnswerWhileSending(
      fronts.http_->port(), Sends(get + Headers(98, 10) + "Connection: close\r\n", 0, "\r\n"));
  EXPECT_EQ(StatusLine(at_cap), "HTTP/1.1 200 OK") << at_cap.substr(0, 300);
}

// Headers within the line and count caps but over the total cap: 431.
TEST(RequestLimits, HeadersOverTheTotalCapAreRefusedWith431) {
  Fronts fronts;
  std::string answer = AnswerWhileSending(
      fronts.http_->port(),
      Sends("GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n" + Headers(60, 2000), 0, "\r\n"));
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 431 Request Header Fields Too Large")
      << answer.substr(0, 300);
  EXPECT_NE(answer.find("--http_max_header_bytes"), std::string::npos);
}

// Sends a request's headers and then its body a byte every 200 ms (at
// most 6 s); true when the server answered 408 and closed.
bool TrickleBody(int port) {
  int fd = Connect(port);
  if (fd < 0) return false;
  std::string head =
      "POST /uckers.v1.Engine/GetEngineInfo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
  send(fd, head.data(), head.size(), MSG_NOSIGNAL);
  std::string answer;
  auto end = Steady::now() + std::chrono::seconds(6);
  bool closed = false;
  while (!closed && Steady::now() < end) {
    send(fd, " ", 1, MSG_NOSIGNAL);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    char buf[1024];
    for (ssize_t n;;) {
      n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n > 0) {
        answer.append(buf, n);
        continue;
      }
      closed = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
      break;
    }
  }
  close(fd);
  return closed && answer.rfind("HTTP/1.1 408", 0) == 0;
}

// Eight bodies trickled a byte every 200 ms (within the read timeout) on a
// front of 4 threads and at most 8 connections: each is cut at the
// request timeout with 408, and a normal GET is served meanwhile.
TEST(RequestLimits, SlowBodiesAreCutAtTheRequestTimeoutAndDoNotStopTheFront) {
  ConnectConfig http;
  http.threads = 4;
  http.max_connections = 8;
  http.request_timeout_ms = 1000;
  Fronts fronts({}, http);
  std::vector<std::thread> slow;
  std::atomic<int> cut{0};
  for (int i = 0; i < 8; ++i) {
    slow.emplace_back([&] { cut += TrickleBody(fronts.http_->port()); });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto client = fronts.Client();
  client->set_read_timeout(4, 0);
  auto start = Steady::now();
  httplib::Result r = client->Get("/index.html");
  auto took = Steady::now() - start;
  for (std::thread& t : slow) t.join();
  ASSERT_TRUE(r) << "no answer in 4 s";
  EXPECT_EQ(r->status, 200);
  EXPECT_LT(took, std::chrono::milliseconds(3000));
  EXPECT_EQ(cut, 8);
}

// With the default limits (a 30 s deadline), bodies trickled a byte every
// 200 ms are cut by the minimum rate within seconds, and a normal GET is
// served meanwhile.
TEST(RequestLimits, SlowBodiesAreCutByTheMinimumRate) {
  ConnectConfig http;
  http.threads = 4;
  http.max_connections = 8;
  Fronts fronts({}, http);
  std::vector<std::thread> slow;
  std::atomic<int> cut{0};
  for (int i = 0; i < 8; ++i) {
    slow.emplace_back([&] { cut += TrickleBody(fronts.http_->port()); });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto client = fronts.Client();
  client->set_read_timeout(5, 0);
  auto start = Steady::now();
  httplib::Result r = client->Get("/index.html");
  auto took = Steady::now() - start;
  for (std::thread& t : slow) t.join();
  ASSERT_TRUE(r) << "no answer in 5 s";
  EXPECT_EQ(r->status, 200);
  EXPECT_LT(took, std::chrono::milliseconds(4000));
  EXPECT_EQ(cut, 8);
}

// A body that takes longer than the rate's grace but comes faster than
// the minimum rate is served.
TEST(RequestLimits, ABodyFasterThanTheMinimumRateIsServedHoweverLong) {
  Fronts fronts;
  std::string answer = AnswerWhileSending(fronts.http_->port(), [](int fd) {
    const size_t pad = 12000;
    std::string head = absl::StrCat(
        "POST /uckers.v1.Engine/GetEngineInfo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nConnection: close\r\nContent-Length: ",
        pad + 2, "\r\n\r\n{");
    send(fd, head.data(), head.size(), MSG_NOSIGNAL);
    for (size_t sent = 0; sent < pad; sent += 400) {  // 4,000 bytes a second for 3 s
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (send(fd, std::string(400, ' ').data(), 400, MSG_NOSIGNAL) <= 0) return;
    }
    send(fd, "}", 1, MSG_NOSIGNAL);
  });
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 200 OK") << answer.substr(0, 300);
}

// Request headers trickled within the idle timeout are cut at the request
// timeout with 408.
TEST(RequestLimits, SlowHeadersAreCutAtTheRequestTimeout) {
  ConnectConfig http;
  http.request_timeout_ms = 500;
  Fronts fronts({}, http);
  auto start = Steady::now();
  std::string answer = AnswerWhileSending(fronts.http_->port(), [](int fd) {
    std::string head = "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    send(fd, head.data(), head.size(), MSG_NOSIGNAL);
    for (int i = 0; i < 30; ++i) {
      if (send(fd, "X", 1, MSG_NOSIGNAL) <= 0) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 408 Request Timeout") << answer.substr(0, 300);
  EXPECT_NE(answer.find(R"({"code":"deadline_exceeded")"), std::string::npos);
  EXPECT_LT(Steady::now() - start, std::chrono::milliseconds(2000));
}

// --http_web serves only the board's own file names, and no link: a key
// placed in the folder, a link to /etc/passwd under a board file's name
// and a link to a board file are all 404.
TEST(WebFiles, OnlyTheBoardsOwnFilesAreServedAndNoLink) {
  fs::path dir = fs::path(::testing::TempDir()) / absl::StrCat("web_", getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "index.html") << "<p>board</p>";
  std::ofstream(dir / "app.js") << "// app";
  std::ofstream(dir / "dealer.key") << "00112233";
  std::ofstream(dir / "notes.txt") << "private";
  fs::create_symlink("/etc/passwd", dir / "style.css");
  fs::create_symlink(dir / "app.js", dir / "board.js");
  ConnectConfig http;
  http.web_dir = dir.string();
  Fronts fronts({}, http);
  auto client = fronts.Client();
  for (const char* path : {"/index.html", "/", "/app.js"}) {
    httplib::Result r = client->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 200) << path;
  }
  for (const char* path : {"/dealer.key", "/notes.txt", "/style.css", "/board.js"}) {
    httplib::Result r = client->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 404) << path;
    EXPECT_EQ(r->body.find("root:"), std::string::npos) << path;
    EXPECT_EQ(r->body.find("00112233"), std::string::npos) << path;
  }
  fs::remove_all(dir);
}

// A name that is not the server's (what a page using DNS rebinding sends)
// gets 421; IP literals, localhost and the names allowed are served; a
// request with no Host gets 400.
TEST(Host, OnlyTheServersOwnNamesAreServed) {
  ConnectConfig http;
  http.allowed_hosts = {"uckers.example"};
  Fronts fronts({}, http);
  auto client = fronts.Client();
  auto status = [&](const std::string& host) {
    httplib::Result r = client->Get("/index.html", {{"Host", host}});
    return r ? r->status : -1;
  };
  EXPECT_EQ(status("evil.example"), 421);
  EXPECT_EQ(status("evil.example:8080"), 421);
  EXPECT_EQ(status("127.0.0.1.evil.example"), 421);
  EXPECT_EQ(status("uckers.example.evil"), 421);
  EXPECT_EQ(status(absl::StrCat("127.0.0.1:", fronts.http_->port())), 200);
  EXPECT_EQ(status("localhost:8080"), 200);
  EXPECT_EQ(status("[::1]:8080"), 200);
  EXPECT_EQ(status("10.1.2.3"), 200);
  EXPECT_EQ(status("UCKERS.example:443"), 200);
  httplib::Result post = client->Post("/uckers.v1.Engine/GetEngineInfo", {{"Host", "evil.example"}},
                                      "{}", "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 421);
  EXPECT_NE(post->body.find("--http_allowed_hosts"), std::string::npos) << post->body;
  std::string none =
      AnswerWhileSending(fronts.http_->port(), Sends("GET /index.html HTTP/1.0\r\n\r\n", 0, ""));
  EXPECT_EQ(StatusLine(none), "HTTP/1.1 400 Bad Request") << none.substr(0, 300);
}

TEST(Host, TheBoardsPagesAreNeitherFramedNorSniffed) {
  Fronts fronts;
  for (const char* path : {"/", "/practice.html", "/app.js"}) {
    httplib::Result r = fronts.Client()->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 200) << path;
    EXPECT_NE(r->get_header_value("Content-Security-Policy").find("frame-ancestors 'none'"),
              std::string::npos)
        << path;
    EXPECT_NE(r->get_header_value("Content-Security-Policy").find("default-src 'self'"),
              std::string::npos)
        << path;
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff") << path;
    EXPECT_EQ(r->get_header_value("X-Frame-Options"), "DENY") << path;
  }
}

// Framing that two readers could read otherwise (request smuggling behind
// a proxy) is refused with 400, and the connection closed.
TEST(Framing, AmbiguousLengthsAreRefusedWith400) {
  Fronts fronts;
  const std::string post =
      "POST /uckers.v1.Engine/GetEngineInfo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Content-Type: application/json\r\n";
  const struct {
    const char* what;
    std::string request;
    const char* status;
  } cases[] = {
      {"two lengths", post + "Content-Length: 2\r\nContent-Length: 30\r\n\r\n{}", "400"},
      {"the same length twice", post + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "400"},
      {"length and chunked",
       post + "Content-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", "400"},
      {"a coding besides chunked",
       post + "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", "400"},
      {"a signed length", post + "Content-Length: +2\r\n\r\n{}", "400"},
      {"a GET with a body",
       "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nGET /", "400"},
      {"a body of no length", post + "Connection: close\r\n\r\n{}", "411"},
      {"one length", post + "Content-Length: 2\r\nConnection: close\r\n\r\n{}", "200"},
      {"chunked",
       post + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n", "200"},
  };
  for (const auto& c : cases) {
    std::string answer = AnswerWhileSending(fronts.http_->port(), Sends(c.request, 0, ""));
    EXPECT_EQ(StatusLine(answer).substr(0, 12), absl::StrCat("HTTP/1.1 ", c.status))
        << c.what << ": " << answer.substr(0, 300);
    if (std::string(c.status) != "200") {
      EXPECT_NE(answer.find("Connection: close"), std::string::npos) << c.what;
      EXPECT_NE(answer.find("request framing"), std::string::npos) << c.what;
    }
  }
}

// A client address holding its most connections gets 429 for another,
// and is served again once one of them closes.
TEST(PerAddress, ConnectionsPastTheAddressCapGet429) {
  ConnectConfig http;
  http.max_connections_per_address = 2;
  Fronts fronts({}, http);
  std::vector<int> held = SlowClients(fronts.http_->port(), 2);
  ASSERT_EQ(held.size(), 2u);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::string refused = AnswerWhileSending(
      fronts.http_->port(),
      Sends("GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 0, ""));
  EXPECT_EQ(StatusLine(refused), "HTTP/1.1 429 Too Many Requests") << refused.substr(0, 300);
  EXPECT_NE(refused.find("--http_max_connections_per_address"), std::string::npos);
  close(held[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  httplib::Result r = fronts.Client()->Get("/index.html");
  close(held[1]);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

// One address cannot fill the dealt games' store: past its share, over
// either front, StartDealtGame is refused (429 over HTTP); the games it
// holds are counted over both fronts alike.
TEST(PerAddress, DealtGamesPastTheAddressCapAreRefusedOnBothFronts) {
  ServiceLimits limits;
  limits.dealt_games.max_games_per_client = 3;
  Fronts fronts(limits, ConnectConfig{});
  auto client = fronts.Client();
  for (int i = 0; i < 2; ++i) {
    httplib::Result r = client->Post("/uckers.v1.Engine/StartDealtGame", "{}", "application/json");
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
  }
  auto stub = v1::Engine::NewStub(fronts.Channel());
  v1::StartDealtGameResponse started;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub->StartDealtGame(&context, {}, &started).ok());
  }
  grpc::ClientContext context;
  grpc::Status refused = stub->StartDealtGame(&context, {}, &started);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(refused.error_message().find("this client holds 3 games already"), std::string::npos)
      << refused.error_message();
  httplib::Result r = client->Post("/uckers.v1.Engine/StartDealtGame", "{}", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 429) << r->body;
  EXPECT_NE(r->body.find("this client holds 3 games already"), std::string::npos) << r->body;
}

constexpr char kSearchFor800Ms[] = R"({"position":{"ufen":"startpos"},"throw":{"die1":6,"die2":3},)"
                                   R"("limits":{"depth":12,"movetimeMs":800}})";

// One address cannot hold every search slot: past its share its searches
// get 429; other calls are still served, and its searches again once its
// search ends.
TEST(PerAddress, SearchesPastTheAddressCapGet429) {
  ConnectConfig http;
  http.max_searches_per_address = 1;
  Fronts fronts({}, http);
  std::thread first([&] {
    fronts.Client()->Post("/uckers.v1.Engine/BestMove", {{"Connect-Timeout-Ms", "1500"}},
                          kLongSearch, "application/json");
  });
  for (int i = 0; i < 200 && fronts.grpc_->api().active_searches() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(fronts.grpc_->api().active_searches(), 1);
  auto client = fronts.Client();
  httplib::Result second =
      client->Post("/uckers.v1.Engine/BestMove", kSearchFor800Ms, "application/json");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, 429) << second->body;
  EXPECT_NE(second->body.find(R"("code":"resource_exhausted")"), std::string::npos);
  EXPECT_NE(second->body.find("--http_max_searches_per_address"), std::string::npos);
  httplib::Result cheap = client->Post("/uckers.v1.Engine/GetEngineInfo", "{}", "application/json");
  ASSERT_TRUE(cheap);
  EXPECT_EQ(cheap->status, 200);
  first.join();
  httplib::Result again =
      client->Post("/uckers.v1.Engine/BestMove",
                   R"({"position":{"ufen":"startpos"},"throw":{"die1":6,"die2":3},)"
                   R"("limits":{"depth":1}})",
                   "application/json");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200) << again->body;
}

// An anonymous search asking for 20 s is answered with its best play by
// the cap; a call bearing the search token is neither capped nor counted.
TEST(PerAddress, AnAnonymousSearchIsCutToTheCapAndATokenLiftsIt) {
  ConnectConfig http;
  http.max_search_ms = 400;
  http.max_searches_per_address = 1;
  http.search_token = "0123456789abcdef-token";
  Fronts fronts({}, http);
  auto client = fronts.Client();
  auto start = Steady::now();
  httplib::Result capped =
      client->Post("/uckers.v1.Engine/BestMove", kLongSearch, "application/json");
  auto took = Steady::now() - start;
  ASSERT_TRUE(capped);
  EXPECT_EQ(capped->status, 200) << capped->body;
  EXPECT_NE(capped->body.find("\"play\""), std::string::npos) << capped->body;
  EXPECT_LT(took, std::chrono::milliseconds(2000));
  std::thread anonymous([&] {
    fronts.Client()->Post("/uckers.v1.Engine/BestMove", kLongSearch, "application/json");
  });
  for (int i = 0; i < 200 && fronts.grpc_->api().active_searches() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  start = Steady::now();
  httplib::Result bearer = client->Post("/uckers.v1.Engine/BestMove",
                                        {{"Authorization", "Bearer 0123456789abcdef-token"}},
                                        kSearchFor800Ms, "application/json");
  took = Steady::now() - start;
  anonymous.join();
  ASSERT_TRUE(bearer);
  EXPECT_EQ(bearer->status, 200) << bearer->body;
  EXPECT_GT(took, std::chrono::milliseconds(600));
  httplib::Result wrong = client->Post("/uckers.v1.Engine/BestMove",
                                       {{"Authorization", "Bearer 0123456789abcdef-tokeX"}},
                                       kSearchFor800Ms, "application/json");
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 200) << wrong->body;  // alone again, and capped
}

// /metrics can be taken off the public port and served on a listener of
// its own that serves nothing else.
TEST(Metrics, CanBeServedApartFromTheFrontOrNotAtAll) {
  ConnectConfig http;
  http.metrics_on_front = false;
  http.metrics_address = "127.0.0.1:0";
  Fronts fronts({}, http);
  httplib::Result front = fronts.Client()->Get("/metrics");
  ASSERT_TRUE(front);
  EXPECT_EQ(front->status, 404);
  ASSERT_GT(fronts.http_->metrics_port(), 0);
  httplib::Client apart("127.0.0.1", fronts.http_->metrics_port());
  httplib::Result metrics = apart.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  EXPECT_NE(metrics->body.find("uckers_requests_total"), std::string::npos);
  httplib::Result board = apart.Get("/index.html");
  ASSERT_TRUE(board);
  EXPECT_EQ(board->status, 404);
}

// Reflection answers unless turned off.
TEST(Reflection, CanBeTurnedOff) {
  for (bool on : {true, false}) {
    ServerConfig config;
    config.address = "127.0.0.1:0";
    config.reflection = on;
    auto server = Server::Start(config);
    ASSERT_TRUE(server.ok()) << server.status();
    grpc::GenericStub stub(grpc::CreateChannel(absl::StrCat("127.0.0.1:", (*server)->port()),
                                               grpc::InsecureChannelCredentials()));
    // ServerReflectionRequest { list_services: "" }
    grpc::Status s =
        GenericCall(&stub, "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                    std::string("\x3a\x00", 2));
    EXPECT_EQ(s.error_code() == grpc::StatusCode::UNIMPLEMENTED, !on)
        << on << ": " << s.error_code() << " " << s.error_message();
    (*server)->Shutdown();
  }
}

}  // namespace
}  // namespace uckers::testing
