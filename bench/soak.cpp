// A soak of both fronts: starts `uckers serve` (gRPC and Connect on
// loopback, a dealer key of its own) and drives mixed traffic at it for
// --seconds: cheap calls over both fronts, searches of every level and
// layout (a walk through real games, each searched play checked against the
// legal plays and its position against ListLegalPlays'), the tutor's calls,
// Analyse streams cancelled after their first message, dealt games (each
// throw checked against the dice the key's secret derives, the commitment
// against the secret), and hostile clients: slowloris headers, trickled
// bodies, bodies over the cap on both fronts. Prints the server's RSS,
// threads and open fds after the warm-up and at the end, the calls by kind,
// the expected refusals and the errors by code; exits 1 on any unexpected
// answer or a server that does not exit cleanly on SIGTERM.
//
//   build/bench/soak --seconds 3600
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "dealer/dealer.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/create_channel.h"
#include "httplib.h"
#include "uckers/v1/engine.grpc.pb.h"

ABSL_FLAG(double, seconds, 60, "how long the traffic runs");
ABSL_FLAG(double, warmup, -1, "seconds before the first figures (default: a sixth, at most 60)");
ABSL_FLAG(int, clients, 6, "concurrent clients");
ABSL_FLAG(std::string, uckers, "", "the uckers binary (default: ../uckers beside this program)");

namespace {

using Clock = std::chrono::steady_clock;
namespace v1 = uckers::v1;
namespace dealer = uckers::dealer;

const char* const kLayouts[] = {"navy",     "navy+solo", "six", "six+teams_of_three",
                                "six+solo", "wafu",      "mess"};
const char* const kLevels[] = {"beginner", "casual",      "intermediate", "advanced",
                               "expert",   "grandmaster", "classic"};
constexpr int64_t kRequestTimeoutMs = 3000;  // the server's --http_request_timeout_ms

// What the soak counts: calls by kind, expected refusals and unexpected
// errors by kind and code, and the first failures in full.
class Tally {
 public:
  void Call(const std::string& kind) { Add(&calls_, kind); }
  void Refused(const std::string& kind, const std::string& code) {
    Add(&refused_, kind + " " + code);
  }
  void Error(const std::string& kind, const std::string& code, const std::string& what) {
    std::lock_guard<std::mutex> lock(mu_);
    ++errors_[kind + " " + code];
    if (failures_.size() < 20) failures_.push_back(kind + " " + code + ": " + what);
  }
  int64_t calls(const std::string& kind) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = calls_.find(kind);
    return it == calls_.end() ? 0 : it->second;
  }
  int64_t errors() const {
    std::lock_guard<std::mutex> lock(mu_);
    int64_t n = 0;
    for (const auto& [k, v] : errors_) n += v;
    return n;
  }
  void Print() const {
    std::lock_guard<std::mutex> lock(mu_);
    auto table = [](const char* title, const std::map<std::string, int64_t>& m) {
      int64_t total = 0;
      for (const auto& [k, v] : m) total += v;
      std::printf("%s: %lld\n", title, static_cast<long long>(total));
      for (const auto& [k, v] : m) std::printf("  %-40s %10lld\n", k.c_str(), (long long)v);
    };
    table("calls by kind", calls_);
    table("expected refusals by kind and code", refused_);
    table("errors by kind and code", errors_);
    for (const auto& f : failures_) std::printf("  failure: %s\n", f.c_str());
  }

 private:
  void Add(std::map<std::string, int64_t>* m, const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    ++(*m)[key];
  }
  mutable std::mutex mu_;
  std::map<std::string, int64_t> calls_, refused_, errors_;
  std::vector<std::string> failures_;
};

struct Server {
  pid_t pid = -1;
  int grpc_port = 0, http_port = 0;
  dealer::Key key{};
  std::thread drain;  // reads the server's log so that it never blocks
  std::atomic<int64_t> log_lines{0};
};

std::string UckersBinary() {
  std::string flag = absl::GetFlag(FLAGS_uckers);
  if (!flag.empty()) return flag;
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "uckers" : (self.parent_path().parent_path() / "uckers").string();
}

