#include "server/http_guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>

#include "absl/strings/str_cat.h"

namespace uckers {
namespace {

using Steady = std::chrono::steady_clock;

// The time a request may take before the minimum rate counts.
constexpr int64_t kRateGraceMs = 2000;

// The text of a socket address and its port (inet_ntop's, as the rest of
// the Connect front compares them).
void AddressAndPort(const sockaddr_storage& a, std::string* text, int* port) {
  char buf[INET6_ADDRSTRLEN] = "";
  *port = -1;
  if (a.ss_family == AF_INET) {
    const auto& in = reinterpret_cast<const sockaddr_in&>(a);
    inet_ntop(AF_INET, &in.sin_addr, buf, sizeof buf);
    *port = ntohs(in.sin_port);
  } else if (a.ss_family == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a);
    inet_ntop(AF_INET6, &in6.sin6_addr, buf, sizeof buf);
    *port = ntohs(in6.sin6_port);
  }
  *text = buf;
}

void PeerOf(int sock, bool local, std::string* text, int* port) {
  sockaddr_storage a{};
  socklen_t n = sizeof a;
  int rc = local ? getsockname(sock, reinterpret_cast<sockaddr*>(&a), &n)
                 : getpeername(sock, reinterpret_cast<sockaddr*>(&a), &n);
  if (rc != 0) {
    *text = "";
    *port = -1;
    return;
  }
  AddressAndPort(a, text, port);
}

// poll(2) for `events` for at most `ms` (0 or more); > 0 when ready.
int PollFor(int sock, short events, int64_t ms) {
  pollfd p{sock, events, 0};
  int rc;
  do {
    rc = poll(&p, 1, static_cast<int>(std::clamp<int64_t>(ms, 0, 1 << 30)));
  } while (rc < 0 && errno == EINTR);
  return rc;
}

const char* Reason(int status) {
  switch (status) {
    case 408:
      return "Request Timeout";
    case 414:
      return "URI Too Long";
    case 429:
      return "Too Many Requests";
    default:
      return "Request Header Fields Too Large";  // 431
  }
}

// Writes all of `data` within `timeout_ms` in total, best effort.
void WriteAll(int sock, const std::string& data, int64_t timeout_ms) {
  auto end = Steady::now() + std::chrono::milliseconds(timeout_ms);
  size_t off = 0;
  while (off < data.size()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Steady::now());
    if (left.count() <= 0 || PollFor(sock, POLLOUT, left.count()) <= 0) return;
    ssize_t n = send(sock, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

// Answers `status` on `sock` and ends the sending side; then reads (and
// drops) what the client is still sending for a moment, so that closing
// with unread bytes does not reset the connection before the client has
// read the answer. At most 256 KiB and 500 ms.
// A lingering close's first half: no more writes, then what the client
// still sends is read and dropped, up to `bytes` or for `ms`, so that a
// client still writing a request reads the answer and not a reset.
void Linger(int sock, size_t bytes, int64_t ms) {
  shutdown(sock, SHUT_WR);
  auto end = Steady::now() + std::chrono::milliseconds(ms);
  char buf[16384];
  for (size_t dropped = 0; dropped < bytes;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Steady::now());
    if (left.count() <= 0 || PollFor(sock, POLLIN, left.count()) <= 0) break;
    ssize_t n = recv(sock, buf, sizeof buf, 0);
    if (n <= 0) break;
    dropped += static_cast<size_t>(n);
  }
}

// A refusal of the stream's own: the status, the Connect code, the message.
struct Refusal {
  int status = 0;
  const char* code = "";
  std::string message;
};

// The bounds of one request's line and headers (HttpLimits), counted as
// httplib reads them; the same for a socket's stream and for ServeBytes.
class HeaderBudget {
 public:
  explicit HeaderBudget(const HttpLimits& limits) : limits_(limits) {}

  // A request starts: its headers are counted from here.
  void Begin() {
    in_headers_ = true;
    line_ = 0;
    line_bytes_ = 0;
    header_bytes_ = 0;
  }
  bool in_headers() const { return in_headers_; }

  // Counts the header bytes about to be handed to httplib (`*n` of them,
  // cut at the end of the headers); the refusal when past a bound.
  std::optional<Refusal> Count(const char* p, size_t* n) {
    for (size_t i = 0; i < *n; ++i) {
      ++header_bytes_;
      if (p[i] == '\n') {
        if (line_ > 0 && line_bytes_ == 0) {  // the empty line: the body follows
          in_headers_ = false;
          *n = i + 1;
          return std::nullopt;
        }
        ++line_;
        line_bytes_ = 0;
      } else if (p[i] != '\r') {
        ++line_bytes_;
      }
      if (std::optional<Refusal> r = Past(); r) return r;
    }
    return std::nullopt;
  }

 private:
  std::optional<Refusal> Past() const {
    if (line_ == 0 && line_bytes_ > limits_.max_line_bytes) {
      return Refusal{414, "resource_exhausted",
                     absl::StrCat("the request line is longer than ", limits_.max_line_bytes,
                                  " bytes (--http_max_line_bytes)")};
    }
    if (line_ > 0 && line_bytes_ > limits_.max_line_bytes) {
      return Refusal{431, "resource_exhausted",
                     absl::StrCat("a request header is longer than ", limits_.max_line_bytes,
                                  " bytes (--http_max_line_bytes)")};
    }
    if (line_ > limits_.max_headers + 1 || (line_ == limits_.max_headers + 1 && line_bytes_ > 0)) {
      return Refusal{
          431, "resource_exhausted",
          absl::StrCat("more than ", limits_.max_headers, " request headers (--http_max_headers)")};
    }
    if (header_bytes_ > limits_.max_header_bytes) {
      return Refusal{431, "resource_exhausted",
                     absl::StrCat("the request line and headers are longer than ",
                                  limits_.max_header_bytes, " bytes (--http_max_header_bytes)")};
    }
    return std::nullopt;
  }

  const HttpLimits limits_;
  bool in_headers_ = true;
  int line_ = 0;  // lines ended so far: the request line is the first
  size_t line_bytes_ = 0, header_bytes_ = 0;
};

// The bytes of a refusal's answer (a Connect error body, closing).
std::string RefusalAnswer(const Refusal& r) {
  std::string body = EarlyErrorJson(r.code, r.message);
  return absl::StrCat("HTTP/1.1 ", r.status, " ", Reason(r.status),
                      "\r\nContent-Type: application/json\r\nContent-Length: ", body.size(),
                      "\r\nConnection: close\r\n\r\n", body);
}

void AnswerAndLinger(int sock, const Refusal& r, int64_t write_timeout_ms) {
  WriteAll(sock, RefusalAnswer(r), write_timeout_ms);
  Linger(sock, 256u << 10, 500);
}

// A connection's bytes as httplib reads and writes them, bounded: see
// http_guard.h. One for the connection's life (keep-alive included), so
// that bytes read ahead belong to the next request.
class GuardedStream : public httplib::Stream {
 public:
  GuardedStream(int sock, const HttpLimits& limits, int64_t read_timeout_ms,
                int64_t write_timeout_ms)
      : sock_(sock),
        limits_(limits),
        read_timeout_ms_(read_timeout_ms),
        write_timeout_ms_(write_timeout_ms),
        budget_(limits) {}

  // A request starts: its headers are counted from here, its deadline runs.
  void BeginRequest() {
    budget_.Begin();
    bytes_ = 0;
    start_ = Steady::now();
    deadline_ = start_ + std::chrono::milliseconds(limits_.request_timeout_ms);
  }
  bool refused() const { return refused_; }
  bool buffered() const { return off_ < size_; }

  bool is_readable() const override {
    return buffered() || (!refused_ && PollFor(sock_, POLLIN, read_timeout_ms_) > 0);
  }
  bool is_writable() const override {
    return refused_ || PollFor(sock_, POLLOUT, write_timeout_ms_) > 0;
  }

  ssize_t read(char* ptr, size_t size) override {
    if (refused_) return -1;
    if (!buffered()) {
      ssize_t n = Fill();
      if (n <= 0) return n;
    }
    size_t n = std::min(size, size_ - off_);
    if (budget_.in_headers()) {
      if (std::optional<Refusal> r = budget_.Count(buf_ + off_, &n); r) return Refuse(*r);
    }
    std::memcpy(ptr, buf_ + off_, n);
    off_ += n;
    bytes_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    // After a refusal the answer is written: what httplib adds is dropped.
    if (refused_) return static_cast<ssize_t>(size);
    if (PollFor(sock_, POLLOUT, write_timeout_ms_) <= 0) return -1;
    ssize_t n;
    do {
      n = send(sock_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    PeerOf(sock_, false, &ip, &port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    PeerOf(sock_, true, &ip, &port);
  }
  int socket() const override { return sock_; }

 private:
  // When the request must have come this far: its deadline, or sooner
  // when it comes slower than the minimum rate (after a grace).
  Steady::time_point Due() const {
    if (limits_.min_bytes_per_second <= 0) return deadline_;
    auto slow = start_ + std::chrono::milliseconds(kRateGraceMs) +
                std::chrono::milliseconds(static_cast<int64_t>(
                    bytes_ * 1000 / static_cast<uint64_t>(limits_.min_bytes_per_second)));
    return std::min(deadline_, slow);
  }

  // Reads what the socket has into the buffer, waiting at most the read
  // timeout and never past the request's due time (then 408).
  ssize_t Fill() {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(Due() - Steady::now());
    if (left.count() <= 0) return Refuse({408, "deadline_exceeded", Late()});
    int ready = PollFor(sock_, POLLIN, std::min<int64_t>(read_timeout_ms_, left.count()));
    if (ready == 0 && left.count() <= read_timeout_ms_) {
      return Refuse({408, "deadline_exceeded", Late()});
    }
    if (ready <= 0) return -1;
    ssize_t n;
    do {
      n = recv(sock_, buf_, sizeof buf_, 0);
    } while (n < 0 && errno == EINTR);
    off_ = 0;
    size_ = n > 0 ? static_cast<size_t>(n) : 0;
    return n;
  }

  std::string Late() const {
    if (Due() < deadline_) {
      return absl::StrCat("the request came slower than ", limits_.min_bytes_per_second,
                          " bytes a second (--http_min_request_rate)");
    }
    return absl::StrCat("the request (its headers and body) took longer than ",
                        limits_.request_timeout_ms, " ms (--http_request_timeout_ms)");
  }

  ssize_t Refuse(const Refusal& r) {
    refused_ = true;
    AnswerAndLinger(sock_, r, write_timeout_ms_);
    return -1;
  }

  const int sock_;
  const HttpLimits limits_;
  const int64_t read_timeout_ms_, write_timeout_ms_;
  char buf_[4096];
  size_t off_ = 0, size_ = 0;
  HeaderBudget budget_;
  Steady::time_point start_ = Steady::now();
  Steady::time_point deadline_ = Steady::time_point::max();
  uint64_t bytes_ = 0;  // handed to httplib since the request began
  bool refused_ = false;
};

// A connection's bytes in memory: reads `in` to its end, collects what is
// written.
// The line and header bounds apply as on a socket (HeaderBudget); time
// does not pass, so the deadline and the rate do not.
class MemoryStream : public httplib::Stream {
 public:
  MemoryStream(const std::string& in, const HttpLimits& limits) : in_(in), budget_(limits) {}
  bool at_end() const { return off_ >= in_.size(); }
  const std::string& out() const { return out_; }
  bool refused() const { return refused_; }
  void BeginRequest() { budget_.Begin(); }

  bool is_readable() const override { return !refused_ && !at_end(); }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    if (refused_) return -1;
    size_t n = std::min(size, in_.size() - off_);
    if (budget_.in_headers()) {
      if (std::optional<Refusal> r = budget_.Count(in_.data() + off_, &n); r) {
        refused_ = true;
        out_ += RefusalAnswer(*r);
        return -1;
      }
    }
    std::memcpy(ptr, in_.data() + off_, n);
    off_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    // After a refusal the answer is written: what httplib adds is dropped.
    if (!refused_) out_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 1;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 2;
  }
  int socket() const override { return -1; }

 private:
  const std::string& in_;
  size_t off_ = 0;
  std::string out_;
  HeaderBudget budget_;
  bool refused_ = false;
};

}  // namespace

std::string GuardedServer::ServeBytes(const std::string& bytes) {
  MemoryStream stream(bytes, limits_);
  for (size_t left = keep_alive_max_count_; left > 0 && !stream.at_end(); --left) {
    stream.BeginRequest();
    bool closed = false;
    if (!process_request(stream, left == 1, closed, nullptr) || closed || stream.refused()) break;
  }
  return stream.out();
}

std::string EarlyErrorJson(const char* code, const std::string& message) {
  return absl::StrCat("{\"code\":\"", code, "\",\"message\":\"", message, "\"}");
}

bool GuardedServer::AwaitRequest(int sock, bool buffered) const {
  if (buffered) return true;
  auto end = Steady::now() + std::chrono::seconds(keep_alive_timeout_sec_);
  while (svr_sock_ != INVALID_SOCKET) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Steady::now());
    if (left.count() <= 0) return false;
    int ready = PollFor(sock, POLLIN, std::min<int64_t>(left.count(), 100));
    if (ready != 0) return ready > 0;
  }
  return false;
}

bool GuardedServer::TakeAddress(const std::string& address) {
  std::lock_guard<std::mutex> lock(mu_);
  int& n = per_address_[address];
  if (limits_.max_connections_per_address > 0 && n >= limits_.max_connections_per_address) {
    if (n == 0) per_address_.erase(address);
    return false;
  }
  ++n;
  return true;
}

void GuardedServer::ReleaseAddress(const std::string& address) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = per_address_.find(address);
  if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
}

