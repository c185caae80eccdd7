#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "record/game.h"
#include "record/record.h"
#include "review/analysis.h"
#include "rules/dice.h"

namespace uckers {

class EndgameTable;

// Equity lost (points) at which a play is marked (docs/analysis.md), in the
// spirit of gnubg's 0.03 / 0.06 / 0.12.
inline constexpr double kDoubtful = 0.03;
inline constexpr double kBad = 0.06;
inline constexpr double kVeryBad = 0.12;

// The mark of a play that gave away `equity_lost` points: the one
// definition the review and the tutor (JudgePlay) share.
Mark MarkFor(double equity_lost);

// The chance that a chi-square variable with `degrees_of_freedom` is at
// least `chi_square` (the upper tail: a test's p-value).
double ChiSquarePValue(double chi_square, int degrees_of_freedom);

// A team's throws against fair dice: counts of sixes, doubles and each of
// the 21 throws with their expected values, and the chi-square test.
DiceStats DiceStatsOf(const std::vector<Throw>& throws);

// Reviews `game` at `level` (empty: kAnalysisLevel): for each throw with
// a choice, the engine's best play against the play made, the equity lost
// and its mark; for every throw, its luck and RY's win probability before it
// (every side's with more sides); per side, the error rate, a rating band,
// luck and the luck-adjusted result. `on_item` (may be empty) hears of each
// item as it is done. `stop` ends it early with an error. Where `endgames`
// (may be null) covers a position, its plays are valued exactly and the
// item says so.
absl::StatusOr<GameAnalysis> AnalyseGame(
    const Game& game, const std::string& level, const std::atomic<bool>& stop,
    const std::function<void(const AnalysedItem&)>& on_item = nullptr,
    const EndgameTable* endgames = nullptr);
// The same review of a record's game, with the record's players.
absl::StatusOr<GameAnalysis> AnalyseGame(
    const Record& record, const std::string& level, const std::atomic<bool>& stop,
    const std::function<void(const AnalysedItem&)>& on_item = nullptr,
    const EndgameTable* endgames = nullptr);

// Each side's luck over `game` in its own chance of winning (RY and GB
// with two teams, else the layout's sides in order): at each throw, the
// chance the side has after the thrower's best play for the throw that came
// (by the evaluation the review's luck uses, one throw deep), less its mean
// over the 21 throws. Its expectation over fair dice is zero whatever the
// evaluation, so a game's result (1 won, 0 not) less the side's luck has the
// result's expectation with much less of its variance: the luck-adjusted
// result of `uckers match --luck` (docs/matches.md).
//
// With `depth` 1 each throw's best play (still chosen by its static value)
// is valued one throw deeper: the mean over the next throw of every side's
// chance after that thrower's best play. A truer value leaves less of the
// evaluation's error in the luck, so the adjusted result's interval is
// narrower, for about twenty times the work (`--luck_depth 1`).
std::vector<double> WinLuckBySide(const Game& game, int depth = 0);

// The rating band of an error rate (equity lost per decision).
std::string RatingFor(double error_rate);

// The analysis as text for people.
std::string AnalysisToText(const GameAnalysis& analysis);
// Text for an SVG or XML document: the five XML specials escaped (the
// charts' names and titles).
std::string XmlEscape(const std::string& text);

// An SVG chart of RY's win probability over the game, errors marked.
std::string AnalysisToSvg(const GameAnalysis& analysis);

}  // namespace uckers
