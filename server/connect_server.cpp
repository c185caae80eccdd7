#include "server/connect_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "httplib.h"
#include "server/call_metrics.h"
#include "server/http_guard.h"
#include "server/web_assets.h"
#include "server/web_integrity.h"
#include "wire/compact_json.h"
#include "wire/safe_text.h"

namespace uckers {
namespace {

using Clock = std::chrono::system_clock;

// The HTTP status Connect gives each code of a unary error.
int HttpStatus(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kCancelled:
      return 499;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kDeadlineExceeded:
      return 504;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kAborted:
      return 409;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kUnimplemented:
      return 501;
    case absl::StatusCode::kUnavailable:
      return 503;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    default:
      return 500;
  }
}

// `{"code": ..., "message": ...}` by protobuf's JSON printer.
std::string ErrorJson(const absl::Status& status) {
  google::protobuf::Struct error;
  (*error.mutable_fields())["code"].set_string_value(StatusCodeName(status.code()));
  (*error.mutable_fields())["message"].set_string_value(SafeMessage(status.message()));
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(error, &json);
  return json;
}

// Reads a request body as JSON or binary protobuf; an error names the fault.
absl::Status ParseBody(const std::string& body, bool json, google::protobuf::Message* m) {
  if (json) {
    google::protobuf::util::JsonParseOptions options;
    auto s = google::protobuf::util::JsonStringToMessage(body, m, options);
    if (!s.ok()) {
      return {absl::StatusCode::kInvalidArgument,
              absl::StrCat("request body: not a ", m->GetDescriptor()->name(), " in JSON: ",
                           std::string(s.message().data(), s.message().size()).substr(0, 200))};
    }
  } else if (!m->ParseFromString(body)) {
    return {absl::StatusCode::kInvalidArgument,
            absl::StrCat("request body: not a ", m->GetDescriptor()->name(), " in protobuf")};
  }
  return absl::OkStatus();
}

std::string Serialize(const google::protobuf::Message& m, bool json) {
  return json ? wire::CompactJson(m) : m.SerializeAsString();
}

// The deadline of `Connect-Timeout-Ms`, or none; an error for a bad value.
absl::Status DeadlineOf(const httplib::Request& req, Clock::time_point* deadline) {
  *deadline = Clock::time_point::max();
  if (!req.has_header("Connect-Timeout-Ms")) return absl::OkStatus();
  int64_t ms = 0;
  std::string text = req.get_header_value("Connect-Timeout-Ms");
  if (!absl::SimpleAtoi(text, &ms) || ms <= 0 || text.size() > 10) {
    return {absl::StatusCode::kInvalidArgument,
            "Connect-Timeout-Ms: must be a positive whole number of at most 10 digits"};
  }
  *deadline = Clock::now() + std::chrono::milliseconds(ms);
  return absl::OkStatus();
}

// A unary method: the body in, the response body out.
using Unary =
    std::function<absl::Status(const CallControl&, const std::string&, bool, std::string*)>;

template <typename Req, typename Resp>
Unary MakeUnary(std::function<absl::Status(const CallControl&, const Req&, Resp*)> call) {
  return [call](const CallControl& control, const std::string& body, bool json, std::string* out) {
    Req request;
    if (absl::Status s = ParseBody(body, json, &request); !s.ok()) return s;
    Resp response;
    absl::Status s = call(control, request, &response);
    if (s.ok()) *out = Serialize(response, json);
    return s;
  };
}

// A call that does not search takes no deadline: it answers at once.
template <typename Req, typename Resp>
Unary Cheap(Api* service, absl::Status (Api::*method)(const Req&, Resp*)) {
  return MakeUnary<Req, Resp>([service, method](const CallControl&, const Req& r, Resp* out) {
    return (service->*method)(r, out);
  });
}

// A call that takes the call's control: its deadline, its cancellation and
// who called (a search, or a dealt game counted per client).
template <typename Req, typename Resp>
Unary Called(Api* service, absl::Status (Api::*method)(const CallControl&, const Req&, Resp*)) {
  return MakeUnary<Req, Resp>([service, method](const CallControl& c, const Req& r, Resp* out) {
    return (service->*method)(c, r, out);
  });
}

// Every unary method by name. A new method of uckers.v1.Engine is one line.
std::map<std::string, Unary> UnaryMethods(Api* s) {
  using E = Api;
  return {
      {"GetEngineInfo", Cheap(s, &E::GetEngineInfo)},
      {"ListLegalPlays", Cheap(s, &E::ListLegalPlays)},
      {"ApplyPlay", Cheap(s, &E::ApplyPlay)},
      {"GetStartPosition", Cheap(s, &E::GetStartPosition)},
      {"RollDice", Cheap(s, &E::RollDice)},
      {"StartDealtGame", Called(s, &E::StartDealtGame)},
      {"BindDealtGame", Cheap(s, &E::BindDealtGame)},
      {"DealThrow", Cheap(s, &E::DealThrow)},
      {"RevealDealtGame", Cheap(s, &E::RevealDealtGame)},
      {"JudgePlay", Called<v1::JudgePlayRequest, v1::JudgePlayResponse>(s, &E::JudgePlay)},
      {"ThrowMap", Called<v1::ThrowMapRequest, v1::ThrowMapResponse>(s, &E::ThrowMap)},
      {"BestMove", Called<v1::BestMoveRequest, v1::BestMoveResponse>(s, &E::BestMove)},
      {"Evaluate", Called<v1::EvaluateRequest, v1::EvaluateResponse>(s, &E::Evaluate)},
      {"AnalyseGame", Called<v1::AnalyseGameRequest, v1::GameAnalysis>(s, &E::AnalyseGame)},
  };
}

// A Connect stream envelope: flags, big-endian length, message.
std::string Envelope(uint8_t flags, const std::string& message) {
  std::string out(5, '\0');
  out[0] = static_cast<char>(flags);
  uint32_t n = static_cast<uint32_t>(message.size());
  for (int i = 0; i < 4; ++i) out[1 + i] = static_cast<char>(n >> (24 - 8 * i) & 0xFF);
  return out + message;
}

// The message of a request stream's single envelope, or an error.
absl::Status Unenvelope(const std::string& body, std::string* message) {
  if (body.size() < 5) {
    return {absl::StatusCode::kInvalidArgument, "request body: a stream needs one envelope"};
  }
  uint32_t n = 0;
  for (int i = 1; i <= 4; ++i) n = n << 8 | static_cast<uint8_t>(body[i]);
  if (body[0] != 0 || body.size() != 5 + static_cast<size_t>(n)) {
    return {absl::StatusCode::kInvalidArgument,
            "request body: one uncompressed envelope of the length it declares"};
  }
  *message = body.substr(5);
  return absl::OkStatus();
}

int PortOf(const sockaddr_storage& a) {
  if (a.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(a).sin_port);
  if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(a).sin6_port);
  return -1;
}

