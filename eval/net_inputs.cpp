#include "eval/net_inputs.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "eval/evaluate.h"
#include "rules/occupancy.h"
#include "rules/stack.h"

namespace uckers {
namespace {

template <typename Inputs>
class Encoder {
 public:
  explicit Encoder(Inputs* in) : in_(in) {}
  void On(int index) { in_->active[in_->num_active++] = static_cast<uint16_t>(index); }
  // Sets inputs base .. base + n - 1 (a thermometer of n).
  void Thermometer(int base, int n) {
    for (int j = 0; j < n; ++j) On(base + j);
  }

 private:
  Inputs* in_;
};

void EncodeColour(const Position& pos, int colour, int offset, Encoder<NetInputs>& enc) {
  const auto& sq = pos.pieces(colour);
  int i = 0;
  // Pieces are sorted ascending: base first, home last.
  while (i < kPiecesPerColour && sq[i] == kBase) ++i;
  enc.Thermometer(offset, i);
  int home = pos.CountAt(colour, kHome);
  enc.Thermometer(offset + 4, home);
  while (i < kPiecesPerColour - home) {
    int j = i;
    while (j < kPiecesPerColour && sq[j] == sq[i]) ++j;
    enc.Thermometer(offset + 8 + 3 * sq[i], std::min(j - i, 3));
    i = j;
  }
  if (pos.released(colour)) enc.On(offset + 176);
  if (pos.snake_first(colour)) enc.On(offset + 177);
  if (pos.snake_second(colour)) enc.On(offset + 178);
  enc.Thermometer(offset + 179, std::min(pos.suck_attempts(colour), 2));
  enc.Thermometer(offset + 181, std::min(pos.blow_attempts(colour), 2));
}

void EncodeDense(const Position& pos, const Rules& rules, NetInputs* in) {
  EvalTerms t;
  Evaluation e = Evaluate(pos, rules, &t);
  int us = TeamOf(pos.to_throw()), them = 1 - us;
  auto& d = in->dense;
  double logit = t.scale > 0 ? t.effective_lead / t.scale : 0;
  d[0] = static_cast<float>(e.Win());
  d[1] = static_cast<float>(std::clamp(logit, -6.0, 6.0) / 3);
  int n = 2;
  for (int team : {us, them}) {
    d[n++] = static_cast<float>(t.race_pips[team] / 200);
    d[n++] = static_cast<float>(t.exposure_pips[team] / 20);
    d[n++] = static_cast<float>(t.blocked_pips[team] / 20);
    d[n++] = static_cast<float>(t.shape_pips[team] / 20);
    d[n++] = static_cast<float>(t.in_base[team] / 8.0);
    d[n++] = static_cast<float>(t.home[team] / 8.0);
    d[n++] = static_cast<float>(t.blobs[team] / 4.0);
  }
  bool challenge = pos.challenge_active();
  d[n++] = challenge ? static_cast<float>(pos.challenge_count()) / 4 : 0.f;
  d[n++] = challenge && pos.challenge_from() != kBase
               ? static_cast<float>(pos.challenge_from()) / 50
               : 0.f;
  d[n++] = static_cast<float>(std::min(pos.extra_owed(), 3)) / 3;
}

// Encoding 2 (net_inputs.h): the inputs after a colour's squares.
constexpr int kSideColourFlags = 8;

bool HasStackInputs(const Rules& rules) { return rules.has(Switch::kMixieStack); }

void EncodeSideColour(const Position& pos, int colour, bool thrower_side, int offset, bool stacks,
                      Encoder<SideNetInputs>& enc) {
  const Board& b = pos.board();
  const auto& sq = pos.pieces(colour);
  int i = 0;
  while (i < kPiecesPerColour && sq[i] == kBase) ++i;
  enc.Thermometer(offset, i);
  int home = pos.CountAt(colour, b.home);
  enc.Thermometer(offset + 4, home);
  while (i < kPiecesPerColour - home) {
    int j = i;
    while (j < kPiecesPerColour && sq[j] == sq[i]) ++j;
    enc.Thermometer(offset + 8 + 3 * sq[i], std::min(j - i, 3));
    i = j;
  }
  int flags = offset + 8 + 3 * b.home;
  if (pos.released(colour)) enc.On(flags);
  if (pos.snake_first(colour)) enc.On(flags + 1);
  if (pos.snake_second(colour)) enc.On(flags + 2);
  enc.Thermometer(flags + 3, std::min(pos.suck_attempts(colour), 2));
  enc.Thermometer(flags + 5, std::min(pos.blow_attempts(colour), 2));
  if (thrower_side) enc.On(flags + 7);
  if (!stacks) return;
  int tops = flags + kSideColourFlags;
  for (const Stack& s : Stacks(pos)) {
    if (s.TopColour() == colour) enc.On(tops + b.Relative(colour, s.abs));
  }
}

// The global inputs from `global` on: a challenge under way, the challenger
// in base, an extra throw owed, and one input per rule switch (both
// encodings).
template <typename Inputs>
void EncodeGlobals(const Position& pos, const Rules& rules, int global, Encoder<Inputs>& enc) {
  if (pos.challenge_active()) {
    enc.On(global);
    if (pos.challenge_from() == kBase) enc.On(global + 1);
  }
  if (pos.extra_owed() > 0) enc.On(global + 2);
  for (int s = 0; s < kNumSwitches; ++s) {
    if (rules.has(static_cast<Switch>(s))) enc.On(global + 3 + s);
  }
}

}  // namespace

SideNetShape SideNetShapeFor(const Rules& rules) {
  const Board& b = rules.board();
  SideNetShape shape;
  shape.colour_stride = 8 + 3 * b.home + kSideColourFlags;
  if (HasStackInputs(rules)) shape.colour_stride += b.last_track + 1;
  shape.sides = rules.layout().num_sides;
  shape.sparse = b.colours * shape.colour_stride + 3 + kNetSwitchInputs;
  shape.dense = 4 * shape.sides + 3;
  shape.inputs = shape.sparse + shape.dense;
  return shape;
}

SideNetInputs EncodeSideNetInputs(const Position& pos, const Rules& rules) {
  SideNetShape shape = SideNetShapeFor(rules);
  const Board& b = pos.board();
  const Layout& layout = pos.layout();
  bool stacks = HasStackInputs(rules);
  SideNetInputs in;
  Encoder<SideNetInputs> enc(&in);
  int mover = pos.to_throw();
  int our_side = layout.SideOf(mover);
  for (int k = 0, colour = mover; k < b.colours; ++k, colour = b.NextColour(colour)) {
    EncodeSideColour(pos, colour, layout.SideOf(colour) == our_side, k * shape.colour_stride,
                     stacks, enc);
  }
  int global = b.colours * shape.colour_stride;
  EncodeGlobals(pos, rules, global, enc);
  // Dense: the sides in turn order from the thrower's (side numbers follow
  // their first colours, so that order is our_side, our_side + 1, ...).
  SideValues classic = ClassicSideValues(pos);
  int k = shape.sides;
  auto& d = in.dense;
  int n = 0;
  for (int j = 0; j < k; ++j) {
    int side = (our_side + j) % k;
    double win = classic.win[side];
    int base = 0, home = 0;
    for (int c = 0; c < b.colours; ++c) {
      if (layout.SideOf(c) != side) continue;
      base += pos.CountAt(c, kBase);
      home += pos.CountAt(c, b.home);
    }
    d[n++] = static_cast<float>(win);
    d[n++] = static_cast<float>(std::clamp(std::log(std::max(win * k, 1e-9)), -6.0, 6.0) / 3);
    d[n++] = static_cast<float>(base) / layout.SidePieces(side);
    d[n++] = static_cast<float>(home) / layout.SidePieces(side);
  }
  bool challenge = pos.challenge_active();
  d[n++] = challenge ? static_cast<float>(pos.challenge_count()) / 4 : 0.f;
  d[n++] = challenge && pos.challenge_from() != kBase
               ? static_cast<float>(pos.challenge_from()) / b.last_track
               : 0.f;
  d[n++] = static_cast<float>(std::min(pos.extra_owed(), 3)) / 3;
  in.num_dense = n;
  return in;
}

// Encoding 1's sparse inputs (encodings 3 and 4 start with them).
void EncodeSparse(const Position& pos, const Rules& rules, Encoder<NetInputs>& enc) {
  int mover = pos.to_throw();
  for (int k = 0; k < kNumColours; ++k) {
    EncodeColour(pos, (mover + k) & 3, k * kNetColourInputs, enc);
  }
  EncodeGlobals(pos, rules, kNetGlobalSparse, enc);
}

NetInputs EncodeDeepNetInputs(const Position& pos, const Rules& rules) {
  NetInputs in;
  Encoder<NetInputs> enc(&in);
  EncodeSparse(pos, rules, enc);
  const int mover = pos.to_throw();
  if (HasStackInputs(rules)) {
    const Board& b = pos.board();
    StackList stacks = Stacks(pos);
    for (int k = 0; k < kNumColours; ++k) {
      int colour = (mover + k) & 3;
      std::array<int, kPiecesPerColour * kNumColours> tops{};
      int n = 0;
      for (const Stack& s : stacks) {
        if (s.TopColour() == colour) tops[n++] = b.Relative(colour, s.abs);
      }
      std::sort(tops.begin(), tops.begin() + n);
      for (int j = 0; j < n; ++j) enc.On(kNetSparseInputs + k * (kLastTrack + 1) + tops[j]);
    }
  }
  const int after_stacks = kNetSparseInputs + kDeepStackInputs;
  if (pos.challenge_active()) enc.Thermometer(after_stacks, std::min(pos.challenge_count(), 4));
  enc.Thermometer(after_stacks + 4, std::min(pos.extra_owed(), 3));
  return in;
}

// `bits` (absolute main-track squares) moved `by` squares on, around the
// track.
uint64_t RotateOnTrack(uint64_t bits, int by) {
  constexpr uint64_t kTrackMask = (uint64_t{1} << kTrackSquares) - 1;
  return ((bits << by) | (bits >> (kTrackSquares - by))) & kTrackMask;
}

// Calls f(k, colour, sq) for each single piece on the main track (not one of
// a blob: RULES.md §5, only a single is knocked off), colours in turn order
// from the thrower (k), squares ascending, so that the inputs set from it
// stay in ascending order.
template <typename F>
void ForEachSingle(const Position& pos, F f) {
  const int mover = pos.to_throw();
  for (int k = 0; k < kNumColours; ++k) {
    const int colour = (mover + k) & 3;
    const auto& row = pos.pieces(colour);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      const Square sq = row[i];
      if (!OnTrack(sq) || (i > 0 && row[i - 1] == sq) ||
          (i + 1 < kPiecesPerColour && row[i + 1] == sq)) {
        continue;  // off the track, or one of a blob
      }
      f(k, colour, sq);
    }
  }
}

