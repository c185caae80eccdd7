#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "search/search.h"

namespace uckers {

// A playing strength, as gnubg's levels: how deep, how wide, how noisy.
struct LevelDef {
  std::string name;
  int max_depth;                   // plies searched (1: the play's static value)
  int filter_width;                // plays searched deeper at each decision
  double filter_margin;            // ...plus any within this score of the best
  double noise;                    // std dev of evaluation noise, in win probability
  EvalKind eval = EvalKind::kNet;  // net where one plays the rules, else classic
  int ending_extension = 0;        // plies added in endings (SearchParams)
};

// The levels from weakest to strongest.
const std::vector<LevelDef>& Levels();
// The level a search plays at unless told otherwise: the strongest playing
// level (three throws, 7 to 12 ms a move with the static cache).
inline constexpr absl::string_view kDefaultLevel = "grandmaster";
// The level the Bench signature, the benches, the calibration and labelling
// use unless told otherwise: fixed at two throws, so that their figures stay
// comparable and labelling stays cheap (docs/evaluation.md).
inline constexpr absl::string_view kReferenceLevel = "expert";
// The level a review runs at unless told otherwise: the strongest playing
// level, so that it judges every other level's plays (docs/analysis.md).
inline constexpr absl::string_view kAnalysisLevel = "grandmaster";

// Sets the depth, filter and noise of `params` from the named level.
absl::Status ApplyLevel(absl::string_view name, SearchParams* params);

// The throws a level looks ahead with more than two sides (search/multi_side.h):
// one for the four weakest (each play's static value), two for `expert` and
// `classic`, three for `grandmaster` (the default). An unknown name is an error.
absl::StatusOr<int> MultiSideDepthOf(absl::string_view name);

}  // namespace uckers
