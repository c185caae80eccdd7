#pragma once

#include <array>
#include <cstdint>

#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// The input encoding of the learned evaluation (eval/net.h), from the point
// of view of the colour to throw, as GNU Backgammon encodes a board from the
// side on roll. Colours are taken in turn order from the thrower: k = 0 the
// thrower, 1 the next opponent, 2 the partner, 3 the other opponent. Each
// colour's squares are its own relative squares (RULES.md §1), so a piece's
// progress is read directly; the board offset between two colours is fixed
// by k, so contact is read from the pair (k, square).
//
// Sparse binary inputs, per colour k at k * kNetColourInputs:
//   0..3    pieces in base >= 1, 2, 3, 4
//   4..7    pieces home >= 1, 2, 3, 4
//   8..175  for each square 0..55, pieces there >= 1, 2, 3 (a blob's size
//           decides the sixes a challenge needs, RULES.md §6)
//   176     released (RULES.md §7)
//   177,178 snake_eyes first throw still to come, second throw pending
//   179,180 suck-back attempts standing >= 1, 2 (RULES.md §9 var. G)
//   181,182 blow-back attempts standing >= 1, 2
// then global ones: a challenge under way, the challenger in base, an extra
// throw owed, and one input per rule switch (RULES.md §9).
// Dense inputs follow: the classic evaluation's terms for the two teams
// (eval/evaluate.h), its win probability and logit, and the challenge's
// count and square, scaled to about [-1, 1].
inline constexpr int kNetEncodingVersion = 1;
inline constexpr int kNetColourInputs = 183;
inline constexpr int kNetGlobalSparse = kNumColours * kNetColourInputs;
inline constexpr int kNetSwitchInputs = 16;  // room for switches to come
inline constexpr int kNetSparseInputs = kNetGlobalSparse + 3 + kNetSwitchInputs;
inline constexpr int kNetDenseInputs = 19;
inline constexpr int kNetInputs = kNetSparseInputs + kNetDenseInputs;
// At most 4 * (4 + 4 + 4 * 3 + 7) + 3 + kNetSwitchInputs sparse inputs of
// encoding 1 are on; encoding 3 (below) adds at most 2 * 4 + 4 + 3, and
// encoding 4 two for each single piece, encoding 5 five more.
inline constexpr int kNetMaxActive = 256;

static_assert(kNumSwitches <= kNetSwitchInputs,
              "a new rule switch needs an input of the nets: every slot of kNetSwitchInputs is "
              "taken (docs/architecture.md, \"A new rule switch\")");

// One position's inputs: the indices of the sparse inputs that are 1, and the
// dense values (input kNetSparseInputs + j holds dense[j]).
struct NetInputs {
  int num_active = 0;
  std::array<uint16_t, kNetMaxActive> active{};
  std::array<float, kNetDenseInputs> dense{};
};

// Encodes `pos` (not finished) under `rules` for the team to throw.
NetInputs EncodeNetInputs(const Position& pos, const Rules& rules);

// The input that marks a position whose thrower plays at random, for a net
// trained against `random` (`uckers train --opponent random`) and the
// search that models its opponent so (the Opponent setting): the input of
// the solo switch, which a net of the four-sided game of two teams never
// sees on (solo is a layout of its own, RULES.md §11).
inline constexpr uint16_t kRandomThrowerInput =
    kNetGlobalSparse + 3 + static_cast<int>(Switch::kSolo);

// Turns that input on in encoding 1's inputs (kept in ascending order).
void MarkRandomThrower(NetInputs* in);

// Encoding 3, of the deep nets of the four-sided game of two teams
// (eval/net.h): sparse inputs only, so that an evaluation needs no classic
// evaluation and the first layer can be updated from the inputs that
// changed. Encoding 1's sparse inputs (0 .. kNetSparseInputs - 1), then
//   for each colour k, for each main-track square 0..kLastTrack: under
//          mixie_stack, the top piece of the stack there is this colour's
//          (RULES.md §9: only it moves)
//   then   a challenge's sixes thrown >= 1, 2, 3, 4 (RULES.md §6)
//   then   extra throws owed >= 1, 2, 3
// The active list is in ascending order (the incremental update of the
// first layer merges two such lists).
inline constexpr int kDeepNetEncodingVersion = 3;
inline constexpr int kDeepStackInputs = kNumColours * (kLastTrack + 1);
inline constexpr int kDeepNetInputs = kNetSparseInputs + kDeepStackInputs + 4 + 3;

// Encodes `pos` (not finished) under `rules` in encoding 3 for the team to
// throw; the dense values are left 0.
NetInputs EncodeDeepNetInputs(const Position& pos, const Rules& rules);

// Encoding 4: encoding 3, then contact inputs, what a first layer over
// squares alone cannot see (a knock-off needs an attacker a throw behind,
// RULES.md §5): for each colour k, for each main-track square
// 0..kLastTrack, a single piece of k there has an opponent piece on the
// main track 1..6 squares behind it (a die's reach), and one 7..12 behind
// (both dice), whose own path passes it before its lane.
inline constexpr int kContactNetEncodingVersion = 4;
inline constexpr int kContactInputs = kNumColours * (kLastTrack + 1) * 2;
inline constexpr int kContactNetInputs = kDeepNetInputs + kContactInputs;

