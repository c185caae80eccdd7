#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"

// One game as every front sees it: its rules, its start position and the
// throws and plays made from it, replayed once into the positions it
// passes through. The text protocol's session holds one (`position ...
// moves ...` builds it); the engine's questions (legal plays, the best
// play, the evaluation, the review) are asked of it.
namespace uckers {

// One throw of a game and the play made with it: the one item type of
// games, records (their `<throw>:<play>` items) and matches.
struct PlayedThrow {
  Throw dice;
  std::string play;  // canonical text (PROTOCOL.md)
  Position before;   // the position the throw was made in
};

class Game {
 public:
  // The ruleset's start position, no moves.
  explicit Game(const Rules& rules = Rules());

  // From "startpos" or a UFEN under `rules`.
  static absl::StatusOr<Game> FromStart(const Rules& rules, absl::string_view start);
  // From `start`, a position of `rules`'s layout (as a parser of `rules`
  // gave it), no moves: no text read.
  static Game At(const Rules& rules, const Position& start);

  // Plays `play` (any spelling of a legal play) with throw `t`; an error
  // leaves the game unchanged.
  absl::Status Play(Throw t, absl::string_view play);
  // Makes `played`, one of the legal plays of throw `t` (as the move
  // generator gave it), without reading text.
  void Play(Throw t, const PlayResult& played);
  // Plays one `<throw>:<play>` item (`63:rb-0,r0-3`): the one reading of
  // an item, for the text protocol's moves and for records.
  absl::Status PlayItem(absl::string_view item);
  // Takes the last play back; false when there is none.
  bool TakeBack();

  const Rules& rules() const { return rules_; }
  const Position& start() const { return start_; }
  const Position& position() const { return position_; }
  const std::vector<PlayedThrow>& items() const { return items_; }
  bool IsOver() const { return position_.IsGameOver(); }

 private:
  Rules rules_;
  Position start_;
  Position position_;
  std::vector<PlayedThrow> items_;
};

}  // namespace uckers
