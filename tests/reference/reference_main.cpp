// A tiny command line around the reference rules, for checking by hand:
//   reference_main perft "<ufen>" "<rules>" <depth>
//   reference_main legal "<ufen>" "<rules>" <d1> <d2>
// "startpos" stands for the start position of the ruleset.
#include <cstdio>
#include <exception>
#include <string>

#include "tests/reference/reference.h"

namespace {

std::string Expand(const std::string& ufen, const std::string& rules) {
  if (ufen != "startpos") return ufen;
  bool snake = rules.rfind("mess", 0) == 0 || rules.rfind("wafu", 0) == 0;
  if (rules.find("+snake_eyes") != std::string::npos) snake = true;
  if (rules.find("-snake_eyes") != std::string::npos) snake = false;
  return std::string("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r ") + (snake ? "srgyb" : "-");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace uckers::reference;
  try {
    std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "perft" && argc == 5) {
      std::string ufen = Expand(argv[2], argv[3]);
      std::printf("%llu\n",
                  static_cast<unsigned long long>(Perft(ufen, argv[3], std::stoi(argv[4]))));
      return 0;
    }
    if (cmd == "legal" && argc == 6) {
      std::string ufen = Expand(argv[2], argv[3]);
      auto results = LegalResults(ufen, argv[3], std::stoi(argv[4]), std::stoi(argv[5]));
      for (const std::string& s : results) std::printf("%s\n", s.c_str());
      std::printf("legal %zu\n", results.size());
      return 0;
    }
    std::fprintf(stderr,
                 "usage: reference_main perft <ufen> <rules> <depth>\n"
                 "       reference_main legal <ufen> <rules> <d1> <d2>\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
