#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/coach.h"
#include "eval/evaluate.h"
#include "eval/terms.h"
#include "rules/checked.h"
#include "rules/dice.h"
#include "rules/dice_sequence.h"
#include "rules/effects.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "search/search.h"
#include "uckers/v1/engine.pb.h"

// Translation between the gRPC messages and the engine's value types. Every error
// is INVALID_ARGUMENT and names the request field (`position.ufen`,
// `throw.die1`, `options.multipv`) and the problem.
namespace uckers::proto {

absl::StatusOr<Rules> RulesFrom(const std::string& text);  // field `rules`
absl::StatusOr<Position> PositionFrom(const v1::Position& msg, const Rules& rules);
absl::StatusOr<Throw> ThrowFrom(const v1::Throw& msg, bool required);

// Limits and options of a search request; `max_threads` is the server's cap.
absl::Status SearchRequestFrom(const v1::SearchLimits& limits, const v1::SearchOptions& options,
                               int max_threads, SearchRequest* out);
// The table size a request asks for, checked against the server's cap.
absl::StatusOr<int> HashFrom(const v1::SearchOptions& options, int max_hash_mb);

v1::PositionOut PositionOut(const Position& pos);
v1::Outcomes OutcomesOut(const Evaluation& e);
// With more than two sides: the outcomes of side `side` (0-based, the mover's
// as `e` holds them) with every side's chance (`sides`, empty: as above).
v1::Outcomes OutcomesOut(const Evaluation& e, const std::vector<double>& sides, int side);
v1::TermDifference DifferenceOut(const TermDifference& d);
v1::GameResult ResultOut(const Position& pos);
v1::Colour ColourOut(int colour);
v1::Team TeamOut(int team);  // 0 = RY, 1 = GB

// The request field `players`: on the four-sided game of two teams 2 or 4
// (0 means 2); on other layouts the number of sides (0 means it) or of
// colours.
absl::StatusOr<int> PlayersFrom(int players, const Layout& layout);
// What a play did, leading to `after`, in a game of `players` players.
v1::PlayEffects EffectsOut(const PlayEffects& fx, const Position& after, int players);

}  // namespace uckers::proto
