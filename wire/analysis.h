#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "review/analysis.h"
#include "uckers/v1/game.pb.h"

// Reviews on the wire: the C++ review (review/analysis.h) to and from
// uckers.v1.GameAnalysis and its parts, and its JSON.
namespace uckers::wire {

v1::Mark ToMessage(Mark mark);
v1::DiceStats ToMessage(const DiceStats& stats);
v1::AnalysedItem ToMessage(const AnalysedItem& item);
v1::GameAnalysis ToMessage(const GameAnalysis& analysis);

// The review a message carries; an error names a throw that is not two
// dice 1..6.
absl::StatusOr<GameAnalysis> FromMessage(const v1::GameAnalysis& message);

// As JSON (uckers.v1.GameAnalysis printed by ToJson, wire/json.h).
std::string AnalysisToJson(const GameAnalysis& analysis);

}  // namespace uckers::wire
