#include "server/call_metrics.h"

#include <set>

#include "absl/strings/str_format.h"
#include "uckers/v1/engine.pb.h"

namespace uckers {

std::string StatusCodeName(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kOk:
      return "ok";
    case absl::StatusCode::kCancelled:
      return "canceled";
    case absl::StatusCode::kInvalidArgument:
      return "invalid_argument";
    case absl::StatusCode::kDeadlineExceeded:
      return "deadline_exceeded";
    case absl::StatusCode::kNotFound:
      return "not_found";
    case absl::StatusCode::kAlreadyExists:
      return "already_exists";
    case absl::StatusCode::kPermissionDenied:
      return "permission_denied";
    case absl::StatusCode::kResourceExhausted:
      return "resource_exhausted";
    case absl::StatusCode::kFailedPrecondition:
      return "failed_precondition";
    case absl::StatusCode::kAborted:
      return "aborted";
    case absl::StatusCode::kOutOfRange:
      return "out_of_range";
    case absl::StatusCode::kUnimplemented:
      return "unimplemented";
    case absl::StatusCode::kInternal:
      return "internal";
    case absl::StatusCode::kUnavailable:
      return "unavailable";
    case absl::StatusCode::kDataLoss:
      return "data_loss";
    case absl::StatusCode::kUnauthenticated:
      return "unauthenticated";
    default:
      return "unknown";
  }
}

std::string MetricsMethodName(const std::string& method) {
  static const std::set<std::string>* known = [] {
    auto* names = new std::set<std::string>{
        "grpc.health.v1.Health/Check",
        "grpc.health.v1.Health/Watch",
        "grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
        "grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    };
    const google::protobuf::ServiceDescriptor* engine =
        v1::EngineInfo::descriptor()->file()->FindServiceByName("Engine");
    for (int i = 0; engine && i < engine->method_count(); ++i) {
      names->insert(engine->method(i)->name());
    }
    return names;
  }();
  return known->count(method) ? method : "unknown";
}

std::string EscapeLabelValue(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void CallMetrics::Count(const std::string& front, const std::string& method,
                        const std::string& code, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  Stats& s = stats_[{front, MetricsMethodName(method)}];
  ++s.requests;
  s.seconds += seconds;
  if (!code.empty()) ++s.errors[code];
}

std::string CallMetrics::Text(int searches_running) const {
  std::string out =
      "# HELP uckers_requests_total Calls by front and method.\n"
      "# TYPE uckers_requests_total counter\n";
  std::string errors =
      "# HELP uckers_errors_total Failed calls by front, method and code.\n"
      "# TYPE uckers_errors_total counter\n";
  std::string seconds =
      "# HELP uckers_request_seconds Time spent answering, by front and method.\n"
      "# TYPE uckers_request_seconds summary\n";
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [key, s] : stats_) {
      const auto& [front, method] = key;
      std::string labels = absl::StrFormat("front=\"%s\",method=\"%s\"", EscapeLabelValue(front),
                                           EscapeLabelValue(method));
      absl::StrAppendFormat(&out, "uckers_requests_total{%s} %d\n", labels, s.requests);
      absl::StrAppendFormat(&seconds, "uckers_request_seconds_sum{%s} %.6f\n", labels, s.seconds);
      absl::StrAppendFormat(&seconds, "uckers_request_seconds_count{%s} %d\n", labels, s.requests);
      for (const auto& [code, n] : s.errors) {
        absl::StrAppendFormat(&errors, "uckers_errors_total{%s,code=\"%s\"} %d\n", labels,
                              EscapeLabelValue(code), n);
      }
    }
  }
  absl::StrAppendFormat(&out, "%s%s", errors, seconds);
  absl::StrAppendFormat(&out,
                        "# HELP uckers_searches_running Searches running now.\n"
                        "# TYPE uckers_searches_running gauge\n"
                        "uckers_searches_running %d\n",
                        searches_running);
  return out;
}

}  // namespace uckers
