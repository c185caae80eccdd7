#include "eval/terms.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <utility>

#include "eval/evaluate.h"
#include "rules/dice.h"
#include "rules/effects.h"
#include "rules/movegen.h"

namespace uckers {
namespace {

// The piece nearest behind absolute square `abs` of the colours `movers`
// (bit mask) on the track, at most 12 squares behind: its colour and how
// far; colour -1 when none is (the square is reached from base, if at all).
std::pair<int, int> NearestBehind(const Position& pos, uint8_t movers, int abs) {
  const Board& b = pos.board();
  std::pair<int, int> nearest{-1, 0};
  for (int colour = 0; colour < b.colours; ++colour) {
    if (!(movers >> colour & 1)) continue;
    int target = b.Relative(colour, abs);
    if (target > b.last_track) continue;
    for (Square from : pos.pieces(colour)) {
      if (!b.OnTrack(from)) continue;
      int d = target - from;
      if (d >= 1 && d <= 12 && (nearest.first < 0 || d < nearest.second)) nearest = {colour, d};
    }
  }
  return nearest;
}

// Sets hit_chance to `p` when it is the largest yet, with the piece behind
// it: the nearest of `movers` behind `abs`, or `thrower` entering from base.
void NoteThreat(const Position& pos, uint8_t movers, int thrower, int abs, double p, PlayTerms& t) {
  if (p <= t.hit_chance) return;
  t.hit_chance = p;
  auto [colour, squares] = NearestBehind(pos, movers, abs);
  t.threat_colour = colour < 0 ? thrower : colour;
  t.threat_squares = colour < 0 ? 0 : squares;
}

// The four-sided board of two teams: blobs block a hit, a released colour
// attacks with its partner's pieces.
PlayTerms FourSidedTerms(const Position& pos, const Rules& rules, int team) {
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
    NoteThreat(pos, static_cast<uint8_t>(1u << attacker), first, abs, p, t);
  }
  return t;
}

// Of the 36 ordered throws, how many let `attacker` (its own pieces, or
// once released its partners') hit relative square `r` (0..last_track):
// a piece moving exactly one die or both summed, or one entering with a
// six and moving the other die (blobs in the way are not counted).
int GenericHits(const Position& pos, int attacker, int r) {
  const Board& b = pos.board();
  uint8_t movers = pos.released(attacker) ? pos.layout().PartnerMask(attacker) : 1u << attacker;
  int hits = 0;
  for (int d1 = 1; d1 <= 6; ++d1) {
    for (int d2 = 1; d2 <= 6; ++d2) {
      bool hit = false;
      for (int colour = 0; colour < b.colours && !hit; ++colour) {
        if (!(movers >> colour & 1)) continue;
        int target = b.Relative(colour, b.Absolute(attacker, r));
        if (target > b.last_track) continue;  // not on this colour's path
        for (Square from : pos.pieces(colour)) {
          if (from == kBase) {
            hit |= (d1 == 6 || d2 == 6) &&
                   (target == 0 || (d1 == 6 && target == d2) || (d2 == 6 && target == d1));
          } else if (b.OnTrack(from)) {
            int d = target - from;
            hit |= d == d1 || d == d2 || d == d1 + d2;
          }
        }
      }
      hits += hit;
    }
  }
  return hits;
}

// Every other layout: the next mover of another side attacks.
PlayTerms LayoutTerms(const Position& pos, int side) {
  PlayTerms t;
  const Board& b = pos.board();
  const Layout& layout = pos.layout();
  const double entry = kDefaultWeights.entry_pips;
  double rival = 1e18;
  for (int s = 0; s < layout.num_sides; ++s) {
    double pips = 0;
    for (int colour = 0; colour < b.colours; ++colour) {
      if (layout.SideOf(colour) != s) continue;
      for (Square sq : pos.pieces(colour)) {
        pips += sq == kBase ? b.home + entry : b.home - sq;
        if (s == side) {
          t.entered += sq != kBase;
          t.home += sq == b.home;
        }
      }
    }
    if (s == side) {
      t.race_pips = pips;
    } else {
      rival = std::min(rival, pips);
    }
  }
  t.opponent_race_pips = rival;
  if (pos.IsGameOver()) return t;
  int attacker =
      layout.SideOf(pos.to_throw()) == side ? b.NextColour(pos.to_throw()) : pos.to_throw();
  while (layout.SideOf(attacker) == side) attacker = b.NextColour(attacker);
  std::array<int, kSixSidedBoard.track> count{}, colours{};
  for (int colour = 0; colour < b.colours; ++colour) {
    if (layout.SideOf(colour) != side) continue;
    for (Square sq : pos.pieces(colour)) {
      if (!b.OnTrack(sq)) continue;
      int abs = b.Absolute(colour, sq);
      ++count[abs];
      colours[abs] |= 1 << colour;
    }
  }
  for (int abs = 0; abs < b.track; ++abs) {
    // A blob of one colour is safe; a single piece or a mixie blob is not.
    if (count[abs] == 0 || (count[abs] > 1 && std::popcount(unsigned(colours[abs])) == 1)) continue;
    int r = b.Relative(attacker, abs);
    if (r > b.last_track) continue;
    double p = GenericHits(pos, attacker, r) / 36.0;
    if (p <= 0) continue;
    t.exposed += count[abs];
    uint8_t movers = pos.released(attacker) ? layout.PartnerMask(attacker) : 1u << attacker;
    NoteThreat(pos, movers, attacker, abs, p, t);
  }
  return t;
}

// The chance, over the 36 throws, that the throw to come lets its thrower
// declare a challenge (when `side` does not throw it; else 0).
double ChallengeChance(const Position& pos, const Rules& rules, int side) {
  if (pos.IsGameOver() || pos.SideOf(pos.to_throw()) == side) return 0;
  double chance = 0;
  PlayList plays;
  for (Throw th : kThrows) {
    GenerateLegalPlays(pos, rules, th, &plays);
    for (const PlayResult& r : plays) {
      if (r.play.kind == PlayKind::kChallenge) {
        chance += th.Weight() / 36.0;
        break;
      }
    }
  }
  return chance;
}

}  // namespace

