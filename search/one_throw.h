#pragma once

#include <memory>

#include "eval/net.h"
#include "eval/side_values.h"
#include "rules/movegen.h"
#include "rules/position.h"
#include "rules/rules.h"

// Values one throw deep that the review's luck needs (review/review.h): a
// door of the search beside search/door.h, which keeps the expectimax it
// runs to itself.
namespace uckers {

// Every side's chance by the static value of a game of more sides: exact
// where the game is over, else the side net `net`, else (null) the classic
// evaluation.
SideValues StaticSideValues(const Position& p, const Net* net);

// Every side's chance after the best of one throw's `plays` for `side`, by
// StaticSideValues (the first of equals).
SideValues BestPlaySideValues(const PlayList& plays, int side, const Net* net);

// Every side's chance one throw on, as DeeperLuck values a play: with two
// teams the search's one-throw expectimax value (search/expectimax.h: each
// throw's best play by the net, a challenge under way in closed form), in
// more sides the mean over the next throw of every side's chance after that
// thrower's best play for its own side (max^n), static where a challenge is
// under way. By the net the levels play the rules with, exact where the game
// is over.
class OneThrowChances {
 public:
  explicit OneThrowChances(const Rules& rules);
  ~OneThrowChances();
  OneThrowChances(const OneThrowChances&) = delete;
  OneThrowChances& operator=(const OneThrowChances&) = delete;

  // Every side's chance by the static value.
  SideValues Static(const Position& p) const;
  // Every side's chance one throw on.
  SideValues Deeper(const Position& pos);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace uckers
