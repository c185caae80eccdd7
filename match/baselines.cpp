#include "match/baselines.h"

#include <tuple>

#include "rules/movegen.h"

namespace uckers {
namespace {

// Opponent pieces knocked off by a play: singles and mixie blobs (pieces on
// a square that held one colour alone, or both colours).
void KnockOffs(const Position& before, const Position& after, int team, int* singles, int* mixies) {
  *singles = *mixies = 0;
  for (int abs = 0; abs < kTrackSquares; ++abs) {
    int count[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      int colour = (1 - team) + 2 * k;
      for (Square sq : before.pieces(colour)) {
        count[k] += OnTrack(sq) && AbsoluteSquare(colour, sq) == abs;
      }
    }
    if (count[0] + count[1] == 0) continue;
    bool gone = true;
    for (int k = 0; k < 2 && gone; ++k) {
      int colour = (1 - team) + 2 * k;
      for (Square sq : after.pieces(colour)) {
        if (OnTrack(sq) && AbsoluteSquare(colour, sq) == abs) gone = false;
      }
    }
    if (!gone) continue;
    if (count[0] && count[1]) {
      ++*mixies;
    } else if (count[0] + count[1] == 1) {
      ++*singles;
    }
  }
}

// The greedy preference as a tuple compared lexicographically.
std::tuple<int, int, int, int, int> GreedyKey(const Position& before, const PlayResult& r) {
  int mover = before.MovingColour();
  int home = r.after.CountAt(mover, kHome) - before.CountAt(mover, kHome);
  int singles = 0, mixies = 0;
  KnockOffs(before, r.after, TeamOf(mover), &singles, &mixies);
  int furthest = -2, advance = 0;
  if (r.play.kind == PlayKind::kMoves) {
    for (int i = 0; i < r.play.num_moves; ++i) {
      const Move& m = r.play.moves[i];
      furthest = std::max<int>(furthest, m.from);
      advance += m.to - m.from;
    }
  }
  return {home, singles, mixies, furthest, advance};
}

}  // namespace

absl::StatusOr<PlayResult> RandomPlayer::Choose(const Position& pos, Throw t) {
  PlayList plays;
  GenerateLegalPlays(pos, rules_, t, &plays);
  std::uniform_int_distribution<int> pick(0, plays.size() - 1);
  return plays[pick(rng_)];
}

absl::StatusOr<PlayResult> GreedyPlayer::Choose(const Position& pos, Throw t) {
  PlayList plays;
  GenerateLegalPlays(pos, rules_, t, &plays);
  const PlayResult* best = nullptr;
  std::tuple<int, int, int, int, int> best_key;
  for (const PlayResult& r : plays) {
    if (r.play.kind == PlayKind::kChallenge) continue;  // never challenges
    auto key = GreedyKey(pos, r);
    if (!best || key > best_key) best = &r, best_key = key;
  }
  return *best;  // a pass or a move is always there beside any challenge
}

}  // namespace uckers