std::string AddressOf(const sockaddr_storage& a) {
  char text[INET6_ADDRSTRLEN] = "";
  if (a.ss_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(a).sin_addr, text, sizeof text);
  } else if (a.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(a).sin6_addr, text, sizeof text);
  }
  return text;
}

// Calls `f(fd, {peer address, peer port})` for each of this process's
// sockets connected to local port `port` (the HTTP front's connections:
// cpp-httplib does not list them, /proc/self/fd does).
void ForEachConnection(int port,
                       const std::function<void(int, const std::pair<std::string, int>&)>& f) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
    int fd = -1;
    if (!absl::SimpleAtoi(entry.path().filename().string(), &fd)) continue;
    sockaddr_storage local{}, peer{};
    socklen_t n = sizeof local, m = sizeof peer;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &n) != 0 ||
        getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &m) != 0 || PortOf(local) != port) {
      continue;
    }
    f(fd, {AddressOf(peer), PortOf(peer)});
  }
}

// The code of the Connect error body httplib's own refusals get (a bad
// request line, an unknown path, a body over the cap...).
absl::StatusCode CodeOfHttpStatus(int status) {
  switch (status) {
    case 404:
      return absl::StatusCode::kNotFound;
    case 405:
    case 501:
      return absl::StatusCode::kUnimplemented;
    case 408:
      return absl::StatusCode::kDeadlineExceeded;
    case 413:
    case 414:
    case 431:
      return absl::StatusCode::kResourceExhausted;
    case 503:
      return absl::StatusCode::kUnavailable;
    default:
      return status < 500 ? absl::StatusCode::kInvalidArgument : absl::StatusCode::kInternal;
  }
}

// Answers `status` as a Connect error and closes the connection after it:
// for a request whose body was not read (or not to its end), whose rest
// would otherwise be read as the next request. httplib 0.11 has no way to
// say "close": a chunked answer whose provider, once done, returns false
// makes it end the connection after the complete answer.
void RefuseAndClose(httplib::Response& res, int http_status, const absl::Status& status) {
  res.status = http_status;
  res.set_header("Connection", "close");
  res.set_chunked_content_provider("application/json",
                                   [body = ErrorJson(status)](size_t, httplib::DataSink& sink) {
                                     sink.write(body.data(), body.size());
                                     sink.done();
                                     return false;
                                   });
}

// Whether an HTTP method carries a body httplib 0.11 would read.
bool HasBody(const std::string& method) {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE" ||
         method == "PRI";
}

// Whether a unary call's client has gone. httplib 0.11 does not tell a
// plain handler, so the call's connection is found among the process's
// sockets by its two ports and the peer's address, and a peek at it that
// reads the end of the stream (or an error) means the client hung up. Checked
// at most every 20 ms; a socket that no longer matches (closed, or its number
// reused) counts as gone.
class HangUpWatch {
 public:
  explicit HangUpWatch(const httplib::Request& req)
      : addr_(req.remote_addr), remote_port_(req.remote_port), local_port_(req.local_port) {}

