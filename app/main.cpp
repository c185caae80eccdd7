// `uckers`: the command table and its dispatch; each command is a file of
// app/ (app/commands.h). With no arguments, speaks the text protocol on
// stdin/stdout (app/play.cpp); `uckers COMMAND ...` runs one command
// (`uckers help` lists them); any text-protocol command given as arguments
// is run once (`uckers bench`, `uckers perft 4`). Exit codes: 0 done, 1
// failed, 2 usage.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/reflection.h"
#include "app/commands.h"
#include "app/ladder_db.h"
#include "engine/version.h"

namespace uckers {
namespace {

struct Command {
  const char* name;
  int (*main)(int argc, char** argv);  // nullptr: a text-protocol command
  const char* help;
  const char* usage;
  std::vector<std::string> flags;  // the flags it reads; any other is refused
  int max_arguments = 0;           // positional arguments it takes
};

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"match",
       MatchMain,
       "a duplicate-pair match between two players, with an Elo interval",
       "uckers match --a SPEC --b SPEC [--pairs N] [--concurrency K] [--rules R]",
       {"a", "b", "pairs", "concurrency", "rules", "seed", "json", "progress", "records", "resume",
        "games_out"}},
      {"ladder",
       LadderMain,
       "a round-robin ladder, GSPRT tests; `ladder add|work|table --db DB`: a standing one",
       "uckers ladder --players 'A;B;...' [--ladder_pairs N] [--gauntlet] [--sprt ...]\n"
       "       uckers ladder add|work|table --db DB ... (each with --help)",
       {"players", "gauntlet", "ladder_pairs", "sprt", "chart", "concurrency", "rules", "seed",
        "json", "progress", "records", "resume", "games_out"}},
      {"analyse",
       AnalyseMain,
       "a review of a game record: marks, luck, ratings, chart",
       "uckers analyse GAME [--level L] [--svg FILE] [--json] [--endgames FILE]",
       {"level", "svg", "json", "endgames"},
       1},
      {"verify",
       VerifyMain,
       "checks a dealt game's dice against its revealed secret (docs/records.md)",
       "uckers verify RECORD",
       {},
       1},
      {"drill",
       DrillMain,
       "spaced repetition of a review's marked decisions, in SQLite",
       "uckers drill --db FILE [--add RECORD] [--level L] [--today YYYY-MM-DD] [--count N] "
       "[--list]",
       {"db", "add", "level", "today", "count", "list"}},
      {"serve",
       ServeMain,
       "the gRPC service uckers.v1.Engine",
       "uckers serve [--address 127.0.0.1:50051] [--http 127.0.0.1:8080] [--max_searches N] ...",
       {"address", "grace_ms", "max_hash_mb", "max_message_bytes", "max_request_threads",
        "max_searches", "tree_mb", "max_depth", "max_nodes", "max_movetime_ms", "http",
        "http_threads", "http_cors_origins", "http_web", "endgames", "dealer_key_file"}},
      {"train",
       TrainMain,
       "self-play training of the learned evaluation",
       "uckers train --out FILE [--games N] [--lr X] ...: resumes from FILE.ckpt",
       {"out", "games", "rules", "seed", "hidden", "lambda", "lookahead", "lr", "batch_games",
        "checkpoint", "checkpoint_every", "eval_every", "eval_pairs", "curve", "init",
        "init_other_rules"}},
      {"endgames",
       EndgamesMain,
       "exact endgame tables: build one (docs/endgames.md)",
       "uckers endgames build --class 1v1|1v2|2v2 --rules RULES --out FILE [--check N]",
       {"class", "rules", "out", "check"},
       1},
      {"bench", nullptr, "fixed searches: node count, speed and the Bench signature", "", {}},
      {"perft", nullptr, "perft N: legal-play tree counts from the start position", "", {}},
  };
  return commands;
}

// Every flag of `c` with its meaning and default.
void PrintCommandHelp(const Command& c) {
  std::cout << c.usage << "\n" << c.help << "\n\nflags:\n";
  auto all = absl::GetAllFlags();
  for (const std::string& name : c.flags) {
    auto it = all.find(name);
    if (it == all.end()) continue;
    std::cout << "  --" << name << "  " << it->second->Help() << " (default: "
              << (it->second->DefaultValue().empty() ? "none" : it->second->DefaultValue())
              << ")\n";
  }
}

