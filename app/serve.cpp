// `uckers serve`: the gRPC service uckers.v1.Engine until SIGTERM or SIGINT
// (server/server.h), then a graceful drain. Without gRPC in the build
// (UCKERS_GRPC=OFF) it says so and exits 1.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "absl/flags/flag.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "search/search.h"
#include "server/config.h"

// The flags are the command's in every build, so that a build without gRPC
// reads them and says why it cannot serve (exit 1), rather than calling
// them unknown. Their defaults are the settings' own (server/config.h).
namespace {
const uckers::ServerConfig kGrpcDefaults;
const uckers::ConnectConfig kHttpDefaults;
}  // namespace

ABSL_FLAG(std::string, address, kGrpcDefaults.address, "address to listen on (host:port)");
ABSL_FLAG(int, max_searches, kGrpcDefaults.limits.max_searches,
          "concurrent searches before RESOURCE_EXHAUSTED");
ABSL_FLAG(int, max_request_threads, kGrpcDefaults.limits.max_threads,
          "search threads one request may ask for");
ABSL_FLAG(int, max_hash_mb, kGrpcDefaults.limits.max_hash_mb,
          "transposition table MiB one request may ask for");
ABSL_FLAG(int, tree_mb, kGrpcDefaults.limits.tree_mb, "MCTS tree MiB of each search (1..65536)");
ABSL_FLAG(int64_t, grace_ms, kGrpcDefaults.grace_ms,
          "on SIGTERM/SIGINT: health NOT_SERVING and no new calls at once; searches in flight "
          "answer their best so far within this long, then the process exits 0");
ABSL_FLAG(int, max_message_bytes, kGrpcDefaults.max_message_bytes,
          "largest request or response (HTTP: a larger body, chunked or not, gets 413)");
ABSL_FLAG(int, max_depth, kGrpcDefaults.limits.max_depth,
          "the deepest limits.depth one request may ask for");
ABSL_FLAG(int64_t, max_nodes, kGrpcDefaults.limits.max_nodes,
          "the most limits.nodes one request may ask for");
ABSL_FLAG(int64_t, max_movetime_ms, kGrpcDefaults.limits.max_movetime_ms,
          "the longest limits.movetime_ms one request may ask for");
ABSL_FLAG(int, max_dealt_games_per_address, kGrpcDefaults.limits.dealt_games.max_games_per_client,
          "dealt games one client address may hold at once, over both fronts (else "
          "RESOURCE_EXHAUSTED; 0: no limit)");
ABSL_FLAG(std::string, http, "",
          "also serve the Connect protocol (HTTP/JSON) on host:port (empty: no HTTP)");
ABSL_FLAG(int, http_threads, kHttpDefaults.threads,
          "HTTP threads started at once (1..1024); more are added as connections come");
ABSL_FLAG(int, http_max_connections, kHttpDefaults.max_connections,
          "HTTP connections served at once, a thread each (--http_threads..65536); more wait");
ABSL_FLAG(int64_t, http_idle_timeout_ms, kHttpDefaults.idle_timeout_ms,
          "close an HTTP connection that has not served a request for this long (slow request "
          "headers, idle keep-alive; at least 100)");
ABSL_FLAG(int, http_max_line_bytes, static_cast<int>(kHttpDefaults.max_line_bytes),
          "the longest HTTP request line (else 414) and request header (else 431), in bytes "
          "(256..1048576)");
ABSL_FLAG(int, http_max_headers, kHttpDefaults.max_headers,
          "the most header lines of an HTTP request (else 431)");
ABSL_FLAG(int, http_max_header_bytes, static_cast<int>(kHttpDefaults.max_header_bytes),
          "the most bytes of an HTTP request line and headers together (else 431)");
ABSL_FLAG(int64_t, http_request_timeout_ms, kHttpDefaults.request_timeout_ms,
          "the longest an HTTP request may take from its first byte to the end of its body "
          "(else 408 and the connection closed; at least 100)");
