// Builds an endgame table: endgame_build --class 2v2 --rules navy --out FILE.
#include "endgame/build_command.h"

int main(int argc, char** argv) { return uckers::EndgameBuildMain(argc, argv); }
