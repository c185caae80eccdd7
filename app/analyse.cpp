#include "review/analyse.h"

#include <iostream>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "endgame/table.h"
#include "review/record.h"

namespace uckers {

int AnalyseMain(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "uckers analyse GAME [--level L] [--json] [--svg chart.svg]\n"
      "GAME is a record file (text or JSON, docs/records.md), or - for stdin.");
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  if (args.size() != 2) {
    std::cerr << "uckers analyse: give one game record file (or -)\n";
    return 2;
  }
  std::string path = args[1];
  std::string svg_path = absl::GetFlag(FLAGS_svg);
  if (absl::Status s = svg_path.empty() ? absl::OkStatus() : CheckWritable(svg_path); !s.ok()) {
    std::cerr << "uckers analyse: --svg: " << s.message() << "\n";
    return 2;
  }
  absl::StatusOr<std::string> text = ReadTextFile(path, kMaxRecordBytes);
  if (!text.ok()) {
    std::cerr << "uckers analyse: " << text.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<v1::GameRecord> record = ParseRecord(*text);
  if (!record.ok()) {
    std::cerr << "uckers analyse: " << path << ": " << record.status().message() << "\n";
    return 1;
  }
  std::shared_ptr<const EndgameTable> endgames;
  if (std::string table_path = absl::GetFlag(FLAGS_endgames); !table_path.empty()) {
    absl::StatusOr<Rules> rules = RecordRules(*record);
    absl::StatusOr<EndgameTable> table = rules.ok() ? EndgameTable::Load(table_path, *rules)
                                                    : absl::StatusOr<EndgameTable>(rules.status());
    if (!table.ok()) {
      std::cerr << "uckers analyse: --endgames: " << table.status().message() << "\n";
      return 1;
    }
    endgames = std::make_shared<const EndgameTable>(*std::move(table));
  }
  std::atomic<bool> stop{false};
  absl::StatusOr<v1::GameAnalysis> analysis =
      AnalyseGame(*record, absl::GetFlag(FLAGS_level), stop, nullptr, endgames.get());
  if (!analysis.ok()) {
    std::cerr << "uckers analyse: " << analysis.status().message() << "\n";
    return 1;
  }
  std::cout << (absl::GetFlag(FLAGS_json) ? AnalysisToJson(*analysis) : AnalysisToText(*analysis));
  if (!svg_path.empty()) {
    if (absl::Status s = WriteTextFile(svg_path, AnalysisToSvg(*analysis)); !s.ok()) {
      std::cerr << "uckers analyse: " << s.message() << "\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace uckers
