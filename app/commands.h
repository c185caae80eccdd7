#pragma once

// The commands of `uckers`, one file each in app/ (app/main.cpp lists them
// in its command table). Each parses its own flags and arguments (argv[0]
// is the command's name) and returns the exit code: 0 done, 1 failed (the
// work could not be done), 2 usage.
namespace uckers {

// `uckers match --a SPEC --b SPEC ...` (app/match.cpp).
int MatchMain(int argc, char** argv);
// `uckers ladder --players 'A;B;...' ...` (app/ladder.cpp).
int LadderMain(int argc, char** argv);
// `uckers analyse GAME ...` (app/analyse.cpp).
int AnalyseMain(int argc, char** argv);
// app/verify.cpp
int VerifyMain(int argc, char** argv);
// app/drill.cpp
int DrillMain(int argc, char** argv);
// `uckers serve ...` (app/serve.cpp).
int ServeMain(int argc, char** argv);
// `uckers train --out FILE ...` (app/train.cpp).
int TrainMain(int argc, char** argv);
// `uckers endgames build --class C --rules R --out FILE` (app/endgames.cpp).
int EndgamesMain(int argc, char** argv);
// The text protocol on stdin/stdout, or one protocol command given as
// arguments (`uckers perft 4`, `uckers bench`) (app/play.cpp).
int PlayMain(int argc, char** argv);

}  // namespace uckers
