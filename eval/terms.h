#pragma once

#include <array>
#include <string>
#include <vector>

#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"

// A play's terms: what it leaves on the board, the reasons a tutor gives
// for one play over another (docs/frontend.md, "Explained choices"), each
// with its size in chance to win.
namespace uckers {

// What a play leaves on the board for the side that made it, computed from
// the position (not the evaluation's weights): the terms a tutor names to
// explain why one play is better than another. On every layout; a side is
// a team of the four-sided board (0 = RY, 1 = GB), a team of two or three
// colours on the six-sided board, or one colour under solo.
struct PlayTerms {
  int exposed = 0;                // its single pieces (and mixie blobs) the opponents can hit
  double hit_chance = 0;          // the largest chance one of them is knocked off next turn
  int blobs_made = 0;             // blobs of its side the play formed
  int blobs_broken = 0;           // ...and broke
  int knocked_off = 0;            // opponents' pieces the play sent to base
  double challenge_chance = 0;    // chance the opponents' next throw can declare a challenge
  double race_pips = 0;           // its side's pips to go (base pieces home + the wait for a six)
  double opponent_race_pips = 0;  // the other side's (with more: the fewest of any other side)
  int entered = 0;                // its side's pieces out of base
  int home = 0;                   // its side's pieces home
  // The piece behind hit_chance: the colour that can hit it (-1: none is
  // exposed) and how many squares in front of that colour's nearest piece
  // it stands (0: reached only by a piece entering from base).
  int threat_colour = -1;
  int threat_squares = 0;
};
PlayTerms TermsOf(const Position& before, const PlayResult& play, const Rules& rules);
// The board's terms of a position for `side` (Position::SideOf; on the
// four-sided board of two teams 0 = RY, 1 = GB): the fields of PlayTerms
// that need no play (exposed, hit_chance, challenge_chance, race pips,
// entered, home); the `eval` command prints them.
PlayTerms PositionTerms(const Position& pos, const Rules& rules, int side);

// The terms' names, in PlayTerms' order, as TermDifference spells them.
inline constexpr int kNumTerms = 10;
inline constexpr int kHitChanceTerm = 1;  // kTermNames[kHitChanceTerm] == "hit_chance"
extern const std::array<const char*, kNumTerms> kTermNames;
// A PlayTerms' values in kTermNames' order.
std::array<double, kNumTerms> TermValues(const PlayTerms& t);

// The change in the mover's chance to win per unit of each term (per
// piece, per pip, per unit of a chance), kTermNames' order, on a layout: a
// least-squares fit of the evaluation's win chance of a play against the
// best on the terms' differences, over the decisions of self-play games
// (`uckers fitterms`, learn/term_fit.h; docs/frontend.md gives the fits).
const std::array<double, kNumTerms>& TermWinChance(LayoutId layout);

// A term that differs between the best play and another.
struct TermDifference {
  std::string term;  // "exposed", "hit_chance", ... as PlayTerms names them
  double best = 0;
  double play = 0;
  // The change in the mover's chance to win (0..1 scale) this term accounts
  // for, for the play against the best: (play - best) times the term's
  // TermWinChance. Negative when the term favours the best play.
  double win_chance = 0;
  // hit_chance: the play's most threatened piece, as PlayTerms gives it
  // (the colour that can hit it, -1 when none can, and how many squares in
  // front of its nearest piece it stands; 0 from base). Unset otherwise.
  int colour = -1;
  int squares = 0;
};
std::vector<TermDifference> Differences(const PlayTerms& best, const PlayTerms& play,
                                        LayoutId layout);

}  // namespace uckers
