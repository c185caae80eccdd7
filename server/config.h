#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "server/api.h"

// The settings of `uckers serve`'s two fronts, declared once: the defaults
// here are the flags' defaults (app/serve.cpp), and the checks here are the
// flags' checks, naming the flag. Built without gRPC too, so that every
// build reads and checks the same flags.
namespace uckers {

// The gRPC front (server/server.h) and the service limits it serves under.
struct ServerConfig {
  std::string address = "127.0.0.1:50051";
  ServiceLimits limits;
  int max_message_bytes = 4 << 20;  // requests and responses
  int64_t grace_ms = 5000;          // in-flight calls may finish in this long
  // Server reflection (grpc.reflection.v1alpha): lets any client list and
  // describe the services; off on a public port.
  bool reflection = true;
};

// OK when `config` can be served: host:port with a port of 0..65535 (or a
// unix: path), and every limit in range; else an InvalidArgument naming the
// flag (--address, --max_searches, ...).
absl::Status CheckServerConfig(const ServerConfig& config);

// The Connect (HTTP/JSON) front (server/connect_server.h).
struct ConnectConfig {
  std::string address = "127.0.0.1:8080";  // host:port; port 0 picks one
  // Each connection is served by a thread of its own for its whole life
  // (httplib 0.11): `threads` start at once, more are added as connections
  // come, up to `max_connections` served at once (the rest wait).
  int threads = 16;
  int max_connections = 1024;
  // A connection not serving a request for this long (request headers
  // still arriving, or idle between requests) is closed: a slow client
  // cannot hold a thread for long.
  int64_t idle_timeout_ms = 10000;
  size_t max_body_bytes = 4 << 20;  // larger requests get 413
  // What one request may make the front hold before a handler runs: the
  // bytes of its request line (414) and of each header (431), its headers
  // (431), the time from its first byte to the end of its body and its
  // average rate after its first 2 s (408); and
  // the connections one client address may hold at once (429; 0: any).
  size_t max_line_bytes = 8192;
  int max_headers = 100;
  size_t max_header_bytes = 65536;
  int64_t request_timeout_ms = 30000;
  int min_request_rate = 1024;  // bytes a second after a request's first 2 s (408; 0: none)
  int max_connections_per_address = 0;
  std::vector<std::string> cors_origins;  // origins allowed; none by default
  // The names a request's Host may give besides IP literals and localhost
  // ("*": any); another gets 421, so that a page of another site whose name
  // it rebinds to this server's address cannot call it.
  std::vector<std::string> allowed_hosts;
  // Searching calls: the most one client address may run at once (429; 0:
  // any), and the longest one may run (its deadline cut to it; 0: no cap).
  // A call with `Authorization: Bearer <search_token>` (when set) is
  // neither counted nor capped.
  int max_searches_per_address = 0;
  int64_t max_search_ms = 0;
  std::string search_token;
  // GET /metrics on this front; and, when `metrics_address` (host:port) is
  // set, on a listener of its own that serves nothing else.
  bool metrics_on_front = true;
  std::string metrics_address;
  // The web board's files: the ones built in (web/) when empty, else read
  // from this folder at each request (for working on the board).
  std::string web_dir;
};

// OK when `config` can be served: host:port with a port of 0..65535, and
// the thread, connection and idle limits in range; else an InvalidArgument
// naming the flag (--http, --http_threads, ...).
absl::Status CheckConnectConfig(const ConnectConfig& config);

}  // namespace uckers
