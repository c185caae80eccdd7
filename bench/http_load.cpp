// Load generator for the Connect front (`uckers serve --http`): requests per
// second and p50/p99 latency of ListLegalPlays or BestMove over HTTP/1.1 with
// JSON bodies, from N concurrent clients, each on its own keep-alive
// connection, against a server already running.
//
//   build/uckers serve --http 127.0.0.1:8080 --http_threads 32 &
//   build/bench/http_load --port 8080 --clients 1,4,16
//
// Beside the clients, --idle N sockets that connect and send nothing,
// --slowloris N sockets that send a request header one byte a second and
// never finish it, --slowbody N that send their headers and then a body a
// byte a second, and --nonewline N that send a request line with no
// newline as fast as 64 KiB every 50 ms (each reopened when the server
// closes it): how slow, idle and hostile clients affect the others. With
// --pid, the server's memory before and after.
//
//   build/bench/http_load --port 8080 --clients 1,16 --idle 1000 --slowloris 50
//   build/bench/http_load --port 8080 --clients 16 --slowbody 50 --nonewline 4 --pid PID
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
ABSL_FLAG(int, slowbody, 0,
          "sockets beside the clients sending a request's headers at once, then its body "
          "(1 MB declared) a byte a second");
ABSL_FLAG(int, nonewline, 0,
          "sockets beside the clients sending a request line with no newline, 64 KiB every "
          "50 ms each");
ABSL_FLAG(int, pid, 0, "the server's process id: its memory (VmRSS, VmHWM) is printed");
ABSL_FLAG(double, warmup, 2.0, "seconds between opening the idle/slow sockets and measuring");
ABSL_FLAG(std::string, level, "", "BestMove's level (options.level; empty: the server's default)");
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
  Abusers(int idle, int slow, int body, int line)
      : idle_(idle, -1), slow_(slow, -1), sent_(slow, 0), body_(body, -1), line_(line, -1) {
    thread_ = std::thread([this] { Run(); });
  }
  ~Abusers() {
    stop_ = true;
    thread_.join();
    for (int fd : idle_) close(fd);
    for (int fd : slow_) close(fd);
    for (int fd : body_) close(fd);
    for (int fd : line_) close(fd);
  }
  int64_t line_bytes() const { return line_bytes_; }
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
      SlowBodies(tick);
      NoNewlines();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  void Reopen(int& fd) {
    close(fd);
    fd = -1;
    ++reopened_;
  }
  void SlowBodies(bool tick) {
    const std::string head =
        "POST /uckers.v1.Engine/ListLegalPlays HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n";
    for (int& fd : body_) {
      if (fd >= 0 && tick && send(fd, " ", 1, MSG_NOSIGNAL | MSG_DONTWAIT) != 1) Reopen(fd);
      if (fd >= 0 && Closed(fd)) Reopen(fd);
      if (fd < 0 && (fd = Open()) >= 0) send(fd, head.data(), head.size(), MSG_NOSIGNAL);
    }
  }
  void NoNewlines() {
    static const std::string piece = "GET /" + std::string(64 << 10, 'a');
    for (int& fd : line_) {
      if (fd >= 0) {
        ssize_t n = send(fd, piece.data(), piece.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) line_bytes_ += n;
        if ((n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || Closed(fd)) Reopen(fd);
      }
      if (fd < 0) fd = Open();
    }
  }

  std::vector<int> idle_, slow_;
  std::vector<size_t> sent_;
  std::vector<int> body_, line_;
  std::atomic<int64_t> line_bytes_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> reopened_{0};
  std::thread thread_;
};

// The server's VmRSS and VmHWM (with --pid).
void PrintMemory(const char* when) {
  if (absl::GetFlag(FLAGS_pid) <= 0) return;
  std::FILE* f =
      std::fopen(absl::StrCat("/proc/", absl::GetFlag(FLAGS_pid), "/status").c_str(), "r");
  if (!f) return;
  char line[256];
  std::string out;
  while (std::fgets(line, sizeof line, f)) {
    std::string l(line);
    if (l.rfind("VmRSS:", 0) == 0 || l.rfind("VmHWM:", 0) == 0) {
      out += " " + l.substr(0, l.size() - 1);
    }
  }
  std::fclose(f);
  std::printf("server memory %s:%s\n", when, out.c_str());
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
  if (best && !absl::GetFlag(FLAGS_level).empty())
    absl::StrAppend(&body, R"(,"options":{"level":")", absl::GetFlag(FLAGS_level), R"("})");
  body += "}";
  std::string method = best ? "BestMove" : "ListLegalPlays";
  std::unique_ptr<Abusers> abusers;
  PrintMemory("before");
  if (absl::GetFlag(FLAGS_idle) > 0 || absl::GetFlag(FLAGS_slowloris) > 0 ||
      absl::GetFlag(FLAGS_slowbody) > 0 || absl::GetFlag(FLAGS_nonewline) > 0) {
    abusers =
        std::make_unique<Abusers>(absl::GetFlag(FLAGS_idle), absl::GetFlag(FLAGS_slowloris),
                                  absl::GetFlag(FLAGS_slowbody), absl::GetFlag(FLAGS_nonewline));
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
        "beside %d idle, %d slowloris, %d slow-body and %d no-newline sockets (%lld reopened "
        "after the server closed them; %.1f MiB of request line sent)\n",
        absl::GetFlag(FLAGS_idle), absl::GetFlag(FLAGS_slowloris), absl::GetFlag(FLAGS_slowbody),
        absl::GetFlag(FLAGS_nonewline), static_cast<long long>(abusers->reopened()),
        abusers->line_bytes() / 1048576.0);
  }
  PrintMemory("after");
  return 0;
}
