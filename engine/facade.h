#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "eval/terms.h"
#include "record/game.h"
#include "record/record.h"
#include "review/analysis.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "rules/version.h"
#include "search/door.h"
#include "search/search.h"
#include "search/settings.h"

// The value-level helpers under the engine controller (engine/engine.h, the
// one door to the search): parsing rules, positions and throws, legal plays,
// dice, verified dice and a request's search parameters (a play's terms are
// eval/terms.h's).
// None of them searches. All calls are stateless and safe to make from many
// threads at once.
namespace uckers::facade {

// A rules string; empty means the default ruleset (navy). Every board and
// layout of RULES.md §11 is accepted (`six`, `navy+solo`,
// `six+teams_of_three`, `six+solo`); the calls that know only the
// four-sided game of two teams refuse the others themselves.
absl::StatusOr<Rules> ParseRules(absl::string_view text);

// A UFEN under `rules`, or "startpos" for that ruleset's start position.
absl::StatusOr<Position> ParsePosition(absl::string_view text, const Rules& rules);

// Two dice, each 1..6.
absl::StatusOr<Throw> MakeCheckedThrow(int d1, int d2);

// The distinct legal plays, sorted by their canonical text; empty when the
// game is over.
std::vector<PlayResult> LegalPlays(const Position& pos, const Rules& rules, Throw t);

// Any spelling of a legal play, resolved to the play and its result.
absl::StatusOr<PlayResult> ApplyPlay(const Position& pos, const Rules& rules, Throw t,
                                     absl::string_view play);

// Dice drawn from a game's seed (rules/dice_sequence.h): the throws
// `index`..`index + count - 1`, each as drawn. `index` 0..49999, `count`
// 1..1000; an error names the bad one.
inline constexpr int kMaxDiceIndex = 49999;
inline constexpr int kMaxDiceCount = 1000;
absl::StatusOr<std::vector<std::pair<int, int>>> RollDice(uint64_t seed, int index, int count);

// A fresh dice seed from the system's entropy (never 0), for a game whose
// client asked the server to choose.
uint64_t NewDiceSeed();

// The search's request and its checks are the door's (search/door.h);
// these names stay for the callers that still spell them here.
using uckers::CheckClocksFor;
using uckers::kMaxTreeMb;
using uckers::ParamsFor;
using uckers::SearchRequest;

// Whether the position's layout is the four-sided board with two teams,
// the one the tutor, the review, the tables and the team clocks know.
inline bool FourSidedTeams(const Position& pos) { return pos.layout().IsFourSidedTeams(); }

// The tutor (docs/frontend.md, Engine::Judge and Engine::MapThrows): its
// default level, fast enough to judge every play as it is made
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

// Names for the engine-information call and the `uci` command.
inline constexpr const char* kEngineName = "Uckers";
inline constexpr const char* kEngineVersion = kVersion;
std::vector<std::string> PresetNames();
std::vector<std::string> LevelNames();

}  // namespace uckers::facade
