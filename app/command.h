#pragma once

#include <functional>
#include <iosfwd>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

// A command of `uckers` (KataGo's command/): each file of app/ declares one
// `Command` with its name, help, usage, the flags it reads and its `run`;
// app/dispatch.cpp only lists them and dispatches. `RunCommand` parses the
// flags once for every command, so each rule holds everywhere: an unknown
// flag, a malformed value or a stray argument is a usage error (exit 2, one
// line naming the flag), `--help` prints the command's help (exit 0), and a
// report that could not be written to standard output fails (exit 1). A
// command's `run` returns an absl::Status, and `RunCommand` alone says a
// failed one, as `uckers <command name>: <message>` on stderr, and turns it
// into the exit code (StatusExitCode).
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
  // The work: OK done (exit 0), INVALID_ARGUMENT a usage error (exit 2),
  // any other code failed (exit 1); the message is what went wrong, without
  // the command's name (UsageError, Failed below).
  std::function<absl::Status(const CommandLine&)> run = nullptr;
  // More help after the flags (levels, player settings), or none.
  std::function<void(std::ostream&)> more_help = nullptr;
};

// A command's usage error (exit 2): INVALID_ARGUMENT with `message`.
absl::Status UsageError(absl::string_view message);

// A command's failure (exit 1): UNKNOWN with `message`. A status of a
// library below may be returned as it is instead, when its code decides
// (INVALID_ARGUMENT a usage error, any other a failure).
absl::Status Failed(absl::string_view message);

// A failure (exit 1) that adds nothing on stderr: what the command printed
// has said why (an interrupted run's report).
absl::Status QuietFailure();

// `status` said as `uckers <name>: <message>` rather than under the
// command's own name (`endgames build` for the action of `endgames`; an
// empty `name`: `uckers: <message>`, as a text-protocol error is said).
absl::Status WithName(absl::Status status, absl::string_view name);

// The exit code of `status`, a failed one said first on stderr as
// `uckers <name>: <message>` (the name WithName gave it, else `name`; an
// empty one `uckers: <message>`): 0 OK, 2 INVALID_ARGUMENT (usage), 1 any
// other code (failed). A QuietFailure says nothing.
int StatusExitCode(const absl::Status& status, absl::string_view name);

// Parses argv[1..] (argv[0] is the command's name) against `c`'s flags,
// prints help on --help, runs it, says its status (StatusExitCode, under
// `c.name`) and checks standard output at the end: the exit code.
int RunCommand(const Command& c, int argc, char** argv);

// The command's usage, flags with their defaults, and more help.
void PrintCommandHelp(const Command& c, std::ostream& out);

// Flushes standard output and says, naming `who`, when it could not be
// written (a full disk, a closed pipe): the exit code 1 then, else `code`.
int CheckStdout(const std::string& who, int code);

}  // namespace uckers
