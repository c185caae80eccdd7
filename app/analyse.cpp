#include <iostream>

#include "absl/flags/flag.h"
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

int RunAnalyseCommand(const CommandLine& cl) {
  std::string path = cl.args()[0];
  std::string level = cl.Given("level") ? absl::GetFlag(FLAGS_level) : std::string(kAnalysisLevel);
  if (absl::Status s = CheckChoiceSetting("level", level); !s.ok()) {
    std::cerr << "uckers analyse: --level: " << s.message() << "\n";
    return 2;
  }
  std::string svg_path = absl::GetFlag(FLAGS_svg);
  if (absl::Status s = svg_path.empty() ? absl::OkStatus() : CheckWritable(svg_path); !s.ok()) {
    std::cerr << "uckers analyse: --svg: " << s.message() << "\n";
    return 1;
  }
  absl::StatusOr<std::string> text = ReadTextFile(path, kMaxRecordBytes);
  if (!text.ok()) {
    std::cerr << "uckers analyse: " << text.status().message() << "\n";
    return absl::IsInvalidArgument(text.status()) ? 2 : 1;
  }
  absl::StatusOr<Record> record = wire::ParseRecord(*text);
  if (!record.ok()) {
    std::cerr << "uckers analyse: " << path << ": " << record.status().message() << "\n";
    return 1;
  }
  std::shared_ptr<const EndgameTable> endgames;
  if (std::string table_path = absl::GetFlag(FLAGS_endgames); !table_path.empty()) {
    absl::StatusOr<EndgameTable> table = EndgameTable::Load(table_path, record->game.rules());
    if (!table.ok()) {
      std::cerr << "uckers analyse: --endgames: " << table.status().message() << "\n";
      return 1;
    }
    endgames = std::make_shared<const EndgameTable>(*std::move(table));
  }
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> analysis =
      AnalyseGame(*record, level, stop, nullptr, endgames.get());
  if (!analysis.ok()) {
    std::cerr << "uckers analyse: " << analysis.status().message() << "\n";
    return 1;
  }
  std::cout << (absl::GetFlag(FLAGS_json) ? wire::AnalysisToJson(*analysis)
                                          : AnalysisToText(*analysis));
  if (!svg_path.empty()) {
    if (absl::Status s = WriteTextFile(svg_path, AnalysisToSvg(*analysis)); !s.ok()) {
      std::cerr << "uckers analyse: " << s.message() << "\n";
      return 1;
    }
  }
  return 0;
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
