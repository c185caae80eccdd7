#pragma once

namespace uckers {

// `uckers match ...`: argv[0] is "match". Returns the exit code.
int MatchMain(int argc, char** argv);

}  // namespace uckers
