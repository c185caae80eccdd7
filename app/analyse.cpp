#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "endgame/table.h"
#include "record/text.h"
#include "review/review.h"
#include "search/levels.h"
#include "search/settings.h"
#include "wire/analysis.h"
#include "wire/record.h"

ABSL_FLAG(std::string, svg, "", "also write an SVG chart of the review to this file");

namespace uckers {

namespace {

absl::Status RunAnalyseCommand(const CommandLine& cl) {
  std::string path = cl.args()[0];
  std::string level = cl.Given("level") ? absl::GetFlag(FLAGS_level) : std::string(kAnalysisLevel);
  if (absl::Status s = CheckChoiceSetting("level", level); !s.ok()) {
    return UsageError(absl::StrCat("--level: ", s.message()));
  }
  std::string svg_path = absl::GetFlag(FLAGS_svg);
  if (absl::Status s = svg_path.empty() ? absl::OkStatus() : CheckWritable(svg_path); !s.ok()) {
    return Failed(absl::StrCat("--svg: ", s.message()));
  }
  absl::StatusOr<std::string> text = ReadTextFile(path, kMaxRecordBytes);
  if (!text.ok()) return text.status();
  absl::StatusOr<Record> record = wire::ParseRecord(*text);
  if (!record.ok()) {
    return Failed(absl::StrCat(path, ": ", record.status().message()));
  }
  std::shared_ptr<const EndgameTable> endgames;
  if (std::string table_path = absl::GetFlag(FLAGS_endgames); !table_path.empty()) {
    absl::StatusOr<EndgameTable> table = EndgameTable::Load(table_path, record->game.rules());
    if (!table.ok()) {
      return Failed(absl::StrCat("--endgames: ", table.status().message()));
    }
    endgames = std::make_shared<const EndgameTable>(*std::move(table));
  }
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> analysis =
      AnalyseGame(*record, level, stop, nullptr, endgames.get());
  if (!analysis.ok()) return Failed(analysis.status().message());
  std::cout << (absl::GetFlag(FLAGS_json) ? wire::AnalysisToJson(*analysis)
                                          : AnalysisToText(*analysis));
  if (!svg_path.empty()) {
    if (absl::Status s = WriteTextFile(svg_path, AnalysisToSvg(*analysis)); !s.ok()) {
      return Failed(s.message());
    }
  }
  return absl::OkStatus();
}

}  // namespace

const Command& AnalyseCommand() {
  static const Command command = {
      .name = "analyse",
      .summary = "a review of a game record: marks, luck, ratings, chart",
      .usage =
          "uckers analyse GAME [--level L] [--json] [--svg chart.svg] [--endgames FILE]\n"
          "  GAME is a record file (text or JSON, docs/records.md), or - for stdin",
      .flags_file = "app/analyse.cpp",
      .shared = {{"level", "the level the review searches at (the strongest playing level)",
                  std::string(kAnalysisLevel)},
                 {"json", "print the review as JSON"},
                 {"endgames"}},
      .min_arguments = 1,
      .max_arguments = 1,
      .arguments_text = "a game record file (or -)",
      .run = RunAnalyseCommand,
  };
  return command;
}

}  // namespace uckers
