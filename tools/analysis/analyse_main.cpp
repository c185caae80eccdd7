#include "tools/analysis/analyse_main.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "tools/analysis/analyse.h"
#include "tools/analysis/record.h"
#include "tools/cli_flags.h"

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
  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(path);
    if (!in) {
      std::cerr << "uckers analyse: cannot read " << path << "\n";
      return 2;
    }
    text << in.rdbuf();
  }
  absl::StatusOr<v1::GameRecord> record = ParseRecord(text.str());
  if (!record.ok()) {
    std::cerr << "uckers analyse: " << path << ": " << record.status().message() << "\n";
    return 1;
  }
  std::atomic<bool> stop{false};
  absl::StatusOr<v1::GameAnalysis> analysis =
      AnalyseGame(*record, absl::GetFlag(FLAGS_level), stop);
  if (!analysis.ok()) {
    std::cerr << "uckers analyse: " << analysis.status().message() << "\n";
    return 1;
  }
  std::cout << (absl::GetFlag(FLAGS_json) ? AnalysisToJson(*analysis) : AnalysisToText(*analysis));
  if (!absl::GetFlag(FLAGS_svg).empty()) {
    std::ofstream svg(absl::GetFlag(FLAGS_svg));
    svg << AnalysisToSvg(*analysis);
    if (!svg) {
      std::cerr << "uckers analyse: cannot write " << absl::GetFlag(FLAGS_svg) << "\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace uckers
