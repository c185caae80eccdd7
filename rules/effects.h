#pragma once

#include <vector>

#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"

// What a play does, spelled out for a front-end so that it need not diff
// positions: the pieces that moved, the pieces knocked off, the blobs and
// mixie blobs formed and broken, the challenge's course, releases, and who
// acts next (RULES.md §2-§7).
namespace uckers {

// One piece changing place. Squares are relative to the piece's own colour
// (kBase, the track and lane, the board's home); the absolute main-track square is -1 off the
// track.
struct PieceChange {
  int colour = 0;
  Square from = kBase;
  Square to = kBase;
  int from_abs = -1;
  int to_abs = -1;
  friend bool operator==(const PieceChange&, const PieceChange&) = default;
};

// A blob (two or more pieces of one colour on a main-track square) or a
// mixie blob (pieces of both colours of a team), RULES.md §2.
struct BlobChange {
  int team = 0;
  int colour = -1;  // the blob's colour; -1 for a mixie blob
  int abs = 0;      // absolute main-track square
  int size = 0;
  std::vector<int> order;  // mixie_stack: colours bottom to top
  friend bool operator==(const BlobChange&, const BlobChange&) = default;
};

enum class ChallengeEvent {
  kNone,      // no challenge before or after the play
  kDeclared,  // the play declares a challenge (§6)
  kCounted,   // a throw of a challenge under way: it goes on
  kWon,       // the sixes reached the need: the blob went to base
  kFailed,    // a throw with no six: the challenge is lost
};

struct PlayEffects {
  // Every piece that moved, by the play itself or by a rule (a challenger
  // moving onto the blob's square, suck back, snake eyes), knock-offs apart.
  std::vector<PieceChange> moves;
  // Pieces sent back to base (§5, §6, var. G): `from` is where they stood.
  std::vector<PieceChange> knocked_off;
  std::vector<BlobChange> blobs_formed;
  std::vector<BlobChange> blobs_broken;
  ChallengeEvent challenge = ChallengeEvent::kNone;
  int challenge_sixes = 0;         // counted so far (kDeclared, kCounted)
  int challenge_sixes_needed = 0;  // the need, the declaring six included
  std::vector<int> released;       // colours released by this play (§7)
  // Who acts next: the colour to throw and the colour whose pieces it
  // moves; whether the same colour throws again. Meaningless once the game
  // is over (`game_over`).
  int next_to_throw = 0;
  int next_moving_colour = 0;
  bool extra_throw = false;
  bool game_over = false;
};

// The effects of `play`, made from `before` with the throw it was made with
// and leading to `after` (a PlayResult of GenerateLegalPlays or ParsePlay).
PlayEffects EffectsOf(const Position& before, const PlayResult& play, const Rules& rules);

}  // namespace uckers
