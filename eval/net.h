#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "eval/evaluate.h"
#include "eval/net_inputs.h"
#include "eval/side_values.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// The learned evaluation: a network with one hidden layer of tanh units over
// the inputs of eval/net_inputs.h, and a softmax over the six outcomes of
// RULES.md §8 for the team to throw, so it answers exactly what the classic
// evaluation answers. Trained by self-play (learn/td.h, `uckers train`).
//
// A net is trained for one ruleset, recorded in its file by the full list of
// its switches; the engine uses it only for that ruleset.
//
// Under the four-sided game of two teams a net reads encoding 1 and gives
// the six outcomes (Evaluate). Under every other layout (RULES.md §11) it
// reads encoding 2 and gives every side's chance of winning (EvaluateSides),
// as ClassicSideValues does (eval/evaluate.h).
//
// A deep net (deep(), encoding 3, file format 2) is the larger kind for the
// four-sided game of two teams: sparse inputs only, a first layer of up to
// kMaxHidden clipped-ReLU units (min(max(x, 0), 1)), one or more further
// clipped-ReLU layers, and the six outcomes. Trained in float; a net read
// from a file (or Quantise()d) evaluates in integers as Stockfish's NNUE
// does: the first layer an int16 accumulator kept per thread and updated
// from the inputs that changed since the last position evaluated for the
// same colour to throw (eval/net_simd.h), the second layer in int16 with
// int32 sums, the rest in float.
class Net {
 public:
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<float, Eigen::Dynamic, 1>;

  // The file format's version: 1 for nets of one hidden layer, 2 for deep
  // nets (the further layers' sizes in the header); another is refused.
  static constexpr uint32_t kFormatVersion = 1;
  static constexpr uint32_t kDeepFormatVersion = 2;
  // The most hidden units a net may have (its hidden vector is on the stack).
  static constexpr int kMaxHidden = 1024;
  // The most units of a deep net's further layers, and the most such layers.
  static constexpr int kMaxMidUnits = 128;
  static constexpr int kMaxMidLayers = 4;
  // The integer scales of a quantised deep net: the first layer's weights
  // and activations (1.0 is kQuantA), and the bound of the second layer's
  // int16 weights for a first layer of up to kQuantBoundUnits units, scaled
  // down in proportion beyond (so that no int32 sum can overflow).
  static constexpr int kQuantA = 255;
  static constexpr int kQuantWeightBound = 16383;
  static constexpr int kQuantBoundUnits = 512;
  static constexpr int QuantWeightBoundFor(int units) {
    return units <= kQuantBoundUnits ? kQuantWeightBound
                                     : kQuantWeightBound * kQuantBoundUnits / units;
  }

