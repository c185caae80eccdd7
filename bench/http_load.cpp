// Load generator for the Connect front (`uckers serve --http`): requests per
// second and p50/p99 latency of ListLegalPlays or BestMove over HTTP/1.1 with
// JSON bodies, from N concurrent clients, each on its own keep-alive
// connection, against a server already running.
//
//   build/uckers serve --http 127.0.0.1:8080 --http_threads 32 &
//   build/bench/http_load --port 8080 --clients 1,4,16
//
// Beside the clients, --idle N sockets that connect and send nothing and
// --slowloris N sockets that send a request header one byte a second and
// never finish it (each reopened when the server closes it): how slow and
// idle clients affect the others.
//
//   build/bench/http_load --port 8080 --clients 1,16 --idle 1000 --slowloris 50
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <memory>
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
ABSL_FLAG(int, idle, 0, "sockets held open beside the clients, sending nothing");
ABSL_FLAG(int, slowloris, 0,
          "sockets beside the clients sending a request header one byte a second");
ABSL_FLAG(double, warmup, 2.0, "seconds between opening the idle/slow sockets and measuring");
ABSL_FLAG(int, movetime, 0,
          "BestMove movetime in ms, spent by the search (0: none, the default level's depth)");

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

// A TCP connection to the server, or -1.
int Open() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(absl::GetFlag(FLAGS_port)));
  inet_pton(AF_INET, absl::GetFlag(FLAGS_host).c_str(), &addr.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// The idle and slowloris sockets, kept open (reopened when the server
// closes one) on a thread of their own until destroyed.
class Abusers {
 public:
  Abusers(int idle, int slow) : idle_(idle, -1), slow_(slow, -1), sent_(slow, 0) {
    thread_ = std::thread([this] { Run(); });
  }
  ~Abusers() {
    stop_ = true;
    thread_.join();
    for (int fd : idle_) close(fd);
    for (int fd : slow_) close(fd);
  }
  int64_t reopened() const { return reopened_; }

 private:
  static bool Closed(int fd) {
    char c;
    ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
  }
  void Run() {
    const std::string header = "POST /uckers.v1.Engine/ListLegalPlays HTTP/1.1\r\nHost: x\r\n" +
                               std::string("X-Slow: ") + std::string(100000, 'a');
    auto next_byte = Clock::now();
    while (!stop_) {
      for (int& fd : idle_) {
        if (fd >= 0 && Closed(fd)) {
          close(fd);
          fd = -1;
          ++reopened_;
        }
        if (fd < 0) fd = Open();
      }
      bool tick = Clock::now() >= next_byte;
      if (tick) next_byte += std::chrono::seconds(1);
      for (size_t i = 0; i < slow_.size(); ++i) {
        int& fd = slow_[i];
        if (fd >= 0 && tick &&
            send(fd, &header[sent_[i]++ % header.size()], 1, MSG_NOSIGNAL | MSG_DONTWAIT) != 1) {
          close(fd);
          fd = -1;
          ++reopened_;
        }
        if (fd < 0) {
          fd = Open();
          sent_[i] = 0;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  std::vector<int> idle_, slow_;
  std::vector<size_t> sent_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> reopened_{0};
  std::thread thread_;
};

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
  std::unique_ptr<Abusers> abusers;
  if (absl::GetFlag(FLAGS_idle) > 0 || absl::GetFlag(FLAGS_slowloris) > 0) {
    abusers = std::make_unique<Abusers>(absl::GetFlag(FLAGS_idle), absl::GetFlag(FLAGS_slowloris));
    std::this_thread::sleep_for(std::chrono::duration<double>(absl::GetFlag(FLAGS_warmup)));
  }
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
  if (abusers) {
    std::printf(
        "beside %d idle and %d slowloris sockets (%lld reopened after the server "
        "closed them)\n",
        absl::GetFlag(FLAGS_idle), absl::GetFlag(FLAGS_slowloris),
        static_cast<long long>(abusers->reopened()));
  }
  return 0;
}
