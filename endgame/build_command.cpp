#include "endgame/build_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "endgame/check.h"
#include "endgame/solver.h"

namespace uckers {
namespace {

constexpr char kUsage[] =
    "usage: endgame_build --class 1v1|1v2|2v2 --rules RULES --out FILE [--check N]\n";

struct BuildArgs {
  EndgameClass cls = EndgameClass::k1v1;
  Rules rules;
  std::string out;
  int check = 0;
};

// The value of flag `name` at argv[*i] ("--name V" or "--name=V"), moving
// *i past it; nullopt when argv[*i] is not that flag or has no value.
std::optional<std::string> FlagValue(int argc, char** argv, int* i, const std::string& name) {
  std::string arg = argv[*i];
  std::string flag = "--" + name;
  if (arg.rfind(flag + "=", 0) == 0) return arg.substr(flag.size() + 1);
  if (arg != flag || *i + 1 >= argc) return std::nullopt;
  return std::string(argv[++*i]);
}

// Parses the flags; an error message for a usage error.
std::optional<std::string> ParseArgs(int argc, char** argv, BuildArgs* args) {
  bool have_class = false, have_rules = false;
  for (int i = 1; i < argc; ++i) {
    if (auto v = FlagValue(argc, argv, &i, "class")) {
      absl::StatusOr<EndgameClass> cls = ClassByName(*v);
      if (!cls.ok()) return std::string(cls.status().message());
      args->cls = *cls;
      have_class = true;
    } else if (auto v = FlagValue(argc, argv, &i, "rules")) {
      absl::StatusOr<Rules> rules = Rules::Parse(*v);
      if (!rules.ok()) return std::string(rules.status().message());
      args->rules = *rules;
      have_rules = true;
    } else if (auto v = FlagValue(argc, argv, &i, "out")) {
      args->out = *v;
    } else if (auto v = FlagValue(argc, argv, &i, "check")) {
      if (!absl::SimpleAtoi(*v, &args->check) || args->check < 0) {
        return "--check wants a count of positions, 0 or more";
      }
    } else {
      return "unknown or incomplete argument '" + std::string(argv[i]) + "'";
    }
  }
  if (!have_class || !have_rules || args->out.empty()) return "--class, --rules and --out are needed";
  return std::nullopt;
}

void PrintFigures(const BuildArgs& args, const EndgameBuildStats& stats, uintmax_t file_bytes) {
  std::cout << absl::StrFormat(
      "class %s rules %s: %d positions, %.1f s, peak memory %.1f MiB, file %d bytes (%s)\n",
      ClassName(args.cls), args.rules.ToString(), stats.states, stats.seconds,
      stats.peak_rss_bytes / 1048576.0, file_bytes, args.out);
  for (const EndgameGroupStats& g : stats.groups) {
    std::cout << absl::StrFormat(
        "  %s: %d positions, %d full sweeps and %d replayed, %.1f s, last change %.2g\n",
        g.shapes, g.states, g.sweeps, g.replay_sweeps, g.seconds, g.last_change);
  }
}

}  // namespace

int EndgameBuildMain(int argc, char** argv) {
  BuildArgs args;
  if (std::optional<std::string> error = ParseArgs(argc, argv, &args)) {
    std::cerr << "endgame_build: " << *error << "\n" << kUsage;
    return 2;
  }
  if (absl::Status s = CheckEndgameRules(args.rules); !s.ok()) {
    std::cerr << "endgame_build: " << s.message() << "\n";
    return 2;
  }
  // A build takes minutes: an output that cannot be written is found first.
  bool existed = std::filesystem::exists(args.out);
  if (!std::ofstream(args.out, std::ios::app)) {
    std::cerr << "endgame_build: --out: cannot write " << args.out << "\n";
    return 2;
  }
  EndgameBuildOptions options;
  options.progress = [](const std::string& line) { std::cerr << line << std::endl; };
  EndgameBuildStats stats;
  absl::StatusOr<EndgameTable> table = BuildEndgameTable(args.cls, args.rules, options, &stats);
  absl::Status status = table.ok() ? table->Save(args.out) : table.status();
  std::error_code ec;
  absl::StatusOr<EndgameTable> reread =
      status.ok() ? EndgameTable::Load(args.out, args.rules) : absl::StatusOr<EndgameTable>(status);
  if (!reread.ok()) {
    std::cerr << "endgame_build: " << reread.status().message() << "\n";
    if (!existed) std::filesystem::remove(args.out, ec);
    return 1;
  }
  PrintFigures(args, stats, std::filesystem::file_size(args.out, ec));
  if (args.check > 0) {
    absl::StatusOr<BellmanCheck> check = CheckBellman(*reread, args.check, /*seed=*/1);
    if (!check.ok()) {
      std::cerr << "endgame_build: " << check.status().message() << "\n";
      return 1;
    }
    std::cout << absl::StrFormat("Bellman check: %d positions, largest error %.2g (%s)\n",
                                 check->positions, check->max_error, check->worst);
  }
  return 0;
}

}  // namespace uckers
