#include "match/external_player.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "rules/notation.h"
#include "rules/ufen.h"

namespace uckers {

ExternalPlayer::ExternalPlayer(std::string command, const Rules& rules, std::string go_limits,
                               int64_t timeout_ms, int64_t handshake_ms)
    : command_(std::move(command)),
      rules_(rules),
      go_limits_(std::move(go_limits)),
      timeout_ms_(timeout_ms),
      handshake_ms_(handshake_ms) {}

ExternalPlayer::~ExternalPlayer() {
  if (pid_ <= 0) return;
  Send("quit").IgnoreError();
  close(to_child_);
  close(from_child_);
  for (int i = 0; i < 50; ++i) {  // up to 0.5 s to exit by itself
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
    usleep(10000);
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

absl::Status ExternalPlayer::Start() {
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) return absl::InternalError("pipe failed");
  pid_ = fork();
  if (pid_ < 0) return absl::InternalError("fork failed");
  if (pid_ == 0) {
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  to_child_ = in[1];
  from_child_ = out[0];
  signal(SIGPIPE, SIG_IGN);  // a dead engine shows as a write error
  if (absl::Status s = Send("uci"); !s.ok()) return s;
  absl::StatusOr<std::string> ok = ReadUntil("uciok", handshake_ms_);
  if (!ok.ok()) return ok.status();
  if (absl::Status s = Send(absl::StrCat("setoption name Rules value ", rules_.ToString()));
      !s.ok()) {
    return s;
  }
  return absl::OkStatus();
}

absl::Status ExternalPlayer::Send(const std::string& line) {
  std::string data = line + "\n";
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(to_child_, data.data() + done, data.size() - done);
    if (n <= 0) return absl::UnavailableError(absl::StrCat("'", command_, "' closed its input"));
    done += n;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ExternalPlayer::ReadUntil(const std::string& prefix,
                                                      int64_t timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    size_t eol;
    while ((eol = buffer_.find('\n')) != std::string::npos) {
      std::string line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (absl::StartsWith(line, prefix)) return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return absl::DeadlineExceededError(
          absl::StrCat("'", command_, "' sent no '", prefix, "' in ", timeout_ms, " ms"));
    }
    pollfd p{from_child_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[4096];
    ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n <= 0) return absl::UnavailableError(absl::StrCat("'", command_, "' exited"));
    buffer_.append(chunk, n);
  }
}

absl::Status ExternalPlayer::NewGame(uint64_t) {
  if (pid_ <= 0) {
    if (absl::Status s = Start(); !s.ok()) return s;
  }
  if (absl::Status s = Send("ucinewgame"); !s.ok()) return s;
  if (absl::Status s = Send("isready"); !s.ok()) return s;
  return ReadUntil("readyok", handshake_ms_).status();
}

absl::StatusOr<PlayResult> ExternalPlayer::Choose(const Position& pos, Throw t) {
  if (absl::Status s = Send(absl::StrCat("position ufen ", ToUfen(pos))); !s.ok()) return s;
  if (absl::Status s = Send(absl::StrCat("go dice ", t.high, " ", t.low, go_limits_, clock_args_));
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::string> line =
      ReadUntil("bestmove ", clock_timeout_ms_.value_or(timeout_ms_));
  if (!line.ok()) return line.status();
  std::string play = line->substr(9);
  absl::StatusOr<PlayResult> r = ParsePlay(play, pos, rules_, t);
  if (!r.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", command_, "' played ", play, ": ", r.status().message()));
  }
  return r;
}

void ExternalPlayer::SetClocks(const Clocks& clocks) {
  clock_args_.clear();
  clock_timeout_ms_.reset();
  const char* names[2] = {"w", "b"};
  for (int team = 0; team < 2; ++team) {
    if (!clocks.time_ms[team]) continue;
    absl::StrAppend(&clock_args_, " ", names[team], "time ", *clocks.time_ms[team], " ",
                    names[team], "inc ", clocks.increment_ms[team]);
    clock_timeout_ms_ = std::max(clock_timeout_ms_.value_or(0), *clocks.time_ms[team] + 1000);
  }
  if (clocks.moves_to_go > 0) absl::StrAppend(&clock_args_, " movestogo ", clocks.moves_to_go);
}

}  // namespace uckers
