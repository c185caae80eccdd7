#pragma once

namespace uckers {

// `uckers train`: self-play training of the learned evaluation (learn/td.h).
// Exit 0 done, 1 failed (a file that cannot be read or written), 2 usage.
int TrainMain(int argc, char** argv);

}  // namespace uckers
