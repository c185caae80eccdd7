#pragma once

#include <chrono>
#include <string>

namespace uckers {

// Progress of a match or ladder on stderr: on a terminal, one
// line redrawn in place with the rate and the time left; otherwise (a log,
// a pipe) one plain line at each tenth of the work, never a carriage
// return. Called from one thread at a time.
class Progress {
 public:
  // `enabled` false prints nothing; `total` units of work (pairs).
  Progress(bool enabled, int total);
  // `done` units finished, `games` games played; `detail` is appended.
  void Update(int done, int games, const std::string& detail);
  // Ends the redrawn line on a terminal.
  void Finish();

  // Whether stderr is a terminal (tests may force either way).
  void set_terminal(bool terminal) { terminal_ = terminal; }

 private:
  bool enabled_;
  bool terminal_;
  int total_;
  int next_line_at_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace uckers
