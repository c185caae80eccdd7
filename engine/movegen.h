#pragma once

#include "engine/dice.h"
#include "engine/play.h"
#include "engine/position.h"
#include "engine/rules.h"

namespace uckers {

// Every legal play for throw `t` in `pos` under `rules` (RULES.md §3-§7, §9),
// each with the position it leads to, distinct by that position and spelled
// canonically. Empty exactly when the game is over; otherwise at least one
// play (`-` when nothing can or may be chosen). Clears `out` first.
void GenerateLegalPlays(const Position& pos, const Rules& rules, Throw t,
                        PlayList* out);

}  // namespace uckers