NetInputs EncodeContactNetInputs(const Position& pos, const Rules& rules) {
  NetInputs in = EncodeDeepNetInputs(pos, rules);
  // For each colour, the absolute main-track squares its pieces on the track
  // reach with one die (1..6 ahead) and with both (7..12), not past its
  // lane: bit masks over the 52 squares.
  std::array<uint64_t, kNumColours> near{}, far{};
  for (int c = 0; c < kNumColours; ++c) {
    for (Square sq : pos.pieces(c)) {
      if (!OnTrack(sq)) continue;
      // Relative squares sq+1 .. min(sq+12, kLastTrack), then made absolute.
      const int last = std::min<int>(sq + 12, kLastTrack);
      const uint64_t one = SquareRange(sq + 1, std::min<int>(sq + 6, last));
      const uint64_t two = sq + 7 <= last ? SquareRange(sq + 7, last) : 0;
      near[c] |= RotateOnTrack(one, AbsoluteSquare(c, 0));
      far[c] |= RotateOnTrack(two, AbsoluteSquare(c, 0));
    }
  }
  Encoder<NetInputs> enc(&in);
  ForEachSingle(pos, [&](int k, int colour, Square sq) {
    const int e1 = NextColour(colour), e2 = PartnerOf(e1);
    const uint64_t bit = uint64_t{1} << AbsoluteSquare(colour, sq);
    const int base = kDeepNetInputs + (k * (kLastTrack + 1) + sq) * 2;
    if ((near[e1] | near[e2]) & bit) enc.On(base);
    if ((far[e1] | far[e2]) & bit) enc.On(base + 1);
  });
  return in;
}