  // A net of `hidden` units with small random weights drawn from `seed`.
  static Net Random(const Rules& rules, int hidden, uint64_t seed);
  // A deep net (encoding 3) of `rules` (the four-sided game of two teams):
  // `layers` gives the first layer's units, then each further layer's.
  // Its inputs are encoding 4 (with the contact inputs), or 3 when
  // `contact` is false.
  static Net RandomDeep(const Rules& rules, const std::vector<int>& layers, uint64_t seed,
                        bool contact = true);
  // This deep net with `layers` units in its layers (as many layers, each
  // at least as wide as this net's): the old units keep their weights, the
  // new ones start with small random incoming weights drawn from `seed` and
  // no outgoing ones, so that the wider net evaluates exactly as this one
  // until it is trained on.
  Net Widened(const std::vector<int>& layers, uint64_t seed) const;
  // This deep net reading deep encoding `encoding` (3, 4 or 5), which must
  // extend its own (each of them extends the one before): the new inputs'
  // weights are zero, so that it evaluates as this net until trained on.
  Net WithEncoding(uint32_t encoding) const;
  // The net's input encoding.
  uint32_t encoding() const { return encoding_; }
  // A net of any rules: trained on games of every ruleset of one layout,
  // presets and random switch combinations, the switches among its inputs
  // (`uckers train --rules any`: a deep net of the four-sided game of two
  // teams; `--rules any:<layout>`: a net per side of another layout). Its
  // rules are its layout's alone (Rules::LayoutOnly) and its file's switch list
  // theirs followed by kAnyRules; it evaluates the rules it is viewed for
  // (ForRules).
  static constexpr absl::string_view kAnyRules = "*";
  bool any_rules() const { return any_rules_; }
  void set_any_rules(bool any) { any_rules_ = any; }
  // This net of any rules evaluating under `rules` (its rules set to them):
  // itself when they are its rules, else a copy made once per rules and kept
  // as long as this net's weights. nullptr when this net is not of any rules
  // or does not serve `rules` (Serves).
  const Net* ForRules(const Rules& rules) const;
  // Whether the net evaluates games of `rules`: a net of one ruleset those
  // rules; a deep net of any rules every four-sided ruleset of two teams; a
  // net per side of any rules every ruleset of its layout but mixie_stack's
  // (whose stack-top inputs it has not).
  bool Serves(const Rules& rules) const;
  // This net of another layout (per_side()) made a net of `rules`, a
  // ruleset of the same layout it was not trained for: it reads what it
  // was trained on and nothing else. Inputs it never saw (a switch it was
  // trained without, the stack tops under mixie_stack) get no weight; a
  // switch that was on in every one of its games and is off under `rules`
  // keeps its weight in the bias, as the input always gave it. So the net
  // values a position of `rules` as it would value the same board under
  // its own rules. Refused for a net not per side or another layout.
  absl::StatusOr<Net> AdaptedTo(const Rules& rules) const;
  // The rules of the net this one was adapted from (AdaptedTo), or none.
  const std::optional<Rules>& adapted_from() const { return adapted_from_; }
  void set_adapted_from(std::optional<Rules> rules) { adapted_from_ = std::move(rules); }
  // Reads a net from the bytes of a weights file; `source` names it in
  // errors. Refuses a wrong magic, format, encoding, shape or checksum.
  static absl::StatusOr<Net> FromBytes(absl::string_view bytes, absl::string_view source);
  // Reads the weights file at `path`.
  static absl::StatusOr<Net> Load(const std::string& path);
  // The net shipped with the engine for navy (nets/navy.unet, built into
  // the binary at compile time), or nullptr when the build has none.
  static const Net* Shipped();
  // Every net shipped (one per preset with a file nets/<preset>.unet);
  // NetFor(rules) picks among them.
  static std::vector<const Net*> AllShipped();

  // The weights file's bytes: header (magic, format, encoding, sizes, games
  // trained, switches) then little-endian float32 weights and a checksum.
  std::string ToBytes() const;
  // Writes the weights file at `path` through a temporary file and a rename,
  // so a stopped write never leaves half a file.
  absl::Status Save(const std::string& path) const;

  // The six outcome probabilities for the team to throw in `pos`; a finished
  // game gets its exact outcome. `pos` must be a position of rules(), and
  // the net one of the four-sided game of two teams (!per_side()).
  Evaluation Evaluate(const Position& pos) const;
  // The same from already encoded inputs (not a finished game), in the
  // net's encoding (Encode).
  Evaluation Evaluate(const NetInputs& in) const;
  // The same for inputs of a position with `colour` to throw, a quantised
  // net updating that colour's accumulator from the inputs that changed, as
  // Evaluate(pos) does (for callers that keep the inputs, as self-play).
  Evaluation Evaluate(const NetInputs& in, int colour) const;
  // The same in float arithmetic whether or not the net is quantised (for
  // training, and to measure the quantisation's error).
  Evaluation EvaluateFloat(const NetInputs& in) const;
  // The inputs of `pos` (not finished) in the net's encoding: 3 for a deep
  // net, else 1 (a net of the four-sided game of two teams).
  NetInputs Encode(const Position& pos) const;

  // Whether the net is a deep one (encoding 3), and whether it evaluates in
  // integers (read from a file or Quantise()d; the non-const accessors of
  // the weights drop the integer copy, as training changes them).
  bool deep() const {
    return encoding_ == kDeepNetEncodingVersion || encoding_ == kContactNetEncodingVersion ||
           encoding_ == kHitNetEncodingVersion || encoding_ == kBlockNetEncodingVersion;
  }
  bool quantised() const { return quant_ != nullptr; }
  // Builds the integer copy of a deep net's weights (nothing for others),
  // and drops it (training evaluates in float).
  void Quantise();
  void DropQuantised() { quant_.reset(); }

  // Whether the net is one of another layout than the four-sided game of
  // two teams: encoding 2, one output per side.
  bool per_side() const { return encoding_ == kSideNetEncodingVersion; }
  // Every side's chance of winning in `pos` (sides numbered as Layout
  // numbers them); a finished game gets 1 for its winners. `pos` must be a
  // position of rules(), and the net per_side().
  SideValues EvaluateSides(const Position& pos) const;
  // The same from already encoded inputs of `pos`'s side to throw (not a
  // finished game): the chances in turn order from the thrower's side.
  void EvaluateSides(const SideNetInputs& in, float* chances) const;

