#include "rules/effects.h"

#include <algorithm>
#include <map>
#include <utility>

#include "rules/occupancy.h"
#include "rules/stack.h"
#include "rules/turn.h"

namespace uckers {
namespace {

int AbsOf(const Board& b, int colour, Square sq) {
  return b.OnTrack(sq) ? b.Absolute(colour, sq) : -1;
}

PieceChange Change(const Board& b, int colour, Square from, Square to) {
  return {colour, from, to, AbsOf(b, colour, from), AbsOf(b, colour, to)};
}

// Removes one `value` from `v`; whether there was one.
bool TakeOne(std::vector<Square>& v, Square value) {
  auto it = std::find(v.begin(), v.end(), value);
  if (it == v.end()) return false;
  v.erase(it);
  return true;
}

// The squares a colour left (`gone`) and reached (`came`): the multiset
// difference of its pieces before and after.
void Difference(const Position& before, const Position& after, int colour,
                std::vector<Square>* gone, std::vector<Square>* came) {
  std::vector<Square> b(before.pieces(colour).begin(), before.pieces(colour).end());
  std::vector<Square> a(after.pieces(colour).begin(), after.pieces(colour).end());
  for (Square s : b) {
    if (!TakeOne(a, s)) gone->push_back(s);
  }
  std::vector<Square> b2(before.pieces(colour).begin(), before.pieces(colour).end());
  for (Square s : after.pieces(colour)) {
    if (!TakeOne(b2, s)) came->push_back(s);
  }
}

// Pairs a colour's departures with its arrivals: first as the play's own
// moves say (a piece moved twice counts once, from its first square to its
// last), then arrivals in base as knock-offs, then the rest in square order.
void PairChanges(const Board& b, const Play& play, int colour, std::vector<Square> gone,
                 std::vector<Square> came, PlayEffects* fx) {
  if (play.kind == PlayKind::kMoves) {
    for (int i = 0; i < play.num_moves; ++i) {
      const Move& m = play.moves[i];
      if (m.colour != colour) continue;
      Square to = m.to;
      if (i + 1 < play.num_moves && play.moves[i + 1].colour == colour &&
          play.moves[i + 1].from == m.to &&
          std::find(came.begin(), came.end(), m.to) == came.end()) {
        to = play.moves[++i].to;  // the same piece moved on by the other die
      }
      if (std::find(gone.begin(), gone.end(), m.from) != gone.end() &&
          std::find(came.begin(), came.end(), to) != came.end()) {
        TakeOne(gone, m.from);
        TakeOne(came, to);
        fx->moves.push_back(Change(b, colour, m.from, to));
      }
    }
  }
  std::sort(gone.begin(), gone.end());
  while (TakeOne(came, kBase) && !gone.empty()) {
    // A piece on the board sent to base: the one furthest on is matched
    // first, as any of them is the same to the board.
    fx->knocked_off.push_back(Change(b, colour, gone.back(), kBase));
    gone.pop_back();
  }
  std::sort(came.begin(), came.end());
  for (size_t i = 0; i < gone.size() && i < came.size(); ++i) {
    fx->moves.push_back(Change(b, colour, gone[i], came[i]));
  }
}

// The blobs and mixie blobs of a position by absolute square.
std::map<int, BlobChange> Blobs(const Position& pos) {
  std::map<int, BlobChange> blobs;
  StackList stacks = Stacks(pos);
  const Layout& l = pos.layout();
  for (int abs = 0; abs < l.board.track; ++abs) {
    for (int team = 0; team < l.num_sides; ++team) {
      int size = 0, kinds = 0, colour = -1;
      for (int c = 0; c < l.board.colours; ++c) {
        if (l.side_of[c] != team) continue;
        int n = CountAtAbsolute(pos, c, abs);
        size += n;
        if (n > 0) {
          ++kinds;
          colour = c;
        }
      }
      if (size < 2) continue;
      BlobChange b;
      b.team = team;
      b.abs = abs;
      b.size = size;
      if (kinds == 1) {
        b.colour = colour;
      } else if (const Stack* s = stacks.Find(abs)) {
        for (int k = 0; k < s->size; ++k) b.order.push_back(s->ColourAt(k));
      }
      blobs[abs] = b;
    }
  }
  return blobs;
}

bool SameKind(const BlobChange& a, const BlobChange& b) {
  return a.team == b.team && a.colour == b.colour;
}

void CompareBlobs(const Position& before, const Position& after, PlayEffects* fx) {
  std::map<int, BlobChange> was = Blobs(before);
  std::map<int, BlobChange> is = Blobs(after);
  for (const auto& [abs, b] : is) {
    auto it = was.find(abs);
    if (it == was.end() || !SameKind(it->second, b)) fx->blobs_formed.push_back(b);
  }
  for (const auto& [abs, b] : was) {
    auto it = is.find(abs);
    if (it == is.end() || !SameKind(it->second, b)) fx->blobs_broken.push_back(b);
  }
}

void DescribeChallenge(const Position& before, const PlayResult& r, const Rules& rules,
                       PlayEffects* fx) {
  const Position& after = r.after;
  if (r.play.kind == PlayKind::kChallenge) {
    fx->challenge = after.challenge_active() ? ChallengeEvent::kDeclared : ChallengeEvent::kWon;
  } else if (before.challenge_active()) {
    if (after.challenge_active()) {
      fx->challenge = ChallengeEvent::kCounted;
    } else {
      fx->challenge = fx->knocked_off.empty() ? ChallengeEvent::kFailed : ChallengeEvent::kWon;
    }
  }
  if (fx->challenge == ChallengeEvent::kNone) return;
  const Position& live = after.challenge_active() ? after : before;
  int mover = live.MovingColour();
  Square from = r.play.kind == PlayKind::kChallenge ? r.play.square : live.challenge_from();
  int target = ChallengeTarget(before.board(), mover, from);
  int blob = OpponentCountAt(before, mover, target);
  fx->challenge_sixes = after.challenge_active() ? after.challenge_count() : 0;
  fx->challenge_sixes_needed = ChallengeNeed(from, blob, rules);
}

}  // namespace

PlayEffects EffectsOf(const Position& before, const PlayResult& r, const Rules& rules) {
  PlayEffects fx;
  for (int colour = 0; colour < before.num_colours(); ++colour) {
    std::vector<Square> gone, came;
    Difference(before, r.after, colour, &gone, &came);
    PairChanges(before.board(), r.play, colour, gone, came, &fx);
  }
  CompareBlobs(before, r.after, &fx);
  DescribeChallenge(before, r, rules, &fx);
  for (int c = 0; c < before.num_colours(); ++c) {
    if (r.after.released(c) && !before.released(c)) fx.released.push_back(c);
  }
  fx.game_over = r.after.IsGameOver();
  fx.next_to_throw = r.after.to_throw();
  fx.next_moving_colour = r.after.MovingColour();
  fx.extra_throw = !fx.game_over && r.after.to_throw() == before.to_throw();
  return fx;
}

}  // namespace uckers
