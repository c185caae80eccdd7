#include "absl/strings/match.h"

#include <cstdio>
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "match/match.h"
#include "match/multi_side_match.h"
#include "match/player.h"
#include "record/text.h"
#include "wire/json.h"

ABSL_FLAG(std::string, a, "expert",
          "player A (random, greedy, a level, mcts, cmd:<program>; ,key=value settings)");
ABSL_FLAG(std::string, b, "greedy", "player B");

namespace uckers {

namespace {

// A layout of more than two sides or the six-sided board: A in one seat, B
// in the others, every seat in turn on each dice sequence
// (match/multi_side_match.h).
absl::Status RunMultiSide(const Rules& rules) {
  MultiSideMatchConfig config;
  config.player_a = absl::GetFlag(FLAGS_a);
  config.player_b = absl::GetFlag(FLAGS_b);
  config.rules = rules;
  config.sequences = absl::GetFlag(FLAGS_pairs);
  config.concurrency = absl::GetFlag(FLAGS_concurrency);
  config.seed = absl::GetFlag(FLAGS_seed);
  config.progress = absl::GetFlag(FLAGS_progress);
  config.luck = absl::GetFlag(FLAGS_luck);
  config.luck_depth = absl::GetFlag(FLAGS_luck_depth);
  for (const std::string& spec : {config.player_a, config.player_b}) {
    if (absl::Status s = CheckMultiSidePlayer(spec, rules); !s.ok()) return s;
  }
  if (!absl::GetFlag(FLAGS_games_out).empty() || absl::GetFlag(FLAGS_resume)) {
    return UsageError(
        "--resume and --games_out are for the four-sided game of two teams (--records keeps "
        "every game under any rules)");
  }
  absl::StatusOr<RunOutputs> outputs = ReadRunOutputs();
  if (!outputs.ok()) return outputs.status();
  config.records_dir = outputs->records_dir;
  if (absl::Status s = CheckPairsAndConcurrency(config.sequences, config.concurrency); !s.ok()) {
    return UsageError(s.message());
  }
  absl::StatusOr<v1::MatchReport> report;
  {
    InterruptFlag interrupt;
    config.interrupted = interrupt.flag();
    report = RunMultiSideMatch(config);
  }
  if (!report.ok()) return report.status();
  std::cout << (absl::GetFlag(FLAGS_json) ? ToJson(*report) : MultiSideMatchReportText(*report));
  return report->interrupted() ? QuietFailure() : absl::OkStatus();
}

absl::Status RunMatchCommand(const CommandLine&) {
  absl::StatusOr<Rules> rules = Rules::Parse(absl::GetFlag(FLAGS_rules));
  if (!rules.ok()) {
    return UsageError(absl::StrCat("--rules: ", rules.status().message()));
  }
  if (!rules->layout().IsFourSidedTeams()) return RunMultiSide(*rules);
  for (const std::string& spec : {absl::GetFlag(FLAGS_a), absl::GetFlag(FLAGS_b)}) {
    // A malformed player is a usage error, found before any game; a file it
    // names that cannot be read, a failure.
    if (absl::StartsWith(spec, "cmd:") || absl::StartsWith(spec, "grpc:")) continue;
    if (absl::StatusOr<std::unique_ptr<Player>> p = MakePlayer(spec, *rules, 0); !p.ok()) {
      return p.status();
    }
  }
  MatchConfig config;
  config.player_a = absl::GetFlag(FLAGS_a);
  config.player_b = absl::GetFlag(FLAGS_b);
  config.rules = *rules;
  config.pairs = absl::GetFlag(FLAGS_pairs);
  config.concurrency = absl::GetFlag(FLAGS_concurrency);
  config.seed = absl::GetFlag(FLAGS_seed);
  config.progress = absl::GetFlag(FLAGS_progress);
  config.luck = absl::GetFlag(FLAGS_luck);
  config.luck_depth = absl::GetFlag(FLAGS_luck_depth);
  absl::StatusOr<RunOutputs> outputs = ReadRunOutputs();
  if (!outputs.ok()) return outputs.status();
  config.records_dir = outputs->records_dir;
  config.resume = outputs->resume;
  config.games_out = outputs->games_out;
  if (absl::Status s = CheckPairsAndConcurrency(config.pairs, config.concurrency); !s.ok()) {
    return UsageError(s.message());
  }
  absl::StatusOr<v1::MatchReport> report;
  {
    InterruptFlag interrupt;
    config.interrupted = interrupt.flag();
    report = RunMatch(config);
  }
  if (!report.ok()) return report.status();
  if (absl::GetFlag(FLAGS_json)) {
    std::cout << ToJson(*report);
  } else {
    std::cout << MatchReportText(*report);
  }
  if (report->interrupted()) {
    return Failed(absl::StrCat(
        "interrupted after ", report->pairs_done(), " of ", report->pairs(), " pairs",
        config.records_dir.empty() ? ""
                                   : "; the same command with --resume finishes it from the "
                                     "records"));
  }
  return absl::OkStatus();
}

}  // namespace

const Command& MatchCommand() {
  static const Command command = {
      .name = "match",
      .summary = "a duplicate-pair match between two players, with an Elo interval",
      .usage =
          "uckers match --a SPEC --b SPEC [--pairs N] [--concurrency K] [--rules R] [--luck]\n"
          "  each pair plays one dice sequence twice, the players' teams swapped",
      .flags_file = "app/match.cpp",
      .shared = RunFlags({{"pairs"}, {"luck"}, {"luck_depth"}}),
      .run = RunMatchCommand,
      .more_help = PrintPlayerHelp,
  };
  return command;
}

}  // namespace uckers
