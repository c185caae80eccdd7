// `uckers`: with no arguments, speaks the text protocol on stdin/stdout.
// `uckers match ...` plays a match, `uckers ladder ...` ranks several
// players (`uckers ladder add|work|table --db DB`: a standing ladder in a
// database), `uckers analyse GAME` reviews a game,
// `uckers serve ...` runs the gRPC service; any other arguments are run as one
// protocol command (`uckers bench`, `uckers perft 4`).
#include <iostream>
#include <string>
#include <vector>

#include "service/engine.h"
#include "service/uci.h"
#include "service/server.h"
#include "tools/analysis/analyse_main.h"
#include "tools/ladder/ladder.h"
#include "tools/ladder/ladder_db_main.h"
#include "tools/match/match_main.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (argc > 1 && std::string(argv[1]) == "match") {
    return uckers::MatchMain(argc - 1, argv + 1);
  }
  if (argc > 2 && std::string(argv[1]) == "ladder" && uckers::IsLadderDbCommand(argv[2])) {
    return uckers::LadderDbMain(std::vector<std::string>(argv + 2, argv + argc));
  }
  if (argc > 1 && std::string(argv[1]) == "ladder") {
    return uckers::LadderMain(argc - 1, argv + 1);
  }
  if (argc > 1 && std::string(argv[1]) == "analyse") {
    return uckers::AnalyseMain(argc - 1, argv + 1);
  }
  if (argc > 1 && std::string(argv[1]) == "serve") {
    return uckers::ServeMain(argc - 1, argv + 1);
  }
  uckers::Engine engine;
  uckers::UciLoop loop(engine, std::cout);
  if (argc > 1) {
    std::string line;
    for (int i = 1; i < argc; ++i) line += std::string(i > 1 ? " " : "") + argv[i];
    loop.HandleLine(line);
    engine.Wait();
    return 0;
  }
  loop.Run(std::cin);
  return 0;
}
