#pragma once

#include <string>
#include <vector>

// The command lines of the database ladder (tools/ladder/ladder_db.h):
// `add`, `work` and `table`. Each takes its arguments with args[0] the
// command's name ("add"), parses its own flags (`--flag value` or
// `--flag=value`), prints its own help with --help, and returns the exit
// code: 0 done, 1 failed, 2 usage.
namespace uckers {

// `add --db DB NAME SPEC [--pairs N] [--nearest K] [--near-elo E] [--seed S]
// [--rules R]`: enters a player and schedules only its pairs.
int LadderAddMain(const std::vector<std::string>& args);

// `work --db DB [--until-empty] [--lease-seconds S] [--max-pairs N]`: plays
// scheduled pairs: `pair <id> taken` on stdout when it takes one, `pair
// <id> done` once its games are written.
int LadderWorkMain(const std::vector<std::string>& args);

// `table --db DB [--json] [--chart FILE]`: the rating list.
int LadderTableMain(const std::vector<std::string>& args);

// Whether `command` is one of the database ladder's commands.
bool IsLadderDbCommand(const std::string& command);

// Runs the command args[0] names (add, work or table); 2 for any other.
int LadderDbMain(const std::vector<std::string>& args);

}  // namespace uckers
