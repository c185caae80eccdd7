#include "service/call_metrics.h"

#include <chrono>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"

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

void CallMetrics::Count(const std::string& front, const std::string& method,
                        const std::string& code, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  Stats& s = stats_[{front, method}];
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
      std::string labels = absl::StrFormat("front=\"%s\",method=\"%s\"", front, method);
      absl::StrAppendFormat(&out, "uckers_requests_total{%s} %d\n", labels, s.requests);
      absl::StrAppendFormat(&seconds, "uckers_request_seconds_sum{%s} %.6f\n", labels, s.seconds);
      absl::StrAppendFormat(&seconds, "uckers_request_seconds_count{%s} %d\n", labels, s.requests);
      for (const auto& [code, n] : s.errors) {
        absl::StrAppendFormat(&errors, "uckers_errors_total{%s,code=\"%s\"} %d\n", labels, code, n);
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
    method_ = absl::StartsWith(name, kEngine) ? name.substr(sizeof kEngine - 1)
              : absl::StartsWith(name, "/")   ? name.substr(1)
                                              : name;
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
