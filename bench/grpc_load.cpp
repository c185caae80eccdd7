// Load generator for the gRPC service: queries per second and p50/p99
// latency of ListLegalPlays and BestMove at 1, 4 and 16 concurrent clients.
// By default it starts its own `uckers serve` replicas on loopback and
// spreads calls over them with gRPC's client-side round_robin balancing;
// --target points it at servers already running instead (an address list
// `ipv4:127.0.0.1:50051,127.0.0.1:50052` or a DNS name `dns:///uckers:50051`).
//
//   build/bench/grpc_load --replicas 1
//   build/bench/grpc_load --replicas 3 --rpc best --clients 2,4
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "grpcpp/create_channel.h"
#include "uckers/v1/engine.grpc.pb.h"

ABSL_FLAG(std::string, uckers, "",
          "the uckers binary, to start replicas (default: the one built beside this "
          "program, ../uckers)");
ABSL_FLAG(int, replicas, 1, "local `uckers serve` replicas to start (0 with --target)");
ABSL_FLAG(std::string, target, "", "servers already running, instead of starting replicas");
ABSL_FLAG(std::string, rpc, "both",
          "list, best, both, or mix: --max_searches BestMove clients searching to their "
          "movetime while the --clients ListLegalPlays clients are measured");
ABSL_FLAG(int, max_searches, 64, "the replicas' --max_searches (mix: also its searching clients)");
ABSL_FLAG(std::string, clients, "1,4,16", "concurrent clients, comma-separated");
ABSL_FLAG(double, seconds, 3.0, "duration of each run");
ABSL_FLAG(int, movetime, 0,
          "BestMove movetime in ms, spent by the search (0: none, the default level's depth)");
ABSL_FLAG(std::string, best_clients, "1,2,4", "concurrent clients for BestMove");
ABSL_FLAG(int, channels, 1, "client channels the clients share (round_robin in each)");

namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kUfen = "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -";

struct Replica {
  pid_t pid;
  int port;
};

// The --uckers binary, or the one in the same build tree as this program,
// so that the load generator runs from any directory.
std::string UckersBinary() {
  std::string flag = absl::GetFlag(FLAGS_uckers);
  if (!flag.empty()) return flag;
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "uckers";
  return (self.parent_path().parent_path() / "uckers").string();
}

