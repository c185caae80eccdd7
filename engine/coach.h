#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eval/terms.h"
#include "review/analysis.h"
#include "rules/dice.h"
#include "search/door.h"
#include "search/search.h"

// What the coach answers (Engine::Judge, Engine::MapThrows;
// docs/frontend.md): a play judged against the best, and the next throw's
// map.
namespace uckers {

// The tutor's default level, fast enough to judge every play as it is made
// (docs/frontend.md gives its latency).
inline constexpr const char* kTutorLevel = "advanced";

// A play judged against the best, by equity (points), at a level
// (Engine::Judge).
struct Judgement {
  Candidate played;                   // the play judged, its value for the thrower
  std::vector<Candidate> candidates;  // every legal play, best first
  double equity_lost = 0;             // >= 0
  Mark mark = Mark::kNone;            // by the review's thresholds (review/review.h)
  std::string level;
  int depth = 0;  // plies searched
  int64_t time_ms = 0;
  bool exact = false;
  // The terms that differ between the best play and the play judged (none
  // when they are the same play).
  std::vector<TermDifference> differences;
};

// One throw of the next throw's map.
struct ThrowMapEntry {
  Throw dice;
  double probability = 0;  // weight / 36
  Candidate best;          // the best play and the mover's chances after it
};
// The next throw's map (Engine::MapThrows).
struct ThrowMap {
  std::vector<ThrowMapEntry> throws;  // kThrows' order, 6-6 first
  Evaluation eval;                    // the probability-weighted mean
  // With more than two sides: every side's chance, the probability-weighted
  // mean over the throws (empty on the four-sided board of two teams).
  std::vector<double> sides;
  std::string level;
  int64_t time_ms = 0;
  bool exact = false;
};

}  // namespace uckers