  bool operator()() {
    auto now = std::chrono::steady_clock::now();
    if (now < next_check_) return gone_;
    next_check_ = now + std::chrono::milliseconds(20);
    if (gone_) return true;
    if (fd_ < 0) {
      fd_ = Find();
      if (fd_ < 0) return false;  // not found: never cancel on a guess
    }
    if (!Matches(fd_)) return gone_ = true;
    char c;
    ssize_t n = recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      gone_ = true;
    }
    return gone_;
  }

 private:
  bool Matches(int fd) const {
    sockaddr_storage local{}, peer{};
    socklen_t n = sizeof local, m = sizeof peer;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &n) != 0) return false;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &m) != 0) return false;
    return PortOf(local) == local_port_ && PortOf(peer) == remote_port_ && AddressOf(peer) == addr_;
  }
  int Find() const {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
      int fd = -1;
      if (absl::SimpleAtoi(entry.path().filename().string(), &fd) && Matches(fd)) return fd;
    }
    return -1;
  }

  std::string addr_;
  int remote_port_;
  int local_port_;
  int fd_ = -1;
  bool gone_ = false;
  std::chrono::steady_clock::time_point next_check_{};
};

// httplib's task queue for connections: a thread for each connection being
// served, made as connections come (httplib 0.11 holds a thread for a
// connection's whole life: a fixed pool of 16 was stopped by 16 slow
// clients), at least `min` and at most `max` (past it, connections wait).
class GrowingPool : public httplib::TaskQueue {
 public:
  GrowingPool(int min, int max) : max_(max) {
    std::lock_guard<std::mutex> lock(mu_);
    for (int i = 0; i < min; ++i) Spawn();
  }
  void enqueue(std::function<void()> fn) override {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.push_back(std::move(fn));
    if (idle_ < static_cast<int>(jobs_.size()) && static_cast<int>(threads_.size()) < max_) {
      Spawn();
    }
    ready_.notify_one();
  }
  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
      ready_.notify_all();
    }
    for (std::thread& t : threads_) t.join();
  }

 private:
  void Spawn() {
    threads_.emplace_back([this] {
      std::unique_lock<std::mutex> lock(mu_);
      while (true) {
        ++idle_;
        ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        --idle_;
        if (jobs_.empty()) return;  // stopping, nothing left
        std::function<void()> job = std::move(jobs_.front());
        jobs_.pop_front();
        lock.unlock();
        job();
        lock.lock();
      }
    });
  }

  const int max_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  int idle_ = 0;
  bool stopping_ = false;
};

// The Content-Type of a web board file, by its extension.
std::string WebType(const std::string& name) {
  std::string ext = name.substr(name.rfind('.') + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "json") return "application/json";
  return "application/octet-stream";
}

// The board's pages load their own files only, and no other site may
// frame them.
constexpr char kBoardPolicy[] =
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

bool AllDigits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether a Host header names this server: an IP literal (a page can only
// rebind a name), localhost, or a name of `allowed` ("*": any name).
bool HostAllowed(const std::string& value, const std::vector<std::string>& allowed) {
  std::string host = absl::AsciiStrToLower(absl::StripAsciiWhitespace(value));
  std::string name = host;
  if (absl::StartsWith(name, "[")) {
    size_t end = name.find(']');
    std::string rest = end == std::string::npos ? "" : name.substr(end + 1);
    in6_addr a6{};
    return end != std::string::npos &&
           (rest.empty() || (rest[0] == ':' && AllDigits(rest.substr(1)))) &&
           inet_pton(AF_INET6, name.substr(1, end - 1).c_str(), &a6) == 1;
  }
  if (size_t colon = name.rfind(':'); colon != std::string::npos) {
    if (!AllDigits(name.substr(colon + 1))) return false;
    name = name.substr(0, colon);
  }
  in_addr a4{};
  if (name.empty()) return false;
  if (name == "localhost" || inet_pton(AF_INET, name.c_str(), &a4) == 1) return true;
  return std::any_of(allowed.begin(), allowed.end(), [&](const std::string& a) {
    std::string lower = absl::AsciiStrToLower(a);
    return lower == "*" || lower == name || lower == host;
  });
}

// OK unless the request's framing could be read two ways (request
// smuggling behind a proxy that reads it otherwise): more than one
// Content-Length, Content-Length beside Transfer-Encoding, a coding other
// than chunked, a length that is not a plain number, or a body on a
// request that carries none.
absl::Status CheckFraming(const httplib::Request& req) {
  size_t lengths = req.get_header_value_count("Content-Length");
  size_t codings = req.get_header_value_count("Transfer-Encoding");
  auto bad = [](const char* what) {
    return absl::InvalidArgumentError(absl::StrCat("request framing: ", what));
  };
  if (lengths > 1) return bad("more than one Content-Length header");
  if (lengths == 1 && codings > 0) return bad("Content-Length beside Transfer-Encoding");
  if (codings > 1 ||
      (codings == 1 &&
       !absl::EqualsIgnoreCase(
           absl::StripAsciiWhitespace(req.get_header_value("Transfer-Encoding")), "chunked"))) {
    return bad("Transfer-Encoding: only one, chunked");
  }
  std::string length = req.get_header_value("Content-Length");
  if (lengths == 1 && (length.empty() || length.size() > 18 || !AllDigits(length))) {
    return bad("Content-Length: a whole number of bytes");
  }
  if (!HasBody(req.method) && (codings > 0 || (lengths == 1 && std::stoull(length) > 0))) {
    return bad(absl::StrCat(SafeMessage(req.method, 16), " carries no body").c_str());
  }
  // httplib 0.11 would read a body of neither until the client closes.
  if (HasBody(req.method) && lengths == 0 && codings == 0) {
    return absl::FailedPreconditionError(
        "request framing: a body needs a Content-Length or Transfer-Encoding: chunked");
  }
  return absl::OkStatus();
}

// The file `name` of folder `dir`, when it is a regular file (not a link,
// a device or a pipe) of at most 16 MiB.
bool ReadWebFile(const std::string& dir, const std::string& name, std::string* out) {
  int fd = open((dir + "/" + name).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat st {};
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= (16 << 20);
  if (ok) {
    out->resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    for (ssize_t n;
         got < out->size() && (n = read(fd, out->data() + got, out->size() - got)) > 0;) {
      got += static_cast<size_t>(n);
    }
    out->resize(got);
  }
  close(fd);
  return ok;
}

// Whether two secrets are equal, in a time that does not depend on where
// they differ.
bool SameSecret(const std::string& a, const std::string& b) {
  unsigned diff = a.size() != b.size();
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) diff |= static_cast<unsigned>(a[i] ^ b[i]);
  return diff == 0;
}

HttpLimits LimitsOf(const ConnectConfig& config) {
  HttpLimits limits;
  limits.max_line_bytes = config.max_line_bytes;
  limits.max_headers = config.max_headers;
  limits.max_header_bytes = config.max_header_bytes;
  limits.request_timeout_ms = config.request_timeout_ms;
  limits.min_bytes_per_second = config.min_request_rate;
  limits.max_connections_per_address = config.max_connections_per_address;
  limits.linger_bytes = 16 * config.max_body_bytes;
  return limits;
}

}  // namespace

