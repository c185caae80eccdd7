#pragma once

#include <string>

#include "engine/position.h"

namespace uckers {

// The board drawn in text (the `d` command, the review's marked decisions): the 52 track squares in
// four rows of 13, each row starting at a colour's doorstep, then each colour's base, lane and
// home, the UFEN and who throws.
std::string DrawBoard(const Position& pos);

// "Red", "Green", "Yellow" or "Blue".
const char* ColourName(int colour);

}  // namespace uckers
