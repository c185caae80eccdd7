#pragma once

#include <cstdint>

#include "rules/types.h"

namespace uckers::zobrist {

// Keys are additive (summed mod 2^64), not XORed: pieces of one colour are
// identical, so two pieces on one square must not cancel. Built at compile
// time from a fixed seed, so keys are the same in every run and build.
inline constexpr int kMaxChallengeCount = 16;

// Sized for the largest board (six-sided). The keys of the four-sided board
// are drawn first, in the order they always were, so that its keys are the
// same as before the six-sided board; the rest are drawn after them.
inline constexpr int kSquareKeys = kSixSidedBoard.home + 2;           // [square + 1]
inline constexpr int kChallengeKeys = kSixSidedBoard.last_track + 1;  // [from + 1]
inline constexpr int kMaskKeys = 1 << kMaxColours;

struct Tables {
  uint64_t piece[kMaxColours][kSquareKeys] = {};  // [colour][square + 1]
  uint64_t to_throw[kMaxColours] = {};
  uint64_t challenge[kChallengeKeys][kMaxChallengeCount] = {};  // [from+1][n]
  uint64_t released[kMaskKeys] = {};
  uint64_t snake_first[kMaskKeys] = {};
  uint64_t snake_second[kMaskKeys] = {};
  uint64_t suck[kMaxColours][3] = {};  // [colour][attempts], suck_back
  uint64_t blow[kMaxColours][3] = {};
};

constexpr uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

constexpr Tables BuildTables() {
  Tables t;
  constexpr Board kFour = kFourSidedBoard;
  constexpr int kFourMasks = 1 << kFour.colours;
  uint64_t state = 0x75636B657273ull;  // "uckers"
  for (int c = 0; c < kFour.colours; ++c)
    for (int i = 0; i < kFour.home + 2; ++i) t.piece[c][i] = SplitMix64(state);
  for (int c = 0; c < kFour.colours; ++c) t.to_throw[c] = SplitMix64(state);
  for (int i = 0; i < kFour.last_track + 1; ++i)
    for (uint64_t& k : t.challenge[i]) k = SplitMix64(state);
  for (int m = 0; m < kFourMasks; ++m) t.released[m] = SplitMix64(state);
  for (int m = 0; m < kFourMasks; ++m) t.snake_first[m] = SplitMix64(state);
  for (int m = 0; m < kFourMasks; ++m) t.snake_second[m] = SplitMix64(state);
  // Drawn last, so that the keys above stay as they were before suck_back.
  for (int c = 0; c < kFour.colours; ++c)
    for (uint64_t& k : t.suck[c]) k = SplitMix64(state);
  for (int c = 0; c < kFour.colours; ++c)
    for (uint64_t& k : t.blow[c]) k = SplitMix64(state);
  // The six-sided board's keys, after every key of the four-sided one.
  for (int c = 0; c < kMaxColours; ++c)
    for (int i = c < kFour.colours ? kFour.home + 2 : 0; i < kSquareKeys; ++i)
      t.piece[c][i] = SplitMix64(state);
  for (int c = kFour.colours; c < kMaxColours; ++c) t.to_throw[c] = SplitMix64(state);
  for (int i = kFour.last_track + 1; i < kChallengeKeys; ++i)
    for (uint64_t& k : t.challenge[i]) k = SplitMix64(state);
  for (int m = kFourMasks; m < kMaskKeys; ++m) {
    t.released[m] = SplitMix64(state);
    t.snake_first[m] = SplitMix64(state);
    t.snake_second[m] = SplitMix64(state);
  }
  for (int c = kFour.colours; c < kMaxColours; ++c)
    for (int a = 0; a < 3; ++a) {
      t.suck[c][a] = SplitMix64(state);
      t.blow[c][a] = SplitMix64(state);
    }
  // An empty state token contributes nothing.
  t.released[0] = t.snake_first[0] = t.snake_second[0] = 0;
  for (int c = 0; c < kMaxColours; ++c) t.suck[c][0] = t.blow[c][0] = 0;
  return t;
}

inline constexpr Tables kTables = BuildTables();

// Extra throws owed: any count up to 65535, so a key is computed, not looked up.
constexpr uint64_t ExtraOwed(int n) {
  if (n == 0) return 0;
  uint64_t state = 0x6578747261ull * static_cast<uint64_t>(n);  // "extra"
  return SplitMix64(state);
}

// mixie_stack: the order bits of every stack (Position::stack_order); 0
// (no stack) contributes nothing.
constexpr uint64_t StackOrder(uint64_t bits) {
  if (bits == 0) return 0;
  uint64_t state = 0x6D69786965ull * bits;  // "mixie"
  return SplitMix64(state);
}

inline uint64_t Piece(int colour, int sq) { return kTables.piece[colour][sq + 1]; }

}  // namespace uckers::zobrist
