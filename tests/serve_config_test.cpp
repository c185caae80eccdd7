// The settings of `uckers serve` (server/config.h): their defaults can be
// served, and each out of range is refused by the name of its flag.
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "server/config.h"

namespace uckers::testing {
namespace {

// Each case's change to a default `Config` is refused by `check` as
// InvalidArgument, its message starting with the case's words.
template <typename Config>
void ExpectEachRefusedByItsWords(
    const std::vector<std::pair<std::function<void(Config&)>, std::string>>& cases,
    absl::Status (*check)(const Config&)) {
  for (const auto& [change, words] : cases) {
    Config config;
    change(config);
    absl::Status s = check(config);
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << words;
    EXPECT_EQ(std::string(s.message()).rfind(words, 0), 0u) << s.message();
  }
}

TEST(ServeConfig, TheDefaultsCanBeServed) {
  EXPECT_TRUE(CheckServerConfig(ServerConfig{}).ok());
  EXPECT_TRUE(CheckConnectConfig(ConnectConfig{}).ok());
}

TEST(ServeConfig, EachGrpcSettingOutOfRangeIsRefusedByItsFlag) {
  const std::vector<std::pair<std::function<void(ServerConfig&)>, std::string>> cases = {
      {[](ServerConfig& c) { c.address = "localhost"; }, "--address 'localhost': expected"},
      {[](ServerConfig& c) { c.address = "h:70000"; }, "--address 'h:70000': expected"},
      {[](ServerConfig& c) { c.limits.max_searches = 0; }, "--max_searches: must be at least 1"},
      {[](ServerConfig& c) { c.limits.max_threads = 0; },
       "--max_request_threads: must be at least 1"},
      {[](ServerConfig& c) { c.limits.max_hash_mb = 0; }, "--max_hash_mb: must be at least 1"},
      {[](ServerConfig& c) { c.limits.tree_mb = 65537; }, "--tree_mb: must be 1..65536"},
      {[](ServerConfig& c) { c.grace_ms = -1; }, "--grace_ms: must be 0 or more"},
      {[](ServerConfig& c) { c.max_message_bytes = 1023; },
       "--max_message_bytes: must be at least 1024"},
      {[](ServerConfig& c) { c.limits.max_depth = 65; }, "--max_depth: must be 1..64"},
      {[](ServerConfig& c) { c.limits.max_nodes = 0; }, "--max_nodes: must be at least 1"},
      {[](ServerConfig& c) { c.limits.max_movetime_ms = 0; },
       "--max_movetime_ms: must be at least 1"},
      {[](ServerConfig& c) { c.limits.dealt_games.max_games_per_client = -1; },
       "--max_dealt_games_per_address: must be 0 (no limit) or more"},
  };
  ExpectEachRefusedByItsWords(cases, CheckServerConfig);
  ServerConfig unix_socket;
  unix_socket.address = "unix:/tmp/uckers.sock";
  EXPECT_TRUE(CheckServerConfig(unix_socket).ok());
}

TEST(ServeConfig, EachHttpSettingOutOfRangeIsRefusedByItsFlag) {
  const std::vector<std::pair<std::function<void(ConnectConfig&)>, std::string>> cases = {
      {[](ConnectConfig& c) { c.address = "nowhere"; }, "--http 'nowhere': expected host:port"},
      {[](ConnectConfig& c) { c.threads = 0; }, "--http_threads: must be 1..1024"},
      {[](ConnectConfig& c) { c.max_connections = 15; }, "--http_max_connections: must be"},
      {[](ConnectConfig& c) { c.idle_timeout_ms = 99; }, "--http_idle_timeout_ms: must be"},
      {[](ConnectConfig& c) { c.max_line_bytes = 255; }, "--http_max_line_bytes: must be"},
      {[](ConnectConfig& c) { c.max_headers = 0; }, "--http_max_headers: must be"},
      {[](ConnectConfig& c) { c.max_header_bytes = 8191; }, "--http_max_header_bytes: must be"},
      {[](ConnectConfig& c) { c.request_timeout_ms = 99; }, "--http_request_timeout_ms: must be"},
      {[](ConnectConfig& c) { c.metrics_address = "x"; }, "--http_metrics 'x': expected"},
      {[](ConnectConfig& c) { c.min_request_rate = -1; }, "--http_min_request_rate: must be"},
      {[](ConnectConfig& c) { c.max_searches_per_address = -1; },
       "--http_max_searches_per_address: must be"},
      {[](ConnectConfig& c) { c.max_search_ms = -1; }, "--http_max_search_ms: must be"},
      {[](ConnectConfig& c) { c.max_connections_per_address = -1; },
       "--http_max_connections_per_address: must be"},
  };
  ExpectEachRefusedByItsWords(cases, CheckConnectConfig);
}

}  // namespace
}  // namespace uckers::testing
