#include "match/remote_player.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "grpcpp/create_channel.h"
#include "rules/notation.h"
#include "rules/ufen.h"

namespace uckers {

RemotePlayer::RemotePlayer(const std::string& target, const Rules& rules,
                           const v1::SearchLimits& limits, const std::string& level,
                           int64_t handshake_ms)
    : target_(target), rules_(rules), limits_(limits), level_(level), handshake_ms_(handshake_ms) {
  grpc::ChannelArguments args;
  args.SetLoadBalancingPolicyName("round_robin");
  stub_ = v1::Engine::NewStub(
      grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
}

absl::Status RemotePlayer::NewGame(uint64_t) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(handshake_ms_));
  context.set_wait_for_ready(true);  // wait for the connection up to the deadline
  v1::EngineInfo info;
  grpc::Status status = stub_->GetEngineInfo(&context, {}, &info);
  if (!status.ok()) {
    return absl::UnavailableError(absl::StrCat("grpc:", target_, ": ", status.error_message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<PlayResult> RemotePlayer::Choose(const Position& pos, Throw t) {
  v1::BestMoveRequest request;
  request.mutable_position()->set_ufen(ToUfen(pos));
  request.mutable_throw_()->set_die1(t.high);
  request.mutable_throw_()->set_die2(t.low);
  request.set_rules(rules_.ToString());
  *request.mutable_limits() = limits_;
  request.mutable_options()->set_level(level_);
  grpc::ClientContext context;
  int64_t budget = limits_.movetime_ms() > 0 ? 20 * limits_.movetime_ms() + 5000 : 30000;
  if (clock_deadline_ms_) budget = *clock_deadline_ms_;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(budget));
  v1::BestMoveResponse response;
  grpc::Status status = stub_->BestMove(&context, request, &response);
  if (!status.ok()) {
    return absl::UnavailableError(absl::StrCat("grpc:", target_, ": ", status.error_message()));
  }
  absl::StatusOr<PlayResult> r = ParsePlay(response.play(), pos, rules_, t);
  if (!r.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("grpc:", target_, " played ", response.play(), ": ", r.status().message()));
  }
  return r;
}

void RemotePlayer::SetClocks(const Clocks& clocks) {
  clock_deadline_ms_.reset();
  // 0 is "no clock" on the wire: an empty clock goes as -1.
  auto wire = [](const std::optional<int64_t>& t) -> int64_t { return !t ? 0 : *t > 0 ? *t : -1; };
  limits_.set_wtime_ms(wire(clocks.time_ms[0]));
  limits_.set_btime_ms(wire(clocks.time_ms[1]));
  limits_.set_winc_ms(clocks.increment_ms[0]);
  limits_.set_binc_ms(clocks.increment_ms[1]);
  limits_.set_movestogo(clocks.moves_to_go);
  for (const std::optional<int64_t>& t : clocks.time_ms) {
    if (t) clock_deadline_ms_ = std::max(clock_deadline_ms_.value_or(0), *t + 1000);
  }
}

}  // namespace uckers
