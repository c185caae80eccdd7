#include "service/connect_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
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
#include "service/call_metrics.h"
#include "service/safe_text.h"
#include "service/web_assets.h"

namespace uckers {
namespace {

using Clock = std::chrono::system_clock;
constexpr char kPrefix[] = "/uckers.v1.Engine/";

// The HTTP status Connect gives each code of a unary error.
int HttpStatus(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::CANCELLED:
      return 499;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::OUT_OF_RANGE:
      return 400;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return 504;
    case grpc::StatusCode::NOT_FOUND:
      return 404;
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::ABORTED:
      return 409;
    case grpc::StatusCode::PERMISSION_DENIED:
      return 403;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return 429;
    case grpc::StatusCode::UNIMPLEMENTED:
      return 501;
    case grpc::StatusCode::UNAVAILABLE:
      return 503;
    case grpc::StatusCode::UNAUTHENTICATED:
      return 401;
    default:
      return 500;
  }
}

// `{"code": ..., "message": ...}` by protobuf's JSON printer.
std::string ErrorJson(const grpc::Status& status) {
  google::protobuf::Struct error;
  (*error.mutable_fields())["code"].set_string_value(StatusCodeName(status.error_code()));
  (*error.mutable_fields())["message"].set_string_value(SafeMessage(status.error_message()));
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(error, &json);
  return json;
}

std::string ToJson(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(m, &json, options);
  return json;
}

// Reads a request body as JSON or binary protobuf; an error names the fault.
grpc::Status ParseBody(const std::string& body, bool json, google::protobuf::Message* m) {
  if (json) {
    google::protobuf::util::JsonParseOptions options;
    auto s = google::protobuf::util::JsonStringToMessage(body, m, options);
    if (!s.ok()) {
      return {grpc::StatusCode::INVALID_ARGUMENT,
              absl::StrCat("request body: not a ", m->GetDescriptor()->name(), " in JSON: ",
                           std::string(s.message().data(), s.message().size()).substr(0, 200))};
    }
  } else if (!m->ParseFromString(body)) {
    return {grpc::StatusCode::INVALID_ARGUMENT,
            absl::StrCat("request body: not a ", m->GetDescriptor()->name(), " in protobuf")};
  }
  return grpc::Status::OK;
}

std::string Serialize(const google::protobuf::Message& m, bool json) {
  return json ? ToJson(m) : m.SerializeAsString();
}

// The deadline of `Connect-Timeout-Ms`, or none; an error for a bad value.
grpc::Status DeadlineOf(const httplib::Request& req, Clock::time_point* deadline) {
  *deadline = Clock::time_point::max();
  if (!req.has_header("Connect-Timeout-Ms")) return grpc::Status::OK;
  int64_t ms = 0;
  std::string text = req.get_header_value("Connect-Timeout-Ms");
  if (!absl::SimpleAtoi(text, &ms) || ms <= 0 || text.size() > 10) {
    return {grpc::StatusCode::INVALID_ARGUMENT,
            "Connect-Timeout-Ms: must be a positive whole number of at most 10 digits"};
  }
  *deadline = Clock::now() + std::chrono::milliseconds(ms);
  return grpc::Status::OK;
}

// A unary method: the body in, the response body out.
using Unary =
    std::function<grpc::Status(const CallControl&, const std::string&, bool, std::string*)>;

template <typename Req, typename Resp>
Unary MakeUnary(std::function<grpc::Status(const CallControl&, const Req&, Resp*)> call) {
  return [call](const CallControl& control, const std::string& body, bool json, std::string* out) {
    Req request;
    if (grpc::Status s = ParseBody(body, json, &request); !s.ok()) return s;
    Resp response;
    grpc::Status s = call(control, request, &response);
    if (s.ok()) *out = Serialize(response, json);
    return s;
  };
}

// A call that does not search takes no deadline: it answers at once.
template <typename Req, typename Resp>
Unary Cheap(EngineService* service,
            grpc::Status (EngineService::*method)(grpc::ServerContext*, const Req*, Resp*)) {
  return MakeUnary<Req, Resp>([service, method](const CallControl&, const Req& r, Resp* out) {
    grpc::ServerContext unused;
    return (service->*method)(&unused, &r, out);
  });
}

template <typename Req, typename Resp>
Unary Searching(EngineService* service,
                grpc::Status (EngineService::*method)(const CallControl&, const Req&, Resp*)) {
  return MakeUnary<Req, Resp>([service, method](const CallControl& c, const Req& r, Resp* out) {
    return (service->*method)(c, r, out);
  });
}

// Every unary method by name. A new method of uckers.v1.Engine is one line.
std::map<std::string, Unary> UnaryMethods(EngineService* s) {
  using E = EngineService;
  return {
      {"GetEngineInfo", Cheap(s, &E::GetEngineInfo)},
      {"ListLegalPlays", Cheap(s, &E::ListLegalPlays)},
      {"ApplyPlay", Cheap(s, &E::ApplyPlay)},
      {"GetStartPosition", Cheap(s, &E::GetStartPosition)},
      {"RollDice", Cheap(s, &E::RollDice)},
      {"StartDealtGame", Cheap(s, &E::StartDealtGame)},
      {"DealThrow", Cheap(s, &E::DealThrow)},
      {"RevealDealtGame", Cheap(s, &E::RevealDealtGame)},
      {"JudgePlay", Searching<v1::JudgePlayRequest, v1::JudgePlayResponse>(s, &E::JudgePlay)},
      {"ThrowMap", Searching<v1::ThrowMapRequest, v1::ThrowMapResponse>(s, &E::ThrowMap)},
      {"BestMove", Searching<v1::BestMoveRequest, v1::BestMoveResponse>(s, &E::BestMove)},
      {"Evaluate", Searching<v1::EvaluateRequest, v1::EvaluateResponse>(s, &E::Evaluate)},
      {"AnalyseGame", Searching<v1::AnalyseGameRequest, v1::GameAnalysis>(s, &E::AnalyseGame)},
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
grpc::Status Unenvelope(const std::string& body, std::string* message) {
  if (body.size() < 5) {
    return {grpc::StatusCode::INVALID_ARGUMENT, "request body: a stream needs one envelope"};
  }
  uint32_t n = 0;
  for (int i = 1; i <= 4; ++i) n = n << 8 | static_cast<uint8_t>(body[i]);
  if (body[0] != 0 || body.size() != 5 + static_cast<size_t>(n)) {
    return {grpc::StatusCode::INVALID_ARGUMENT,
            "request body: one uncompressed envelope of the length it declares"};
  }
  *message = body.substr(5);
  return grpc::Status::OK;
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
  static int Port(const sockaddr_storage& a) {
    if (a.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(a).sin_port);
    if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(a).sin6_port);
    return -1;
  }
  static std::string Address(const sockaddr_storage& a) {
    char text[INET6_ADDRSTRLEN] = "";
    if (a.ss_family == AF_INET) {
      inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(a).sin_addr, text, sizeof text);
    } else if (a.ss_family == AF_INET6) {
      inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(a).sin6_addr, text, sizeof text);
    }
    return text;
  }
  bool Matches(int fd) const {
    sockaddr_storage local{}, peer{};
    socklen_t n = sizeof local, m = sizeof peer;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &n) != 0) return false;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &m) != 0) return false;
    return Port(local) == local_port_ && Port(peer) == remote_port_ && Address(peer) == addr_;
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

}  // namespace

