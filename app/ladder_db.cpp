#include "ladder/ladder_db.h"

#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "ladder/ladder.h"
#include "record/text.h"
#include "wire/json.h"

ABSL_FLAG(int, nearest, 0,
          "schedule pairs only against the K entrants nearest in rating to --near_elo "
          "(0: against every entrant)");
ABSL_FLAG(std::string, near_elo, "",
          "the rating --nearest measures from (default: the best rating)");
ABSL_FLAG(bool, until_empty, false, "exit 0 when no pair is left, instead of waiting for more");
ABSL_FLAG(int64_t, max_pairs, 0, "stop after this many pairs (0: no limit)");

namespace uckers {
namespace {

absl::Status NeedsDb(const std::string& command) {
  return UsageError(
      absl::StrCat("--db: give the ladder's database (uckers help ladder ", command, ")"));
}

absl::Status RunAddCommand(const CommandLine& cl) {
  if (absl::GetFlag(FLAGS_db).empty()) return NeedsDb("add");
  LadderAddConfig config;
  config.db = absl::GetFlag(FLAGS_db);
  config.name = cl.args()[0];
  config.spec = cl.args()[1];
  config.pairs = cl.Given("pairs") ? absl::GetFlag(FLAGS_pairs) : 10;
  config.nearest = absl::GetFlag(FLAGS_nearest);
  config.seed = absl::GetFlag(FLAGS_seed);
  if (config.pairs < 1 || config.nearest < 0) {
    return UsageError("--pairs must be 1 or more and --nearest 0 or more");
  }
  if (std::string near = absl::GetFlag(FLAGS_near_elo); !near.empty()) {
    double elo = 0;
    if (!absl::SimpleAtod(near, &elo) || !std::isfinite(elo)) {
      return UsageError(absl::StrCat("--near_elo: '", near, "' is not a number"));
    }
    config.near_elo = elo;
  }
  absl::StatusOr<Rules> rules = Rules::Parse(absl::GetFlag(FLAGS_rules));
  if (!rules.ok()) {
    return UsageError(absl::StrCat("--rules: ", rules.status().message()));
  }
  config.rules = *rules;
  absl::StatusOr<LadderAddResult> added = AddToLadder(config);
  if (!added.ok()) return added.status();
  std::cout << "entrant " << added->entrant << " '" << config.name << "': " << added->pairs
            << (added->pairs == 1 ? " pair" : " pairs") << " scheduled against "
            << added->opponents.size() << (added->opponents.size() == 1 ? " entrant" : " entrants")
            << "\n";
  return absl::OkStatus();
}

absl::Status RunWorkCommand(const CommandLine&) {
  if (absl::GetFlag(FLAGS_db).empty()) return NeedsDb("work");
  LadderWorkConfig config;
  config.db = absl::GetFlag(FLAGS_db);
  config.until_empty = absl::GetFlag(FLAGS_until_empty);
  config.log = &std::cout;
  InterruptFlag interrupt;  // SIGTERM/SIGINT: hand the pair held back, then exit
  config.stop = interrupt.flag();
  config.lease_seconds = absl::GetFlag(FLAGS_lease_seconds);
  config.max_pairs = absl::GetFlag(FLAGS_max_pairs);
  if (!(config.lease_seconds > 0 && config.lease_seconds <= 7 * 86400) || config.max_pairs < 0) {
    return UsageError("--lease_seconds must be in (0, 604800] and --max_pairs 0 or more");
  }
  if (absl::Status s = RequireExistingDb(config.db); !s.ok()) {
    return Failed(absl::StrCat("--db: ", s.message()));
  }
  absl::StatusOr<int64_t> played = WorkLadder(config);
  if (!played.ok()) return Failed(played.status().message());
  std::cerr << "uckers ladder work: " << *played << (*played == 1 ? " pair" : " pairs") << " played"
            << (*interrupt.flag() ? " (stopped by a signal)" : "") << "\n";
  return absl::OkStatus();
}

absl::Status RunTableCommand(const CommandLine&) {
  if (absl::GetFlag(FLAGS_db).empty()) return NeedsDb("table");
  std::string chart = absl::GetFlag(FLAGS_chart);
  if (absl::Status s = chart.empty() ? absl::OkStatus() : CheckWritable(chart); !s.ok()) {
    return Failed(absl::StrCat("--chart: ", s.message()));
  }
  absl::StatusOr<std::unique_ptr<LadderStore>> store =
      OpenLadderStore(absl::GetFlag(FLAGS_db), /*read_only=*/true);
  absl::StatusOr<v1::LadderReport> table =
      store.ok() ? LadderTable(**store) : absl::StatusOr<v1::LadderReport>(store.status());
  if (!table.ok()) return Failed(table.status().message());
  std::cout << (absl::GetFlag(FLAGS_json) ? ToJson(*table) : LadderTableText(*table));
  if (!chart.empty() && table->players_size() > 0) {
    if (absl::Status s = WriteTextFile(chart, LadderReportSvg(*table)); !s.ok()) {
      return Failed(s.message());
    }
  }
  return absl::OkStatus();
}

}  // namespace

const Command& LadderAddCommand() {
  static const Command command = {
      .name = "ladder add",
      .summary = "enters a player in a standing ladder and schedules its pairs",
      .usage =
          "uckers ladder add --db DB NAME SPEC [--pairs N] [--nearest K] [--near_elo E] "
          "[--seed S] [--rules R]\n"
          "  enters a player (SPEC as for uckers match) and schedules N duplicate pairs\n"
          "  against each entrant already there, or only the K nearest in rating to E;\n"
          "  pair p plays dice seed S + p",
      .flags_file = "app/ladder_db.cpp",
      .shared = {{"db"},
                 {"pairs", "duplicate pairs against each opponent", "10"},
                 {"seed"},
                 {"rules"}},
      .min_arguments = 2,
      .max_arguments = 2,
      .arguments_text = "a NAME and a SPEC",
      .run = RunAddCommand,
      .more_help = PrintPlayerHelp,
  };
  return command;
}

const Command& LadderWorkCommand() {
  static const Command command = {
      .name = "ladder work",
      .summary = "plays a standing ladder's scheduled pairs and writes their games",
      .usage =
          "uckers ladder work --db DB [--until_empty] [--lease_seconds S] [--max_pairs N]\n"
          "  prints `pair <id> taken` when it takes a pair, `pair <id> done` once its\n"
          "  games are written; any number of workers may share one database. On\n"
          "  SIGTERM or SIGINT the pair held is handed back to the queue once the game\n"
          "  being played ends, and the worker exits 0",
      .flags_file = "app/ladder_db.cpp",
      .shared = {{"db"}, {"lease_seconds"}},
      .run = RunWorkCommand,
  };
  return command;
}

const Command& LadderTableCommand() {
  static const Command command = {
      .name = "ladder table",
      .summary = "a standing ladder's rating list",
      .usage =
          "uckers ladder table --db DB [--json] [--chart FILE]\n"
          "  maximum-likelihood Elo relative to the first entrant with 95 % intervals,\n"
          "  games and pairs",
      .shared = {{"db"}, {"json", "print the table as JSON"}, {"chart"}},
      .run = RunTableCommand,
  };
  return command;
}

}  // namespace uckers
