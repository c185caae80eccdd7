// `uckers endgames build --class 2v2 --rules navy --out FILE [--check N]`:
// solves an endgame class (endgame/solver.h), writes its table, reads it
// back, prints the figures (positions, time, memory, file size) and, with
// --check, verifies the Bellman equation on N sampled positions.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "endgame/check.h"
#include "endgame/solver.h"

ABSL_FLAG(std::string, class, "", "endgame class: 1v1, 1v2 or 2v2 (docs/endgames.md)");
ABSL_FLAG(int, check, 0, "after the build, check the Bellman equation on this many positions");

namespace uckers {

namespace {

int RunEndgamesCommand(const CommandLine& cl) {
  if (cl.args()[0] != "build") {
    std::cerr << "uckers endgames: unknown action '" << cl.args()[0]
              << "': say what to do: build\n";
    return 2;
  }
  absl::StatusOr<EndgameClass> cls = ClassByName(absl::GetFlag(FLAGS_class));
  if (!cls.ok()) {
    std::cerr << "uckers endgames build: --class: " << cls.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<Rules> rules = Rules::Parse(absl::GetFlag(FLAGS_rules));
  if (!rules.ok()) {
    std::cerr << "uckers endgames build: --rules: " << rules.status().message() << "\n";
    return 2;
  }
  if (absl::Status s = rules->RequireFourSidedTeams("uckers endgames build"); !s.ok()) {
    std::cerr << "uckers endgames build: --rules: " << s.message() << "\n";
    return 2;
  }
  if (absl::Status s = CheckEndgameRules(*rules); !s.ok()) {
    std::cerr << "uckers endgames build: --rules: " << s.message() << "\n";
    return 2;
  }
  std::string out = absl::GetFlag(FLAGS_out);
  int check = absl::GetFlag(FLAGS_check);
  if (out.empty()) {
    std::cerr << "uckers endgames build: --out: give the table file to write\n";
    return 2;
  }
  if (check < 0) {
    std::cerr << "uckers endgames build: --check: a count of positions, 0 or more\n";
    return 2;
  }
  // A build takes minutes: an output that cannot be written is found first.
  bool existed = std::filesystem::exists(out);
  if (!std::ofstream(out, std::ios::app)) {
    std::cerr << "uckers endgames build: --out: cannot write " << out << "\n";
    return 1;
  }
  EndgameBuildOptions options;
  options.progress = [](const std::string& line) { std::cerr << line << std::endl; };
  EndgameBuildStats stats;
  absl::StatusOr<EndgameTable> table = BuildEndgameTable(*cls, *rules, options, &stats);
  absl::Status status = table.ok() ? table->Save(out) : table.status();
  absl::StatusOr<EndgameTable> reread =
      status.ok() ? EndgameTable::Load(out, *rules) : absl::StatusOr<EndgameTable>(status);
  std::error_code ec;
  if (!reread.ok()) {
    std::cerr << "uckers endgames build: " << reread.status().message() << "\n";
    if (!existed) std::filesystem::remove(out, ec);
    return 1;
  }
  std::cout << absl::StrFormat(
      "class %s rules %s: %d positions, %.1f s, peak memory %.1f MiB, file %d bytes (%s)\n",
      ClassName(*cls), rules->ToString(), stats.states, stats.seconds,
      stats.peak_rss_bytes / 1048576.0, std::filesystem::file_size(out, ec), out);
  for (const EndgameGroupStats& g : stats.groups) {
    std::cout << absl::StrFormat(
        "  %s: %d positions, %d full sweeps and %d replayed, %.1f s, last change %.2g\n", g.shapes,
        g.states, g.sweeps, g.replay_sweeps, g.seconds, g.last_change);
  }
  if (check > 0) {
    absl::StatusOr<BellmanCheck> result = CheckBellman(*reread, check, /*seed=*/1);
    if (!result.ok()) {
      std::cerr << "uckers endgames build: " << result.status().message() << "\n";
      return 1;
    }
    std::cout << absl::StrFormat("Bellman check: %d positions, largest error %.2g (%s)\n",
                                 result->positions, result->max_error, result->worst);
  }
  return 0;
}

}  // namespace

const Command& EndgamesCommand() {
  static const Command command = {
      .name = "endgames",
      .summary = "exact endgame tables: build one (docs/endgames.md)",
      .usage = "uckers endgames build --class 1v1|1v2|2v2 --rules RULES --out FILE [--check N]",
      .flags_file = "app/endgames.cpp",
      .shared = {{"rules"}, {"out", "the table file to write"}},
      .min_arguments = 1,
      .max_arguments = 1,
      .arguments_text = "what to do: build",
      .run = RunEndgamesCommand,
  };
  return command;
}

}  // namespace uckers