ABSL_FLAG(int, http_min_request_rate, kHttpDefaults.min_request_rate,
          "after its first 2 s, an HTTP request (headers and body) must have come at this many "
          "bytes a second on average, else 408 and the connection closed (0: no minimum)");
ABSL_FLAG(int, http_max_connections_per_address, kHttpDefaults.max_connections_per_address,
          "HTTP connections one client address may hold at once (else 429; 0: no limit)");
ABSL_FLAG(int, http_max_searches_per_address, kHttpDefaults.max_searches_per_address,
          "searching HTTP calls one client address may run at once (else 429; 0: no limit)");
ABSL_FLAG(int64_t, http_max_search_ms, kHttpDefaults.max_search_ms,
          "the longest a searching HTTP call may run: its deadline is cut to this (a search "
          "answers its best so far by then; 0: no cap)");
ABSL_FLAG(std::string, http_search_token_file, "",
          "a file holding a token (one word, 16 characters or more): HTTP calls with "
          "`Authorization: Bearer <token>` are exempt from --http_max_searches_per_address and "
          "--http_max_search_ms");
ABSL_FLAG(std::string, http_allowed_hosts, "",
          "names a request's Host may give besides IP literals and localhost, comma-separated "
          "(* for any); another Host gets 421");
ABSL_FLAG(std::string, http_metrics, "on",
          "GET /metrics: on (on the --http port), off, or host:port (a listener of its own)");
ABSL_FLAG(bool, grpc_reflection, kGrpcDefaults.reflection,
          "serve gRPC server reflection (any client may list and describe the services)");
ABSL_FLAG(std::string, http_cors_origins, "",
          "origins allowed to call over HTTP from a browser, comma-separated (none)");
ABSL_FLAG(std::string, dealer_key_file, "",
          "the key (64 hex digits) sealing dealt games' secrets, shared by replicas (empty: a "
          "key drawn at start)");
ABSL_FLAG(std::string, http_web, "",
          "serve the web board from this folder instead of the copy built in (for working on "
          "web/)");

#ifdef UCKERS_HAVE_GRPC
#include <grpc/support/log.h>
#include <malloc.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "dealer/dealer.h"
#include "engine/coach.h"
#include "record/text.h"
#include "rules/checked.h"
#include "rules/dice_sequence.h"
#include "server/connect_server.h"
#include "server/server.h"
#include "server/web_assets.h"
#include "server/web_integrity.h"

