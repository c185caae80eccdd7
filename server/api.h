#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "dealer/dealer.h"
#include "endgame/table.h"
#include "rules/position.h"
#include "search/params.h"
#include "server/call_metrics.h"
#include "server/dealt_games.h"
#include "uckers/v1/engine.pb.h"

// The transport-neutral service under the gRPC front (server/grpc_service.h)
// and the Connect front (server/connect_server.h): the methods of
// uckers.v1.Engine as `v1::` messages in and out with an absl::Status whose
// code and message are what the wire carries. It owns what every front of
// the service shares: the admission of a searching call (the drain, the
// deadline and its margin), the search slots, the caps on a request, and
// the calls' metrics. Each searching call runs on an Engine of its own
// (engine/engine.h, the one door to the search) at a lower priority; the calls
// that do not search use the value-level helpers below (rules/checked.h,
// rules/dice_sequence.h, eval/terms.h). No gRPC
// here: tools/check_layers keeps it so.
namespace uckers {

class Engine;
class EnginePool;
struct EngineOptions;

// Limits of one server process.
struct ServiceLimits {
  int max_searches = 8;            // concurrent BestMove/Evaluate/Analyse calls
  int max_threads = 2;             // search threads one request may ask for
  int max_hash_mb = 64;            // table size one request may ask for
  int tree_mb = kDefaultTreeMb;    // MCTS tree memory of each search
  int64_t max_analyse_ms = 60000;  // an Analyse call with no limit and no deadline
  // Caps on what one request may ask for (limits.depth, .nodes,
  // .movetime_ms): above them a request is INVALID_ARGUMENT naming the cap.
  int max_depth = 12;
  int64_t max_nodes = 1'000'000'000;
  int64_t max_movetime_ms = 600'000;
  int64_t deadline_margin_ms = 25;  // answer at least this long before the deadline...
  int deadline_margin_percent = 5;  // ...or this share of the call's time, if more
  // The largest response (the server's message limit): an AnalyseGame whose
  // answer cannot fit is refused before any work.
  int64_t max_response_bytes = 4 << 20;
  // The endgame table searches and analyses use (`uckers serve --endgames`):
  // positions it covers, under its rules, are valued exactly. Null for none.
  std::shared_ptr<const EndgameTable> endgames;
  // The key that seals dealt games' secrets into their tokens
  // (StartDealtGame; `uckers serve --dealer_key_file`). None: a key of this
  // process's own, drawn at start; when none can be drawn, no game is dealt.
  std::optional<dealer::Key> dealer_key;
  // The dealt games held in memory (server/dealt_games.h): how many at
  // once, how long one unused is kept, how many throws one may have.
  DealtGamesLimits dealt_games;
};

// How long before a call's deadline its search is stopped, given the time
// the call has left when it arrives: the larger of the two margins of
// `limits`, at most one second. A long search grows a large MCTS tree and a
// busy machine is slow to switch threads, so a fixed margin is not enough
// for a long call; a short call keeps most of its time.
std::chrono::milliseconds DeadlineMargin(std::chrono::milliseconds time_left,
                                         const ServiceLimits& limits);

// What a front tells a call: its deadline, and whether its client has gone
// (cancelled may be empty: never).
struct CallControl {
  std::chrono::system_clock::time_point deadline = std::chrono::system_clock::time_point::max();
  std::function<bool()> cancelled;
  // Who called: the client's address without its port (empty: unknown),
  // for the limits kept per client (DealtGamesLimits::max_games_per_client).
  std::string client;
};

// Writes one message of a server stream; false when the client has gone.
using AnalyseWriter = std::function<bool(const v1::AnalyseResponse&)>;

// Stateless per request but for the dealt games (held in memory, so a
// dealt game is served by the process that started it): each call parses
// its position and rules, asks an Engine or a helper and answers. Searches end by their limits, by
// the call's deadline (with a margin, returning the best so far), by the drain, or when the client
// cancels. Safe to call from many threads at once.
class Api {
 public:
  explicit Api(ServiceLimits limits);
  ~Api();

