#pragma once

namespace uckers {

// `endgame_build --class NAME --rules RULES --out FILE [--check N]`: builds
// an endgame table (endgame/solver.h), writes it, reads it back, and with
// --check N checks the Bellman equation on N random positions. Prints the
// figures (positions, time, peak memory, file size) on stdout and progress
// on stderr. Returns 0 when done, 1 when the work failed, 2 for a usage
// error (unknown or malformed flags or values, refused rules, an --out that
// cannot be written: checked before the build).
int EndgameBuildMain(int argc, char** argv);

}  // namespace uckers
