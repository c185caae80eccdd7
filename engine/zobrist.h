#pragma once

#include <cstdint>

#include "engine/types.h"

namespace uckers::zobrist {

// Keys are additive (summed mod 2^64), not XORed: pieces of one colour are
// identical, so two pieces on one square must not cancel. Built at compile
// time from a fixed seed, so keys are the same in every run and build.
inline constexpr int kMaxChallengeCount = 16;

struct Tables {
  uint64_t piece[kNumColours][kHome + 2] = {};  // [colour][square + 1]
  uint64_t to_throw[kNumColours] = {};
  uint64_t challenge[kLastTrack + 1][kMaxChallengeCount] = {};  // [from+1][n]
  uint64_t released[16] = {};
  uint64_t snake_first[16] = {};
  uint64_t snake_second[16] = {};
  uint64_t suck[kNumColours][3] = {};  // [colour][attempts], suck_back
  uint64_t blow[kNumColours][3] = {};
};

constexpr uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

constexpr Tables BuildTables() {
  Tables t;
  uint64_t state = 0x75636B657273ull;  // "uckers"
  for (auto& row : t.piece)
    for (uint64_t& k : row) k = SplitMix64(state);
  for (uint64_t& k : t.to_throw) k = SplitMix64(state);
  for (auto& row : t.challenge)
    for (uint64_t& k : row) k = SplitMix64(state);
  for (uint64_t& k : t.released) k = SplitMix64(state);
  for (uint64_t& k : t.snake_first) k = SplitMix64(state);
  for (uint64_t& k : t.snake_second) k = SplitMix64(state);
  // Drawn last, so that the keys above stay as they were before suck_back.
  for (auto& row : t.suck)
    for (uint64_t& k : row) k = SplitMix64(state);
  for (auto& row : t.blow)
    for (uint64_t& k : row) k = SplitMix64(state);
  // An empty state token contributes nothing.
  t.released[0] = t.snake_first[0] = t.snake_second[0] = 0;
  for (int c = 0; c < kNumColours; ++c) t.suck[c][0] = t.blow[c][0] = 0;
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
constexpr uint64_t StackOrder(int bits) {
  if (bits == 0) return 0;
  uint64_t state = 0x6D69786965ull * static_cast<uint64_t>(bits);  // "mixie"
  return SplitMix64(state);
}

inline uint64_t Piece(int colour, int sq) { return kTables.piece[colour][sq + 1]; }

}  // namespace uckers::zobrist
