// `uckers`: the one program (app/dispatch.cpp lists its commands).
#include <iostream>

#include "app/commands.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return uckers::UckersMain(argc, argv);
}
