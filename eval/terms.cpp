#include "eval/terms.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "eval/evaluate.h"
#include "rules/dice.h"
#include "rules/effects.h"
#include "rules/movegen.h"

namespace uckers {

PlayTerms PositionTerms(const Position& pos, const Rules& rules, int team) {
  PlayTerms t;
  EvalTerms terms;
  Evaluate(pos, rules, &terms);
  t.race_pips = terms.race_pips[team];
  t.opponent_race_pips = terms.race_pips[1 - team];
  t.home = terms.home[team];
  t.entered = 2 * kPiecesPerColour - terms.in_base[team];
  if (pos.IsGameOver()) return t;
  // The opponents' next mover: the colour to throw, or the next one when
  // `team` throws now; its partner's pieces once released.
  int first = TeamOf(pos.to_throw()) == team ? NextColour(pos.to_throw()) : pos.to_throw();
  int attacker = pos.released(first) ? PartnerOf(first) : first;
  std::array<int, kTrackSquares> count{}, colours{};
  for (int colour : {team, PartnerOf(team)}) {
    for (Square sq : pos.pieces(colour)) {
      if (!OnTrack(sq)) continue;
      int abs = AbsoluteSquare(colour, sq);
      ++count[abs];
      colours[abs] |= 1 << (colour >> 1);
    }
  }
  for (int abs = 0; abs < kTrackSquares; ++abs) {
    // A blob of one colour is safe; a single piece or a mixie blob is not.
    if (count[abs] == 0 || (count[abs] > 1 && colours[abs] != 3)) continue;
    double p = HitProbability(pos, attacker, abs);
    if (p <= 0) continue;
    t.exposed += count[abs];
    t.hit_chance = std::max(t.hit_chance, p);
  }
  if (TeamOf(pos.to_throw()) != team) {
    PlayList plays;
    for (Throw th : kThrows) {
      GenerateLegalPlays(pos, rules, th, &plays);
      for (const PlayResult& r : plays) {
        if (r.play.kind == PlayKind::kChallenge) {
          t.challenge_chance += th.Weight() / 36.0;
          break;
        }
      }
    }
  }
  return t;
}

PlayTerms TermsOf(const Position& before, const PlayResult& play, const Rules& rules) {
  int team = TeamOf(before.to_throw());
  PlayTerms t = PositionTerms(play.after, rules, team);
  PlayEffects fx = EffectsOf(before, play, rules);
  for (const BlobChange& b : fx.blobs_formed) t.blobs_made += b.team == team;
  for (const BlobChange& b : fx.blobs_broken) t.blobs_broken += b.team == team;
  for (const PieceChange& k : fx.knocked_off) t.knocked_off += TeamOf(k.colour) != team;
  return t;
}

std::vector<TermDifference> Differences(const PlayTerms& best, const PlayTerms& play) {
  std::vector<TermDifference> out;
  auto add = [&](const char* name, double b, double p) {
    if (std::abs(b - p) > 1e-9) out.push_back({name, b, p});
  };
  add("exposed", best.exposed, play.exposed);
  add("hit_chance", best.hit_chance, play.hit_chance);
  add("blobs_made", best.blobs_made, play.blobs_made);
  add("blobs_broken", best.blobs_broken, play.blobs_broken);
  add("knocked_off", best.knocked_off, play.knocked_off);
  add("challenge_chance", best.challenge_chance, play.challenge_chance);
  add("race_pips", best.race_pips, play.race_pips);
  add("opponent_race_pips", best.opponent_race_pips, play.opponent_race_pips);
  add("entered", best.entered, play.entered);
  add("home", best.home, play.home);
  return out;
}

}  // namespace uckers
