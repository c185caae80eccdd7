#pragma once

#include <string>

#include "engine/position.h"

namespace uckers {

// The board drawn in text for the `d` command: the 52 track squares in four
// rows of 13, each row starting at a colour's doorstep, then each colour's
// base, lane and home, the UFEN and who throws.
std::string DrawBoard(const Position& pos);

}  // namespace uckers
