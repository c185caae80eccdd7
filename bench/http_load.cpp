// Load generator for the Connect front (`uckers serve --http`): requests per
// second and p50/p99 latency of ListLegalPlays or BestMove over HTTP/1.1 with
// JSON bodies, from N concurrent clients, each on its own keep-alive
// connection, against a server already running.
//
//   build/uckers serve --http 127.0.0.1:8080 --http_threads 32 &
//   build/bench/http_load --port 8080 --clients 1,4,16
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "httplib.h"

ABSL_FLAG(std::string, host, "127.0.0.1", "the server's host");
ABSL_FLAG(int, port, 8080, "the server's --http port");
ABSL_FLAG(std::string, rpc, "list", "list (ListLegalPlays) or best (BestMove)");
ABSL_FLAG(std::string, clients, "1,4,16", "concurrent clients, comma-separated");
ABSL_FLAG(double, seconds, 3.0, "duration of each run");
ABSL_FLAG(int, movetime, 0,
          "BestMove movetime in ms, spent by the search (0: none, the level's depth 2)");

namespace {

using Clock = std::chrono::steady_clock;

struct Run {
  int64_t calls = 0;
  int64_t errors = 0;
  std::vector<double> latency_ms;
};

// One client: calls `method` with `body` until `end`, keeping one connection.
Run Client(const std::string& method, const std::string& body, Clock::time_point end) {
  httplib::Client client(absl::GetFlag(FLAGS_host), absl::GetFlag(FLAGS_port));
  client.set_keep_alive(true);
  client.set_tcp_nodelay(true);
  Run run;
  std::string path = absl::StrCat("/uckers.v1.Engine/", method);
  while (Clock::now() < end) {
    auto start = Clock::now();
    auto res = client.Post(path.c_str(), body, "application/json");
    run.latency_ms.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    ++run.calls;
    if (!res || res->status != 200) ++run.errors;
  }
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  bool best = absl::GetFlag(FLAGS_rpc) == "best";
  if (!best && absl::GetFlag(FLAGS_rpc) != "list") {
    std::fprintf(stderr, "http_load: --rpc is list or best\n");
    return 2;
  }
  std::string position = R"("position":{"ufen":"b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -"})";
  std::string body = absl::StrCat("{", position, R"(,"throw":{"die1":6,"die2":3})");
  if (best && absl::GetFlag(FLAGS_movetime) > 0)
    absl::StrAppend(&body, R"(,"limits":{"movetimeMs":)", absl::GetFlag(FLAGS_movetime), "}");
  body += "}";
  std::string method = best ? "BestMove" : "ListLegalPlays";
  for (absl::string_view text : absl::StrSplit(absl::GetFlag(FLAGS_clients), ',')) {
    int n = 0;
    if (!absl::SimpleAtoi(text, &n) || n < 1) {
      std::fprintf(stderr, "http_load: bad --clients\n");
      return 2;
    }
    auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(absl::GetFlag(FLAGS_seconds)));
    std::vector<Run> runs(n);
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i) {
      threads.emplace_back([&, i] { runs[i] = Client(method, body, end); });
    }
    for (std::thread& t : threads) t.join();
    Run all;
    for (const Run& r : runs) {
      all.calls += r.calls;
      all.errors += r.errors;
      all.latency_ms.insert(all.latency_ms.end(), r.latency_ms.begin(), r.latency_ms.end());
    }
    std::sort(all.latency_ms.begin(), all.latency_ms.end());
    auto at = [&](double q) {
      return all.latency_ms.empty()
                 ? 0.0
                 : all.latency_ms[static_cast<size_t>(q * (all.latency_ms.size() - 1))];
    };
    std::printf("%s clients %d calls %lld errors %lld req/s %.0f p50 %.2f ms p99 %.2f ms\n",
                method.c_str(), n, static_cast<long long>(all.calls),
                static_cast<long long>(all.errors), all.calls / absl::GetFlag(FLAGS_seconds),
                at(0.5), at(0.99));
  }
  return 0;
}