uint64_t ThrowsReaching(int distance) {
  uint64_t throws = 0;
  for (int a = 1; a <= 6; ++a) {
    for (int b = 1; b <= 6; ++b) {
      if (a == distance || b == distance || a + b == distance) {
        throws |= uint64_t{1} << (6 * (a - 1) + b - 1);
      }
    }
  }
  return throws;
}

NetInputs EncodeHitNetInputs(const Position& pos, const Rules& rules) {
  static const std::array<uint64_t, 13> kReaching = [] {
    std::array<uint64_t, 13> r{};
    for (int d = 1; d <= 12; ++d) r[d] = ThrowsReaching(d);
    return r;
  }();
  // kPathBefore[c][d]: the absolute squares from which a piece of colour c
  // moves d squares on without passing its lane (relative 0..kLastTrack - d).
  static const auto kPathBefore = [] {
    std::array<std::array<uint64_t, 13>, kNumColours> r{};
    for (int c = 0; c < kNumColours; ++c) {
      for (int d = 1; d <= 12; ++d) {
        for (int sq = 0; sq + d <= kLastTrack; ++sq)
          r[c][d] |= uint64_t{1} << AbsoluteSquare(c, sq);
      }
    }
    return r;
  }();
  NetInputs in = EncodeContactNetInputs(pos, rules);
  // For each team and distance 1..12, the absolute squares its pieces on
  // the track land on moving exactly that far.
  std::array<uint64_t, kNumColours> on{};
  for (int c = 0; c < kNumColours; ++c) {
    for (Square sq : pos.pieces(c)) {
      if (OnTrack(sq)) on[c] |= uint64_t{1} << AbsoluteSquare(c, sq);
    }
  }
  std::array<std::array<uint64_t, 13>, 2> lands{};
  for (int c = 0; c < kNumColours; ++c) {
    if (on[c] == 0) continue;
    for (int d = 1; d <= 12; ++d)
      lands[TeamOf(c)][d] |= RotateOnTrack(on[c] & kPathBefore[c][d], d);
  }
  Encoder<NetInputs> enc(&in);
  constexpr int kLevels = static_cast<int>(kHitThresholds.size());
  ForEachSingle(pos, [&](int k, int colour, Square sq) {
    const auto& enemy = lands[1 - TeamOf(colour)];
    const uint64_t bit = uint64_t{1} << AbsoluteSquare(colour, sq);
    uint64_t throws = 0;
    for (int d = 1; d <= 12; ++d) {
      if (enemy[d] & bit) throws |= kReaching[d];
    }
    const int hits = std::popcount(throws);
    const int base = kContactNetInputs + (k * (kLastTrack + 1) + sq) * kLevels;
    for (int j = 0; j < kLevels && hits >= kHitThresholds[j]; ++j) enc.On(base + j);
  });
  return in;
}

