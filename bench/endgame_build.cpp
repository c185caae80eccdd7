// Builds the 1v1 endgame table under a ruleset, times it and saves it.
// Usage: endgame_build [rules-preset] [output-path]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "endgame/endgame.h"
#include "engine/rules.h"

int main(int argc, char** argv) {
  if (argc > 3) {
    std::fprintf(stderr, "usage: endgame_build [rules-preset] [output-path]\n");
    return 2;
  }
  std::string preset = argc > 1 ? argv[1] : "navy";
  std::string path = argc > 2 ? argv[2] : "endgame_1v1.tbl";
  absl::StatusOr<uckers::Rules> rules = uckers::Rules::Preset(preset);
  if (!rules.ok()) {
    std::fprintf(stderr, "%s\n", std::string(rules.status().message()).c_str());
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<uckers::EndgameTable> table = uckers::EndgameTable::Build(*rules);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!table.ok()) {
    std::fprintf(stderr, "%s\n", std::string(table.status().message()).c_str());
    return 1;
  }
  if (absl::Status s = table->Save(path); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "class 1v1 rules %s states %zu slots %zu build %.2f s "
      "peak rss %ld KiB file %lld bytes\n",
      preset.c_str(), table->size(), uckers::EndgameTable::kSlots, seconds, usage.ru_maxrss,
      static_cast<long long>(in.tellg()));
  return 0;
}
