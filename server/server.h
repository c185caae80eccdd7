#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/server.h"
#include "grpcpp/support/server_interceptor.h"
#include "server/api.h"
#include "server/call_metrics.h"
#include "server/config.h"
#include "server/grpc_service.h"

namespace uckers {

// How long before the end of the grace period the searches in flight are
// stopped, so that they answer (with their best so far) before the calls
// still running are cancelled: a quarter of the grace, at most 250 ms.
std::chrono::milliseconds SearchStopLead(int64_t grace_ms);

// Lets protobuf's log lines (an ERROR for each request with invalid UTF-8
// in a string, for one) through at most 10 a minute, then one line saying
// how many were left out: a client cannot flood the log. Installed by
// Server::Start; FATAL lines always pass.
void LimitProtobufLogRate();

// Counts every gRPC call into `metrics` (installed by Server).
class MetricsInterceptorFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit MetricsInterceptorFactory(CallMetrics* metrics) : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;

 private:
  CallMetrics* metrics_;
};

// A running gRPC server: the Engine service (GrpcService over the server's
// Api, which the Connect front shares), the standard health service
// (grpc.health.v1, SERVING while up) and server reflection (unless
// config.reflection is false).
class Server {
 public:
  // Starts listening; an error when the address cannot be bound. With port
  // 0 the system picks one: see port().
  static absl::StatusOr<std::unique_ptr<Server>> Start(const ServerConfig& config);
  ~Server();

  int port() const { return port_; }
  // The transport-neutral service behind the gRPC front, for other fronts.
  Api& api() { return api_; }
  // The first step of a drain, at once: health goes NOT_SERVING, new
  // searches are refused (UNAVAILABLE), and the searches in flight, of every
  // front, are told to stop with their best so far just before the grace
  // period ends (SearchStopLead). Idempotent; Shutdown() does it too.
  void BeginDrain();
  // BeginDrain(), then new calls are refused, calls in flight get up to the
  // grace period, then the rest are cancelled. Blocks until done.
  void Shutdown();
  // Blocks until Shutdown() has finished.
  void Wait();

 private:
  explicit Server(const ServerConfig& config)
      : config_(config), api_(WithResponseCap(config)), service_(&api_) {}
  static ServiceLimits WithResponseCap(const ServerConfig& config) {
    ServiceLimits limits = config.limits;
    limits.max_response_bytes = config.max_message_bytes;
    return limits;
  }

  ServerConfig config_;
  Api api_;
  GrpcService service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  bool shut_down_ = false;
  std::atomic<bool> draining_{false};
  std::chrono::system_clock::time_point grace_end_;
};

}  // namespace uckers
