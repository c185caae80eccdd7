#pragma once

#include <string>

#include "rules/position.h"

namespace uckers {

// The board drawn in text (the `d` command, the review's marked decisions): the track squares in
// one row of 13 per colour (four or six rows), each row starting at a colour's doorstep, then each
// colour's base, lane and home, the UFEN and who throws (or who won and the winners' points).
std::string DrawBoard(const Position& pos);

// "Red", "Green", "Yellow", "Blue", "Orange" or "Purple".
const char* ColourName(int colour);

}  // namespace uckers
