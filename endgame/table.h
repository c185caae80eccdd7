#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "endgame/index.h"
#include "endgame/values.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// The table's best play for one throw.
struct EndgameChoice {
  Play play;             // as GenerateLegalPlays spells it
  Position after;        // the position it leads to
  EndgameValues values;  // its exact values, for the team that plays it
};

// Exact values of every position of an endgame class (endgame/index.h)
// under one ruleset, as 16-bit fixed point win probabilities of the team
// to throw (docs/endgames.md). Built by BuildEndgameTable
// (endgame/solver.h) or read from a file; read-only and thread-safe after.
class EndgameTable {
 public:
  // Fixed point: a stored code q means a win probability of q / kOne.
  static constexpr double kOne = 65535.0;
  static uint16_t Encode(double win);

  // `wins[s]` holds ShapeSize(s) codes for every shape s of `cls`, and is
  // empty for the others.
  EndgameTable(EndgameClass cls, const Rules& rules,
               std::array<std::vector<uint16_t>, kNumEndgameShapes> wins);

  // Reads a table file (format in docs/endgames.md). Refuses, with an error
  // naming the file and the problem, a file that is missing or unreadable,
  // is not a table (magic), has another format version, was built for other
  // rules than `rules` (the differing switches named), names an unknown
  // class, or whose sizes or checksum do not match.
  static absl::StatusOr<EndgameTable> Load(const std::string& path, const Rules& rules);
  // Reads a table file under the rules its header lists (every switch), for
  // a server that plays any rules: the table then covers only those.
  static absl::StatusOr<EndgameTable> Load(const std::string& path);
  // Load(path), once per path for the whole process (match players and
  // sessions share one copy); an error is not remembered.
  static absl::StatusOr<std::shared_ptr<const EndgameTable>> LoadShared(const std::string& path);
  // Writes the table to `path`; an error if it cannot.
  absl::Status Save(const std::string& path) const;

  EndgameClass endgame_class() const { return class_; }
  const Rules& rules() const { return rules_; }
  // Positions held (ClassSize of the class).
  uint64_t size() const;

  // The win probability of the team to throw at a slot; nullopt when the
  // slot's shape is not in the class.
  std::optional<double> WinAt(EndgameSlot slot) const {
    const std::vector<uint16_t>& codes = wins_[slot.shape];
    if (codes.empty()) return std::nullopt;
    return codes[slot.index] / kOne;
  }

  // Whether `pos` under `rules` is covered, and if so its exact values for
  // the team to throw. Covered: `rules` are the table's, and `pos` is a
  // position of the class, or a challenge under way whose throws lead only
  // to finished games and positions of the class.
  std::optional<EndgameValues> Probe(const Position& pos, const Rules& rules) const;
  // Probe's win probability alone.
  std::optional<double> ProbeWin(const Position& pos, const Rules& rules) const;

  // For a covered position and throw `t`: the legal play whose successor
  // has the highest win probability for the team that plays it (the first
  // in GenerateLegalPlays' order among equal ones); nullopt when `pos` is
  // not covered or the game is over.
  std::optional<EndgameChoice> BestPlay(const Position& pos, const Rules& rules, Throw t) const;

 private:
  EndgameClass class_;
  Rules rules_;
  std::array<std::vector<uint16_t>, kNumEndgameShapes> wins_;
};

}  // namespace uckers
