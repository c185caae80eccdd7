#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "service/grpc_service.h"

namespace httplib {
class Server;
}

// The Connect protocol front (connectrpc.com/docs/protocol): the methods of
// uckers.v1.Engine over HTTP/1.1 as `POST /uckers.v1.Engine/<Method>`, with
// JSON (protobuf's canonical mapping) or binary protobuf bodies; Analyse as
// a Connect server stream; `Connect-Timeout-Ms` as the deadline; errors as
// Connect's JSON error body. It calls the same EngineService as gRPC: the
// same validation, search slots, deadline margin and cancellation. Also
// `GET /metrics` (Prometheus text), CORS for the origins configured, and
// the web board (web/) at `/`.
namespace uckers {

struct ConnectConfig {
  std::string address = "127.0.0.1:8080";  // host:port; port 0 picks one
  int threads = 16;                        // HTTP worker threads
  size_t max_body_bytes = 4 << 20;         // larger requests get 413
  std::vector<std::string> cors_origins;   // origins allowed; none by default
  // The web board's files: the ones built in (web/) when empty, else read
  // from this folder at each request (for working on the board).
  std::string web_dir;
};

class ConnectServer {
 public:
  // Starts listening and serving on a thread of its own; an error when the
  // address cannot be bound (a taken port included).
  static absl::StatusOr<std::unique_ptr<ConnectServer>> Start(const ConnectConfig& config,
                                                              EngineService* service);
  ~ConnectServer();

  int port() const { return port_; }
  // Stops accepting and waits for the calls in flight. Idempotent.
  void Shutdown();

  // Prometheus text: requests, errors and latency by front (gRPC and
  // Connect) and method, searches running.
  std::string MetricsText() const;

 private:
  ConnectServer(const ConnectConfig& config, EngineService* service);
  void Route();
  void Count(const std::string& method, const std::string& code, double seconds);

  ConnectConfig config_;
  EngineService* service_;
  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace uckers