ConnectServer::ConnectServer(const ConnectConfig& config, Api* service)
    : config_(config),
      service_(service),
      http_(std::make_unique<GuardedServer>(LimitsOf(config))) {}

ConnectServer::~ConnectServer() { Shutdown(); }

std::unique_ptr<ConnectServer> ConnectServer::Unbound(const ConnectConfig& config, Api* service) {
  std::unique_ptr<ConnectServer> server(new ConnectServer(config, service));
  server->Route();
  return server;
}

std::string ConnectServer::ServeBytes(const std::string& bytes) {
  return static_cast<GuardedServer&>(*http_).ServeBytes(bytes);
}

absl::StatusOr<std::unique_ptr<ConnectServer>> ConnectServer::Start(const ConnectConfig& config,
                                                                    Api* service) {
  if (absl::Status s = CheckConnectConfig(config); !s.ok()) return s;
  std::vector<std::string> parts = absl::StrSplit(config.address, absl::MaxSplits(':', 1));
  int port = 0;
  (void)absl::SimpleAtoi(parts[1], &port);  // checked above
  std::unique_ptr<ConnectServer> server(new ConnectServer(config, service));
  httplib::Server& http = *server->http_;
  int threads = config.threads, most = config.max_connections;
  http.new_task_queue = [threads, most] { return new GrowingPool(threads, most); };
  http.set_payload_max_length(config.max_body_bytes);
  // No SO_REUSEPORT (httplib's default): a taken port is an error, not
  // shared. TCP_NODELAY (inherited by accepted sockets): without it a reply
  // written in two parts waits ~40 ms for the client's delayed ACK.
  // TCP_DEFER_ACCEPT: a connection that sends nothing is not accepted (no
  // thread) until it sends, or for 30 s.
  auto listener = std::make_shared<int>(-1);
  http.set_socket_options([listener](int sock) {
    int yes = 1, defer_seconds = 30;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    setsockopt(sock, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_seconds, sizeof defer_seconds);
    *listener = sock;
  });
  server->Route();
  server->port_ = port == 0 ? http.bind_to_any_port(parts[0]) : port;
  if (port != 0 && !http.bind_to_port(parts[0], port)) server->port_ = -1;
  if (server->port_ <= 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", config.address));
  }
  // httplib 0.11 listens with a backlog of 5: a burst of connections would
  // be dropped (and retried by their clients a second later). Listening
  // again on the same socket sets a larger one.
  if (*listener >= 0) listen(*listener, 4096);
  server->listening_ = true;
  server->thread_ = std::thread([s = server.get()] {
    s->http_->listen_after_bind();
    s->listening_ = false;
  });
  // httplib 0.11 ignores a stop() that comes before its loop runs: wait for it.
  for (int i = 0; i < 5000 && !http.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  server->idle_watch_ = std::thread([s = server.get()] { s->WatchIdle(); });
  if (!config.metrics_address.empty()) {
    if (absl::Status s = server->StartMetrics(); !s.ok()) return s;
  }
  return server;
}

absl::Status ConnectServer::StartMetrics() {
  std::vector<std::string> parts = absl::StrSplit(config_.metrics_address, absl::MaxSplits(':', 1));
  int port = 0;
  (void)absl::SimpleAtoi(parts[1], &port);  // checked by CheckConnectConfig
  metrics_http_ = std::make_unique<GuardedServer>(LimitsOf(config_));
  metrics_http_->new_task_queue = [] { return new GrowingPool(1, 16); };
  metrics_http_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(MetricsText(), "text/plain; version=0.0.4");
  });
  metrics_port_ = port == 0 ? metrics_http_->bind_to_any_port(parts[0]) : port;
  if (port != 0 && !metrics_http_->bind_to_port(parts[0], port)) metrics_port_ = -1;
  if (metrics_port_ <= 0) {
    metrics_port_ = 0;
    return absl::UnavailableError(
        absl::StrCat("--http_metrics: cannot listen on ", config_.metrics_address));
  }
  metrics_thread_ = std::thread([this] { metrics_http_->listen_after_bind(); });
  for (int i = 0; i < 5000 && !metrics_http_->is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return absl::OkStatus();
}

