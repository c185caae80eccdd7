#pragma once

#include <string>
#include <vector>

#include "record/record.h"
#include "rules/dice.h"

// The review of a game as a value (docs/analysis.md): per item, per side,
// and the chart's data. Its message and JSON form (uckers.v1.GameAnalysis)
// are wire/analysis.h's; the fields mirror that message's.
namespace uckers {

// How an analysed play is marked, by the equity it gave away (kDoubtful,
// kBad, kVeryBad in review/review.h). The values are those of
// uckers.v1.Mark.
enum class Mark {
  kUnspecified = 0,
  kNone = 1,
  kDoubtful = 2,  // lost >= 0.03 points of equity
  kBad = 3,       // lost >= 0.06
  kVeryBad = 4,   // lost >= 0.12
};

// One of the best plays of a decision and its equity for the thrower.
struct AnalysedCandidate {
  std::string play;
  double equity = 0;
};

// One analysed throw of a game.
struct AnalysedItem {
  int index = 0;        // 1-based position of the item in the game
  Throw dice;           // the throw
  std::string play;     // the play made, canonical
  std::string team;     // the side that threw ("RY", "GB"; "RB", ... with more sides)
  bool choice = false;  // more than one legal play
  std::string best_play;
  double best_equity = 0;    // the thrower's expected points after the best play
  double played_equity = 0;  // ...and after the play made
  double equity_lost = 0;
  Mark mark = Mark::kUnspecified;
  // The throw's luck for the thrower: the equity after its best play minus
  // the expected equity before the throw.
  double luck = 0;
  double ry_win_before = 0;  // team RY's win probability before the throw (two teams)
  bool exact = false;        // valued from an endgame table
  std::string ufen;          // the position before the throw
  std::string colour;        // the colour that threw ("red")
  // With a choice: the best plays (at most three), best first.
  std::vector<AnalysedCandidate> candidates;
  // With more than two sides: every side's win probability before the
  // throw, sides in turn order of their first colour.
  std::vector<double> side_wins_before;
};

// One of the 21 throws' count against its expected count.
struct ThrowCount {
  Throw dice;
  int count = 0;
  double expected = 0;
};

// A side's throws against fair dice, and a chi-square test of the 21
// throws' counts against their chances.
struct DiceStats {
  int throws = 0;
  int sixes = 0;  // dice showing a six (two per 6-6)
  double expected_sixes = 0;
  int doubles = 0;
  double expected_doubles = 0;
  std::vector<ThrowCount> counts;  // 6-6 first down to 1-1, as kThrows
  double chi_square = 0;
  int degrees_of_freedom = 0;
  double p_value = 0;
};

// A side's (a team's) totals.
struct TeamAnalysis {
  std::string team;
  int decisions = 0;  // throws with a choice
  double equity_lost = 0;
  double error_rate = 0;  // equity lost per decision
  int doubtful = 0;
  int bad = 0;
  int very_bad = 0;
  std::string rating;  // the error rate's band; empty without a decision
  double luck = 0;
  double points = 0;  // won (negative when lost)
  double luck_adjusted_points = 0;
  DiceStats dice;
};

// The review of a game.
struct GameAnalysis {
  std::string rules;
  std::string level;
  std::vector<AnalysedItem> items;
  std::vector<TeamAnalysis> teams;
  double seconds = 0;
  // The record's players and the result, for the chart and reports.
  std::string ry;
  std::string gb;
  std::string winner;  // a side's name, empty while unfinished
  int points = 0;
  std::vector<SidePlayer> side_players;
};

}  // namespace uckers
