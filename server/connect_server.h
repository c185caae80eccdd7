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
#include "server/config.h"

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
