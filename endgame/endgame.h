#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/dice.h"
#include "engine/play.h"
#include "engine/position.h"
#include "engine/rules.h"

namespace uckers {

// The exact table of class "1v1" (docs/endgames.md): in each team one colour
// has all four pieces home and is released, its partner has three home and
// one piece anywhere else (base, track, lane); any colour to throw; no
// challenge, no extra throw owed, no first-throw or lane-attempt state.
class EndgameTable {
 public:
  // Number of index slots (some are impossible positions and hold no value).
  static constexpr size_t kSlots = 4 * 57 * 57 * 4;
  static constexpr const char* kClassName = "1v1";

  // Solves the class under `rules` by value iteration to max |change| < 1e-9.
  // Refuses rulesets with a switch the class does not model.
  static absl::StatusOr<EndgameTable> Build(const Rules& rules);

  // Win probability of the team to throw, or nullopt if `pos` is not in the
  // class.
  std::optional<double> Probe(const Position& pos) const;

  // The legal play for throw `t` whose successor is best for the team to
  // throw; an error if `pos` is not in the class.
  absl::StatusOr<PlayResult> BestPlay(const Position& pos, Throw t) const;

  // Number of positions in the class with a value.
  size_t size() const;

  // Writes the table: magic, version, switch list, class, count, float32
  // values, FNV-1a checksum. Errors if the file cannot be written.
  absl::Status Save(const std::string& path) const;

  // Reads a table saved by Save; refuses a wrong magic, version, ruleset,
  // class, size or checksum with a clear error.
  static absl::StatusOr<EndgameTable> Load(const std::string& path, const Rules& expected);

  // The class position with index `index`, or nullopt for an impossible slot.
  static std::optional<Position> PositionAt(size_t index, const Rules& rules);

  // The index of a class position, or nullopt if `pos` is not in the class.
  std::optional<size_t> IndexOf(const Position& pos) const;

 private:
  explicit EndgameTable(const Rules& rules) : rules_(rules) {}
  // The successor's value for the team to throw in `from`, nullopt if the
  // successor is neither finished nor in the class.
  std::optional<double> SuccessorValue(const Position& from, const Position& after) const;

  Rules rules_;
  std::vector<float> values_;  // NaN for impossible slots
};

}  // namespace uckers
