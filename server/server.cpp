#include "server/server.h"

#include <signal.h>

#include <algorithm>
#include <iostream>
#include <mutex>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/stubs/logging.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/impl/server_builder_option.h"
#include "grpcpp/impl/server_builder_plugin.h"
#include "grpcpp/resource_quota.h"
#include "grpcpp/server_builder.h"

namespace uckers {
namespace {

constexpr char kServiceName[] = "uckers.v1.Engine";
// Threads for calls that do not search, apart from the searches' own: a
// burst of hundreds of cheap calls is served, not refused, beside a full
// house of searches.
constexpr int kCheapCallThreads = 1024;

constexpr int kLogLinesPerMinute = 10;

void RateLimitedLog(google::protobuf::LogLevel level, const char* filename, int line,
                    const std::string& message) {
  static std::mutex mu;
  static std::chrono::steady_clock::time_point window;
  static int lines = 0;
  static int64_t left_out = 0;
  static const char* const kLevels[] = {"INFO", "WARNING", "ERROR", "FATAL"};
  std::string extra;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto now = std::chrono::steady_clock::now();
    if (now - window >= std::chrono::minutes(1)) {
      window = now;
      lines = 0;
    }
    if (level != google::protobuf::LOGLEVEL_FATAL && lines >= kLogLinesPerMinute) {
      ++left_out;
      return;
    }
    ++lines;
    if (left_out > 0) extra = absl::StrCat(" (", left_out, " lines like it left out before)");
    left_out = 0;
  }
  std::cerr << "[libprotobuf " << kLevels[std::clamp(static_cast<int>(level), 0, 3)] << " "
            << filename << ":" << line << "] " << message << extra << std::endl;
}

}  // namespace

void LimitProtobufLogRate() {
  static std::once_flag once;
  std::call_once(once, [] { google::protobuf::SetLogHandler(&RateLimitedLog); });
}

namespace {

// Takes server reflection out of one server's plugins (the reflection
// plugin, once initialised, is added to every server of the process).
class WithoutReflection : public grpc::ServerBuilderOption {
 public:
  void UpdateArguments(grpc::ChannelArguments*) override {}
  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>* plugins) override {
    plugins->erase(std::remove_if(plugins->begin(), plugins->end(),
                                  [](const std::unique_ptr<grpc::ServerBuilderPlugin>& p) {
                                    return p->name() == "proto_server_reflection";
                                  }),
                   plugins->end());
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Server>> Server::Start(const ServerConfig& config) {
  LimitProtobufLogRate();
  std::unique_ptr<Server> s(new Server(config));
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  // gRPC lets a second server share a port (SO_REUSEPORT) by default, so
  // two engines would split the calls between them: refuse a taken port.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  if (!config.reflection) builder.SetOption(std::make_unique<WithoutReflection>());
  builder.AddListeningPort(config.address, grpc::InsecureServerCredentials(), &s->port_);
  builder.RegisterService(&s->service_);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> counting;
  counting.push_back(std::make_unique<MetricsInterceptorFactory>(&s->api_.metrics()));
  builder.experimental().SetInterceptorCreators(std::move(counting));
  builder.SetMaxReceiveMessageSize(config.max_message_bytes);
  builder.SetMaxSendMessageSize(config.max_message_bytes);
  // Enough threads that a long search never starves short calls: searches
  // are capped by max_searches, the rest serve quick calls.
  grpc::ResourceQuota quota("uckers");
  quota.SetMaxThreads(4 * config.limits.max_searches + kCheapCallThreads);
  builder.SetResourceQuota(quota);
  s->server_ = builder.BuildAndStart();
  if (!s->server_ || s->port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", config.address, " (address taken or invalid)"));
  }
  // Health by the empty name (the server) and by the service's own name,
  // as load balancers and Kubernetes probes ask for either.
  s->server_->GetHealthCheckService()->SetServingStatus(true);
  s->server_->GetHealthCheckService()->SetServingStatus(kServiceName, true);
  return s;
}

Server::~Server() { Shutdown(); }

std::chrono::milliseconds SearchStopLead(int64_t grace_ms) {
  return std::chrono::milliseconds(std::min<int64_t>(250, grace_ms / 4));
}

void Server::BeginDrain() {
  if (!server_ || draining_.exchange(true)) return;
  grace_end_ = std::chrono::system_clock::now() + std::chrono::milliseconds(config_.grace_ms);
  server_->GetHealthCheckService()->SetServingStatus(false);
  api_.Drain(grace_end_ - SearchStopLead(config_.grace_ms));
}

void Server::Shutdown() {
  if (shut_down_ || !server_) return;
  shut_down_ = true;
  BeginDrain();
  server_->Shutdown(grace_end_);
}

void Server::Wait() {
  if (server_) server_->Wait();
}

namespace {

using grpc::experimental::InterceptionHookPoints;

// Times one call from its start to the status it sends.
class MetricsInterceptor : public grpc::experimental::Interceptor {
 public:
  MetricsInterceptor(grpc::experimental::ServerRpcInfo* info, CallMetrics* metrics)
      : metrics_(metrics), start_(std::chrono::steady_clock::now()) {
    std::string name = info->method();
    constexpr char kEngine[] = "/uckers.v1.Engine/";
    // An Engine method by its short name, any other by its full name (a
    // short name elsewhere, "/BestMove", is no Engine method): names the
    // server does not serve are counted as "unknown" (MetricsMethodName).
    if (absl::StartsWith(name, kEngine)) {
      method_ = name.substr(sizeof kEngine - 1);
    } else if (absl::StartsWith(name, "/") && name.find('/', 1) != std::string::npos) {
      method_ = name.substr(1);
    } else {
      method_ = "unknown";
    }
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      grpc::Status status = methods->GetSendStatus();
      double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      metrics_->Count(
          "grpc", method_,
          status.ok() ? "" : StatusCodeName(static_cast<absl::StatusCode>(status.error_code())),
          seconds);
    }
    methods->Proceed();
  }

 private:
  CallMetrics* metrics_;
  std::string method_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

grpc::experimental::Interceptor* MetricsInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  return new MetricsInterceptor(info, metrics_);
}

}  // namespace uckers
