#include <algorithm>
#include <array>
#include <cmath>

#include "eval/evaluate.h"

namespace uckers {
namespace {

// Of the 36 ordered throws, how many let a piece move exactly `d` squares
// with one die or both summed: a single piece that far ahead can be hit.
constexpr std::array<int, 13> HitThrows() {
  std::array<int, 13> n{};
  for (int d = 1; d <= 12; ++d) {
    for (int a = 1; a <= 6; ++a) {
      for (int b = 1; b <= 6; ++b) n[d] += (a == d || b == d || a + b == d);
    }
  }
  return n;
}
constexpr std::array<int, 13> kHitThrows = HitThrows();

}  // namespace

// One side's pips to go with the classic evaluation's race, shape and
// exposure terms (eval/evaluate.cpp reads the same weights for two).
double ClassicSidePips(const Position& pos, int side, const EvalWeights& w) {
  const Board& b = pos.board();
  const Layout& layout = pos.layout();
  double pips = 0;
  double exposure = w.exposure_factor;
  if (pos.SideOf(pos.to_throw()) == side) exposure *= w.mover_exposure;
  for (int colour = 0; colour < b.colours; ++colour) {
    if (layout.SideOf(colour) != side) continue;
    const auto& row = pos.pieces(colour);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      Square sq = row[i];
      double to_go = sq == kBase ? b.home + w.entry_pips : b.home - sq;
      pips += to_go + w.straggler * to_go * to_go / b.home;
      if (sq >= b.first_lane && sq < b.home) pips += w.lane_pips;
      if (!b.OnTrack(sq)) continue;
      int count = pos.CountAt(colour, sq);
      if (count >= 2) {
        if (i == 0 || row[i - 1] != sq) pips -= w.blob_pips;
        continue;
      }
      // A single piece: the chance some other side's piece behind it hits
      // it next, times what it loses (back to base).
      int abs = b.Absolute(colour, sq);
      double risk = 0;
      for (int enemy = 0; enemy < b.colours; ++enemy) {
        if (layout.SideOf(enemy) == side) continue;
        int target = b.Relative(enemy, abs);
        if (target > b.last_track) continue;  // not on the enemy's path
        for (Square from : pos.pieces(enemy)) {
          if (from == kBase || !b.OnTrack(from)) continue;
          int d = target - from;
          if (d >= 1 && d <= 12) risk += kHitThrows[d] / 36.0;
        }
      }
      pips += exposure * std::min(risk, 1.0) * (sq + w.entry_pips);
    }
  }
  return pips;
}

SideValues ClassicSideValues(const Position& pos, const EvalWeights& w) {
  if (pos.IsGameOver()) return TerminalSideValues(pos);
  SideValues v;
  v.sides = pos.num_sides();
  std::array<double, kMaxColours> pips{};
  double mean = 0;
  for (int s = 0; s < v.sides; ++s) {
    pips[s] = ClassicSidePips(pos, s, w);
    mean += pips[s] / v.sides;
  }
  pips[pos.SideOf(pos.to_throw())] -= w.tempo_pips;
  // For two sides exp(-a/k) / (exp(-a/k) + exp(-b/k)) is the two-side
  // evaluation's logistic of the lead (b - a) / k.
  double scale = w.scale_base + w.scale_per_sqrt_pip * std::sqrt(std::max(1.0, mean));
  double least = *std::min_element(pips.begin(), pips.begin() + v.sides);
  double sum = 0;
  for (int s = 0; s < v.sides; ++s) {
    v.win[s] = std::exp(-(pips[s] - least) / scale);
    sum += v.win[s];
  }
  for (int s = 0; s < v.sides; ++s) v.win[s] /= sum;
  return v;
}

SideValues TerminalSideValues(const Position& pos) {
  SideValues v;
  v.sides = pos.num_sides();
  int winner = pos.WinningSide();
  if (winner >= 0) v.win[winner] = 1;
  return v;
}

double ExpectedPoints(const SideValues& v, int side) {
  return ExpectedPoints(v.win[side], v.sides);
}

double ExpectedPoints(double win, int sides) { return win * (sides - 1) - (1 - win); }

}  // namespace uckers
