#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "absl/status/status.h"

// Calls counted by front ("grpc", "connect") and method: requests, errors by
// status code and time spent, printed in Prometheus' text format by the HTTP
// front's `GET /metrics`. Only the methods this server knows get a series of
// their own; every other name a client sends is counted as `unknown`, so a
// client cannot grow the exposition (or break it with a quote or a newline).
namespace uckers {

// The name of a status code as Connect writes it ("invalid_argument").
std::string StatusCodeName(absl::StatusCode code);

// `method` when it is a method the server serves (an uckers.v1.Engine
// method by its short name, or the full name of a health or reflection
// method), else "unknown".
std::string MetricsMethodName(const std::string& method);

// A label value escaped as the Prometheus text format asks: backslash,
// double quote and line feed as \\, \" and \n.
std::string EscapeLabelValue(const std::string& value);

class CallMetrics {
 public:
  // `code` is empty for a call that succeeded.
  void Count(const std::string& front, const std::string& method, const std::string& code,
             double seconds);
  // Every counter, then the gauge of searches running now.
  std::string Text(int searches_running) const;

 private:
  struct Stats {
    uint64_t requests = 0;
    std::map<std::string, uint64_t> errors;  // by code name
    double seconds = 0;
  };
  mutable std::mutex mu_;
  std::map<std::pair<std::string, std::string>, Stats> stats_;  // by front, method
};
}  // namespace uckers