ConnectServer::ConnectServer(const ConnectConfig& config, EngineService* service)
    : config_(config), service_(service), http_(std::make_unique<httplib::Server>()) {}

ConnectServer::~ConnectServer() { Shutdown(); }

absl::StatusOr<std::unique_ptr<ConnectServer>> ConnectServer::Start(const ConnectConfig& config,
                                                                    EngineService* service) {
  std::vector<std::string> parts = absl::StrSplit(config.address, absl::MaxSplits(':', 1));
  int port = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[1], &port) || port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--http '", config.address, "': expected host:port"));
  }
  if (config.threads < 1 || config.threads > 1024) {
    return absl::InvalidArgumentError("--http_threads: must be 1..1024");
  }
  std::unique_ptr<ConnectServer> server(new ConnectServer(config, service));
  httplib::Server& http = *server->http_;
  int threads = config.threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(config.max_body_bytes);
  // No SO_REUSEPORT (httplib's default): a taken port is an error, not
  // shared. TCP_NODELAY (inherited by accepted sockets): without it a reply
  // written in two parts waits ~40 ms for the client's delayed ACK.
  http.set_socket_options([](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  });
  server->Route();
  server->port_ = port == 0 ? http.bind_to_any_port(parts[0]) : port;
  if (port != 0 && !http.bind_to_port(parts[0], port)) server->port_ = -1;
  if (server->port_ <= 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", config.address));
  }
  server->thread_ = std::thread([s = server.get()] { s->http_->listen_after_bind(); });
  // httplib 0.11 ignores a stop() that comes before its loop runs: wait for it.
  for (int i = 0; i < 5000 && !http.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return server;
}

void ConnectServer::Shutdown() {
  // Only a server that listens is stopped, and only once.
  if (!thread_.joinable()) return;
  http_->stop();
  thread_.join();
}

void ConnectServer::Count(const std::string& method, const std::string& code, double seconds) {
  service_->metrics().Count("connect", method, code, seconds);
}

std::string ConnectServer::MetricsText() const {
  return service_->metrics().Text(service_->active_searches());
}

