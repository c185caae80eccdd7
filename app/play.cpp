// `uckers` with no command: the text protocol (PROTOCOL.md, docs/protocol.md)
// on stdin/stdout; `uckers <protocol command> ...` runs that one command
// (`uckers d`, `uckers eval`); `uckers perft` and `uckers bench` are
// commands with flags of their own.
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "engine/engine.h"
#include "protocol/uci.h"

ABSL_FLAG(std::string, ufen, "", "the position to count from, a UFEN (default: the start)");

namespace uckers {
namespace {

// Runs protocol lines in one session; a usage error if any was refused (the
// lines come from the command line), said as `uckers: <error>` whichever
// command ran them.
absl::Status RunLines(const std::vector<std::string>& lines) {
  Engine engine;
  UciLoop loop(engine, std::cout);
  for (const std::string& line : lines) {
    loop.HandleLine(line);
    engine.Wait();
    if (loop.errors() > 0) {
      // One command from the command line: its error on stderr too, where a
      // script looks for it.
      return WithName(UsageError(loop.last_error()), "");
    }
  }
  return absl::OkStatus();
}

absl::Status RunPerftCommand(const CommandLine& cl) {
  int depth = 0;
  if (!absl::SimpleAtoi(cl.args()[0], &depth) || depth < 1) {
    return UsageError(
        absl::StrCat("the depth must be a positive whole number, not '", cl.args()[0], "'"));
  }
  std::string ufen = absl::GetFlag(FLAGS_ufen);
  return RunLines({absl::StrCat("setoption name Rules value ", absl::GetFlag(FLAGS_rules)),
                   ufen.empty() ? "position startpos" : absl::StrCat("position ufen ", ufen),
                   absl::StrCat("perft ", depth)});
}

absl::Status RunBenchCommand(const CommandLine&) { return RunLines({"bench"}); }

}  // namespace

int PlayMain(int argc, char** argv) {
  if (argc <= 1) {
    Engine engine;
    UciLoop loop(engine, std::cout);
    loop.Run(std::cin);
    return CheckStdout("uckers", 0);
  }
  std::string line;
  for (int i = 1; i < argc; ++i) line += std::string(i > 1 ? " " : "") + argv[i];
  return CheckStdout("uckers", StatusExitCode(RunLines({line}), ""));
}

const Command& PerftCommand() {
  static const Command command = {
      .name = "perft",
      .summary = "counts the leaves of the throw-and-play tree (move generation's check)",
      .usage =
          "uckers perft DEPTH [--rules R] [--ufen UFEN]\n"
          "  each level sums over the 21 distinct throws and each throw's distinct plays;\n"
          "  the start position under navy gives 22, 583, 21213, 994540 at depths 1-4",
      .flags_file = "app/play.cpp",
      .shared = {{"rules", "the ruleset of the position"}},
      .min_arguments = 1,
      .max_arguments = 1,
      .arguments_text = "a DEPTH",
      .run = RunPerftCommand,
  };
  return command;
}

const Command& BenchCommand() {
  static const Command command = {
      .name = "bench",
      .summary = "fixed searches on fixed positions: node count, speed and the Bench signature",
      .usage =
          "uckers bench\n"
          "  prints `bench nodes <n> nps <n> signature <hash>`; a commit that changes\n"
          "  the search or the evaluation names its signature",
      .run = RunBenchCommand,
  };
  return command;
}

}  // namespace uckers