PlayTerms PositionTerms(const Position& pos, const Rules& rules, int side) {
  PlayTerms t =
      pos.layout().IsFourSidedTeams() ? FourSidedTerms(pos, rules, side) : LayoutTerms(pos, side);
  t.challenge_chance = ChallengeChance(pos, rules, side);
  return t;
}

PlayTerms TermsOf(const Position& before, const PlayResult& play, const Rules& rules) {
  int side = before.SideOf(before.to_throw());
  PlayTerms t = PositionTerms(play.after, rules, side);
  PlayEffects fx = EffectsOf(before, play, rules);
  for (const BlobChange& b : fx.blobs_formed) t.blobs_made += b.team == side;
  for (const BlobChange& b : fx.blobs_broken) t.blobs_broken += b.team == side;
  for (const PieceChange& k : fx.knocked_off) t.knocked_off += before.SideOf(k.colour) != side;
  return t;
}

const std::array<const char*, kNumTerms> kTermNames = {
    "exposed",          "hit_chance", "blobs_made",         "blobs_broken", "knocked_off",
    "challenge_chance", "race_pips",  "opponent_race_pips", "entered",      "home",
};

std::array<double, kNumTerms> TermValues(const PlayTerms& t) {
  return {static_cast<double>(t.exposed),
          t.hit_chance,
          static_cast<double>(t.blobs_made),
          static_cast<double>(t.blobs_broken),
          static_cast<double>(t.knocked_off),
          t.challenge_chance,
          t.race_pips,
          t.opponent_race_pips,
          static_cast<double>(t.entered),
          static_cast<double>(t.home)};
}

const std::array<double, kNumTerms>& TermWinChance(LayoutId layout) {
  // `uckers fitterms --rules R --fit_games N` (seed 1, level expert):
  // navy over 1000 games, the others over 200 (docs/frontend.md).
  static constexpr std::array<std::array<double, kNumTerms>, kNumLayouts> kFits = {{
      // navy: four sides, two teams
      {-0.004234, -0.03502, 0.01164, -0.02651, 0.03236, 0.06635, 1.786e-05, 3.214e-05, 0.02919,
       -0.005946},
      // navy+solo
      {-0.0008766, -0.03881, 0.02189, -0.03185, 0.01922, 0.02217, -1.548e-05, 0.0002709, 0.01083,
       -0.008093},
      // six
      {0.0001092, -0.009316, 0.003666, -0.01305, 0.007059, 0.01825, -1.198e-06, 6.649e-05, 0.002312,
       -0.008875},
      // six+teams_of_three
      {-0.001281, -0.0257, 0.003009, -0.01961, 0.009398, 0.04949, 6.989e-06, 9.302e-06, 0.009345,
       -0.01411},
      // six+solo
      {0.0001749, -0.005139, 0.00271, -0.006464, 0.0027, 0.003111, -7.697e-06, 6.14e-05, -0.0001227,
       -0.006745},
  }};
  return kFits[layout];
}

std::vector<TermDifference> Differences(const PlayTerms& best, const PlayTerms& play,
                                        LayoutId layout) {
  std::vector<TermDifference> out;
  std::array<double, kNumTerms> b = TermValues(best), p = TermValues(play);
  const std::array<double, kNumTerms>& per_unit = TermWinChance(layout);
  for (int i = 0; i < kNumTerms; ++i) {
    if (std::abs(b[i] - p[i]) <= 1e-9) continue;
    out.push_back({kTermNames[i], b[i], p[i], (p[i] - b[i]) * per_unit[i]});
    if (i == kHitChanceTerm) {
      out.back().colour = play.threat_colour;
      out.back().squares = play.threat_squares;
    }
  }
  return out;
}

}  // namespace uckers
