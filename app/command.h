#pragma once

#include <functional>
#include <iosfwd>
#include <set>
#include <string>
#include <string_view>
#include <vector>

// A command of `uckers` (KataGo's command/): each file of app/ declares one
// `Command` with its name, help, usage, the flags it reads and its `run`;
// app/main.cpp only lists them and dispatches. `RunCommand` parses the
// flags once for every command, so each rule holds everywhere: an unknown
// flag, a malformed value or a stray argument is a usage error (exit 2, one
// line naming the flag), `--help` prints the command's help (exit 0), and a
// report that could not be written to standard output fails (exit 1).
namespace uckers {

// A flag a command shares with others (defined once in app/cli_flags.cpp,
// as Abseil keeps one registry per program), with the command's own words
// for it where they differ from the flag's.
struct SharedFlag {
  std::string name;
  std::string help = "";          // empty: the flag's own help
  std::string default_text = "";  // empty: the flag's own default
};

// What a command's `run` is given: its positional arguments and which flags
// were given on the command line (a flag's value is read with GetFlag).
class CommandLine {
 public:
  CommandLine(std::vector<std::string> args, std::set<std::string> given)
      : args_(std::move(args)), given_(std::move(given)) {}
  const std::vector<std::string>& args() const { return args_; }
  // Whether --`flag` was given (for a default that differs by command).
  bool Given(std::string_view flag) const { return given_.count(std::string(flag)) > 0; }

 private:
  std::vector<std::string> args_;
  std::set<std::string> given_;
};

struct Command {
  std::string name;     // as typed: "match", "ladder add"
  std::string summary;  // one line for `uckers help`
  std::string usage;    // the synopsis, then any paragraphs of help
  // The file that defines the command's own ABSL_FLAGs ("app/match.cpp"):
  // every flag defined there is the command's, declared once.
  std::string flags_file = "";
  std::vector<SharedFlag> shared = {};  // flags of app/cli_flags.cpp it reads
  int min_arguments = 0;                // positional arguments it takes
  int max_arguments = 0;
  std::string arguments_text = "";  // what the positional arguments are, for errors
  // The work: 0 done, 1 failed, 2 usage.
  std::function<int(const CommandLine&)> run = nullptr;
  // More help after the flags (levels, player settings), or none.
  std::function<void(std::ostream&)> more_help = nullptr;
};

// Parses argv[1..] (argv[0] is the command's name) against `c`'s flags,
// prints help on --help, runs it, and checks standard output at the end.
int RunCommand(const Command& c, int argc, char** argv);

// The command's usage, flags with their defaults, and more help.
void PrintCommandHelp(const Command& c, std::ostream& out);

// Flushes standard output and says, naming `who`, when it could not be
// written (a full disk, a closed pipe): the exit code 1 then, else `code`.
int CheckStdout(const std::string& who, int code);

}  // namespace uckers