// Starts `uckers serve` on a system-chosen port and reads the port it reports.
Replica StartReplica(const std::string& uckers) {
  int err[2];
  if (pipe(err) != 0) std::abort();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(err[1], STDERR_FILENO);
    close(err[0]);
    close(err[1]);
    std::string searches = std::to_string(absl::GetFlag(FLAGS_max_searches));
    execl(uckers.c_str(), uckers.c_str(), "serve", "--address", "127.0.0.1:0", "--max_searches",
          searches.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(err[1]);
  std::string line;
  char c;
  while (read(err[0], &c, 1) == 1 && c != '\n') line += c;
  // The replica's later lines are read and dropped till it exits.
  std::thread([fd = err[0]] {
    char buffer[4096];
    while (read(fd, buffer, sizeof buffer) > 0) {
    }
    close(fd);
  }).detach();
  size_t at = line.find("(port ");
  int port = 0;
  if (at == std::string::npos ||
      !absl::SimpleAtoi(line.substr(at + 6, line.find(')', at) - at - 6), &port)) {
    std::cerr << "grpc_load: replica did not start: " << line << "\n";
    std::exit(1);
  }
  return {pid, port};
}

double CpuSeconds(pid_t pid) {
  std::ifstream stat(absl::StrCat("/proc/", pid, "/stat"));
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  std::vector<std::string> f = absl::StrSplit(text.substr(text.rfind(')') + 2), ' ');
  double ticks = std::stod(f[11]) + std::stod(f[12]);  // utime + stime
  return ticks / sysconf(_SC_CLK_TCK);
}

struct RunResult {
  double qps = 0, p50_ms = 0, p99_ms = 0;
  long calls = 0, errors = 0;
};

// `clients` callers of `rpc` for `seconds`; with `searchers` > 0, that many
// more BestMove callers run alongside, unmeasured but for their errors.
RunResult Run(const std::string& target, const std::string& rpc, int clients, double seconds,
              int movetime, int searchers = 0, long* search_errors = nullptr) {
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int i = 0; i < std::max(1, absl::GetFlag(FLAGS_channels)); ++i) {
    grpc::ChannelArguments args;
    args.SetLoadBalancingPolicyName("round_robin");
    args.SetInt("grpc.use_local_subchannel_pool", 1);  // connections of its own
    channels.push_back(grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
  }
  std::vector<std::vector<double>> latencies(clients + searchers);
  std::atomic<long> errors{0};
  std::atomic<long> searcher_errors{0};
  std::mutex first_error_mu;
  std::string first_error;
  auto end = Clock::now() + std::chrono::duration<double>(seconds);
  std::vector<std::thread> threads;
  for (int i = 0; i < clients + searchers; ++i) {
    bool searcher = i >= clients;
    threads.emplace_back([&, i, searcher] {
      auto stub = uckers::v1::Engine::NewStub(channels[i % channels.size()]);
      uckers::v1::ListLegalPlaysRequest list;
      list.mutable_position()->set_ufen(kUfen);
      list.mutable_throw_()->set_die1(6);
      list.mutable_throw_()->set_die2(3);
      uckers::v1::BestMoveRequest best;
      *best.mutable_position() = list.position();
      *best.mutable_throw_() = list.throw_();
      if (movetime > 0) best.mutable_limits()->set_movetime_ms(movetime);
      while (Clock::now() < end) {
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
        auto start = Clock::now();
        grpc::Status s;
        if (rpc == "list" && !searcher) {
          uckers::v1::ListLegalPlaysResponse r;
          s = stub->ListLegalPlays(&ctx, list, &r);
        } else {
          uckers::v1::BestMoveResponse r;
          s = stub->BestMove(&ctx, best, &r);
        }
        double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        if (searcher) {
          if (!s.ok()) ++searcher_errors;
        } else if (s.ok()) {
          latencies[i].push_back(ms);
        } else if (errors++ == 0) {
          std::lock_guard<std::mutex> lock(first_error_mu);
          if (first_error.empty()) first_error = s.error_message();
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  if (search_errors) *search_errors = searcher_errors;
  if (!first_error.empty()) std::cerr << "grpc_load: " << rpc << ": " << first_error << "\n";
  std::vector<double> all;
  for (auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  RunResult r;
  r.calls = static_cast<long>(all.size());
  r.errors = errors;
  r.qps = all.size() / seconds;
  if (!all.empty()) {
    r.p50_ms = all[all.size() / 2];
    r.p99_ms = all[std::min(all.size() - 1, all.size() * 99 / 100)];
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  std::vector<Replica> replicas;
  std::string target = absl::GetFlag(FLAGS_target);
  if (target.empty()) {
    std::vector<std::string> addresses;
    const std::string uckers = UckersBinary();
    for (int i = 0; i < absl::GetFlag(FLAGS_replicas); ++i) {
      replicas.push_back(StartReplica(uckers));
      addresses.push_back(absl::StrCat("127.0.0.1:", replicas.back().port));
    }
    target = absl::StrCat("ipv4:", absl::StrJoin(addresses, ","));
  }
  std::printf("target %s\n", target.c_str());
  std::printf("%-15s %8s %10s %9s %9s %8s\n", "rpc", "clients", "qps", "p50 ms", "p99 ms",
              "errors");
  std::string rpc = absl::GetFlag(FLAGS_rpc);
  auto sweep = [&](const std::string& name, const std::string& list) {
    for (absl::string_view c : absl::StrSplit(list, ',')) {
      int clients = 0;
      if (!absl::SimpleAtoi(c, &clients) || clients < 1) continue;
      RunResult r =
          Run(target, name, clients, absl::GetFlag(FLAGS_seconds), absl::GetFlag(FLAGS_movetime));
      std::printf("%-15s %8d %10.0f %9.2f %9.2f %8ld\n",
                  name == "list" ? "ListLegalPlays" : "BestMove", clients, r.qps, r.p50_ms,
                  r.p99_ms, r.errors);
      std::fflush(stdout);
    }
  };
  if (rpc == "mix") {
    // Cheap calls must not wait for searches.
    int searchers = absl::GetFlag(FLAGS_max_searches);
    for (absl::string_view c : absl::StrSplit(absl::GetFlag(FLAGS_clients), ',')) {
      int clients = 0;
      if (!absl::SimpleAtoi(c, &clients) || clients < 1) continue;
      long search_errors = 0;
      RunResult r = Run(target, "list", clients, absl::GetFlag(FLAGS_seconds),
                        absl::GetFlag(FLAGS_movetime), searchers, &search_errors);
      std::printf(
          "%-15s %8d %10.0f %9.2f %9.2f %8ld  (beside %d BestMove at movetime %d: %ld "
          "errors)\n",
          "ListLegalPlays", clients, r.qps, r.p50_ms, r.p99_ms, r.errors, searchers,
          absl::GetFlag(FLAGS_movetime), search_errors);
      std::fflush(stdout);
    }
  }
  if (rpc == "list" || rpc == "both") sweep("list", absl::GetFlag(FLAGS_clients));
  if (rpc == "best" || rpc == "both") sweep("best", absl::GetFlag(FLAGS_best_clients));
  for (const Replica& r : replicas) {
    std::printf("replica port %d: %.2f s of CPU\n", r.port, CpuSeconds(r.pid));
    kill(r.pid, SIGTERM);
    waitpid(r.pid, nullptr, 0);
  }
  return 0;
}
