#pragma once

#include "app/command.h"

// The commands of `uckers`, one file each in app/; app/main.cpp lists them
// and dispatches (app/command.h says what every command shares).
namespace uckers {

const Command& MatchCommand();        // app/match.cpp
const Command& LadderCommand();       // app/ladder.cpp
const Command& LadderAddCommand();    // app/ladder_db.cpp
const Command& LadderWorkCommand();   // app/ladder_db.cpp
const Command& LadderTableCommand();  // app/ladder_db.cpp
const Command& AnalyseCommand();      // app/analyse.cpp
const Command& VerifyCommand();       // app/verify.cpp
const Command& DrillCommand();        // app/drill.cpp
const Command& ServeCommand();        // app/serve.cpp
const Command& TrainCommand();        // app/train.cpp
const Command& LabelCommand();        // app/label.cpp
const Command& LabelAddCommand();     // app/label.cpp
const Command& LabelWorkCommand();    // app/label.cpp
const Command& LabelExportCommand();  // app/label.cpp
const Command& TuneCommand();         // app/tune.cpp
const Command& EndgamesCommand();     // app/endgames.cpp
const Command& BenchCommand();        // app/play.cpp
const Command& PerftCommand();        // app/play.cpp
const Command& FitTermsCommand();     // app/fitterms.cpp

// `uckers ARGS...`: runs the command argv[1] names (the text protocol with
// none) and returns its exit code: 0 done, 1 failed, 2 usage.
int UckersMain(int argc, char** argv);

// The text protocol on stdin/stdout (`uckers` with no command), or one
// protocol command given as arguments (`uckers d`, `uckers eval`)
// (app/play.cpp).
int PlayMain(int argc, char** argv);

// `more_help` of the commands that take player specifications (match,
// ladder, ladder add): the players, levels and settings.
void PrintPlayerHelp(std::ostream& out);

}  // namespace uckers