NetInputs EncodeBlockNetInputs(const Position& pos, const Rules& rules) {
  NetInputs in = EncodeContactNetInputs(pos, rules);
  // Each team's blobs (two or more pieces of one colour on a main-track
  // square; RULES.md §2: a partner's or a mixie never blocks) as absolute
  // squares.
  std::array<uint64_t, 2> team_blobs{};
  for (int c = 0; c < kNumColours; ++c) {
    const auto& row = pos.pieces(c);
    for (int i = 1; i < kPiecesPerColour; ++i) {
      if (row[i] == row[i - 1] && OnTrack(row[i])) {
        team_blobs[TeamOf(c)] |= uint64_t{1} << AbsoluteSquare(c, row[i]);
      }
    }
  }
  Encoder<NetInputs> enc(&in);
  const int mover = pos.to_throw();
  std::array<uint64_t, kNumColours> blocking{};  // relative squares, per k
  // Pieces in turn order from the thrower, squares ascending within a
  // colour, the doorsteps after every square: the list stays ascending.
  for (int k = 0; k < kNumColours; ++k) {
    const int colour = (mover + k) & 3;
    const uint64_t enemy = team_blobs[1 - TeamOf(colour)];
    if (enemy == 0) continue;
    // Absolute square a is the colour's relative square a - its doorstep.
    const uint64_t blobs =
        RotateOnTrack(enemy, (kTrackSquares - AbsoluteSquare(colour, 0)) % kTrackSquares) &
        SquareRange(0, kLastTrack);
    blocking[k] = blobs;
    const auto& row = pos.pieces(colour);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      const Square sq = row[i];
      if (!OnTrack(sq) || (i > 0 && row[i - 1] == sq)) continue;  // one input set a square
      const int base = kContactNetInputs + (k * (kLastTrack + 1) + sq) * kBlockBands;
      const uint64_t ahead = blobs >> (sq + 1);  // bit d - 1: d squares ahead
      if (ahead & 1) enc.On(base);
      if (ahead & 0x3F) enc.On(base + 1);
      if (ahead & 0xFC0) enc.On(base + 2);
    }
  }
  const int doorsteps = kContactNetInputs + kNumColours * (kLastTrack + 1) * kBlockBands;
  for (int k = 0; k < kNumColours; ++k) {
    if (blocking[k] & 1) enc.On(doorsteps + k);
  }
  return in;
}

void MarkRandomThrower(NetInputs* in) {
  uint16_t* end = in->active.data() + in->num_active;
  uint16_t* at = std::lower_bound(in->active.data(), end, kRandomThrowerInput);
  if (at != end && *at == kRandomThrowerInput) return;
  std::copy_backward(at, end, end + 1);
  *at = kRandomThrowerInput;
  ++in->num_active;
}

NetInputs EncodeNetInputs(const Position& pos, const Rules& rules) {
  NetInputs in;
  Encoder<NetInputs> enc(&in);
  EncodeSparse(pos, rules, enc);
  EncodeDense(pos, rules, &in);
  return in;
}

}  // namespace uckers
