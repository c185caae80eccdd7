// libFuzzer target: the gRPC service uckers.v1.Engine in process. The first
// byte picks a method, the rest is its request in binary protobuf (any
// bytes: most do not parse, and those that do carry every odd value a
// client could send). Every call must answer OK or a status, never crash,
// hang or leak. The service runs with small caps (depth 3, 20,000 nodes,
// 50 ms) and each call has a 200 ms deadline, so a search stays fast under
// ASan + UBSan.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "google/protobuf/stubs/logging.h"
#include "server/api.h"

namespace {

uckers::Api& Service() {
  static uckers::Api* service = [] {
    // Most inputs are not valid protobuf: keep its parse errors off the log.
    google::protobuf::SetLogHandler(nullptr);
    uckers::ServiceLimits limits;
    limits.max_searches = 2;
    limits.max_threads = 1;
    limits.max_hash_mb = 4;
    limits.tree_mb = 16;
    limits.max_depth = 3;
    limits.max_nodes = 20000;
    limits.max_movetime_ms = 50;
    limits.max_analyse_ms = 100;
    return new uckers::Api(limits);
  }();
  return *service;
}

template <typename Request>
bool Parse(const std::string& bytes, Request* request) {
  return request->ParseFromString(bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > 4096) return 0;
  using namespace uckers;
  const std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
  Api& service = Service();
  CallControl call;
  call.deadline = std::chrono::system_clock::now() + std::chrono::milliseconds(200);
  call.cancelled = [] { return false; };
  switch (data[0] % 10) {
    case 0: {
      v1::ListLegalPlaysRequest request;
      v1::ListLegalPlaysResponse response;
      if (Parse(body, &request)) (void)service.ListLegalPlays(request, &response);
      break;
    }
    case 1: {
      v1::ApplyPlayRequest request;
      v1::ApplyPlayResponse response;
      if (Parse(body, &request)) (void)service.ApplyPlay(request, &response);
      break;
    }
    case 2: {
      v1::BestMoveRequest request;
      v1::BestMoveResponse response;
      if (Parse(body, &request)) (void)service.BestMove(call, request, &response);
      break;
    }
    case 3: {
      v1::EvaluateRequest request;
      v1::EvaluateResponse response;
      // per_throw searches all 21 throws: keep it to depth 1.
      if (Parse(body, &request)) {
        if (request.per_throw()) request.mutable_limits()->set_depth(1);
        (void)service.Evaluate(call, request, &response);
      }
      break;
    }
    case 4: {
      v1::AnalyseRequest request;
      if (Parse(body, &request)) {
        int messages = 0;
        (void)service.Analyse(call, request,
                              [&messages](const v1::AnalyseResponse&) { return ++messages < 64; });
      }
      break;
    }
    case 5: {
      v1::AnalyseGameRequest request;
      v1::GameAnalysis response;
      // A review searches every throw: keep the games short and shallow.
      if (Parse(body, &request) && request.record().items_size() <= 8 &&
          request.record_text().size() <= 200) {
        request.set_level("beginner");
        (void)service.AnalyseGame(call, request, &response);
      }
      break;
    }
    case 6: {
      v1::GetStartPositionRequest request;
      v1::GetStartPositionResponse response;
      if (Parse(body, &request)) (void)service.GetStartPosition(request, &response);
      break;
    }
    case 7: {
      v1::RollDiceRequest request;
      v1::RollDiceResponse response;
      if (Parse(body, &request)) (void)service.RollDice(request, &response);
      break;
    }
    case 8: {
      v1::GetEngineInfoRequest request;
      v1::EngineInfo response;
      if (Parse(body, &request)) (void)service.GetEngineInfo(request, &response);
      break;
    }
    default:
      break;
  }
  if (service.active_searches() != 0) std::abort();  // every slot given back
  return 0;
}