void ConnectServer::Route() {
  auto unary = std::make_shared<std::map<std::string, Unary>>(UnaryMethods(service_));
  auto cors = [this](const httplib::Request& req, httplib::Response& res) {
    std::string origin = req.get_header_value("Origin");
    if (origin.empty()) return;
    if (std::find(config_.cors_origins.begin(), config_.cors_origins.end(), origin) ==
        config_.cors_origins.end()) {
      return;
    }
    res.set_header("Access-Control-Allow-Origin", origin);
    res.set_header("Vary", "Origin");
    res.set_header("Access-Control-Expose-Headers", "Grpc-Status, Grpc-Message");
  };
  http_->Options(R"(/.*)", [cors](const httplib::Request& req, httplib::Response& res) {
    cors(req, res);
    if (res.has_header("Access-Control-Allow-Origin")) {
      res.set_header("Access-Control-Allow-Methods", "POST, GET, OPTIONS");
      res.set_header("Access-Control-Allow-Headers",
                     "Content-Type, Connect-Protocol-Version, Connect-Timeout-Ms");
      res.set_header("Access-Control-Max-Age", "7200");
    }
    res.status = 204;
  });
  http_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(MetricsText(), "text/plain; version=0.0.4");
  });
  // The web board: `/` is index.html; names are flat (no folders), so no
  // path can leave web/.
  http_->Get(R"(/([A-Za-z0-9_\-]+\.[a-z]+)?)",
             [this](const httplib::Request& req, httplib::Response& res) {
               std::string name = req.matches[1];
               if (name.empty()) name = "index.html";
               res.set_header("Cache-Control", "no-cache");
               res.set_header("X-Content-Type-Options", "nosniff");
               if (!config_.web_dir.empty()) {
                 std::ifstream in(config_.web_dir + "/" + name, std::ios::binary);
                 if (in) {
                   std::ostringstream body;
                   body << in.rdbuf();
                   res.set_content(body.str(), WebType(name));
                   return;
                 }
               } else {
                 for (const WebAsset& a : WebAssets()) {
                   if (a.name == name) {
                     res.set_content(a.data, a.size, WebType(name).c_str());
                     return;
                   }
                 }
               }
               res.status = 404;
               res.set_content(absl::StrCat("no file ", name, "\n"), "text/plain");
             });
  http_->Post(R"(/uckers\.v1\.Engine/(\w+))", [this, unary, cors](const httplib::Request& req,
                                                                  httplib::Response& res) {
    cors(req, res);
    auto start = std::chrono::steady_clock::now();
    std::string method = req.matches[1];
    std::string type = absl::AsciiStrToLower(req.get_header_value("Content-Type"));
    type = std::string(absl::StripAsciiWhitespace(type.substr(0, type.find(';'))));
    auto fail = [&](const grpc::Status& s, int http_status) {
      res.status = http_status;
      res.set_content(ErrorJson(s), "application/json");
      Count(method, StatusCodeName(s.error_code()), 0);
    };
    CallControl call;
    if (grpc::Status s = DeadlineOf(req, &call.deadline); !s.ok()) return fail(s, 400);
    call.cancelled = [watch = std::make_shared<HangUpWatch>(req)] { return (*watch)(); };
    if (method == "Analyse") {
      if (type != "application/connect+json" && type != "application/connect+proto") {
        return fail({grpc::StatusCode::INVALID_ARGUMENT,
                     "Analyse is a server stream: Content-Type application/connect+json or "
                     "application/connect+proto"},
                    415);
      }
      bool json = type == "application/connect+json";
      std::string message;
      v1::AnalyseRequest request;
      grpc::Status parsed = Unenvelope(req.body, &message);
      if (parsed.ok()) parsed = ParseBody(message, json, &request);
      if (!parsed.ok()) return fail(parsed, 400);
      res.set_chunked_content_provider(
          type, [this, request, json, call, method, start](size_t, httplib::DataSink& sink) {
            CallControl control = call;
            control.cancelled = [&sink] { return !sink.is_writable(); };
            grpc::Status s = service_->Analyse(control, request, [&](const v1::AnalyseResponse& m) {
              std::string e = Envelope(0, Serialize(m, json));
              return sink.write(e.data(), e.size());
            });
            std::string end = s.ok() ? "{}" : absl::StrCat("{\"error\":", ErrorJson(s), "}");
            std::string e = Envelope(2, end);
            sink.write(e.data(), e.size());
            sink.done();
            Count(method, s.ok() ? "" : StatusCodeName(s.error_code()),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            return true;
          });
      return;
    }
    auto it = unary->find(method);
    if (it == unary->end()) {
      std::string asked = method.substr(0, 100);
      method = "unknown";  // one metrics label for every unknown name
      return fail(
          {grpc::StatusCode::UNIMPLEMENTED, absl::StrCat("no method uckers.v1.Engine/", asked)},
          404);
    }
    if (type != "application/json" && type != "application/proto") {
      return fail({grpc::StatusCode::INVALID_ARGUMENT,
                   "Content-Type: application/json or application/proto"},
                  415);
    }
    bool json = type == "application/json";
    std::string out;
    grpc::Status s = it->second(call, req.body, json, &out);
    if (!s.ok()) return fail(s, HttpStatus(s.error_code()));
    res.set_content(out, json ? "application/json" : "application/proto");
    Count(method, "",
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  });
}

}  // namespace uckers
