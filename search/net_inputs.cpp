#include "search/net_inputs.h"

#include <algorithm>
#include <cmath>

#include "search/evaluate.h"

namespace uckers {
namespace {

class Encoder {
 public:
  explicit Encoder(NetInputs* in) : in_(in) {}
  void On(int index) { in_->active[in_->num_active++] = static_cast<uint16_t>(index); }
  // Sets inputs base .. base + n - 1 (a thermometer of n).
  void Thermometer(int base, int n) {
    for (int j = 0; j < n; ++j) On(base + j);
  }

 private:
  NetInputs* in_;
};

void EncodeColour(const Position& pos, int colour, int offset, Encoder& enc) {
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

}  // namespace

NetInputs EncodeNetInputs(const Position& pos, const Rules& rules) {
  NetInputs in;
  Encoder enc(&in);
  int mover = pos.to_throw();
  for (int k = 0; k < kNumColours; ++k) {
    EncodeColour(pos, (mover + k) & 3, k * kNetColourInputs, enc);
  }
  if (pos.challenge_active()) {
    enc.On(kNetGlobalSparse);
    if (pos.challenge_from() == kBase) enc.On(kNetGlobalSparse + 1);
  }
  if (pos.extra_owed() > 0) enc.On(kNetGlobalSparse + 2);
  for (int s = 0; s < kNumSwitches; ++s) {
    if (rules.has(static_cast<Switch>(s))) enc.On(kNetGlobalSparse + 3 + s);
  }
  EncodeDense(pos, rules, &in);
  return in;
}

}  // namespace uckers