size_t Distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

// Refuses a flag `c` does not read and more positional arguments than it
// takes: another command's flag is an error here, not silently accepted.
bool CheckArguments(const Command& c, int argc, char** argv) {
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') {
      if (++positional > c.max_arguments) {
        std::cerr << "uckers " << c.name << ": unexpected argument '" << arg << "'\n";
        return false;
      }
      continue;
    }
    std::string name = arg.substr(arg[1] == '-' ? 2 : 1);
    name = name.substr(0, name.find('='));
    bool negated = name.rfind("no", 0) == 0;
    auto known = [&](const std::string& n) {
      return std::find(c.flags.begin(), c.flags.end(), n) != c.flags.end();
    };
    if (known(name) || (negated && known(name.substr(2)))) {
      auto all = absl::GetAllFlags();
      auto it = all.find(name);
      // A flag given as `--name value` (not a bool) takes the next word.
      if (arg.find('=') == std::string::npos && it != all.end() && !it->second->IsOfType<bool>()) {
        ++i;
      }
      continue;
    }
    std::string closest;
    for (const std::string& f : c.flags) {
      if (closest.empty() || Distance(name, f) < Distance(name, closest)) closest = f;
    }
    std::cerr << "uckers " << c.name << ": unknown flag --" << name
              << (closest.empty() ? "" : " (did you mean --" + closest + "?)") << "\n";
    return false;
  }
  return true;
}

void PrintHelp() {
  std::cout << "usage: uckers [COMMAND [ARGS...]]\n\n"
               "With no command, uckers speaks the text protocol (PROTOCOL.md) on\n"
               "stdin/stdout. Commands:\n";
  for (const Command& c : Commands()) {
    std::cout << "  " << c.name << std::string(10 - std::string(c.name).size(), ' ') << c.help
              << "\n";
  }
  std::cout << "\n`uckers help COMMAND` or `uckers COMMAND --help` describes a command;\n"
               "any other text-protocol command runs once (`uckers d`, `uckers eval`).\n"
               "Exit codes: 0 done, 1 failed, 2 usage.\n";
}

}  // namespace
}  // namespace uckers

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (argc == 1) return uckers::PlayMain(argc, argv);
  std::string first = argv[1];
  if (first == "--version" || first == "version") {
    std::cout << "uckers " << uckers::kVersion << " (git " << uckers::kGitRevision << ", "
              << uckers::kBuildType << " build)\n";
    return 0;
  }
  if (first == "ladder" && argc > 2 && uckers::IsLadderDbCommand(argv[2])) {
    // The standing ladder in a database: `ladder add|work|table --db DB`,
    // each with its own flags and --help (app/ladder_db.h).
    return uckers::LadderDbMain(std::vector<std::string>(argv + 2, argv + argc));
  }
  if (first == "--help" || first == "-h" || (first == "help" && argc == 2)) {
    uckers::PrintHelp();
    return 0;
  }
  if (first == "help") {
    for (const uckers::Command& c : uckers::Commands()) {
      if (argv[2] != std::string(c.name)) continue;
      if (c.main == nullptr) {
        std::cout << c.name << ": " << c.help << " (a text-protocol command; docs/protocol.md)\n";
      } else {
        uckers::PrintCommandHelp(c);
      }
      return 0;
    }
    std::cerr << "uckers: no command '" << argv[2] << "' (uckers help lists them)\n";
    return 2;
  }
  for (const uckers::Command& c : uckers::Commands()) {
    if (first != c.name || !c.main) continue;
    for (int i = 2; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "--help" || arg == "-h" || arg == "--helpfull") {
        uckers::PrintCommandHelp(c);
        return 0;
      }
    }
    if (!uckers::CheckArguments(c, argc - 1, argv + 1)) return 2;
    return c.main(argc - 1, argv + 1);
  }
  return uckers::PlayMain(argc, argv);
}
