#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "server/api.h"

namespace httplib {
class Server;
class ContentReader;
struct Request;
struct Response;
}  // namespace httplib

// The Connect protocol front (connectrpc.com/docs/protocol): the methods of
// uckers.v1.Engine over HTTP/1.1 as `POST /uckers.v1.Engine/<Method>`, with
// JSON (protobuf's canonical mapping) or binary protobuf bodies; Analyse as
// a Connect server stream; `Connect-Timeout-Ms` as the deadline; errors as
// Connect's JSON error body. It calls the transport-neutral service
// (server/api.h) that the gRPC front also calls: the same validation,
// search slots, deadline margin and cancellation. Also `GET /metrics`
// (Prometheus text), CORS for the origins configured, and the web board
// (web/) at `/`. No gRPC here: tools/check_layers keeps it so.
namespace uckers {

struct ConnectConfig {
  std::string address = "127.0.0.1:8080";  // host:port; port 0 picks one
  // Each connection is served by a thread of its own for its whole life
  // (httplib 0.11): `threads` start at once, more are added as connections
  // come, up to `max_connections` served at once (the rest wait).
  int threads = 16;
  int max_connections = 1024;
  // A connection not serving a request for this long (request headers
  // still arriving, or idle between requests) is closed: a slow client
  // cannot hold a thread for long.
  int64_t idle_timeout_ms = 10000;
  size_t max_body_bytes = 4 << 20;  // larger requests get 413
  // What one request may make the front hold before a handler runs: the
  // bytes of its request line (414) and of each header (431), its headers
  // (431), the time from its first byte to the end of its body and its
  // average rate after its first 2 s (408); and
  // the connections one client address may hold at once (429; 0: any).
  size_t max_line_bytes = 8192;
  int max_headers = 100;
  size_t max_header_bytes = 65536;
  int64_t request_timeout_ms = 30000;
  int min_request_rate = 1024;  // bytes a second after a request's first 2 s (408; 0: none)
  int max_connections_per_address = 0;
  std::vector<std::string> cors_origins;  // origins allowed; none by default
  // The names a request's Host may give besides IP literals and localhost
  // ("*": any); another gets 421, so that a page of another site whose name
  // it rebinds to this server's address cannot call it.
  std::vector<std::string> allowed_hosts;
  // Searching calls: the most one client address may run at once (429; 0:
  // any), and the longest one may run (its deadline cut to it; 0: no cap).
  // A call with `Authorization: Bearer <search_token>` (when set) is
  // neither counted nor capped.
  int max_searches_per_address = 0;
  int64_t max_search_ms = 0;
  std::string search_token;
  // GET /metrics on this front; and, when `metrics_address` (host:port) is
  // set, on a listener of its own that serves nothing else.
  bool metrics_on_front = true;
  std::string metrics_address;
  // The web board's files: the ones built in (web/) when empty, else read
  // from this folder at each request (for working on the board).
  std::string web_dir;
};

// OK when `config` can be served: host:port with a port of 0..65535, and
// the thread, connection and idle limits in range; else an InvalidArgument
// naming the flag (--http, --http_threads, ...).
absl::Status CheckConnectConfig(const ConnectConfig& config);

class ConnectServer {
 public:
  // Starts listening and serving on a thread of its own; an error when the
  // address cannot be bound (a taken port included).
  static absl::StatusOr<std::unique_ptr<ConnectServer>> Start(const ConnectConfig& config,
                                                              Api* service);
  // A front that does not listen, for ServeBytes alone (the fuzzer).
  static std::unique_ptr<ConnectServer> Unbound(const ConnectConfig& config, Api* service);
  ~ConnectServer();

  // Answers the HTTP/1.1 requests in `bytes` (one connection's, kept
  // alive) through this front's routes and handlers with no socket
  // (GuardedServer::ServeBytes): the bytes it would write back.
  std::string ServeBytes(const std::string& bytes);

  int port() const { return port_; }
  // The port of the listener for /metrics alone (config.metrics_address), or 0.
  int metrics_port() const { return metrics_port_; }
  // The first step of a drain: the listening socket closes, connections
  // kept alive and idle are closed, and a connection serving a call closes
  // once its answer is written. Calls in flight go on. Idempotent.
  void StopTaking();
  // StopTaking(), then waits for the calls in flight until `deadline`; the
  // connections still open then are shut. False when some of them were
  // still held by their threads half a second later (a call that ignores
  // its end): the caller should then exit without destroying this object.
  // Idempotent.
  bool Shutdown(std::chrono::steady_clock::time_point deadline =
                    std::chrono::steady_clock::time_point::max());

  // Prometheus text: requests, errors and latency by front (gRPC and
  // Connect) and method, searches running.
  std::string MetricsText() const;

 private:
  struct Methods;
  ConnectServer(const ConnectConfig& config, Api* service);
  // The routes, in named steps: the refusals before any handler (Host,
  // framing, bodies sent where none is read), /metrics and the web board,
  // and the methods.
  void Route();
  void RouteGuards();
  bool RefuseEarly(const httplib::Request& req, httplib::Response& res);
  void RouteFiles();
  void ServeWebFile(const httplib::Request& req, httplib::Response& res) const;
  void Cors(const httplib::Request& req, httplib::Response& res) const;
  absl::Status CheckCall(const std::string& method, const std::string& type) const;
  absl::Status ReadBody(const httplib::Request& req, httplib::Response& res,
                        const httplib::ContentReader& content, std::string* body) const;
  void ServeMethod(const httplib::Request& req, httplib::Response& res,
                   const httplib::ContentReader& content);
  void ServeStream(httplib::Response& res, const std::string& type, const std::string& body,
                   const CallControl& call, std::shared_ptr<void> slot,
                   std::chrono::steady_clock::time_point start);
  // A searching call's share of its address (held until the search ends)
  // and its deadline cut to the cap; RESOURCE_EXHAUSTED when the address
  // runs its most.
  absl::StatusOr<std::shared_ptr<void>> TakeSearch(const httplib::Request& req, CallControl* call);
  void Count(const std::string& method, const std::string& code, double seconds);
  // Shuts (shutdown(2), `how`) this front's accepted connections, all of
  // them or only those not serving a call.
  void ShutConnections(int how, bool idle_only);
  // Every 100 ms until stopped: closes the connections that have not served
  // a request for config_.idle_timeout_ms.
  void WatchIdle();

  ConnectConfig config_;
  Api* service_;
  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<bool> stopped_{false};
  std::atomic<bool> listening_{false};  // until listen_after_bind returns
  bool joined_ = false;
  // The connections serving a request now, by peer address and port: from
  // the request's headers to the end of its answer.
  std::mutex busy_mu_;
  std::multiset<std::pair<std::string, int>> busy_;
  std::thread idle_watch_;
  std::shared_ptr<const Methods> methods_;
  // Starts the listener for /metrics alone.
  absl::Status StartMetrics();
  std::unique_ptr<httplib::Server> metrics_http_;
  std::thread metrics_thread_;
  int metrics_port_ = 0;
  std::mutex searches_mu_;
  std::map<std::string, int> searches_;  // searching calls running, by client address
};

}  // namespace uckers