void ConnectServer::StopTaking() {
  // Only a server that listens is stopped, and only once.
  if (!thread_.joinable() || stopped_.exchange(true)) return;
  if (idle_watch_.joinable()) idle_watch_.join();
  http_->stop();
  if (metrics_http_) metrics_http_->stop();
  // A connection kept alive waits up to its keep-alive timeout for another
  // request before it sees the stop: shut its reading side now.
  ShutConnections(SHUT_RD, true);
}

bool ConnectServer::Shutdown(std::chrono::steady_clock::time_point deadline) {
  if (joined_ || !thread_.joinable()) return true;
  StopTaking();
  if (metrics_thread_.joinable()) metrics_thread_.join();
  auto next_sweep = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  while (listening_ && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (std::chrono::steady_clock::now() >= next_sweep) {
      ShutConnections(SHUT_RD, true);  // those whose call ended meanwhile
      next_sweep += std::chrono::milliseconds(100);
    }
  }
  if (listening_) {
    ShutConnections(SHUT_RDWR, false);
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (listening_ && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  if (listening_) {
    thread_.detach();
    return false;
  }
  thread_.join();
  joined_ = true;
  return true;
}

void ConnectServer::WatchIdle() {
  // Each connection by its socket: its peer, and when it was last seen
  // serving a request (or first seen).
  struct Seen {
    std::pair<std::string, int> peer;
    std::chrono::steady_clock::time_point active;
  };
  std::map<int, Seen> seen;
  const auto limit = std::chrono::milliseconds(config_.idle_timeout_ms);
  while (!stopped_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto now = std::chrono::steady_clock::now();
    std::multiset<std::pair<std::string, int>> busy;
    {
      std::lock_guard<std::mutex> lock(busy_mu_);
      busy = busy_;
    }
    std::map<int, Seen> next;
    ForEachConnection(port_, [&](int fd, const std::pair<std::string, int>& who) {
      auto it = seen.find(fd);
      Seen s{who, now};
      if (it != seen.end() && it->second.peer == who && !busy.count(who)) {
        s.active = it->second.active;
      }
      if (now - s.active > limit) {
        shutdown(fd, SHUT_RDWR);
        return;
      }
      next[fd] = s;
    });
    seen.swap(next);
  }
}

void ConnectServer::ShutConnections(int how, bool idle_only) {
  std::multiset<std::pair<std::string, int>> busy;
  {
    std::lock_guard<std::mutex> lock(busy_mu_);
    busy = busy_;
  }
  ForEachConnection(port_, [&](int fd, const std::pair<std::string, int>& who) {
    if (!(idle_only && busy.count(who))) shutdown(fd, how);
  });
}

void ConnectServer::Count(const std::string& method, const std::string& code, double seconds) {
  service_->metrics().Count("connect", method, code, seconds);
}

std::string ConnectServer::MetricsText() const {
  return service_->metrics().Text(service_->active_searches());
}

// The unary methods by name, and which methods search (Analyse among them).
struct ConnectServer::Methods {
  std::map<std::string, Unary> unary;
  std::set<std::string> searching;
};

void ConnectServer::Route() {
  auto methods = std::make_shared<Methods>();
  methods->unary = UnaryMethods(service_);
  methods->searching = {"JudgePlay", "ThrowMap", "BestMove", "Evaluate", "AnalyseGame", "Analyse"};
  methods_ = methods;
  RouteGuards();
  RouteFiles();
  http_->Options(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
    Cors(req, res);
    if (res.has_header("Access-Control-Allow-Origin")) {
      res.set_header("Access-Control-Allow-Methods", "POST, GET, OPTIONS");
      res.set_header("Access-Control-Allow-Headers",
                     "Content-Type, Connect-Protocol-Version, Connect-Timeout-Ms, Authorization");
      res.set_header("Access-Control-Max-Age", "7200");
    }
    res.status = 204;
  });
  http_->Post(R"(/uckers\.v1\.Engine/(\w+))",
              [this](const httplib::Request& req, httplib::Response& res,
                     const httplib::ContentReader& content) { ServeMethod(req, res, content); });
}

void ConnectServer::Cors(const httplib::Request& req, httplib::Response& res) const {
  std::string origin = req.get_header_value("Origin");
  if (origin.empty()) return;
  if (std::find(config_.cors_origins.begin(), config_.cors_origins.end(), origin) ==
      config_.cors_origins.end()) {
    return;
  }
  res.set_header("Access-Control-Allow-Origin", origin);
  res.set_header("Vary", "Origin");
  res.set_header("Access-Control-Expose-Headers", "Grpc-Status, Grpc-Message");
}

void ConnectServer::RouteGuards() {
  // Every request marks its connection busy from its headers to the end of
  // its answer (the logger runs once the answer is written), so that a drain
  // closes only idle connections. The refusals that need no body come
  // before a byte of it is read.
  http_->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    {
      std::lock_guard<std::mutex> lock(busy_mu_);
      busy_.insert({req.remote_addr, req.remote_port});
    }
    return RefuseEarly(req, res) ? httplib::Server::HandlerResponse::Handled
                                 : httplib::Server::HandlerResponse::Unhandled;
  });
  http_->set_logger([this](const httplib::Request& req, const httplib::Response&) {
    std::lock_guard<std::mutex> lock(busy_mu_);
    auto it = busy_.find({req.remote_addr, req.remote_port});
    if (it != busy_.end()) busy_.erase(it);
  });
  // httplib's own refusals (an unknown path, a bad request line, ...) get a
  // Connect error body too.
  http_->set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty() || res.content_provider_) {
          return httplib::Server::HandlerResponse::Unhandled;
        }
        std::string what = res.status == 404
                               ? absl::StrCat("no route for ", SafeMessage(req.method, 16), " ",
                                              SafeMessage(req.path, 100))
                               : absl::StrCat("the request was refused (HTTP ", res.status, ")");
        res.set_content(ErrorJson({CodeOfHttpStatus(res.status), what}), "application/json");
        return httplib::Server::HandlerResponse::Handled;
      }));
}

