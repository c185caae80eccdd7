// libFuzzer target: the bytes are lines of the text protocol (PROTOCOL.md),
// fed to a UciLoop over a fresh Engine. No line may crash, hang or leak; at
// the end the loop must still answer `isready` with `readyok`.
// UCKERS_FUZZ_VERBOSE=1 prints the engine's output for each input.
//
// To keep every input fast (everything runs under ASan + UBSan): `bench`,
// `perft` deeper than 2 (perft 3 from a mid-game takes seconds), any `go`
// containing `infinite` or a movetime over 20 ms, and a Hash over 64 MiB
// are skipped; every other `go` without a movetime gets ` movetime 2`
// appended (a grandmaster-level search takes ~10 s otherwise, and a search
// spends its movetime: a clock's budget is cut to it too); and only the
// first 8 `go` and `perft` lines of an input are sent. A `quit` ends the
// input. Every other line is sent as it is.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "engine/engine.h"
#include "protocol/uci.h"

namespace {

// The line to send for `line`, or false to skip it. Tokenised as
// UciLoop::HandleLine does.
constexpr int kMaxJobs = 8;

bool Prepare(absl::string_view line, std::string* out, int* jobs) {
  *out = std::string(line);
  std::vector<absl::string_view> args =
      absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
  if (args.empty()) return true;
  int64_t n = 0;
  if (args[0] == "bench") return false;
  if ((args[0] == "go" || args[0] == "perft") && ++*jobs > kMaxJobs) return false;
  if (args[0] == "perft") {
    return !(args.size() >= 2 && absl::SimpleAtoi(args[1], &n) && n > 2);
  }
  if (args[0] == "go") {
    bool has_movetime = false;
    for (size_t i = 1; i < args.size(); ++i) {
      if (args[i] == "infinite") return false;
      if (args[i] == "movetime") {
        has_movetime = true;
        if (i + 1 < args.size() && absl::SimpleAtoi(args[i + 1], &n) && n > 20) {
          return false;
        }
      }
    }
    if (!has_movetime) out->append(" movetime 2");
    return true;
  }
  if (args[0] == "setoption") {
    for (size_t i = 1; i + 2 < args.size(); ++i) {
      if (absl::EqualsIgnoreCase(args[i], "hash") && absl::SimpleAtoi(args[i + 2], &n) && n > 64) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view input(reinterpret_cast<const char*>(data), size);
  std::ostringstream out;
  {
    uckers::Engine engine;
    uckers::UciLoop loop(engine, out);
    std::string sent;
    int jobs = 0;
    for (absl::string_view line : absl::StrSplit(input, '\n')) {
      if (!Prepare(line, &sent, &jobs)) continue;
      if (!loop.HandleLine(sent)) break;  // quit
    }
    engine.Stop();
    engine.Wait();
    // The loop still answers after everything it was sent.
    size_t before = out.str().size();
    loop.HandleLine("isready");
    if (std::getenv("UCKERS_FUZZ_VERBOSE") != nullptr) {
      std::fprintf(stderr, "%s", out.str().c_str());
    }
    if (!absl::EndsWith(out.str().substr(before), "readyok\n")) {
      std::fprintf(stderr, "protocol_fuzz: no readyok after the input\n");
      __builtin_trap();
    }
  }
  return 0;
}
