// `uckers label`: positions labelled by truncated rollouts for supervised
// training; see learn/label.h.
#include "learn/label.h"

#include <iostream>
#include <memory>

#include "absl/flags/flag.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "endgame/table.h"
#include "search/levels.h"

ABSL_FLAG(int64_t, positions, 1000, "label until the file holds this many positions");
ABSL_FLAG(int, trials, 72, "rollouts a position (a multiple of 36 stratifies the first throw)");
ABSL_FLAG(int, plies, 12, "throws a rollout plays before its horizon");

namespace uckers {

namespace {

int RunLabelCommand(const CommandLine&) {
  if (absl::GetFlag(FLAGS_out).empty()) {
    std::cerr << "uckers label: --out: give the JSON Lines file to write (uckers help label)\n";
    return 2;
  }
  absl::StatusOr<Rules> rules = Rules::Parse(absl::GetFlag(FLAGS_rules));
  if (!rules.ok()) {
    std::cerr << "uckers label: --rules: " << rules.status().message() << "\n";
    return 2;
  }
  LabelConfig c;
  c.rules = *rules;
  c.level =
      absl::GetFlag(FLAGS_level).empty() ? std::string(kDefaultLevel) : absl::GetFlag(FLAGS_level);
  if (absl::Status s = ApplyLevel(c.level, &c.params); !s.ok()) {
    std::cerr << "uckers label: --level: " << s.message() << "\n";
    return 2;
  }
  std::unique_ptr<EndgameTable> table;
  if (std::string path = absl::GetFlag(FLAGS_endgames); !path.empty()) {
    absl::StatusOr<EndgameTable> loaded = EndgameTable::Load(path, c.rules);
    if (!loaded.ok()) {
      std::cerr << "uckers label: --endgames: " << loaded.status().message() << "\n";
      return 1;
    }
    table = std::make_unique<EndgameTable>(*std::move(loaded));
    c.params.endgame = table.get();
  }
  c.out = absl::GetFlag(FLAGS_out);
  c.positions = absl::GetFlag(FLAGS_positions);
  c.seed = absl::GetFlag(FLAGS_seed);
  c.trials = absl::GetFlag(FLAGS_trials);
  c.plies = absl::GetFlag(FLAGS_plies);
  c.threads = absl::GetFlag(FLAGS_concurrency);
  c.progress_every = absl::GetFlag(FLAGS_progress) ? 100 : 0;
  InterruptFlag interrupt;
  absl::Status s = Label(c, std::cout, *interrupt.flag());
  if (!s.ok()) {
    std::cerr << "uckers label: " << s.message() << "\n";
    return absl::IsInvalidArgument(s) ? 2 : 1;
  }
  return 0;
}

}  // namespace

const Command& LabelCommand() {
  static const Command command = {
      .name = "label",
      .summary = "positions labelled by truncated rollouts, for supervised training, resumable",
      .usage =
          "uckers label --out FILE.jsonl [--positions N] [--trials T] [--plies P] [--level L]\n"
          "             [--rules R] [--seed S] [--concurrency N] [--endgames TABLE]\n"
          "  positions drawn from the fast policy's own games, each labelled by T rollouts\n"
          "  of P throws (the exact table's value where it covers one); an existing FILE\n"
          "  is resumed (docs/evaluation.md, \"Rollout labels\")",
      .flags_file = "app/label.cpp",
      .shared = {{"rules"},
                 {"seed", "the run's seed: position i is drawn and labelled from it and i alone"},
                 {"out", "the JSON Lines file (required); resumed when it exists"},
                 {"level", "the level whose evaluation the rollouts use (default expert)"},
                 {"concurrency", "positions labelled at once"},
                 {"progress", "a line every 100 positions"},
                 {"endgames"}},
      .run = RunLabelCommand,
  };
  return command;
}

}  // namespace uckers
