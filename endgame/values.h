#pragma once

#include <array>

namespace uckers {

// The six outcomes of RULES.md §8 in its order, from the point of view of
// the team to throw: win plain, win 8-piecer, win in harbour, loss plain,
// loss 8-piecer, loss in harbour (the order of search's OutcomeIndex).
using EndgameValues = std::array<float, 6>;
inline constexpr int kEndgameWinPlain = 0;
inline constexpr int kEndgameLossPlain = 3;

// The values of a class in which every finished game is a plain win or a
// plain loss (each team has four pieces home: no 8-piecer can happen), for
// a win probability `win` of the team to throw.
inline EndgameValues PlainWinLoss(double win) {
  EndgameValues v{};
  v[kEndgameWinPlain] = static_cast<float>(win);
  v[kEndgameLossPlain] = static_cast<float>(1.0 - win);
  return v;
}

// The same values from the other team's point of view.
inline EndgameValues OtherSide(const EndgameValues& v) {
  return {v[3], v[4], v[5], v[0], v[1], v[2]};
}

}  // namespace uckers
