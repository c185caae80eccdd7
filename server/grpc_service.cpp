#include "server/grpc_service.h"

namespace uckers {

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), std::string(status.message()));
}

std::string PeerAddress(const std::string& peer) {
  size_t colon = peer.find(':');
  if (colon == std::string::npos) return peer;
  std::string scheme = peer.substr(0, colon);
  std::string rest = peer.substr(colon + 1);
  if (scheme != "ipv4" && scheme != "ipv6") return peer;
  // ipv6:[::1]:443, or with the brackets escaped (%5B, %5D) as URIs are.
  for (const auto& [escaped, bracket] : {std::pair{"%5B", "["}, std::pair{"%5D", "]"}}) {
    for (size_t at; (at = rest.find(escaped)) != std::string::npos;) rest.replace(at, 3, bracket);
  }
  size_t port = rest.rfind(':');
  std::string host = port == std::string::npos ? rest : rest.substr(0, port);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return host;
}

namespace {

CallControl ControlOf(grpc::ServerContext* context) {
  return {context->deadline(), [context] { return context->IsCancelled(); },
          PeerAddress(context->peer())};
}

}  // namespace

grpc::Status GrpcService::GetEngineInfo(grpc::ServerContext*,
                                        const v1::GetEngineInfoRequest* request,
                                        v1::EngineInfo* response) {
  return ToGrpcStatus(api_->GetEngineInfo(*request, response));
}

grpc::Status GrpcService::ListLegalPlays(grpc::ServerContext*,
                                         const v1::ListLegalPlaysRequest* request,
                                         v1::ListLegalPlaysResponse* response) {
  return ToGrpcStatus(api_->ListLegalPlays(*request, response));
}

grpc::Status GrpcService::ApplyPlay(grpc::ServerContext*, const v1::ApplyPlayRequest* request,
                                    v1::ApplyPlayResponse* response) {
  return ToGrpcStatus(api_->ApplyPlay(*request, response));
}

grpc::Status GrpcService::BestMove(grpc::ServerContext* context, const v1::BestMoveRequest* request,
                                   v1::BestMoveResponse* response) {
  return ToGrpcStatus(api_->BestMove(ControlOf(context), *request, response));
}

grpc::Status GrpcService::Evaluate(grpc::ServerContext* context, const v1::EvaluateRequest* request,
                                   v1::EvaluateResponse* response) {
  return ToGrpcStatus(api_->Evaluate(ControlOf(context), *request, response));
}

grpc::Status GrpcService::Analyse(grpc::ServerContext* context, const v1::AnalyseRequest* request,
                                  grpc::ServerWriter<v1::AnalyseResponse>* writer) {
  return ToGrpcStatus(
      api_->Analyse(ControlOf(context), *request,
                    [writer](const v1::AnalyseResponse& m) { return writer->Write(m); }));
}

grpc::Status GrpcService::AnalyseGame(grpc::ServerContext* context,
                                      const v1::AnalyseGameRequest* request,
                                      v1::GameAnalysis* response) {
  return ToGrpcStatus(api_->AnalyseGame(ControlOf(context), *request, response));
}

grpc::Status GrpcService::GetStartPosition(grpc::ServerContext*,
                                           const v1::GetStartPositionRequest* request,
                                           v1::GetStartPositionResponse* response) {
  return ToGrpcStatus(api_->GetStartPosition(*request, response));
}

grpc::Status GrpcService::RollDice(grpc::ServerContext*, const v1::RollDiceRequest* request,
                                   v1::RollDiceResponse* response) {
  return ToGrpcStatus(api_->RollDice(*request, response));
}

grpc::Status GrpcService::StartDealtGame(grpc::ServerContext* context,
                                         const v1::StartDealtGameRequest* request,
                                         v1::StartDealtGameResponse* response) {
  return ToGrpcStatus(api_->StartDealtGame(ControlOf(context), *request, response));
}

grpc::Status GrpcService::BindDealtGame(grpc::ServerContext*,
                                        const v1::BindDealtGameRequest* request,
                                        v1::BindDealtGameResponse* response) {
  return ToGrpcStatus(api_->BindDealtGame(*request, response));
}

grpc::Status GrpcService::DealThrow(grpc::ServerContext*, const v1::DealThrowRequest* request,
                                    v1::DealThrowResponse* response) {
  return ToGrpcStatus(api_->DealThrow(*request, response));
}

grpc::Status GrpcService::RevealDealtGame(grpc::ServerContext*,
                                          const v1::RevealDealtGameRequest* request,
                                          v1::RevealDealtGameResponse* response) {
  return ToGrpcStatus(api_->RevealDealtGame(*request, response));
}

grpc::Status GrpcService::JudgePlay(grpc::ServerContext* context,
                                    const v1::JudgePlayRequest* request,
                                    v1::JudgePlayResponse* response) {
  return ToGrpcStatus(api_->JudgePlay(ControlOf(context), *request, response));
}

grpc::Status GrpcService::ThrowMap(grpc::ServerContext* context, const v1::ThrowMapRequest* request,
                                   v1::ThrowMapResponse* response) {
  return ToGrpcStatus(api_->ThrowMap(ControlOf(context), *request, response));
}

}  // namespace uckers
