#pragma once

namespace uckers {

// `uckers analyse GAME ...`: argv[0] is "analyse". Returns the exit code.
int AnalyseMain(int argc, char** argv);

}  // namespace uckers
