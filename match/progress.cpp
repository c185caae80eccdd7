#include "match/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "absl/strings/str_format.h"

namespace uckers {

Progress::Progress(bool enabled, int total)
    : enabled_(enabled),
      terminal_(isatty(fileno(stderr)) != 0),
      total_(total),
      next_line_at_(std::max(1, total / 10)),
      start_(std::chrono::steady_clock::now()) {}

void Progress::Update(int done, int games, const std::string& detail) {
  if (!enabled_) return;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double rate = seconds > 0 ? games / seconds : 0.0;
  double left = done > 0 ? seconds / done * (total_ - done) : 0.0;
  std::string line = absl::StrFormat("%d/%d pairs, %d games, %.1f games/s, %.0f s left%s", done,
                                     total_, games, rate, left, detail);
  if (terminal_) {
    std::fprintf(stderr, "\r%s ", line.c_str());
    std::fflush(stderr);
  } else if (done >= next_line_at_ || done == total_) {
    std::fprintf(stderr, "%s\n", line.c_str());
    while (next_line_at_ <= done) next_line_at_ += std::max(1, total_ / 10);
  }
}

void Progress::Finish() {
  if (enabled_ && terminal_) std::fprintf(stderr, "\n");
}

}  // namespace uckers
