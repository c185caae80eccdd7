#pragma once

#include "server/api.h"
#include "uckers/v1/engine.grpc.pb.h"

namespace uckers {

// gRPC's code and message of a status of the service (server/api.h): the
// codes are the same numbers.
grpc::Status ToGrpcStatus(const absl::Status& status);

// The client's address of a gRPC peer ("ipv4:10.0.0.7:51234" gives
// "10.0.0.7", "ipv6:[::1]:51234" gives "::1", as the Connect front names
// them); another kind of peer (unix:...) whole.
std::string PeerAddress(const std::string& peer);

// The gRPC service `uckers.v1.Engine`: a thin adapter over the
// transport-neutral service (server/api.h), which does all the work.
// It turns gRPC's ServerContext into a CallControl (deadline, cancelled)
// and the service's absl::Status into a grpc::Status, nothing more.
class GrpcService final : public v1::Engine::Service {
 public:
  // `api` is not owned and outlives this service.
  explicit GrpcService(Api* api) : api_(api) {}

  grpc::Status GetEngineInfo(grpc::ServerContext* context, const v1::GetEngineInfoRequest* request,
                             v1::EngineInfo* response) override;
  grpc::Status ListLegalPlays(grpc::ServerContext* context,
                              const v1::ListLegalPlaysRequest* request,
                              v1::ListLegalPlaysResponse* response) override;
  grpc::Status ApplyPlay(grpc::ServerContext* context, const v1::ApplyPlayRequest* request,
                         v1::ApplyPlayResponse* response) override;
  grpc::Status BestMove(grpc::ServerContext* context, const v1::BestMoveRequest* request,
                        v1::BestMoveResponse* response) override;
  grpc::Status Evaluate(grpc::ServerContext* context, const v1::EvaluateRequest* request,
                        v1::EvaluateResponse* response) override;
  grpc::Status Analyse(grpc::ServerContext* context, const v1::AnalyseRequest* request,
                       grpc::ServerWriter<v1::AnalyseResponse>* writer) override;
  grpc::Status AnalyseGame(grpc::ServerContext* context, const v1::AnalyseGameRequest* request,
                           v1::GameAnalysis* response) override;
  grpc::Status GetStartPosition(grpc::ServerContext* context,
                                const v1::GetStartPositionRequest* request,
                                v1::GetStartPositionResponse* response) override;
  grpc::Status RollDice(grpc::ServerContext* context, const v1::RollDiceRequest* request,
                        v1::RollDiceResponse* response) override;
  grpc::Status StartDealtGame(grpc::ServerContext* context,
                              const v1::StartDealtGameRequest* request,
                              v1::StartDealtGameResponse* response) override;
  grpc::Status BindDealtGame(grpc::ServerContext* context, const v1::BindDealtGameRequest* request,
                             v1::BindDealtGameResponse* response) override;
  grpc::Status DealThrow(grpc::ServerContext* context, const v1::DealThrowRequest* request,
                         v1::DealThrowResponse* response) override;
  grpc::Status RevealDealtGame(grpc::ServerContext* context,
                               const v1::RevealDealtGameRequest* request,
                               v1::RevealDealtGameResponse* response) override;
  grpc::Status JudgePlay(grpc::ServerContext* context, const v1::JudgePlayRequest* request,
                         v1::JudgePlayResponse* response) override;
  grpc::Status ThrowMap(grpc::ServerContext* context, const v1::ThrowMapRequest* request,
                        v1::ThrowMapResponse* response) override;

 private:
  Api* api_;
};

}  // namespace uckers