bool ConnectServer::RefuseEarly(const httplib::Request& req, httplib::Response& res) {
  static const std::regex kMethodPath(R"(/uckers\.v1\.Engine/(\w+))");
  // A name that is not this server's: a page of another site that has
  // made its name resolve here (DNS rebinding) is not served.
  if (!req.has_header("Host")) {
    RefuseAndClose(res, 400, absl::InvalidArgumentError("a request needs a Host header"));
    return true;
  }
  if (!HostAllowed(req.get_header_value("Host"), config_.allowed_hosts)) {
    RefuseAndClose(res, 421,
                   absl::InvalidArgumentError(absl::StrCat(
                       "Host '", SafeMessage(req.get_header_value("Host"), 100),
                       "' is not a name this server answers to (--http_allowed_hosts)")));
    return true;
  }
  if (absl::Status s = CheckFraming(req); !s.ok()) {
    RefuseAndClose(res, absl::IsFailedPrecondition(s) ? 411 : 400, s);
    return true;
  }
  // A body sent anywhere but to a method: httplib 0.11 would read it whole
  // into memory, chunked or not, before finding no handler.
  if (HasBody(req.method) && !(req.method == "POST" && std::regex_match(req.path, kMethodPath))) {
    bool post = req.method == "POST";
    RefuseAndClose(res, post ? 404 : 405,
                   {post ? absl::StatusCode::kNotFound : absl::StatusCode::kUnimplemented,
                    absl::StrCat(post ? "no method at " : "no such HTTP method here: ",
                                 SafeMessage(post ? req.path : req.method, 100))});
    return true;
  }
  return false;
}

void ConnectServer::RouteFiles() {
  if (config_.metrics_on_front) {
    http_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
      res.set_content(MetricsText(), "text/plain; version=0.0.4");
    });
  }
  // A probe for load balancers and orchestrators that speak HTTP only (the
  // gRPC front has grpc.health.v1): it answers while the front takes calls;
  // at the drain the front stops listening, so a probe then fails.
  http_->Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    res.set_content("SERVING\n", "text/plain");
  });
  // The web board: `/` is index.html; only the board's own file names (the
  // ones built in) are served, so no path leaves web/.
  http_->Get(
      R"(/([A-Za-z0-9_\-]+\.[a-z]+)?)",
      [this](const httplib::Request& req, httplib::Response& res) { ServeWebFile(req, res); });
}