  // Calls that do not search: answered at once, whatever the deadline.
  absl::Status GetEngineInfo(const v1::GetEngineInfoRequest& request, v1::EngineInfo* response);
  absl::Status ListLegalPlays(const v1::ListLegalPlaysRequest& request,
                              v1::ListLegalPlaysResponse* response);
  absl::Status ApplyPlay(const v1::ApplyPlayRequest& request, v1::ApplyPlayResponse* response);
  absl::Status GetStartPosition(const v1::GetStartPositionRequest& request,
                                v1::GetStartPositionResponse* response);
  absl::Status RollDice(const v1::RollDiceRequest& request, v1::RollDiceResponse* response);
  absl::Status StartDealtGame(const CallControl& call, const v1::StartDealtGameRequest& request,
                              v1::StartDealtGameResponse* response);
  absl::Status BindDealtGame(const v1::BindDealtGameRequest& request,
                             v1::BindDealtGameResponse* response);
  absl::Status DealThrow(const v1::DealThrowRequest& request, v1::DealThrowResponse* response);
  absl::Status RevealDealtGame(const v1::RevealDealtGameRequest& request,
                               v1::RevealDealtGameResponse* response);

  // The searching calls: the same checks, limits, deadline margin and
  // cancellation whichever front calls them.
  absl::Status BestMove(const CallControl& call, const v1::BestMoveRequest& request,
                        v1::BestMoveResponse* response);
  absl::Status Evaluate(const CallControl& call, const v1::EvaluateRequest& request,
                        v1::EvaluateResponse* response);
  absl::Status Analyse(const CallControl& call, const v1::AnalyseRequest& request,
                       const AnalyseWriter& write);
  absl::Status AnalyseGame(const CallControl& call, const v1::AnalyseGameRequest& request,
                           v1::GameAnalysis* response);
  absl::Status JudgePlay(const CallControl& call, const v1::JudgePlayRequest& request,
                         v1::JudgePlayResponse* response);
  absl::Status ThrowMap(const CallControl& call, const v1::ThrowMapRequest& request,
                        v1::ThrowMapResponse* response);

  // Searches running now.
  int active_searches() const { return active_; }
  // The drain on shutdown: every search running or started from now on
  // stops at `at` and answers with its best so far; new searches are refused
  // (UNAVAILABLE) at once. Calls that do not search are still served.
  void Drain(std::chrono::system_clock::time_point at);
  bool draining() const { return draining_; }
  // Calls counted by both fronts, for `GET /metrics`.
  CallMetrics& metrics() { return metrics_; }

 private:
  // Claims a search slot; RESOURCE_EXHAUSTED past the limit.
  class Slot;
  // Whether a searching call may start: not while draining (UNAVAILABLE),
  // nor when its deadline has passed or falls within its DeadlineMargin
  // (DEADLINE_EXCEEDED): such a call is answered before any work and takes
  // no search slot.
  absl::Status Admit(const CallControl& call) const;
  // Runs `work` on an engine of the pool, made as new with `options` at
  // `pos` (none: the rules' start), with `stop` set when the call is
  // cancelled, its deadline (less the margin) comes or the drain's time
  // does; an error when no engine could be made so (the work did not run).
  absl::Status RunSearch(const CallControl& call, EngineOptions options,
                         const std::optional<Position>& pos, std::atomic<bool>* stop,
                         const std::function<void(Engine&)>& work);

  ServiceLimits limits_;
  // Each dealt game's state (the one state the service keeps).
  std::unique_ptr<DealtGames> dealt_games_;
  CallMetrics metrics_;
  std::atomic<int> active_{0};
  std::atomic<bool> draining_{false};
  // When draining searches stop, in system_clock ticks since the epoch.
  std::atomic<int64_t> drain_at_{INT64_MAX};
  // The searching calls' engines, one a search slot, kept between calls
  // (server/engine_pool.h; held by pointer, so that this header pulls in
  // nothing of the engine).
  std::unique_ptr<EnginePool> engines_;
};

}  // namespace uckers
