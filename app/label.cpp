// `uckers label`: positions labelled by truncated rollouts or by a deeper
// search, for supervised training; see learn/label.h.
#include "learn/label.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "absl/flags/flag.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "endgame/table.h"
#include "ladder/db/store.h"
#include "ladder/ladder_db.h"
#include "record/text.h"
#include "search/levels.h"

ABSL_FLAG(int64_t, positions, 1000, "label until the file holds this many positions");
ABSL_FLAG(int, trials, 72, "rollouts a position (a multiple of 36 stratifies the first throw)");
ABSL_FLAG(int, plies, 12, "throws a rollout plays before its horizon");
ABSL_FLAG(int, depth, 0,
          "0: label by rollouts; 1 to 4: by the level's expectimax searched this many throws "
          "deep (--trials and --plies unused)");
ABSL_FLAG(int64_t, chunk, 1000, "positions a job of a database run holds");
ABSL_FLAG(std::string, netfile, "",
          "a net's weights file (uckers train) the level evaluates with instead of the one "
          "built in (a candidate labelling its own games); every worker reads it at this path");

namespace uckers {

namespace {

// The run the flags describe (the table not loaded), `command` the one
// reading them ("uckers label add"); a usage error, or a failure for a net
// file that cannot be read.
absl::StatusOr<LabelConfig> RunOfFlags(const std::string& command) {
  absl::StatusOr<Rules> rules = Rules::Parse(absl::GetFlag(FLAGS_rules));
  if (!rules.ok()) return UsageError(absl::StrCat("--rules: ", rules.status().message()));
  LabelConfig c;
  c.rules = *rules;
  c.level = absl::GetFlag(FLAGS_level).empty() ? std::string(kReferenceLevel)
                                               : absl::GetFlag(FLAGS_level);
  if (absl::Status s = ApplyLevel(c.level, &c.params); !s.ok()) {
    return UsageError(absl::StrCat("--level: ", s.message()));
  }
  c.positions = absl::GetFlag(FLAGS_positions);
  c.seed = absl::GetFlag(FLAGS_seed);
  c.trials = absl::GetFlag(FLAGS_trials);
  c.plies = absl::GetFlag(FLAGS_plies);
  c.depth = absl::GetFlag(FLAGS_depth);
  c.threads = absl::GetFlag(FLAGS_concurrency);
  if (absl::Status s = CheckLabelCounts(c); !s.ok()) return UsageError(s.message());
  if (absl::Status s = c.rules.RequireFourSidedTeams(command); !s.ok()) {
    return UsageError(absl::StrCat("--rules: ", s.message()));
  }
  c.netfile = absl::GetFlag(FLAGS_netfile);
  if (absl::Status s = UseLabelNet(&c); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("--netfile: ", s.message()));
  }
  return c;
}

// The database of --db; `existing`: one that must exist already (a worker
// or an export reads what `label add` scheduled), never created.
absl::StatusOr<std::unique_ptr<LadderStore>> OpenDb(bool existing = false) {
  const std::string db = absl::GetFlag(FLAGS_db);
  if (db.empty()) {
    return absl::InvalidArgumentError(
        "--db: give the database (a SQLite file or postgresql://...)");
  }
  if (existing) {
    if (absl::Status s = RequireExistingDb(db); !s.ok()) return s;
  }
  return OpenLadderStore(db);
}

// `uckers label add`: schedules a run as jobs in the database.
absl::Status RunLabelAddCommand(const CommandLine&) {
  absl::StatusOr<LabelConfig> c = RunOfFlags("uckers label add");
  if (!c.ok()) return c.status();
  const int64_t chunk = absl::GetFlag(FLAGS_chunk);
  if (chunk < 1) return UsageError("--chunk must be at least 1");
  absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenDb();
  if (!store.ok()) return store.status();
  absl::StatusOr<int64_t> added = (*store)->AddLabelJobs(LabelSettings(*c), c->positions, chunk);
  if (!added.ok()) return added.status();
  std::cout << "scheduled " << *added << " jobs of " << chunk << " positions: " << LabelSettings(*c)
            << "\n";
  return absl::OkStatus();
}

// `uckers label work`: takes jobs until every job is done, waiting while
// others hold the rest (a killed worker's job comes back when its lease runs
// out); SIGTERM hands the job held back.
absl::Status RunLabelWorkCommand(const CommandLine& cl) {
  // The run's settings are the jobs' own, set by `label add`.
  for (const char* flag :
       {"positions", "trials", "plies", "depth", "chunk", "netfile", "level", "rules", "seed"}) {
    if (cl.Given(flag)) {
      return UsageError(absl::StrCat("--", flag,
                                     ": a setting of the run, which `label add` gave its "
                                     "jobs; a worker takes it from them"));
    }
  }
  const double lease = absl::GetFlag(FLAGS_lease_seconds);
  const int threads = absl::GetFlag(FLAGS_concurrency);
  if (!(lease > 0 && lease <= 7 * 86400) || threads < 1 || threads > kMaxLabelThreads) {
    return UsageError(absl::StrCat("--lease_seconds must be in (0, 604800] and --concurrency 1 to ",
                                   kMaxLabelThreads));
  }
  absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenDb(/*existing=*/true);
  if (!store.ok()) return store.status();
  InterruptFlag interrupt;
  const std::atomic<bool>& stop = *interrupt.flag();
  const std::string token = WorkerToken();
  int64_t done = 0;
  while (!stop) {
    absl::StatusOr<std::optional<LabelJob>> job = (*store)->TakeLabelJob(token, lease);
    if (!job.ok()) return job.status();
    if (!*job) {
      absl::StatusOr<PairCounts> counts = (*store)->CountLabelJobs();
      if (!counts.ok()) return counts.status();
      if (counts->queued + counts->taken == 0) break;
      auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
      while (!stop && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      continue;
    }
    std::cout << "job " << (*job)->id << " taken\n"
              << "positions " << (*job)->first << ".." << (*job)->first + (*job)->count - 1
              << std::endl;
    absl::StatusOr<LabelConfig> c = LabelConfigFromSettings((*job)->settings);
    absl::StatusOr<std::string> lines;
    if (c.ok()) {
      c->threads = threads;
      lines = LabelRange(*c, (*job)->first, (*job)->count, stop);
    }
    if (!c.ok() || !lines.ok()) {
      (void)(*store)->ReleaseLabelJob((*job)->id, token);
      if (!c.ok()) return c.status();
      break;  // stopped: the job is queued again
    }
    absl::StatusOr<bool> kept = (*store)->FinishLabelJob((*job)->id, token, *lines, token);
    if (!kept.ok()) return kept.status();
    std::cout << "job " << (*job)->id
              << (*kept ? " done" : " lost: its lease ran out and another worker took it")
              << std::endl;
    done += *kept;
  }
  std::cout << (stop ? "stopped" : "no job left") << " after " << done << " jobs\n";
  return absl::OkStatus();
}

// `uckers label export`: a run's labels from the database, as a file.
absl::Status RunLabelExportCommand(const CommandLine&) {
  if (absl::GetFlag(FLAGS_out).empty()) {
    return UsageError("--out: give the JSON Lines file to write");
  }
  absl::StatusOr<LabelConfig> c = RunOfFlags("uckers label export");
  if (!c.ok()) return c.status();
  absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenDb(/*existing=*/true);
  if (!store.ok()) return store.status();
  int64_t pending = 0;
  absl::StatusOr<std::string> lines = (*store)->LabelLines(LabelSettings(*c), &pending);
  if (!lines.ok()) return lines.status();
  if (lines->empty() && pending == 0) {
    return Failed(absl::StrCat(absl::GetFlag(FLAGS_db),
                               " holds no labelling run of these settings (", LabelSettings(*c),
                               "); give those `label add` scheduled"));
  }
  if (absl::Status s = WriteTextFile(absl::GetFlag(FLAGS_out), *lines); !s.ok()) return s;
  const int64_t n = std::count(lines->begin(), lines->end(), '\n');
  std::cout << "exported " << n << " positions to " << absl::GetFlag(FLAGS_out);
  if (pending > 0)
    std::cout << " (" << pending
              << " jobs not done yet; the positions after the first are left out)";
  std::cout << "\n";
  return absl::OkStatus();
}

absl::Status RunLabelCommand(const CommandLine&) {
  if (absl::GetFlag(FLAGS_out).empty()) {
    return UsageError("--out: give the JSON Lines file to write (uckers help label)");
  }
  absl::StatusOr<LabelConfig> run = RunOfFlags("uckers label");
  if (!run.ok()) return run.status();
  LabelConfig& c = *run;
  std::unique_ptr<EndgameTable> table;
  if (std::string path = absl::GetFlag(FLAGS_endgames); !path.empty()) {
    absl::StatusOr<EndgameTable> loaded = EndgameTable::Load(path, c.rules);
    if (!loaded.ok()) {
      return Failed(absl::StrCat("--endgames: ", loaded.status().message()));
    }
    table = std::make_unique<EndgameTable>(*std::move(loaded));
    c.params.endgame = table.get();
  }
  c.out = absl::GetFlag(FLAGS_out);
  c.progress_every = absl::GetFlag(FLAGS_progress) ? 100 : 0;
  InterruptFlag interrupt;
  return Label(c, std::cout, *interrupt.flag());
}

}  // namespace

const std::vector<SharedFlag> kRunFlags = {
    {"rules"},
    {"seed", "the run's seed: position i is drawn and labelled from it and i alone"},
    {"level", "the level whose evaluation the rollouts or the search use (default expert)"}};
// (--netfile is this file's own flag, listed by every labelling command.)

const Command& LabelAddCommand() {
  static const Command command = {
      .name = "label add",
      .summary = "schedules a labelling run as jobs in a ladder database, for `label work`",
      .usage =
          "uckers label add --db DB [--positions N] [--chunk C] [--trials T] [--plies P]\n"
          "                 [--depth D] [--level L] [--netfile NET] [--rules R] [--seed S]\n"
          "  jobs of C positions; adding the same run again schedules only what is missing",
      .flags_file = "app/label.cpp",
      .shared =
          [] {
            std::vector<SharedFlag> f = kRunFlags;
            f.push_back({"db"});
            return f;
          }(),
      .run = RunLabelAddCommand,
  };
  return command;
}

const Command& LabelWorkCommand() {
  static const Command command = {
      .name = "label work",
      .summary = "labels a database's scheduled positions, job by job, until none is left",
      .usage =
          "uckers label work --db DB [--concurrency N] [--lease_seconds S]\n"
          "  prints `job <id> taken`, then `job <id> done` once its lines are stored; any\n"
          "  number of workers may share one database. A job not finished within its lease\n"
          "  (a worker killed) is taken again; on SIGTERM or SIGINT the job held is handed\n"
          "  back and the worker exits 0",
      .flags_file = "app/label.cpp",
      .shared = {{"db"}, {"concurrency", "positions labelled at once"}, {"lease_seconds"}},
      .run = RunLabelWorkCommand,
  };
  return command;
}

const Command& LabelExportCommand() {
  static const Command command = {
      .name = "label export",
      .summary = "writes a database run's labelled positions as a JSON Lines file",
      .usage =
          "uckers label export --db DB --out FILE.jsonl [--trials T] [--plies P] [--depth D]\n"
          "                    [--level L] [--netfile NET] [--rules R] [--seed S]\n"
          "  the run's positions in order, up to its first job not done; the file is the\n"
          "  one `uckers label` writes for the same run",
      .flags_file = "app/label.cpp",
      .shared =
          [] {
            std::vector<SharedFlag> f = kRunFlags;
            f.push_back({"db"});
            f.push_back({"out", "the JSON Lines file (required)"});
            return f;
          }(),
      .run = RunLabelExportCommand,
  };
  return command;
}

const Command& LabelCommand() {
  static const Command command = {
      .name = "label",
      .summary =
          "positions labelled by truncated rollouts or a deeper search, for supervised "
          "training, resumable",
      .usage =
          "uckers label --out FILE.jsonl [--positions N] [--trials T] [--plies P] [--depth D]\n"
          "             [--level L] [--netfile NET] [--rules R] [--seed S] [--concurrency N]\n"
          "             [--endgames TABLE]\n"
          "  positions drawn from the fast policy's own games, each labelled by T rollouts\n"
          "  of P throws, or with --depth D by the level's expectimax D throws deep (the\n"
          "  exact table's value where it covers one); an existing FILE is resumed\n"
          "  (docs/evaluation.md, \"Rollout labels\")",
      .flags_file = "app/label.cpp",
      .shared = {{"rules"},
                 {"seed", "the run's seed: position i is drawn and labelled from it and i alone"},
                 {"out", "the JSON Lines file (required); resumed when it exists"},
                 {"level",
                  "the level whose evaluation the rollouts or the search use (default expert)"},
                 {"concurrency", "positions labelled at once"},
                 {"progress", "a line every 100 positions"},
                 {"endgames"}},
      .run = RunLabelCommand,
  };
  return command;
}

}  // namespace uckers