int PortIn(const std::string& line) {
  size_t at = line.find("(port ");
  int port = 0;
  if (at == std::string::npos) return 0;
  (void)absl::SimpleAtoi(line.substr(at + 6, line.find(')', at) - at - 6), &port);
  return port;
}

// Starts `uckers serve` on both fronts with ports the system picks, a key
// written to `dir`, and reads the ports it reports.
bool StartServer(const std::string& dir, Server* s) {
  s->key = *dealer::NewKey();
  std::string key_file = dir + "/dealer.key";
  std::ofstream(key_file) << dealer::ToHex(s->key.data(), s->key.size()) << "\n";
  // Readable by its owner only: the server refuses a key others may read.
  std::filesystem::permissions(
      key_file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  int err[2];
  if (pipe(err) != 0) return false;
  s->pid = fork();
  if (s->pid == 0) {
    dup2(err[1], STDERR_FILENO);
    close(err[0]);
    close(err[1]);
    std::string uckers = UckersBinary(), timeout = std::to_string(kRequestTimeoutMs);
    execl(uckers.c_str(), uckers.c_str(), "serve", "--address", "127.0.0.1:0", "--http",
          "127.0.0.1:0", "--max_searches", "16", "--dealer_key_file", key_file.c_str(),
          "--http_request_timeout_ms", timeout.c_str(), "--max_movetime_ms", "5000",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(err[1]);
  FILE* log = fdopen(err[0], "r");
  char buf[4096];
  while ((s->grpc_port == 0 || s->http_port == 0) && std::fgets(buf, sizeof buf, log)) {
    std::string line = buf;
    if (line.find("Connect (HTTP/JSON)") != std::string::npos) s->http_port = PortIn(line);
    if (line.find("listening on") != std::string::npos) s->grpc_port = PortIn(line);
  }
  s->drain = std::thread([log, s] {
    char b[4096];
    while (std::fgets(b, sizeof b, log)) ++s->log_lines;
    std::fclose(log);
  });
  return s->grpc_port > 0 && s->http_port > 0;
}

struct Figures {
  int64_t rss_kb = 0, threads = 0, fds = 0;
};

Figures Measure(pid_t pid) {
  Figures f;
  std::ifstream status(absl::StrCat("/proc/", pid, "/status"));
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") status >> f.rss_kb;
    if (key == "Threads:") status >> f.threads;
  }
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(absl::StrCat("/proc/", pid, "/fd"), ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++f.fds;
  }
  return f;
}

void PrintFigures(const char* when, const Figures& f) {
  std::printf("%-28s RSS %7.1f MiB  threads %4lld  fds %4lld\n", when, f.rss_kb / 1024.0,
              static_cast<long long>(f.threads), static_cast<long long>(f.fds));
  std::fflush(stdout);
}

std::string CodeName(const grpc::Status& s) {
  static const char* const names[] = {"OK",
                                      "CANCELLED",
                                      "UNKNOWN",
                                      "INVALID_ARGUMENT",
                                      "DEADLINE_EXCEEDED",
                                      "NOT_FOUND",
                                      "ALREADY_EXISTS",
                                      "PERMISSION_DENIED",
                                      "RESOURCE_EXHAUSTED",
                                      "FAILED_PRECONDITION",
                                      "ABORTED",
                                      "OUT_OF_RANGE",
                                      "UNIMPLEMENTED",
                                      "INTERNAL",
                                      "UNAVAILABLE",
                                      "DATA_LOSS",
                                      "UNAUTHENTICATED"};
  int c = s.error_code();
  return c >= 0 && c <= 16 ? names[c] : absl::StrCat("code ", c);
}

// A TCP connection to the Connect port, or -1.
int Dial(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// What the server sends until it closes or `ms` pass; `closed` (if given)
// is set when it closed (an end of stream or a reset).
std::string ReadUntilClosed(int fd, int64_t ms, bool* closed = nullptr) {
  std::string out;
  auto end = Clock::now() + std::chrono::milliseconds(ms);
  char buf[4096];
  while (Clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    int left = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count());
    if (poll(&p, 1, std::max(left, 1)) <= 0) break;
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      if (closed) *closed = true;
      break;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

// One client of the soak: a game walk of its own on each front and a
// connection to each.
class Client {
 public:
  Client(const Server& server, std::shared_ptr<grpc::Channel> channel, Tally* tally, int seed)
      : server_(server),
        stub_(v1::Engine::NewStub(channel)),
        http_("127.0.0.1", server.http_port),
        tally_(tally),
        rng_(seed) {
    http_.set_keep_alive(true);
    http_.set_read_timeout(30, 0);
  }

  void Step() {
    int r = Pick(100);
    if (r < 25) return GrpcCheap();
    if (r < 50) return ConnectCheap();
    if (r < 62) return Search(false);
    if (r < 72) return Search(true);
    if (r < 76) return Tutor();
    if (r < 81) return GrpcAnalyseCancelled();
    if (r < 85) return ConnectAnalyseCancelled();
    if (r < 92) return Dealt(Pick(2) == 0);
    if (r < 95) return Oversized(Pick(2) == 0);
    return Slow(Pick(2) == 0);
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  v1::Throw RandomThrow() {
    v1::Throw t;
    t.set_die1(1 + Pick(6));
    t.set_die2(1 + Pick(6));
    return t;
  }
  std::unique_ptr<grpc::ClientContext> Context(int64_t ms) {
    auto c = std::make_unique<grpc::ClientContext>();
    c->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(ms));
    return c;
  }
  // Every search slot taken (a cancelled stream's slot is given back when
  // its search has stopped): an expected refusal, counted and bounded at
  // the end.
  bool Busy(const std::string& kind, const std::string& code) {
    tally_->Refused(kind, code);
    tally_->Call("(searching calls refused: every slot taken)");
    return false;
  }
  bool Check(const std::string& kind, const grpc::Status& s) {
    if (s.ok()) return true;
    if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) return Busy(kind, CodeName(s));
    tally_->Error(kind, CodeName(s), s.error_message());
    return false;
  }
  bool Fail(const std::string& kind, const std::string& what) {
    tally_->Error(kind, "CHECK", what);
    return false;
  }

  // A Connect unary call in JSON: the answer parsed, or an error counted.
  template <typename Resp>
  bool Connect(const std::string& kind, const std::string& method,
               const google::protobuf::Message& request, Resp* response,
               const httplib::Headers& headers = {}) {
    std::string body;
    (void)google::protobuf::util::MessageToJsonString(request, &body);
    const std::string path = absl::StrCat("/uckers.v1.Engine/", method);
    auto res = http_.Post(path.c_str(), headers, body, "application/json");
    if (!res && (res.error() == httplib::Error::Read || res.error() == httplib::Error::Write)) {
      // The server closed the kept-alive connection as the request went
      // out (its idle timeout): a client sends it again on a new one.
      tally_->Refused(kind, "resent (kept-alive connection closed)");
      res = http_.Post(path.c_str(), headers, body, "application/json");
    }
    if (!res) return Fail(kind, absl::StrCat(method, ": no answer (", to_string(res.error()), ")"));
    if (res->status == 429) return Busy(kind, "HTTP 429");
    if (res->status != 200) {
      tally_->Error(kind, absl::StrCat("HTTP ", res->status), method + ": " + res->body);
      return false;
    }
    google::protobuf::util::JsonParseOptions options;
    if (!google::protobuf::util::JsonStringToMessage(res->body, response, options).ok()) {
      return Fail(kind, method + ": an answer that does not parse: " + res->body);
    }
    return true;
  }

  void GrpcCheap() {
    const std::string kind = "grpc.cheap";
    tally_->Call(kind);
    switch (Pick(4)) {
      case 0: {
        v1::GetEngineInfoRequest q;
        v1::EngineInfo a;
        if (Check(kind, stub_->GetEngineInfo(Context(5000).get(), q, &a)) && a.levels_size() == 0)
          Fail(kind, "GetEngineInfo: no levels");
        break;
      }
      case 1: {
        v1::RollDiceRequest q;
        q.set_seed(Pick(1000));
        q.set_count(5);
        v1::RollDiceResponse a;
        if (Check(kind, stub_->RollDice(Context(5000).get(), q, &a)) && a.throws_size() != 5)
          Fail(kind, "RollDice: not 5 throws");
        break;
      }
      default: {
        Walk& w = walks_[0];
        v1::ListLegalPlaysResponse plays;
        if (!Legal(false, w, RandomThrow(), &plays)) return;
        break;
      }
    }
  }

  void ConnectCheap() {
    const std::string kind = "connect.cheap";
    tally_->Call(kind);
    switch (Pick(4)) {
      case 0: {
        v1::EngineInfo a;
        if (Connect(kind, "GetEngineInfo", v1::GetEngineInfoRequest(), &a) && a.levels_size() == 0)
          Fail(kind, "GetEngineInfo: no levels");
        break;
      }
      case 1: {
        v1::GetStartPositionRequest q;
        q.set_rules(kLayouts[Pick(std::size(kLayouts))]);
        v1::GetStartPositionResponse a;
        if (Connect(kind, "GetStartPosition", q, &a) && a.position().ufen().empty())
          Fail(kind, "GetStartPosition: no position");
        break;
      }
      default: {
        v1::ListLegalPlaysResponse plays;
        (void)Legal(true, walks_[1], RandomThrow(), &plays);
        break;
      }
    }
  }

  // A game being walked through on one layout: `layout`'s, or one drawn
  // at each new game when it is empty.
  struct Walk {
    std::string rules, ufen, layout;
  };
  bool Start(bool connect, Walk* w) {
    v1::GetStartPositionRequest q;
    q.set_rules(w->layout.empty() ? kLayouts[Pick(std::size(kLayouts))] : w->layout);
    v1::GetStartPositionResponse a;
    bool ok = connect ? Connect("walk", "GetStartPosition", q, &a)
                      : Check("walk", stub_->GetStartPosition(Context(5000).get(), q, &a));
    if (!ok) return false;
    w->rules = a.rules();
    w->ufen = a.position().ufen();
    return true;
  }
  bool Legal(bool connect, Walk& w, const v1::Throw& dice, v1::ListLegalPlaysResponse* plays) {
    if (w.ufen.empty() && !Start(connect, &w)) return false;
    v1::ListLegalPlaysRequest q;
    q.mutable_position()->set_ufen(w.ufen);
    *q.mutable_throw_() = dice;
    q.set_rules(w.rules);
    return connect ? Connect("walk", "ListLegalPlays", q, plays)
                   : Check("walk", stub_->ListLegalPlays(Context(5000).get(), q, plays));
  }

  // BestMove at a random level (and now and then by MCTS or rollouts) on
  // the walk's layout: the play must be one of the legal plays and its
  // position the one ListLegalPlays gives; the walk goes on from it.
  void Search(bool connect) {
    const std::string kind = connect ? "connect.search" : "grpc.search";
    Walk& w = walks_[connect ? 3 : 2];
    v1::Throw dice = RandomThrow();
    v1::ListLegalPlaysResponse plays;
    if (!Legal(connect, w, dice, &plays)) return;
    if (plays.plays_size() == 0) {  // the game is over: a new one
      w.ufen.clear();
      return;
    }
    v1::BestMoveRequest q;
    q.mutable_position()->set_ufen(w.ufen);
    *q.mutable_throw_() = dice;
    q.set_rules(w.rules);
    std::string level = kLevels[Pick(std::size(kLevels))];
    q.mutable_options()->set_level(level);
    // Rollouts are for the four-sided game of two teams only.
    bool two_sides = w.rules.find("solo") == std::string::npos &&
                     w.rules.find("six_sided") == std::string::npos && w.rules.rfind("six", 0) != 0;
    int a = Pick(10);
    q.mutable_options()->set_algorithm(a == 0                ? v1::ALGORITHM_MCTS
                                       : a == 1 && two_sides ? v1::ALGORITHM_ROLLOUT
                                                             : v1::ALGORITHM_UNSPECIFIED);
    q.mutable_limits()->set_movetime_ms(50 + Pick(250));
    tally_->Call(kind);
    tally_->Call(absl::StrCat(kind, " ", level));
    tally_->Call(absl::StrCat(kind, " ", w.rules));
    v1::BestMoveResponse best;
    const std::string what =
        absl::StrCat(" (", w.rules, ", ", level, ", algorithm ", q.options().algorithm(), ")");
    if (connect) {
      if (!Connect(kind + what, "BestMove", q, &best)) return;
    } else if (grpc::Status st = stub_->BestMove(Context(20000).get(), q, &best); !st.ok()) {
      if (st.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
        return (void)Busy(kind, CodeName(st));
      }
      return tally_->Error(kind, CodeName(st), st.error_message() + what);
    }
    for (const v1::PlayOutcome& p : plays.plays()) {
      if (p.play() != best.play()) continue;
      if (p.position_after().ufen() != best.position_after().ufen()) {
        Fail(kind, "BestMove's position after " + best.play() + " differs from ListLegalPlays'");
      }
      w.ufen = p.position_after().ufen();
      return;
    }
    Fail(kind, absl::StrCat("BestMove played ", best.play(), ", not a legal play, in ", w.ufen,
                            " (", w.rules, ")"));
    w.ufen.clear();
  }

  // The tutor's calls on the four-sided game of two teams: a judgement of a
  // legal play and a throw map.
  void Tutor() {
    const std::string kind = "grpc.tutor";
    Walk& w = walks_[4];
    w.layout = "navy";
    v1::Throw dice = RandomThrow();
    v1::ListLegalPlaysResponse plays;
    if (!Legal(false, w, dice, &plays) || plays.plays_size() == 0) {
      w.ufen.clear();
      return;
    }
    tally_->Call(kind);
    const v1::PlayOutcome& play = plays.plays(Pick(plays.plays_size()));
    v1::JudgePlayRequest j;
    j.mutable_position()->set_ufen(w.ufen);
    *j.mutable_throw_() = dice;
    j.set_play(play.play());
    j.set_level("beginner");
    v1::JudgePlayResponse judged;
    if (Check(kind, stub_->JudgePlay(Context(20000).get(), j, &judged)) &&
        (judged.play() != play.play() || judged.equity_lost() < -1e-9)) {
      Fail(kind, "JudgePlay judged " + judged.play() + " for " + play.play());
    }
    v1::ThrowMapRequest m;
    m.mutable_position()->set_ufen(play.position_after().ufen());
    m.set_level("beginner");
    v1::ThrowMapResponse map;
    auto c = Context(20000);
    grpc::Status s = stub_->ThrowMap(c.get(), m, &map);
    if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT) {  // a finished game
      tally_->Refused(kind, CodeName(s));
    } else if (Check(kind, s) && map.throws_size() != 21) {
      Fail(kind, absl::StrCat("ThrowMap gave ", map.throws_size(), " throws"));
    }
    w.ufen = play.position_after().ufen();
  }

  v1::AnalyseRequest AnalyseRequest() {
    v1::AnalyseRequest q;
    q.mutable_position()->set_ufen("b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -");
    q.mutable_limits()->set_movetime_ms(5000);
    return q;
  }

  // An Analyse stream, cancelled after its first message.
  void GrpcAnalyseCancelled() {
    const std::string kind = "grpc.analyse_cancelled";
    tally_->Call(kind);
    auto c = Context(20000);
    auto reader = stub_->Analyse(c.get(), AnalyseRequest());
    v1::AnalyseResponse first;
    if (!reader->Read(&first)) {
      grpc::Status s = reader->Finish();
      if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
        tally_->Refused(kind, CodeName(s));
      } else {
        Fail(kind, "no first message: " + CodeName(s) + " " + s.error_message());
      }
      return;
    }
    c->TryCancel();
    while (reader->Read(&first)) {
    }
    grpc::Status s = reader->Finish();
    if (!s.ok() && s.error_code() != grpc::StatusCode::CANCELLED) Check(kind, s);
  }

  // The same over Connect: the stream's request on a socket of its own,
  // closed once the first bytes of the answer come.
  void ConnectAnalyseCancelled() {
    const std::string kind = "connect.analyse_cancelled";
    tally_->Call(kind);
    std::string message;
    (void)google::protobuf::util::MessageToJsonString(AnalyseRequest(), &message);
    std::string envelope(5, '\0');
    uint32_t n = htonl(static_cast<uint32_t>(message.size()));
    std::memcpy(&envelope[1], &n, 4);
    std::string body = envelope + message;
    std::string request = absl::StrCat(
        "POST /uckers.v1.Engine/Analyse HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/connect+json\r\nContent-Length: ",
        body.size(), "\r\n\r\n", body);
    int fd = Dial(server_.http_port);
    if (fd < 0) return (void)Fail(kind, "cannot connect");
    (void)send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    char buf[256];
    pollfd p{fd, POLLIN, 0};
    ssize_t got = poll(&p, 1, 20000) > 0 ? recv(fd, buf, sizeof buf, 0) : -1;
    if (got <= 0 || std::string(buf, static_cast<size_t>(got)).rfind("HTTP/1.1 200", 0) != 0) {
      Fail(kind, "no 200 before the cancel");
    }
    close(fd);
  }

  // A dealt game of a few throws: bound to a seed, each throw dealt after
  // the play before it with a fresh client value is the one the sealed
  // secret derives, a throw asked again is refused, the commitment is the
  // secret's, and the unfinished game's secret is not revealed.
  void Dealt(bool connect) {
    const std::string kind = connect ? "connect.dealt" : "grpc.dealt";
    tally_->Call(kind);
    v1::StartDealtGameResponse game;
    bool ok = connect ? Connect(kind, "StartDealtGame", v1::StartDealtGameRequest(), &game)
                      : Check(kind, stub_->StartDealtGame(Context(5000).get(), {}, &game));
    if (!ok) return;
    absl::StatusOr<dealer::Secret> secret =
        dealer::Open(server_.key, game.token(), std::time(nullptr));
    if (!secret.ok() || dealer::Commitment(*secret) != game.commitment()) {
      return (void)Fail(kind, "the token does not open to the commitment's secret");
    }
    std::string seed = absl::StrCat("soak-", Pick(1 << 30));
    v1::BindDealtGameRequest bind;
    bind.set_token(game.token());
    bind.set_client_seed(seed);
    v1::BindDealtGameResponse bound;
    ok = connect ? Connect(kind, "BindDealtGame", bind, &bound)
                 : Check(kind, stub_->BindDealtGame(Context(5000).get(), bind, &bound));
    if (!ok) return;
    std::string ufen = "startpos", play;
    for (int i = 0; i < 3; ++i) {
      if (!DealOne(kind, connect, game.token(), *secret, seed, i, &ufen, &play)) return;
    }
    RefusedAgain(kind, game.token());
    RevealRefused(kind, connect, game.token(), play);
  }

  // Deals throw `i` after `*play` (the play of throw i - 1) and checks it
  // against the derivation; then makes the first legal play of it, into
  // `*ufen` and `*play`.
  bool DealOne(const std::string& kind, bool connect, const std::string& token,
               const dealer::Secret& secret, const std::string& seed, int i, std::string* ufen,
               std::string* play) {
    absl::StatusOr<dealer::ClientValue> value = dealer::NewClientValue();
    if (!value.ok()) return Fail(kind, "no client value");
    v1::DealThrowRequest q;
    q.set_token(token);
    q.set_index(i);
    q.set_client_value(dealer::ToHex(value->data(), value->size()));
    q.set_play(*play);
    v1::DealThrowResponse a;
    bool ok = connect ? Connect(kind, "DealThrow", q, &a)
                      : Check(kind, stub_->DealThrow(Context(5000).get(), q, &a));
    if (!ok) return false;
    auto [d1, d2] = dealer::DealDice(secret, seed, i, *value);
    if (a.throw_().die1() != d1 || a.throw_().die2() != d2) {
      return Fail(kind, absl::StrCat("throw ", i, " is not the dealt one"));
    }
    v1::ListLegalPlaysRequest list;
    list.mutable_position()->set_ufen(*ufen);
    *list.mutable_throw_() = a.throw_();
    v1::ListLegalPlaysResponse plays;
    if (!Check(kind, stub_->ListLegalPlays(Context(5000).get(), list, &plays))) return false;
    if (plays.plays_size() == 0) return Fail(kind, "no legal play of a dealt throw");
    *play = plays.plays(0).play();
    *ufen = plays.plays(0).position_after().ufen();
    return true;
  }

  // Throw 0 asked again: refused, the game unchanged.
  void RefusedAgain(const std::string& kind, const std::string& token) {
    v1::DealThrowRequest q;
    q.set_token(token);
    q.set_index(0);
    q.set_client_value(std::string(32, '0'));
    v1::DealThrowResponse a;
    grpc::Status s = stub_->DealThrow(Context(5000).get(), q, &a);
    if (s.ok()) return (void)Fail(kind, "a throw was dealt twice");
    tally_->Refused(kind, CodeName(s));
  }

  // The unfinished game's reveal: refused.
  void RevealRefused(const std::string& kind, bool connect, const std::string& token,
                     const std::string& play) {
    v1::RevealDealtGameRequest r;
    r.set_token(token);
    r.set_play(play);
    v1::RevealDealtGameResponse revealed;
    if (connect) {
      std::string body;
      (void)google::protobuf::util::MessageToJsonString(r, &body);
      auto res = http_.Post("/uckers.v1.Engine/RevealDealtGame", body, "application/json");
      if (res && res->status >= 400 && res->status < 500) {
        tally_->Refused(kind, absl::StrCat("HTTP ", res->status));
      } else {
        Fail(kind, "an unfinished game's secret was revealed or no answer came");
      }
      return;
    }
    grpc::Status s = stub_->RevealDealtGame(Context(5000).get(), r, &revealed);
    if (s.ok()) return (void)Fail(kind, "an unfinished game's secret was revealed");
    tally_->Refused(kind, CodeName(s));
  }

  // A body over the fronts' caps: a Connect request whose Content-Length
  // is over 4 MiB (413 before the body is read), a gRPC message over 4 MiB
  // (RESOURCE_EXHAUSTED).
  void Oversized(bool connect) {
    const std::string kind = connect ? "connect.oversized" : "grpc.oversized";
    tally_->Call(kind);
    if (!connect) {
      v1::ListLegalPlaysRequest q;
      q.mutable_position()->set_ufen(std::string(5 << 20, 'b'));
      v1::ListLegalPlaysResponse a;
      grpc::Status s = stub_->ListLegalPlays(Context(10000).get(), q, &a);
      if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED)
        return tally_->Refused(kind, CodeName(s));
      return (void)Fail(kind, "a 5 MiB message got " + CodeName(s));
    }
    int fd = Dial(server_.http_port);
    if (fd < 0) return (void)Fail(kind, "cannot connect");
    std::string head =
        "POST /uckers.v1.Engine/ListLegalPlays HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nContent-Length: 8388608\r\n\r\n";
    (void)send(fd, head.data(), head.size(), MSG_NOSIGNAL);
    std::string answer = ReadUntilClosed(fd, 5000);
    close(fd);
    if (answer.rfind("HTTP/1.1 413", 0) == 0) return tally_->Refused(kind, "HTTP 413");
    Fail(kind, "an 8 MiB body got: " + answer.substr(0, 40));
  }

  // A slowloris (headers a byte at a time) or a trickled body: the server
  // must answer 408 and close within its request timeout (and two seconds),
  // or close the connection (headers that have not come within the idle
  // timeout are cut without an answer).
  void Slow(bool headers) {
    const std::string kind = headers ? "slowloris" : "slow_body";
    tally_->Call(kind);
    int fd = Dial(server_.http_port);
    if (fd < 0) return (void)Fail(kind, "cannot connect");
    std::string start =
        headers ? "POST /uckers.v1.Engine/GetEngineInfo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                : "POST /uckers.v1.Engine/GetEngineInfo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{";
    (void)send(fd, start.data(), start.size(), MSG_NOSIGNAL);
    auto begin = Clock::now(), end = begin + std::chrono::milliseconds(kRequestTimeoutMs + 2000);
    std::string answer;
    bool closed = false;
    while (Clock::now() < end && !closed) {
      answer += ReadUntilClosed(fd, 250, &closed);
      if (!answer.empty() || send(fd, "a", 1, MSG_NOSIGNAL) <= 0) break;
    }
    if (!closed) answer += ReadUntilClosed(fd, 1000, &closed);
    close(fd);
    if (answer.rfind("HTTP/1.1 408", 0) == 0) return tally_->Refused(kind, "HTTP 408");
    if (answer.empty() && closed) return tally_->Refused(kind, "closed");
    Fail(kind, absl::StrCat("neither 408 nor a close in ", kRequestTimeoutMs + 3000,
                            " ms: ", answer.substr(0, 40)));
  }

  const Server& server_;
  std::unique_ptr<v1::Engine::Stub> stub_;
  httplib::Client http_;
  Tally* tally_;
  std::mt19937 rng_;
  Walk walks_[5];
};

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  signal(SIGPIPE, SIG_IGN);
  const double seconds = absl::GetFlag(FLAGS_seconds);
  double warmup = absl::GetFlag(FLAGS_warmup);
  if (warmup < 0) warmup = std::min(60.0, seconds / 6);
  std::string dir = std::filesystem::temp_directory_path() / absl::StrCat("uckers-soak.", getpid());
  std::filesystem::create_directories(dir);
  Server server;
  if (!StartServer(dir, &server)) {
    std::fprintf(stderr, "soak: `uckers serve` did not start (%s)\n", UckersBinary().c_str());
    return 1;
  }
  std::printf("soak: uckers serve pid %d, gRPC port %d, Connect port %d, %d clients, %.0f s\n",
              server.pid, server.grpc_port, server.http_port, absl::GetFlag(FLAGS_clients),
              seconds);
  Tally tally;
  grpc::ChannelArguments args;
  args.SetMaxSendMessageSize(16 << 20);
  auto channel = grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", server.grpc_port),
                                           grpc::InsecureChannelCredentials(), args);
  auto after = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  const Clock::time_point begin = Clock::now(), end = begin + after(seconds);
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < absl::GetFlag(FLAGS_clients); ++i) {
    threads.emplace_back([&, i] {
      Client client(server, channel, &tally, 1000 + i);
      while (!stop && Clock::now() < end) client.Step();
    });
  }
  std::this_thread::sleep_until(begin + after(warmup));
  Figures warm = Measure(server.pid);
  PrintFigures("after the warm-up:", warm);
  std::this_thread::sleep_until(end);
  Figures last = Measure(server.pid);
  PrintFigures("at the end (under load):", last);
  stop = true;
  for (auto& t : threads) t.join();
  std::this_thread::sleep_for(std::chrono::seconds(3));  // idle connections closed
  PrintFigures("3 s after the traffic:", Measure(server.pid));
  kill(server.pid, SIGTERM);
  int status = 0;
  waitpid(server.pid, &status, 0);
  server.drain.join();
  std::filesystem::remove_all(dir);
  tally.Print();
  std::printf("server log lines: %lld; exit on SIGTERM: %s\n",
              static_cast<long long>(server.log_lines.load()),
              WIFEXITED(status) ? absl::StrCat("status ", WEXITSTATUS(status)).c_str() : "killed");
  bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  // Searching calls refused with every slot taken: at most 2% of them.
  int64_t searching = 0;
  for (const char* kind : {"grpc.search", "connect.search", "grpc.tutor", "grpc.analyse_cancelled",
                           "connect.analyse_cancelled"}) {
    searching += tally.calls(kind);
  }
  int64_t busy = tally.calls("(searching calls refused: every slot taken)");
  std::printf("searching calls refused with every slot taken: %lld of %lld\n",
              static_cast<long long>(busy), static_cast<long long>(searching));
  if (tally.errors() > 0 || !clean || busy * 50 > searching) {
    std::printf("soak: FAILED\n");
    return 1;
  }
  std::printf("soak: passed\n");
  return 0;
}
