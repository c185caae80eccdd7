#include "service/call_metrics.h"

#include <chrono>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "uckers/v1/engine.pb.h"

namespace uckers {

std::string StatusCodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "ok";
    case grpc::StatusCode::CANCELLED:
      return "canceled";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "invalid_argument";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "deadline_exceeded";
    case grpc::StatusCode::NOT_FOUND:
      return "not_found";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "already_exists";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "permission_denied";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "resource_exhausted";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "failed_precondition";
    case grpc::StatusCode::ABORTED:
      return "aborted";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "out_of_range";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "unimplemented";
    case grpc::StatusCode::INTERNAL:
      return "internal";
    case grpc::StatusCode::UNAVAILABLE:
      return "unavailable";
    case grpc::StatusCode::DATA_LOSS:
      return "data_loss";
    case grpc::StatusCode::UNAUTHENTICATED:
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

namespace {

using grpc::experimental::InterceptionHookPoints;

// Times one call from its start to the status it sends.
class MetricsInterceptor : public grpc::experimental::Interceptor {
 public:
  MetricsInterceptor(grpc::experimental::ServerRpcInfo* info, CallMetrics* metrics)
      : metrics_(metrics), start_(std::chrono::steady_clock::now()) {
    std::string name = info->method();
    constexpr char kEngine[] = "/uckers.v1.Engine/";
    // An Engine method by its short name, any other by its full name (a
    // short name elsewhere, "/BestMove", is no Engine method): names the
    // server does not serve are counted as "unknown" (MetricsMethodName).
    if (absl::StartsWith(name, kEngine)) {
      method_ = name.substr(sizeof kEngine - 1);
    } else if (absl::StartsWith(name, "/") && name.find('/', 1) != std::string::npos) {
      method_ = name.substr(1);
    } else {
      method_ = "unknown";
    }
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      grpc::Status status = methods->GetSendStatus();
      double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      metrics_->Count("grpc", method_, status.ok() ? "" : StatusCodeName(status.error_code()),
                      seconds);
    }
    methods->Proceed();
  }

 private:
  CallMetrics* metrics_;
  std::string method_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

grpc::experimental::Interceptor* MetricsInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  return new MetricsInterceptor(info, metrics_);
}

}  // namespace uckers
