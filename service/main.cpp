// `uckers`: with no arguments, speaks the text protocol on stdin/stdout.
#include <iostream>
#include <string>

#include "service/engine.h"
#include "service/uci.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  uckers::Engine engine;
  uckers::UciLoop loop(engine, std::cout);
  if (argc > 1) {
    // `uckers bench`, `uckers perft 4`: one command, then exit.
    std::string line;
    for (int i = 1; i < argc; ++i) line += std::string(i > 1 ? " " : "") + argv[i];
    loop.HandleLine(line);
    engine.Wait();
    return 0;
  }
  loop.Run(std::cin);
  return 0;
}
