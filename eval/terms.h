#pragma once

#include <string>
#include <vector>

#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"

// A play's terms: what it leaves on the board, the reasons a tutor gives
// for one play over another (docs/frontend.md, "Explained choices").
namespace uckers {

// What a play leaves on the board for the team that made it, computed from
// the position (not the evaluation's weights): the terms a tutor names to
// explain why one play is better than another.
struct PlayTerms {
  int exposed = 0;              // its single pieces (and mixie blobs) the opponents can hit
  double hit_chance = 0;        // the largest chance one of them is knocked off next turn
  int blobs_made = 0;           // blobs of its team the play formed
  int blobs_broken = 0;         // ...and broke
  int knocked_off = 0;          // opponents' pieces the play sent to base
  double challenge_chance = 0;  // chance the opponents' next throw can declare a challenge
  double race_pips = 0;         // its team's pips to go (base pieces 56 + the wait for a six)
  double opponent_race_pips = 0;
  int entered = 0;  // its team's pieces out of base
  int home = 0;     // its team's pieces home
};
PlayTerms TermsOf(const Position& before, const PlayResult& play, const Rules& rules);
// The board's terms of a position for `team` (0 = RY, 1 = GB): the fields
// of PlayTerms that need no play (exposed, hit_chance, challenge_chance,
// race pips, entered, home); the `eval` command prints them.
PlayTerms PositionTerms(const Position& pos, const Rules& rules, int team);

// A term that differs between the best play and another.
struct TermDifference {
  std::string term;  // "exposed", "hit_chance", ... as PlayTerms names them
  double best = 0;
  double play = 0;
};
std::vector<TermDifference> Differences(const PlayTerms& best, const PlayTerms& play);

}  // namespace uckers