// Encodes `pos` (not finished) under `rules` in encoding 4 for the team to
// throw.
NetInputs EncodeContactNetInputs(const Position& pos, const Rules& rules);

// Encoding 5: encoding 4, then how often a single piece is hit, which the
// two reach bands of encoding 4 leave coarse (a piece 6 squares ahead of an
// opponent is hit by 16 throws of 36, one 12 ahead by 1): for each colour
// k, for each main-track square 0..kLastTrack, a single piece of k there is
// reached by at least kHitThresholds[j] of the 36 throws, j = 0..4 (a
// thermometer). A throw reaches it when one die, or the two dice's sum,
// carries an opponent piece behind it exactly onto it, its path passing it
// before its lane; pieces in between are not considered.
inline constexpr int kHitNetEncodingVersion = 5;
inline constexpr std::array<int, 5> kHitThresholds = {2, 6, 11, 16, 21};
inline constexpr int kHitInputs =
    kNumColours * (kLastTrack + 1) * static_cast<int>(kHitThresholds.size());
inline constexpr int kHitNetInputs = kContactNetInputs + kHitInputs;

// The throws of 36 (bit 6 * (a - 1) + b - 1 for dice a, b) that move a piece
// exactly `distance` squares (1..12) by one die or by both.
uint64_t ThrowsReaching(int distance);

// Encodes `pos` (not finished) under `rules` in encoding 5 for the team to
// throw.
NetInputs EncodeHitNetInputs(const Position& pos, const Rules& rules);

// Encoding 6: encoding 4, then what blocks each piece (RULES.md §2, §4: an
// opponent blob can be neither passed nor landed on; a piece right behind
// one may challenge it, §6), which a first layer over each colour's own
// squares cannot see: for each colour k, for each main-track square
// 0..kLastTrack, a piece of k there has an opponent blob on its path 1
// square ahead, 1..6 ahead (a die's reach) and 7..12 ahead (both dice),
// before its lane; then for each colour k, an opponent blob on its doorstep
// (its base pieces cannot enter, §4).
inline constexpr int kBlockNetEncodingVersion = 6;
inline constexpr int kBlockBands = 3;
inline constexpr int kBlockInputs = kNumColours * ((kLastTrack + 1) * kBlockBands + 1);
inline constexpr int kBlockNetInputs = kContactNetInputs + kBlockInputs;

// Encodes `pos` (not finished) under `rules` in encoding 6 for the team to
// throw.
NetInputs EncodeBlockNetInputs(const Position& pos, const Rules& rules);

// The input encoding of the nets for every other layout (RULES.md §11: the
// six-sided board, teams of three, solo), from the point of view of the
// colour to throw. Colours are taken in turn order from the thrower, k = 0
// the thrower, and each colour's squares are its own relative squares, the
// board's geometry read from Rules (a longer track and lane on six sides).
// Per colour k, at k * stride (stride = SideNetShape::colour_stride):
//   0..3       pieces in base >= 1, 2, 3, 4
//   4..7       pieces home >= 1, 2, 3, 4
//   8..        for each square 0..home-1, pieces there >= 1, 2, 3
//   then       released, snake_eyes first and second, suck-back >= 1, 2,
//              blow-back >= 1, 2, and "of the thrower's side" (the side
//              structure)
//   under mixie_stack, then, for each main-track square: the top piece of
//              the stack there is this colour's (RULES.md §9: only it moves)
// then global ones: a challenge under way, from base, an extra throw owed,
// one input per rule switch. Dense inputs follow: for each side in turn
// order from the thrower's, the classic evaluation's chance for it
// (ClassicSideValues), that chance's log against the fair share, and the
// shares of its pieces in base and home; then the challenge's count and square and the extra throws
// owed. The net's outputs are the sides' chances in the same order.
inline constexpr int kSideNetEncodingVersion = 2;
inline constexpr int kSideNetMaxActive = 256;
inline constexpr int kSideNetMaxDense = 4 * kMaxColours + 3;

// The sizes of encoding 2 under one ruleset.
struct SideNetShape {
  int colour_stride = 0;  // inputs per colour
  int sparse = 0;         // sparse inputs in all
  int dense = 0;          // dense inputs, after the sparse ones
  int inputs = 0;         // sparse + dense
  int sides = 0;          // outputs: one per side
};

// The shape of encoding 2 for `rules`.
SideNetShape SideNetShapeFor(const Rules& rules);

// One position's inputs in encoding 2: the sparse inputs that are 1 and the
// dense values (input shape.sparse + j holds dense[j]).
struct SideNetInputs {
  int num_active = 0;
  int num_dense = 0;
  std::array<uint16_t, kSideNetMaxActive> active{};
  std::array<float, kSideNetMaxDense> dense{};
};

// Encodes `pos` (not finished) under `rules` in encoding 2, for the side to
// throw.
SideNetInputs EncodeSideNetInputs(const Position& pos, const Rules& rules);

}  // namespace uckers