namespace {

bool IsPage(std::string_view name) { return name.ends_with(".html"); }
bool IsScript(std::string_view name) { return name.ends_with(".js"); }

// The built-in pages with their scripts pinned (server/web_integrity.h),
// made once.
const std::map<std::string, PinnedPage, std::less<>>& BuiltInPages() {
  static const auto* pages = [] {
    std::vector<std::pair<std::string, std::string_view>> scripts;
    for (const WebAsset& a : WebAssets()) {
      if (IsScript(a.name))
        scripts.emplace_back(std::string(a.name), std::string_view(a.data, a.size));
    }
    auto* made = new std::map<std::string, PinnedPage, std::less<>>;
    for (const WebAsset& a : WebAssets()) {
      if (IsPage(a.name)) {
        made->emplace(std::string(a.name),
                      PinScripts(std::string_view(a.data, a.size), scripts, kBoardPolicy));
      }
    }
    return made;
  }();
  return *pages;
}

// A page of the --http_web folder with the folder's scripts, as they are
// now, pinned.
PinnedPage PinnedFromFolder(const std::string& dir, const std::string& html) {
  std::vector<std::string> bodies;
  std::vector<std::string> names;
  for (const WebAsset& a : WebAssets()) {
    std::string body;
    if (IsScript(a.name) && ReadWebFile(dir, std::string(a.name), &body)) {
      names.emplace_back(a.name);
      bodies.push_back(std::move(body));
    }
  }
  std::vector<std::pair<std::string, std::string_view>> scripts;
  for (size_t i = 0; i < names.size(); ++i) scripts.emplace_back(names[i], bodies[i]);
  return PinScripts(html, scripts, kBoardPolicy);
}

}  // namespace

void ConnectServer::ServeWebFile(const httplib::Request& req, httplib::Response& res) const {
  std::string name = req.matches[1];
  if (name.empty()) name = "index.html";
  res.set_header("Cache-Control", "no-cache");
  res.set_header("X-Content-Type-Options", "nosniff");
  // The board's pages are not framed (clickjacking) and load nothing but
  // their own files (a page: and its import map, by its hash).
  res.set_header("X-Frame-Options", "DENY");
  res.set_header("Referrer-Policy", "no-referrer");
  for (const WebAsset& a : WebAssets()) {
    if (a.name != name) continue;
    if (config_.web_dir.empty()) {
      if (auto page = BuiltInPages().find(name); page != BuiltInPages().end()) {
        res.set_header("Content-Security-Policy", page->second.policy);
        res.set_content(page->second.html, WebType(name));
      } else {
        res.set_header("Content-Security-Policy", kBoardPolicy);
        res.set_content(a.data, a.size, WebType(name).c_str());
      }
      return;
    }
    std::string body;
    if (ReadWebFile(config_.web_dir, name, &body)) {
      PinnedPage page = IsPage(name) ? PinnedFromFolder(config_.web_dir, body)
                                     : PinnedPage{std::move(body), kBoardPolicy};
      res.set_header("Content-Security-Policy", page.policy);
      res.set_content(page.html, WebType(name));
      return;
    }
  }
  res.set_header("Content-Security-Policy", kBoardPolicy);
  res.status = 404;
  res.set_content(ErrorJson({absl::StatusCode::kNotFound, absl::StrCat("no file ", name)}),
                  "application/json");
}

absl::Status ConnectServer::CheckCall(const std::string& method, const std::string& type) const {
  bool stream = method == "Analyse";
  if (!stream && !methods_->unary.count(method)) {
    return {absl::StatusCode::kUnimplemented,
            absl::StrCat("no method uckers.v1.Engine/", method.substr(0, 100))};
  }
  if (stream && type != "application/connect+json" && type != "application/connect+proto") {
    return {absl::StatusCode::kInvalidArgument,
            "Analyse is a server stream: Content-Type application/connect+json or "
            "application/connect+proto"};
  }
  if (!stream && type != "application/json" && type != "application/proto") {
    return {absl::StatusCode::kInvalidArgument,
            "Content-Type: application/json or application/proto"};
  }
  return absl::OkStatus();
}

absl::Status ConnectServer::ReadBody(const httplib::Request& req, httplib::Response& res,
                                     const httplib::ContentReader& content,
                                     std::string* body) const {
  // Counted as it arrives whatever its transfer encoding: a chunked body
  // stops being read at the cap (httplib 0.11 checks only a
  // Content-Length). Its room is taken once (a chunked body's: the cap;
  // pages are touched only as it fills): growing it step by step would
  // hold the old and the new copy at once, twice the body.
  // A declared length over the cap is refused before a byte of the body
  // is read (httplib 0.11 would read and drop the whole body first, and a
  // client that waits for the answer would get 408).
  uint64_t declared = 0;
  bool has_length = absl::SimpleAtoi(req.get_header_value("Content-Length"), &declared);
  bool over = has_length && declared > config_.max_body_bytes;
  if (!over) {
    body->reserve(has_length ? declared : config_.max_body_bytes);
  }
  bool read = !over && content([&](const char* data, size_t n) {
    if (body->size() + n > config_.max_body_bytes) {
      over = true;
      return false;
    }
    body->append(data, n);
    return true;
  });
  if (over || res.status == 413) {
    return {absl::StatusCode::kResourceExhausted,
            absl::StrCat("request body: larger than this server's limit of ",
                         config_.max_body_bytes, " bytes (--max_message_bytes)")};
  }
  if (!read) {
    return {absl::StatusCode::kInvalidArgument,
            "request body: could not be read to its end (a malformed chunked encoding, a "
            "request slower than --http_request_timeout_ms, or the client stopped sending)"};
  }
  return absl::OkStatus();
}

