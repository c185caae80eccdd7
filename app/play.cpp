// `uckers` with no command: the text protocol (PROTOCOL.md, docs/protocol.md)
// on stdin/stdout; `uckers <protocol command> ...` runs that one command
// (`uckers perft 4`, `uckers bench`, `uckers d`).
#include <iostream>
#include <string>

#include "app/commands.h"
#include "service/text_session.h"
#include "service/uci.h"

namespace uckers {

int PlayMain(int argc, char** argv) {
  TextSession session;
  UciLoop loop(session, std::cout);
  if (argc <= 1) {
    loop.Run(std::cin);
    return 0;
  }
  std::string line;
  for (int i = 1; i < argc; ++i) line += std::string(i > 1 ? " " : "") + argv[i];
  loop.HandleLine(line);
  session.Wait();
  return loop.errors() > 0 ? 2 : 0;  // a refused command is a usage error
}

}  // namespace uckers