bool GuardedServer::process_and_close_socket(int sock) {
  const int64_t read_ms = read_timeout_sec_ * 1000 + read_timeout_usec_ / 1000;
  const int64_t write_ms = write_timeout_sec_ * 1000 + write_timeout_usec_ / 1000;
  std::string address;
  int port = -1;
  PeerOf(sock, false, &address, &port);
  bool ret = false;
  if (!TakeAddress(address)) {
    AnswerAndLinger(sock,
                    {429, "resource_exhausted",
                     absl::StrCat("this address holds ", limits_.max_connections_per_address,
                                  " connections already (--http_max_connections_per_address)")},
                    write_ms);
  } else {
    GuardedStream stream(sock, limits_, read_ms, write_ms);
    bool linger = false;
    for (size_t left = keep_alive_max_count_;
         left > 0 && svr_sock_ != INVALID_SOCKET && AwaitRequest(sock, stream.buffered()); --left) {
      stream.BeginRequest();
      bool closed = false;
      ret = process_request(stream, left == 1, closed, nullptr);
      if (!ret || closed || stream.refused()) {
        linger = !stream.refused();  // a refusal of the stream's has lingered
        break;
      }
    }
    // The front closes the connection after its answer: what the client
    // may still be sending (a body refused unread, 413) is read and dropped
    // first, so that the client reads the answer and not a reset.
    if (linger) Linger(sock, limits_.linger_bytes, 2000);
    ReleaseAddress(address);
  }
  shutdown(sock, SHUT_RDWR);
  close(sock);
  return ret;
}

}  // namespace uckers
