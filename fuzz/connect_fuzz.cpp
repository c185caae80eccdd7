// libFuzzer target: the Connect front's own handling of a connection's
// bytes (ConnectServer::ServeBytes, no socket): httplib's parsing of the
// request line, headers and bodies (Content-Length and chunked, kept-alive
// requests one after another) under the front's bounds of the request line
// and headers (414, 431: small here, so that inputs reach them; the
// deadline and rate need time and are not fuzzed), then the front's
// refusals (Host, framing,
// bodies where none is read), CORS, /metrics, the web board's files, and
// every method of uckers.v1.Engine as JSON or binary protobuf, unary or as
// a Connect stream, down through Api to the search. The first answer must
// be an HTTP response and not a 500 (a handler that threw); nothing may
// crash, hang or leak. Searches are cut to 5 ms by the front's own cap
// (max_search_ms) and to depth 2, 5,000 nodes by the service's.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "fuzz/fuzz_limits.h"
#include "google/protobuf/stubs/logging.h"
#include "server/api.h"
#include "server/connect_server.h"

namespace {

using namespace uckers;

ConnectServer& Front() {
  static ConnectServer* front = [] {
    google::protobuf::SetLogHandler(nullptr);
    static Api service(FuzzServiceLimits());
    ConnectConfig config;
    config.address = "127.0.0.1:0";
    config.max_body_bytes = 64 << 10;
    config.cors_origins = {"https://board.example"};
    config.allowed_hosts = {"uckers.example"};
    config.max_searches_per_address = 1;
    config.max_search_ms = 5;
    config.max_line_bytes = 512;
    config.max_headers = 16;
    return ConnectServer::Unbound(config, &service).release();
  }();
  return *front;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string out = Front().ServeBytes(bytes);
  // The first answer's status line (a later one may sit in a body that
  // echoes the client's bytes, so only the first is read).
  if (!out.empty() && (out.rfind("HTTP/1.1 ", 0) != 0 || out.rfind("HTTP/1.1 500 ", 0) == 0)) {
    std::abort();
  }
  return 0;
}