namespace uckers {

namespace {

// gRPC's own log lines (`E1126 ... chttp2_server.cc:...`) repeat, in a
// library's words, what the server then says in ours: kept off stderr
// unless GRPC_VERBOSITY asks for them.
void QuietGrpcLog(gpr_log_func_args*) {}

// The gRPC server's settings from the flags, checked: a usage error says
// what is wrong.
absl::Status GrpcConfigFromFlags(ServerConfig* out) {
  ServerConfig& config = *out;
  config.address = absl::GetFlag(FLAGS_address);
  config.limits.max_searches = absl::GetFlag(FLAGS_max_searches);
  config.limits.max_threads = absl::GetFlag(FLAGS_max_request_threads);
  config.limits.max_hash_mb = absl::GetFlag(FLAGS_max_hash_mb);
  config.limits.tree_mb = absl::GetFlag(FLAGS_tree_mb);
  config.grace_ms = absl::GetFlag(FLAGS_grace_ms);
  config.max_message_bytes = absl::GetFlag(FLAGS_max_message_bytes);
  config.limits.max_depth = absl::GetFlag(FLAGS_max_depth);
  config.limits.max_nodes = absl::GetFlag(FLAGS_max_nodes);
  config.limits.max_movetime_ms = absl::GetFlag(FLAGS_max_movetime_ms);
  config.reflection = absl::GetFlag(FLAGS_grpc_reflection);
  config.limits.dealt_games.max_games_per_client = absl::GetFlag(FLAGS_max_dealt_games_per_address);
  if (absl::Status s = CheckServerConfig(config); !s.ok()) return UsageError(s.message());
  return absl::OkStatus();
}

// The flags of the HTTP front, refused without --http.
constexpr const char* kHttpFlags[] = {"http_threads",
                                      "http_max_connections",
                                      "http_idle_timeout_ms",
                                      "http_max_line_bytes",
                                      "http_max_headers",
                                      "http_max_header_bytes",
                                      "http_request_timeout_ms",
                                      "http_min_request_rate",
                                      "http_max_connections_per_address",
                                      "http_max_searches_per_address",
                                      "http_max_search_ms",
                                      "http_search_token_file",
                                      "http_allowed_hosts",
                                      "http_metrics",
                                      "http_cors_origins",
                                      "http_web"};

// The HTTP front's settings from the flags, checked before anything
// listens, or what is wrong.
absl::Status HttpConfigFromFlags(const CommandLine& cl, const ServerConfig& grpc,
                                 ConnectConfig* out) {
  if (absl::GetFlag(FLAGS_http).empty()) {
    for (const char* flag : kHttpFlags) {
      if (cl.Given(flag)) {
        return UsageError(absl::StrCat("--", flag, ": a setting of the HTTP front; give --http"));
      }
    }
    return absl::OkStatus();
  }
  ConnectConfig& http = *out;
  http.address = absl::GetFlag(FLAGS_http);
  http.threads = absl::GetFlag(FLAGS_http_threads);
  http.max_connections = absl::GetFlag(FLAGS_http_max_connections);
  http.idle_timeout_ms = absl::GetFlag(FLAGS_http_idle_timeout_ms);
  http.max_line_bytes = static_cast<size_t>(absl::GetFlag(FLAGS_http_max_line_bytes));
  http.max_headers = absl::GetFlag(FLAGS_http_max_headers);
  http.max_header_bytes = static_cast<size_t>(absl::GetFlag(FLAGS_http_max_header_bytes));
  http.request_timeout_ms = absl::GetFlag(FLAGS_http_request_timeout_ms);
  http.min_request_rate = absl::GetFlag(FLAGS_http_min_request_rate);
  http.max_connections_per_address = absl::GetFlag(FLAGS_http_max_connections_per_address);
  http.max_searches_per_address = absl::GetFlag(FLAGS_http_max_searches_per_address);
  http.max_search_ms = absl::GetFlag(FLAGS_http_max_search_ms);
  http.max_body_bytes = static_cast<size_t>(grpc.max_message_bytes);
  http.web_dir = absl::GetFlag(FLAGS_http_web);
  http.cors_origins =
      absl::StrSplit(absl::GetFlag(FLAGS_http_cors_origins), ',', absl::SkipEmpty());
  http.allowed_hosts =
      absl::StrSplit(absl::GetFlag(FLAGS_http_allowed_hosts), ',', absl::SkipEmpty());
  std::string metrics = absl::GetFlag(FLAGS_http_metrics);
  http.metrics_on_front = metrics == "on";
  if (metrics != "on" && metrics != "off") http.metrics_address = metrics;
  if (absl::Status s = CheckConnectConfig(http); !s.ok()) return UsageError(s.message());
  if (!http.web_dir.empty() && !std::filesystem::is_regular_file(http.web_dir + "/index.html")) {
    return UsageError(absl::StrCat("--http_web '", http.web_dir, "': no index.html there"));
  }
  if (std::string path = absl::GetFlag(FLAGS_http_search_token_file); !path.empty()) {
    absl::StatusOr<std::string> text = ReadTextFile(path, 4096);
    if (!text.ok()) {
      return Failed(absl::StrCat("--http_search_token_file ", path, ": ", text.status().message()));
    }
    http.search_token = std::string(absl::StripAsciiWhitespace(*text));
    if (http.search_token.size() < 16 ||
        http.search_token.find_first_of(" \t\r\n") != std::string::npos) {
      return UsageError(absl::StrCat("--http_search_token_file ", path,
                                     ": the token must be one word of at least 16 characters"));
    }
  }
  return absl::OkStatus();
}

// The endgame table and the dealer's key the flags name, and in `signing`
// the line that names the key signing dealt records (printed once the
// server listens, so that the first line still gives the port), or what is
// wrong.
absl::Status LoadFiles(ServerConfig* config, std::string* signing) {
  if (std::string path = absl::GetFlag(FLAGS_endgames); !path.empty()) {
    absl::StatusOr<std::shared_ptr<const EndgameTable>> table = EndgameTable::LoadShared(path);
    if (!table.ok()) {
      return Failed(absl::StrCat("--endgames: ", table.status().message()));
    }
    config->limits.endgames = *table;
    std::cerr << "uckers serve: endgame table " << path << ": class "
              << ClassName((*table)->endgame_class()) << ", " << (*table)->size()
              << " positions, rules " << (*table)->rules().ToString() << std::endl;
  }
  if (std::string path = absl::GetFlag(FLAGS_dealer_key_file); !path.empty()) {
    // Refused, as ssh refuses a private key, when others may read it.
    absl::StatusOr<dealer::Key> key = dealer::ReadKeyFile(path);
    if (!key.ok()) {
      // Malformed (a usage error), or not to be used.
      return absl::Status(key.status().code(),
                          absl::StrCat("--dealer_key_file: ", key.status().message()));
    }
    config->limits.dealer_key = *key;
  } else {
    // No game is dealt without a key: never one of zeros.
    absl::StatusOr<dealer::Key> key = dealer::NewKey();
    if (!key.ok()) {
      return Failed(
          absl::StrCat("no dealer key: ", key.status().message(), " (give --dealer_key_file)"));
    }
    config->limits.dealer_key = *key;
  }
  // The key that signs the dealt records, for operators to publish.
  absl::StatusOr<dealer::SigningKey> signer =
      dealer::SigningKey::FromDealerKey(*config->limits.dealer_key);
  if (!signer.ok()) {
    return Failed(absl::StrCat("no signing key: ", signer.status().message()));
  }
  *signing = absl::StrCat("uckers serve: dealer signing key ", signer->key_id(), ", public key ",
                          signer->public_key());
  return absl::OkStatus();
}

// Starts the HTTP front beside `server`, or says why it cannot.
absl::Status StartHttp(const ConnectConfig& http_config, Server* server,
                       std::unique_ptr<ConnectServer>* http) {
  absl::StatusOr<std::unique_ptr<ConnectServer>> started =
      ConnectServer::Start(http_config, &server->api());
  if (!started.ok()) {
    server->Shutdown();
    return absl::Status(started.status().code(),
                        absl::StrCat("--http: ", started.status().message()));
  }
  *http = *std::move(started);
  std::cerr << "uckers serve: Connect (HTTP/JSON) on " << http_config.address << " (port "
            << (*http)->port() << ")" << std::endl;
  if ((*http)->metrics_port() > 0) {
    std::cerr << "uckers serve: /metrics on " << http_config.metrics_address << " (port "
              << (*http)->metrics_port() << ")" << std::endl;
  }
  std::string host = http_config.address.substr(0, http_config.address.rfind(':'));
  if (host.empty() || host == "0.0.0.0" || host == "[::]") host = "127.0.0.1";
  std::cerr << "uckers serve: web board at http://" << host << ":" << (*http)->port() << "/"
            << std::endl;
  // The integrity its pages pin the dealer check by, for operators to
  // publish (docs/records.md, "Checking the board's dealer check").
  for (const WebAsset& a : WebAssets()) {
    if (http_config.web_dir.empty() && a.name == "dealer.js") {
      std::cerr << "uckers serve: the board's dealer check, dealer.js, "
                << IntegrityOf(std::string_view(a.data, a.size)) << std::endl;
    }
  }
  return absl::OkStatus();
}

// Waits for SIGTERM or SIGINT (blocked in `signals`), then drains both
// fronts.
absl::Status DrainOnSignal(const ServerConfig& config, sigset_t* signals, Server* server,
                           ConnectServer* http) {
  int received = 0;
  sigwait(signals, &received);
  std::cerr << "uckers serve: signal " << received << ", shutting down (grace " << config.grace_ms
            << " ms)" << std::endl;
  // Both fronts drain at once: health NOT_SERVING and new searches refused
  // now, searches in flight stop with their best so far just before the
  // grace ends, neither listener takes a new call, idle HTTP connections
  // close; at the grace the calls still running are cancelled (gRPC) or
  // their connections shut (HTTP).
  auto grace_end = std::chrono::steady_clock::now() + std::chrono::milliseconds(config.grace_ms);
  server->BeginDrain();
  if (http) http->StopTaking();
  std::thread grpc_down([&] { server->Shutdown(); });
  bool http_done = !http || http->Shutdown(grace_end);
  grpc_down.join();
  server->Wait();
  if (!http_done) {
    // A connection thread still held: exit without waiting for it.
    std::cerr << "uckers serve: an HTTP connection did not end by the grace; exiting anyway"
              << std::endl;
    std::_Exit(0);
  }
  return absl::OkStatus();
}

absl::Status RunServeCommand(const CommandLine& cl) {
  if (std::getenv("GRPC_VERBOSITY") == nullptr) gpr_set_log_function(QuietGrpcLog);
  // The searches' tables and trees (a MiB and more) are mapped and given
  // back to the system when their call ends, not kept in the allocator's
  // arenas, where glibc's rising mmap threshold would leave them: in the
  // soak, RSS after the warm-up 158.6 MiB with this, 430.1 MiB without
  // (docs/deploy.md).
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  // A log reader that has gone (a closed pipe on stderr) must not kill the
  // server at its next line: the line is lost, the server serves on.
  signal(SIGPIPE, SIG_IGN);
  ServerConfig config;
  ConnectConfig http_config;
  if (absl::Status s = GrpcConfigFromFlags(&config); !s.ok()) return s;
  if (absl::Status s = HttpConfigFromFlags(cl, config, &http_config); !s.ok()) return s;
  std::string signing;
  if (absl::Status s = LoadFiles(&config, &signing); !s.ok()) return s;
  // Signals are taken by sigwait in this thread, never by a handler.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  absl::StatusOr<std::unique_ptr<Server>> server = Server::Start(config);
  if (!server.ok()) return Failed(server.status().message());
  std::cerr << "uckers serve: listening on " << config.address << " (port " << (*server)->port()
            << ")" << std::endl;
  std::cerr << signing << std::endl;
  std::unique_ptr<ConnectServer> http;
  if (!absl::GetFlag(FLAGS_http).empty()) {
    if (absl::Status s = StartHttp(http_config, server->get(), &http); !s.ok()) return s;
  }
  return DrainOnSignal(config, &signals, server->get(), http.get());
}

}  // namespace
}  // namespace uckers

#else

namespace uckers {
namespace {

absl::Status RunServeCommand(const CommandLine&) {
  return Failed("this build has no gRPC (configured with UCKERS_GRPC=OFF)");
}

}  // namespace
}  // namespace uckers

#endif

namespace uckers {

const Command& ServeCommand() {
  static const Command command = {
      .name = "serve",
      .summary =
          "the service uckers.v1.Engine over gRPC and, with --http, over Connect "
          "(HTTP/JSON) with the web board at /",
      .usage =
          "uckers serve [--address 127.0.0.1:50051] [--http 127.0.0.1:8080] "
          "[--max_searches N] ...\n"
          "  with --http, open the printed address in a browser to play on the web board\n"
          "  (docs/web.md); the API is described in docs/frontend.md and docs/deploy.md",
      .flags_file = "app/serve.cpp",
      .shared = {{"endgames"}},
      .run = RunServeCommand,
  };
  return command;
}

}  // namespace uckers