  // The ruleset the net was trained for.
  const Rules& rules() const { return rules_; }
  // Declares the net a start for training under other rules of the same
  // shape (for encoding 1 the inputs are the same under every ruleset,
  // switches included).
  void set_rules(const Rules& rules) { rules_ = rules; }
  // Whether the net's encoding and shape are those of `rules`.
  bool FitsShapeOf(const Rules& rules) const;
  int hidden() const { return static_cast<int>(b1_.size()); }
  // The units of every layer but the output, first layer first.
  std::vector<int> LayerSizes() const;
  uint64_t games_trained() const { return games_trained_; }
  void set_games_trained(uint64_t n) { games_trained_ = n; }
  // One line for `info string` and logs: file size class, games, ruleset.
  std::string Describe() const;

  // The weights, for training (learn/): w1 is hidden x inputs (a column per
  // input), w2 is outputs x hidden (six outcomes, or one per side).
  Matrix& w1() { return Mutable(w1_); }
  Vector& b1() { return Mutable(b1_); }
  Matrix& w2() { return Mutable(w2_); }
  Vector& b2() { return Mutable(b2_); }
  // A deep net's further layers, between w1 and w2: mid_w()[i] is units x
  // the previous layer's units.
  std::vector<Matrix>& mid_w() { return Mutable(mid_w_); }
  std::vector<Vector>& mid_b() { return Mutable(mid_b_); }
  const std::vector<Matrix>& mid_w() const { return mid_w_; }
  const std::vector<Vector>& mid_b() const { return mid_b_; }
  const Matrix& w1() const { return w1_; }
  const Vector& b1() const { return b1_; }
  const Matrix& w2() const { return w2_; }
  const Vector& b2() const { return b2_; }

 private:
  struct Quantised;
  template <typename T>
  T& Mutable(T& weights) {
    quant_.reset();
    views_.reset();
    return weights;
  }
  struct Views;
  Evaluation EvaluateQuantised(const NetInputs& in, int colour) const;
  // Layers mid_w_[from..] and the output layer on `h`, the activations of
  // the layer before them, then the softmax.
  Evaluation Tail(const float* h, int size, int from) const;

  Rules rules_;
  bool any_rules_ = false;
  std::optional<Rules> adapted_from_;
  // The copies ForRules made, shared by this net's copies until their
  // weights change.
  mutable std::shared_ptr<Views> views_;
  uint32_t encoding_ = kNetEncodingVersion;
  uint64_t games_trained_ = 0;
  Matrix w1_;
  Vector b1_;
  std::vector<Matrix> mid_w_;
  std::vector<Vector> mid_b_;
  Matrix w2_;
  Vector b2_;
  std::shared_ptr<const Quantised> quant_;
};

// The net in the weights file at `path`, loaded once per process and kept
// for its life (match players share it across games and threads).
absl::StatusOr<const Net*> LoadNetShared(const std::string& path);

// The shipped net when it was trained for `rules`; else, for a four-sided
// ruleset of two teams, the shipped net of any rules playing `rules`
// (Net::ForRules) when there is one; for a ruleset of another layout, the
// shipped net of that layout adapted to `rules` (Net::AdaptedTo) when there
// is one; else nullptr (the classic evaluation then serves).
const Net* NetFor(const Rules& rules);

// `net`'s value of `pos` for its team to throw in the game against a team
// that plays at random (`random_team`, or -1 for none): the exact outcome
// of a finished game (`*in` left as it was), else the net's of the inputs
// it writes to `*in`, marked where the random team throws
// (MarkRandomThrower). For a net trained by `uckers train --opponent
// random`; training, the search under Opponent=random and
// bench/random_response value positions by it.
Evaluation ValueAgainstRandom(const Net& net, const Position& pos, int random_team, NetInputs* in);

// The shipped net trained against `random` for `rules` (nets/<preset>_vs_random.unet,
// built in as the presets' nets are), or nullptr when none is.
const Net* NetAgainstRandomFor(const Rules& rules);

// The switch list that weights files, endgame tables and records carry:
// "+name" for each switch on, in RULES.md §9 order ("" for navy).
std::string SwitchList(const Rules& rules);
// The ruleset of a switch list; refuses a name this engine does not know.
absl::StatusOr<Rules> RulesFromSwitchList(absl::string_view list);

}  // namespace uckers
