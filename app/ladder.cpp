// `uckers ladder`: a round-robin or gauntlet ladder, or a GSPRT test, of
// players in one run (ladder/ladder.h); `uckers ladder add|work|table`
// is the standing ladder in a database (app/ladder_db.cpp).
#include "ladder/ladder.h"

#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "match/match.h"
#include "match/multi_side_match.h"
#include "record/text.h"
#include "wire/json.h"

ABSL_FLAG(std::string, players, "beginner;casual;intermediate",
          "player specifications separated by ';' (see uckers match)");
ABSL_FLAG(bool, gauntlet, false, "the first player against each other, not round-robin");
ABSL_FLAG(int, ladder_pairs, 50, "duplicate pairs per matchup (the maximum with --sprt)");
ABSL_FLAG(std::string, sprt, "", "elo0,elo1,alpha,beta: a GSPRT A/B test of two players");

namespace uckers {

namespace {

// Reads the ladder's settings from the flags into `config`, or says what is
// wrong.
absl::Status ReadLadderFlags(LadderConfig* config) {
  config->players = absl::StrSplit(absl::GetFlag(FLAGS_players), ';', absl::SkipEmpty());
  config->gauntlet = absl::GetFlag(FLAGS_gauntlet);
  absl::StatusOr<Rules> rules = Rules::Parse(absl::GetFlag(FLAGS_rules));
  if (!rules.ok()) {
    return UsageError(absl::StrCat("--rules: ", rules.status().message()));
  }
  config->rules = *rules;
  config->pairs = absl::GetFlag(FLAGS_ladder_pairs);
  config->concurrency = absl::GetFlag(FLAGS_concurrency);
  config->seed = absl::GetFlag(FLAGS_seed);
  config->progress = absl::GetFlag(FLAGS_progress);
  config->luck = absl::GetFlag(FLAGS_luck);
  config->luck_depth = absl::GetFlag(FLAGS_luck_depth);
  absl::StatusOr<RunOutputs> outputs = ReadRunOutputs();
  if (!outputs.ok()) return outputs.status();
  config->records_dir = outputs->records_dir;
  config->resume = outputs->resume;
  config->games_out = outputs->games_out;
  if (!absl::GetFlag(FLAGS_sprt).empty()) {
    absl::StatusOr<SprtConfig> sprt = ParseSprt(absl::GetFlag(FLAGS_sprt));
    if (!sprt.ok()) {
      return UsageError(absl::StrCat("--sprt: ", sprt.status().message()));
    }
    config->sprt = *sprt;
  }
  return absl::OkStatus();
}

// More sides (docs/ladder.md, "More sides"): players are levels, greedy or
// random, and the four-sided game's extras are refused (a usage error).
absl::Status CheckMultiSideLadderCommand(const LadderConfig& config) {
  if (config.sprt || config.resume || !config.games_out.empty()) {
    return UsageError("--sprt, --resume and --games_out are for the four-sided game of two teams");
  }
  for (const std::string& spec : config.players) {
    if (absl::Status s = CheckMultiSidePlayer(spec, config.rules); !s.ok()) {
      return UsageError(s.message());
    }
  }
  return absl::OkStatus();
}

// The checks of the command before any player starts, `chart_path` the
// chart to write (or empty).
absl::Status CheckLadderCommand(const LadderConfig& config, const std::string& chart_path) {
  if (absl::Status s = CheckPairsAndConcurrency(config.pairs, config.concurrency); !s.ok()) {
    return UsageError(absl::StrCat(s.message(), " (--ladder_pairs, --concurrency)"));
  }
  if (absl::Status s = chart_path.empty() ? absl::OkStatus() : CheckWritable(chart_path); !s.ok()) {
    return Failed(absl::StrCat("--chart: ", s.message()));
  }
  if (config.resume && config.sprt) {
    return UsageError(
        "--resume cannot continue a GSPRT (--sprt): its decision depends on the order the pairs "
        "finished in");
  }
  if (!config.rules.layout().IsFourSidedTeams()) return CheckMultiSideLadderCommand(config);
  return absl::OkStatus();
}

// Prints the report (--json or text) and writes the chart (with
// `chart_path`); the command's status.
absl::Status ReportLadder(const LadderConfig& config, const v1::LadderReport& report,
                          const std::string& chart_path) {
  if (absl::GetFlag(FLAGS_json)) {
    std::cout << ToJson(report);
  } else {
    std::cout << LadderReportText(report);
  }
  if (!chart_path.empty()) {
    if (absl::Status s = WriteTextFile(chart_path, LadderReportSvg(report)); !s.ok()) {
      return Failed(s.message());
    }
  }
  if (report.interrupted()) {
    return Failed(absl::StrCat(
        "interrupted after ", report.pairs_done(), " of ", report.pairs_scheduled(), " pairs",
        config.records_dir.empty() ? ""
                                   : "; the same command with --resume finishes it from the "
                                     "records"));
  }
  return absl::OkStatus();
}

absl::Status RunLadderCommand(const CommandLine&) {
  LadderConfig config;
  if (absl::Status s = ReadLadderFlags(&config); !s.ok()) return s;
  std::string chart_path = absl::GetFlag(FLAGS_chart);
  if (absl::Status s = CheckLadderCommand(config, chart_path); !s.ok()) return s;
  absl::StatusOr<v1::LadderReport> report;
  {
    InterruptFlag interrupt;
    config.interrupted = interrupt.flag();
    report = RunLadder(config);
  }
  if (!report.ok()) return report.status();
  return ReportLadder(config, *report, chart_path);
}

}  // namespace

const Command& LadderCommand() {
  static const Command command = {
      .name = "ladder",
      .summary = "a round-robin ladder, GSPRT tests; `ladder add|work|table`: a standing one",
      .usage =
          "uckers ladder --players 'beginner;casual;expert,movetime=50' [--gauntlet]\n"
          "       [--ladder_pairs N] [--concurrency K] [--sprt elo0,elo1,alpha,beta [--luck]]\n"
          "       [--records DIR] [--chart ratings.svg] [--json]\n"
          "       uckers ladder add|work|table --db DB ...  a standing ladder in a database\n"
          "       (uckers help ladder add, ...)",
      .flags_file = "app/ladder.cpp",
      .shared = RunFlags({{"chart"}, {"luck"}, {"luck_depth"}}),
      .run = RunLadderCommand,
      .more_help = PrintPlayerHelp,
  };
  return command;
}

}  // namespace uckers
