#pragma once

#include "rules/dice.h"
#include "rules/occupancy.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

template <bool kStacks, class Geo>
class OrdinaryGenerator;

// Generates legal plays for one position, throw by throw; what does not
// depend on the throw is computed once. Holds references to `pos` and
// `rules`, which must outlive it.
class PlayGenerator {
 public:
  PlayGenerator(const Position& pos, const Rules& rules);

  // As GenerateLegalPlays for this position.
  void Generate(Throw t, PlayList* out) const;
  // Whether the game is over (Generate then adds nothing).
  bool game_over() const { return kind_ == Kind::kGameOver; }

 private:
  template <bool kStacks, class Geo>
  friend class OrdinaryGenerator;
  enum class Kind { kOrdinary, kGameOver, kChallenge, kRelease };

  const Position& pos_;
  Position base_;  // pos_ with the thrower's first-throw flags cleared
  const Rules& rules_;
  const int mover_;
  const int side_;  // the mover's side
  const bool lane_locked_;
  // The mover's view, on the four-sided board in 64 bits, on the six-sided
  // in 128 (only the board's is computed).
  Occupancy occ_;
  WideOccupancy wide_occ_;
  Kind kind_ = Kind::kOrdinary;
};

// Every legal play for throw `t` in `pos` under `rules` (RULES.md §3-§7, §9),
// each with the position it leads to, distinct by that position and spelled
// canonically. Empty exactly when the game is over; otherwise at least one
// play (`-` when nothing can or may be chosen). Clears `out` first.
void GenerateLegalPlays(const Position& pos, const Rules& rules, Throw t, PlayList* out);

}  // namespace uckers
