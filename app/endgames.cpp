// `uckers endgames build --class 2v2 --rules navy --out FILE [--check N]`:
// solves an endgame class (endgame/solver.h), writes its table, reads it
// back, prints the figures (positions, time, memory, file size) and, with
// --check, verifies the Bellman equation on N sampled positions.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "endgame/check.h"
#include "endgame/solver.h"

ABSL_FLAG(std::string, class, "", "endgame class: 1v1, 1v2 or 2v2 (docs/endgames.md)");
ABSL_FLAG(int, check, 0, "after the build, check the Bellman equation on this many positions");

namespace uckers {

namespace {

// `uckers endgames build`: its errors are said as `uckers endgames build: ...`.
absl::Status Build() {
  absl::StatusOr<EndgameClass> cls = ClassByName(absl::GetFlag(FLAGS_class));
  if (!cls.ok()) {
    return UsageError(absl::StrCat("--class: ", cls.status().message()));
  }
  absl::StatusOr<Rules> rules = Rules::Parse(absl::GetFlag(FLAGS_rules));
  if (!rules.ok()) {
    return UsageError(absl::StrCat("--rules: ", rules.status().message()));
  }
  if (absl::Status s = rules->RequireFourSidedTeams("uckers endgames build"); !s.ok()) {
    return UsageError(absl::StrCat("--rules: ", s.message()));
  }
  if (absl::Status s = CheckEndgameRules(*rules); !s.ok()) {
    return UsageError(absl::StrCat("--rules: ", s.message()));
  }
  std::string out = absl::GetFlag(FLAGS_out);
  int check = absl::GetFlag(FLAGS_check);
  if (out.empty()) return UsageError("--out: give the table file to write");
  if (check < 0) return UsageError("--check: a count of positions, 0 or more");
  // A build takes minutes: an output that cannot be written is found first.
  bool existed = std::filesystem::exists(out);
  if (!std::ofstream(out, std::ios::app)) {
    return Failed(absl::StrCat("--out: cannot write ", out));
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
    if (!existed) std::filesystem::remove(out, ec);
    return Failed(reread.status().message());
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
    if (!result.ok()) return Failed(result.status().message());
    std::cout << absl::StrFormat("Bellman check: %d positions, largest error %.2g (%s)\n",
                                 result->positions, result->max_error, result->worst);
  }
  return absl::OkStatus();
}

absl::Status RunEndgamesCommand(const CommandLine& cl) {
  if (cl.args()[0] != "build") {
    return UsageError(absl::StrCat("unknown action '", cl.args()[0], "': say what to do: build"));
  }
  return WithName(Build(), "endgames build");
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