void ConnectServer::ServeMethod(const httplib::Request& req, httplib::Response& res,
                                const httplib::ContentReader& content) {
  Cors(req, res);
  auto start = std::chrono::steady_clock::now();
  std::string method = req.matches[1];
  std::string type = absl::AsciiStrToLower(req.get_header_value("Content-Type"));
  type = std::string(absl::StripAsciiWhitespace(type.substr(0, type.find(';'))));
  // Refused before the body is read, or while it is (and the connection
  // closed after).
  auto refuse = [&](const absl::Status& s, int http_status) {
    RefuseAndClose(res, http_status, s);
    Count(method, StatusCodeName(s.code()), 0);
  };
  if (absl::Status s = CheckCall(method, type); !s.ok()) {
    return refuse(s, absl::IsUnimplemented(s) ? 404 : 415);
  }
  std::string body;
  if (absl::Status s = ReadBody(req, res, content, &body); !s.ok()) {
    return refuse(s, absl::IsResourceExhausted(s) ? 413 : 400);
  }
  res.status = -1;
  auto fail = [&](const absl::Status& s, int http_status) {
    res.status = http_status;
    res.set_content(ErrorJson(s), "application/json");
    Count(method, StatusCodeName(s.code()), 0);
  };
  CallControl call;
  call.client = req.remote_addr;
  if (absl::Status s = DeadlineOf(req, &call.deadline); !s.ok()) return fail(s, 400);
  call.cancelled = [watch = std::make_shared<HangUpWatch>(req)] { return (*watch)(); };
  std::shared_ptr<void> slot;
  if (methods_->searching.count(method)) {
    absl::StatusOr<std::shared_ptr<void>> taken = TakeSearch(req, &call);
    if (!taken.ok()) return fail(taken.status(), HttpStatus(taken.status().code()));
    slot = *std::move(taken);
  }
  if (method == "Analyse") return ServeStream(res, type, body, call, slot, start);
  bool json = type == "application/json";
  std::string out;
  absl::Status s = methods_->unary.at(method)(call, body, json, &out);
  if (!s.ok()) return fail(s, HttpStatus(s.code()));
  res.set_content(out, json ? "application/json" : "application/proto");
  Count(method, "",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

void ConnectServer::ServeStream(httplib::Response& res, const std::string& type,
                                const std::string& body, const CallControl& call,
                                std::shared_ptr<void> slot,
                                std::chrono::steady_clock::time_point start) {
  const std::string method = "Analyse";
  bool json = type == "application/connect+json";
  std::string message;
  v1::AnalyseRequest request;
  absl::Status parsed = Unenvelope(body, &message);
  if (parsed.ok()) parsed = ParseBody(message, json, &request);
  if (!parsed.ok()) {
    res.status = 400;
    res.set_content(ErrorJson(parsed), "application/json");
    Count(method, StatusCodeName(parsed.code()), 0);
    return;
  }
  res.set_chunked_content_provider(type, [this, request, json, call, method, start, slot](
                                             size_t, httplib::DataSink& sink) mutable {
    CallControl control = call;
    control.cancelled = [&sink] { return !sink.is_writable(); };
    absl::Status s = service_->Analyse(control, request, [&](const v1::AnalyseResponse& m) {
      std::string e = Envelope(0, Serialize(m, json));
      return sink.write(e.data(), e.size());
    });
    slot.reset();  // the search is over: the address may start another
    std::string end = s.ok() ? "{}" : absl::StrCat("{\"error\":", ErrorJson(s), "}");
    std::string e = Envelope(2, end);
    sink.write(e.data(), e.size());
    sink.done();
    Count(method, s.ok() ? "" : StatusCodeName(s.code()),
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return true;
  });
}

absl::StatusOr<std::shared_ptr<void>> ConnectServer::TakeSearch(const httplib::Request& req,
                                                                CallControl* call) {
  // A client bearing the search token is neither capped nor counted.
  if (!config_.search_token.empty() &&
      SameSecret(req.get_header_value("Authorization"), "Bearer " + config_.search_token)) {
    return std::shared_ptr<void>();
  }
  if (config_.max_search_ms > 0) {
    call->deadline =
        std::min(call->deadline, Clock::now() + std::chrono::milliseconds(config_.max_search_ms));
  }
  if (config_.max_searches_per_address <= 0) return std::shared_ptr<void>();
  std::lock_guard<std::mutex> lock(searches_mu_);
  int& n = searches_[req.remote_addr];
  if (n >= config_.max_searches_per_address) {
    return absl::ResourceExhaustedError(
        absl::StrCat("this address runs ", config_.max_searches_per_address,
                     " searches already (--http_max_searches_per_address)"));
  }
  ++n;
  return std::shared_ptr<void>(nullptr, [this, address = req.remote_addr](void*) {
    std::lock_guard<std::mutex> lock(searches_mu_);
    auto it = searches_.find(address);
    if (it != searches_.end() && --it->second <= 0) searches_.erase(it);
  });
}

}  // namespace uckers
