#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "httplib.h"

// An httplib::Server (0.11) that reads each connection through a stream of
// its own, which bounds what a client can make it hold before a handler
// runs: httplib 0.11 buffers a request line or a header until its newline
// with no limit, counts no headers, and lets a body trickle in for as long
// as each byte comes within the read timeout. The stream counts the bytes
// of the request line and of each header as httplib reads them, and the
// headers, and gives each request (its headers and its body) a deadline
// and a minimum average rate;
// past a bound it answers 414, 431 or 408 itself (a Connect error body,
// `Connection: close`), swallows whatever httplib would write after, and
// the connection is closed. It also bounds the connections one client
// address may hold at once (429).
namespace uckers {

struct HttpLimits {
  size_t max_line_bytes = 8192;        // the request line (414) and each header line (431)
  int max_headers = 100;               // header lines of a request (431)
  size_t max_header_bytes = 65536;     // the request line and headers together (431)
  int64_t request_timeout_ms = 30000;  // first byte to the body's end (408)
  // After its first 2 s a request must have come at this rate on average
  // (408; 0: no minimum): a trickle is cut in seconds, a large body on a
  // slow link is not.
  int min_bytes_per_second = 1024;
  int max_connections_per_address = 0;  // at once, by peer address; 0: no limit (429)
  // What is read and dropped, at most, of a request the front answered
  // without reading its body, before the connection closes (for at most 2 s).
  size_t linger_bytes = 64u << 20;
};

class GuardedServer : public httplib::Server {
 public:
  explicit GuardedServer(const HttpLimits& limits) : limits_(limits) {}

  // Serves the requests in `bytes` one after another, as httplib serves a
  // kept-alive connection from 127.0.0.1, with no socket: what it writes
  // back. The parsing, routing and handlers are the front's own, and so
  // are the bounds of the request line and headers (414, 431); the
  // deadline and the rate, which need time to pass, are not applied. For
  // the fuzzer (fuzz/connect_fuzz.cpp) and tests.
  std::string ServeBytes(const std::string& bytes);

 private:
  // httplib's per-connection loop (keep-alive included) over a bounded
  // stream: called on a thread of the task queue for each accepted socket.
  bool process_and_close_socket(int sock) override;
  // Waits until a request's first byte (or the end of the stream) can be
  // read, for at most the keep-alive timeout; false if none came or the
  // server stopped.
  bool AwaitRequest(int sock, bool buffered) const;
  // Takes one of `address`'s connections; false when it holds its most.
  bool TakeAddress(const std::string& address);
  void ReleaseAddress(const std::string& address);

  const HttpLimits limits_;
  std::mutex mu_;
  std::map<std::string, int> per_address_;
};

// The Connect error body `{"code": ..., "message": ...}` of a refusal made
// before any handler ran (the message plain ASCII, no quote or backslash).
std::string EarlyErrorJson(const char* code, const std::string& message);

}  // namespace uckers
