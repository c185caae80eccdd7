#include "service/server.h"

#include <signal.h>

#include <iostream>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "game/facade.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/resource_quota.h"
#include "grpcpp/server_builder.h"

namespace uckers {
namespace {

constexpr char kServiceName[] = "uckers.v1.Engine";
// Threads for calls that do not search, apart from the searches' own: a
// burst of hundreds of cheap calls is served, not refused, beside a full
// house of searches (issue 30 A5).
constexpr int kCheapCallThreads = 1024;

}  // namespace

absl::StatusOr<std::unique_ptr<EngineServer>> EngineServer::Start(const ServerConfig& config) {
  std::unique_ptr<EngineServer> s(new EngineServer(config));
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  // gRPC lets a second server share a port (SO_REUSEPORT) by default, so
  // two engines would split the calls between them: refuse a taken port.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.AddListeningPort(config.address, grpc::InsecureServerCredentials(), &s->port_);
  builder.RegisterService(&s->service_);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> counting;
  counting.push_back(std::make_unique<MetricsInterceptorFactory>(&s->service_.metrics()));
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

EngineServer::~EngineServer() { Shutdown(); }

void EngineServer::Shutdown() {
  if (shut_down_ || !server_) return;
  shut_down_ = true;
  server_->GetHealthCheckService()->SetServingStatus(false);
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(config_.grace_ms));
}

void EngineServer::Wait() {
  if (server_) server_->Wait();
}

}  // namespace uckers
