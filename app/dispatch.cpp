// `uckers`'s command table (each command a file of app/, app/commands.h)
// and its dispatch. With no arguments, speaks the text protocol on stdin/stdout
// (app/play.cpp); any text-protocol command given as arguments is run once
// (`uckers d`, `uckers eval`). Exit codes: 0 done, 1 failed, 2 usage.
#include <iostream>
#include <string>
#include <vector>

#include "app/commands.h"
#include "protocol/uci.h"
#include "rules/git_revision.h"
#include "rules/version.h"

namespace uckers {
namespace {

const std::vector<const Command*>& Commands() {
  static const std::vector<const Command*> commands = {
      &MatchCommand(),       &LadderCommand(),      &LadderAddCommand(), &LadderWorkCommand(),
      &LadderTableCommand(), &AnalyseCommand(),     &VerifyCommand(),    &DrillCommand(),
      &ServeCommand(),       &TrainCommand(),       &LabelCommand(),     &LabelAddCommand(),
      &LabelWorkCommand(),   &LabelExportCommand(), &TuneCommand(),      &EndgamesCommand(),
      &BenchCommand(),       &PerftCommand(),       &FitTermsCommand(),
  };
  return commands;
}

const Command* FindCommand(const std::string& name) {
  for (const Command* c : Commands()) {
    if (c->name == name) return c;
  }
  return nullptr;
}

void PrintHelp() {
  std::cout << "usage: uckers [COMMAND [ARGS...]]\n\n"
               "With no command, uckers speaks the text protocol (PROTOCOL.md) on\n"
               "stdin/stdout. Commands:\n";
  for (const Command* c : Commands()) {
    std::cout << "  " << c->name << std::string(c->name.size() < 13 ? 13 - c->name.size() : 1, ' ')
              << c->summary << "\n";
  }
  std::cout << "\nAny text-protocol command also runs once:";
  for (const ProtocolCommand& p : ProtocolCommands()) {
    if (p.name != "quit" && p.name != "bench" && p.name != "perft") std::cout << " " << p.name;
  }
  std::cout << "\n(`uckers d`, `uckers legal 6 3`).\n"
               "`uckers help COMMAND` or `uckers COMMAND --help` describes a command.\n"
               "Exit codes: 0 done, 1 failed, 2 usage.\n";
}

// `uckers help WORDS...`: a command's help, or a protocol command's.
int Help(const std::vector<std::string>& words) {
  std::string name = words[0];
  if (words.size() == 2) name += " " + words[1];
  if (const Command* c = FindCommand(name)) {
    PrintCommandHelp(*c, std::cout);
    return CheckStdout("uckers help", 0);
  }
  if (const ProtocolCommand* p = FindProtocolCommand(name)) {
    std::cout << "usage: uckers " << p->synopsis << "\n\n"
              << p->help << "\n(a text-protocol command, run once; docs/protocol.md)\n";
    return CheckStdout("uckers help", 0);
  }
  std::cerr << "uckers help: no command '" << name << "' (uckers help lists them)\n";
  return 2;
}

}  // namespace

int UckersMain(int argc, char** argv) {
  if (argc == 1) return PlayMain(argc, argv);
  std::string first = argv[1];
  if (first == "--version" || first == "version") {
    std::cout << "uckers " << kVersion << " (git " << kGitRevision << ", " << kBuildType
              << " build)\n";
    return CheckStdout("uckers", 0);
  }
  if (first == "--help" || first == "-h" || (first == "help" && argc == 2)) {
    PrintHelp();
    return CheckStdout("uckers", 0);
  }
  if (first == "help") {
    if (argc > 4) {
      std::cerr << "uckers help: unexpected argument '" << argv[4] << "'\n";
      return 2;
    }
    return Help(std::vector<std::string>(argv + 2, argv + argc));
  }
  if (argc > 2) {
    // Two-word commands: `ladder add|work|table`.
    if (const Command* c = FindCommand(first + " " + argv[2])) {
      return RunCommand(*c, argc - 2, argv + 2);
    }
  }
  if (const Command* c = FindCommand(first)) return RunCommand(*c, argc - 1, argv + 1);
  if (FindProtocolCommand(first) == nullptr) {
    std::cerr << "uckers: no command '" << first << "' (uckers help lists them)\n";
    return 2;
  }
  return PlayMain(argc, argv);
}

}  // namespace uckers
