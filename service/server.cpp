#include "service/server.h"

#include <signal.h>

#include <iostream>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/resource_quota.h"
#include "grpcpp/server_builder.h"
#include "service/facade.h"

ABSL_FLAG(std::string, address, "127.0.0.1:50051", "address to listen on (host:port)");
ABSL_FLAG(int, max_searches, 8, "concurrent searches before RESOURCE_EXHAUSTED");
ABSL_FLAG(int, max_request_threads, 2, "search threads one request may ask for");
ABSL_FLAG(int, max_hash_mb, 64, "transposition table MiB one request may ask for");
ABSL_FLAG(int, tree_mb, 256, "MCTS tree MiB of each search (1..65536)");
ABSL_FLAG(int64_t, grace_ms, 5000, "on SIGTERM/SIGINT, time for calls in flight to finish");
ABSL_FLAG(int, max_message_bytes, 4 << 20, "largest request or response");

namespace uckers {

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
  builder.SetMaxReceiveMessageSize(config.max_message_bytes);
  builder.SetMaxSendMessageSize(config.max_message_bytes);
  // Enough threads that a long search never starves short calls: searches
  // are capped by max_searches, the rest serve quick calls.
  grpc::ResourceQuota quota("uckers");
  quota.SetMaxThreads(std::max(16, 4 * config.limits.max_searches));
  builder.SetResourceQuota(quota);
  s->server_ = builder.BuildAndStart();
  if (!s->server_ || s->port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", config.address, " (address taken or invalid)"));
  }
  s->server_->GetHealthCheckService()->SetServingStatus(true);
  return s;
}

EngineServer::~EngineServer() { Shutdown(); }

void EngineServer::Shutdown() {
  if (shut_down_ || !server_) return;
  shut_down_ = true;
  server_->GetHealthCheckService()->SetServingStatus(false);
  server_->Shutdown(std::chrono::system_clock::now() +
                    std::chrono::milliseconds(config_.grace_ms));
}

void EngineServer::Wait() {
  if (server_) server_->Wait();
}

int ServeMain(int argc, char** argv) {
  absl::SetProgramUsageMessage("uckers serve [--address 127.0.0.1:50051] [--max_searches N]");
  absl::ParseCommandLine(argc, argv);
  ServerConfig config;
  config.address = absl::GetFlag(FLAGS_address);
  config.limits.max_searches = absl::GetFlag(FLAGS_max_searches);
  config.limits.max_threads = absl::GetFlag(FLAGS_max_request_threads);
  config.limits.max_hash_mb = absl::GetFlag(FLAGS_max_hash_mb);
  config.limits.tree_mb = absl::GetFlag(FLAGS_tree_mb);
  config.grace_ms = absl::GetFlag(FLAGS_grace_ms);
  config.max_message_bytes = absl::GetFlag(FLAGS_max_message_bytes);
  if (config.limits.max_searches < 1 || config.limits.max_threads < 1 ||
      config.limits.max_hash_mb < 1 || config.grace_ms < 0 || config.max_message_bytes < 1024 ||
      config.limits.tree_mb < 1 || config.limits.tree_mb > facade::kMaxTreeMb) {
    std::cerr << "uckers serve: limits must be positive (message size >= 1024, tree_mb <= "
              << facade::kMaxTreeMb << ")\n";
    return 2;
  }
  // Signals are taken by sigwait in this thread, never by a handler.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  absl::StatusOr<std::unique_ptr<EngineServer>> server = EngineServer::Start(config);
  if (!server.ok()) {
    std::cerr << "uckers serve: " << server.status().message() << "\n";
    return 1;
  }
  std::cerr << "uckers serve: listening on " << config.address << " (port " << (*server)->port()
            << ")" << std::endl;
  int received = 0;
  sigwait(&signals, &received);
  std::cerr << "uckers serve: signal " << received << ", shutting down (grace "
            << config.grace_ms << " ms)" << std::endl;
  (*server)->Shutdown();
  (*server)->Wait();
  return 0;
}

}  // namespace uckers
