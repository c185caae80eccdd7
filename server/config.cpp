#include "server/config.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "search/settings.h"

namespace uckers {

namespace {

// OK when `address` is host:port with a port of 0..65535.
bool IsHostPort(const std::string& address) {
  size_t colon = address.rfind(':');
  int port = -1;
  return colon != std::string::npos && colon != 0 &&
         absl::SimpleAtoi(address.substr(colon + 1), &port) && port >= 0 && port <= 65535;
}

}  // namespace

absl::Status CheckServerConfig(const ServerConfig& config) {
  if (!absl::StartsWith(config.address, "unix:") && !IsHostPort(config.address)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--address '", config.address, "': expected host:port, the port 0..65535"));
  }
  const ServiceLimits& limits = config.limits;
  const struct {
    const char* flag;
    bool ok;
    std::string range;
  } checks[] = {
      {"max_searches", limits.max_searches >= 1, "at least 1"},
      {"max_request_threads", limits.max_threads >= 1, "at least 1"},
      {"max_hash_mb", limits.max_hash_mb >= 1, "at least 1"},
      {"tree_mb", limits.tree_mb >= 1 && limits.tree_mb <= kMaxTreeMb,
       absl::StrCat("1..", kMaxTreeMb)},
      {"grace_ms", config.grace_ms >= 0, "0 or more"},
      {"max_message_bytes", config.max_message_bytes >= 1024, "at least 1024"},
      {"max_depth", limits.max_depth >= 1 && limits.max_depth <= 64, "1..64"},
      {"max_nodes", limits.max_nodes >= 1, "at least 1"},
      {"max_movetime_ms", limits.max_movetime_ms >= 1, "at least 1"},
      {"max_dealt_games_per_address", limits.dealt_games.max_games_per_client >= 0,
       "0 (no limit) or more"},
  };
  for (const auto& check : checks) {
    if (!check.ok) {
      return absl::InvalidArgumentError(absl::StrCat("--", check.flag, ": must be ", check.range));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckConnectConfig(const ConnectConfig& config) {
  std::vector<std::string> parts = absl::StrSplit(config.address, absl::MaxSplits(':', 1));
  int port = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[1], &port) || port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--http '", config.address, "': expected host:port"));
  }
  if (config.threads < 1 || config.threads > 1024) {
    return absl::InvalidArgumentError("--http_threads: must be 1..1024");
  }
  if (config.max_connections < config.threads || config.max_connections > 65536) {
    return absl::InvalidArgumentError(
        "--http_max_connections: must be at least --http_threads and at most 65536");
  }
  if (config.idle_timeout_ms < 100) {
    return absl::InvalidArgumentError("--http_idle_timeout_ms: must be at least 100");
  }
  if (config.max_line_bytes < 256 || config.max_line_bytes > (1 << 20)) {
    return absl::InvalidArgumentError("--http_max_line_bytes: must be 256..1048576");
  }
  if (config.max_headers < 1 || config.max_headers > 10000) {
    return absl::InvalidArgumentError("--http_max_headers: must be 1..10000");
  }
  if (config.max_header_bytes < config.max_line_bytes || config.max_header_bytes > (16 << 20)) {
    return absl::InvalidArgumentError(
        "--http_max_header_bytes: must be at least --http_max_line_bytes and at most 16777216");
  }
  if (config.request_timeout_ms < 100) {
    return absl::InvalidArgumentError("--http_request_timeout_ms: must be at least 100");
  }
  if (!config.metrics_address.empty()) {
    std::vector<std::string> m = absl::StrSplit(config.metrics_address, absl::MaxSplits(':', 1));
    int mport = 0;
    if (m.size() != 2 || !absl::SimpleAtoi(m[1], &mport) || mport < 0 || mport > 65535) {
      return absl::InvalidArgumentError(absl::StrCat("--http_metrics '", config.metrics_address,
                                                     "': expected on, off or host:port"));
    }
  }
  if (config.min_request_rate < 0) {
    return absl::InvalidArgumentError("--http_min_request_rate: must be 0 (none) or more");
  }
  if (config.max_searches_per_address < 0) {
    return absl::InvalidArgumentError(
        "--http_max_searches_per_address: must be 0 (no limit) or more");
  }
  if (config.max_search_ms < 0) {
    return absl::InvalidArgumentError("--http_max_search_ms: must be 0 (no cap) or more");
  }
  if (config.max_connections_per_address < 0) {
    return absl::InvalidArgumentError(
        "--http_max_connections_per_address: must be 0 (no limit) or more");
  }
  return absl::OkStatus();
}

}  // namespace uckers
