// libFuzzer target: every method of the gRPC service uckers.v1.Engine in
// process, through the transport-neutral Api (server/api.h) that both fronts
// call. The first byte picks one of the 15 methods, the rest is its request
// in binary protobuf (any bytes: most do not parse, and those that do carry
// every odd value a client could send). Every call must answer OK or a
// status, never crash, hang or leak, and give back its search slot. The
// service runs with small caps (depth 2, 5,000 nodes, 10 ms) and each
// searching call has a 15 ms deadline, so a search stays fast under ASan +
// UBSan. A dealt game's token "T" (BindDealtGame, DealThrow, RevealDealtGame) stands for a
// real one, sealed by this service at start, so that the calls get past the
// seal to the seed, the index and the record.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_limits.h"
#include "google/protobuf/stubs/logging.h"
#include "server/api.h"

namespace {

using namespace uckers;

Api& Service() {
  static Api* service = [] {
    // Most inputs are not valid protobuf: keep its parse errors off the log.
    google::protobuf::SetLogHandler(nullptr);
    return new Api(FuzzServiceLimits());
  }();
  return *service;
}

// A token this service sealed, for the requests that name "T".
const std::string& RealToken() {
  static const std::string token = [] {
    v1::StartDealtGameResponse response;
    if (!Service().StartDealtGame({}, v1::StartDealtGameRequest(), &response).ok()) std::abort();
    return response.token();
  }();
  return token;
}

template <typename Request>
bool Parse(const std::string& bytes, Request* request) {
  if (!request->ParseFromString(bytes)) return false;
  if constexpr (requires { request->token(); }) {
    if (request->token() == "T") request->set_token(RealToken());
  }
  return true;
}

// Parses `bytes` as the method's request and calls it (a call that does
// not search).
template <typename Request, typename Response>
void CallCheap(absl::Status (Api::*method)(const Request&, Response*), const std::string& bytes) {
  Request request;
  Response response;
  if (Parse(bytes, &request)) (void)(Service().*method)(request, &response);
}

// The same for a call that takes the call's control (a search, a dealt
// game's start); `shape` may shrink the request first.
template <typename Request, typename Response, typename Shape>
void CallSearching(absl::Status (Api::*method)(const CallControl&, const Request&, Response*),
                   const std::string& bytes, const CallControl& call, Shape shape) {
  Request request;
  Response response;
  if (Parse(bytes, &request) && shape(&request))
    (void)(Service().*method)(call, request, &response);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > 4096) return 0;
  const std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
  Api& s = Service();
  (void)RealToken();
  CallControl call;
  call.deadline = std::chrono::system_clock::now() + std::chrono::milliseconds(15);
  call.cancelled = [] { return false; };
  auto any = [](auto*) { return true; };
  // A review, a judgement and a throw map search every throw: keep them to
  // the beginner level and short games.
  auto beginner = [](auto* r) {
    r->set_level("beginner");
    return true;
  };
  switch (data[0] % 15) {
    case 0:
      CallCheap(&Api::ListLegalPlays, body);
      break;
    case 1:
      CallCheap(&Api::ApplyPlay, body);
      break;
    case 2:
      CallSearching(&Api::BestMove, body, call, any);
      break;
    case 3:
      // per_throw searches all 21 throws: keep it to depth 1.
      CallSearching(&Api::Evaluate, body, call, [](v1::EvaluateRequest* r) {
        if (r->per_throw()) r->mutable_limits()->set_depth(1);
        return true;
      });
      break;
    case 4: {
      v1::AnalyseRequest request;
      if (Parse(body, &request)) {
        int messages = 0;
        (void)s.Analyse(call, request,
                        [&messages](const v1::AnalyseResponse&) { return ++messages < 64; });
      }
      break;
    }
    case 5:
      CallSearching(&Api::AnalyseGame, body, call, [](v1::AnalyseGameRequest* r) {
        r->set_level("beginner");
        return r->record().items_size() <= 8 && r->record_text().size() <= 200;
      });
      break;
    case 6:
      CallCheap(&Api::GetStartPosition, body);
      break;
    case 7:
      CallCheap(&Api::RollDice, body);
      break;
    case 8:
      CallCheap(&Api::GetEngineInfo, body);
      break;
    case 9:
      CallSearching(&Api::StartDealtGame, body, call, any);
      break;
    case 10:
      CallCheap(&Api::DealThrow, body);
      break;
    case 11:
      CallCheap(&Api::RevealDealtGame, body);
      break;
    case 12:
      CallSearching(&Api::JudgePlay, body, call, beginner);
      break;
    case 13:
      CallCheap(&Api::BindDealtGame, body);
      break;
    default:
      CallSearching(&Api::ThrowMap, body, call, beginner);
      break;
  }
  if (s.active_searches() != 0) std::abort();  // every slot given back
  return 0;
}
