#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "eval/evaluate.h"

namespace uckers {

// How a stored score relates to the true value.
enum class Bound : uint8_t { kNone, kExact, kLower, kUpper };

// One stored chance-node result, keyed by the position's Zobrist key.
struct TtEntry {
  uint64_t key = 0;
  float score = 0;
  std::array<float, kNumOutcomes> outcomes{};
  int8_t depth = -1;
  Bound bound = Bound::kNone;
  // The table's generation when stored: an entry of an earlier one (before
  // the last Clear) is no entry. Fills the entry's padding.
  uint16_t generation = 0;
};

// A transposition table for chance nodes (positions before their throw),
// shared by search threads. Each slot is guarded by one of a fixed set of
// spin locks: entries are 40 bytes, too wide to write atomically, and a
// lock costs little next to an evaluation.
class TranspositionTable {
 public:
  explicit TranspositionTable(size_t megabytes = 16) { Resize(megabytes); }

  // Reallocates to the largest power-of-two slot count within `megabytes`
  // and clears. Not thread-safe.
  void Resize(size_t megabytes);
  // Resize that reports a failed allocation instead of throwing; the table
  // is unchanged then.
  absl::Status TryResize(size_t megabytes);
  // Empties the table in constant time (a new generation; the slots are
  // rewritten only once every 65535 clears). Not thread-safe.
  void Clear();

  // The entry for `key`, if stored.
  bool Probe(uint64_t key, TtEntry* out) const;
  // Stores, replacing the slot's entry unless it holds the same key searched
  // deeper.
  void Store(const TtEntry& entry);

  size_t slots() const { return entries_.size(); }

 private:
  static constexpr size_t kLocks = 4096;
  std::atomic_flag& LockFor(size_t index) const { return locks_[index % kLocks]; }

  std::vector<TtEntry> entries_;
  size_t mask_ = 0;
  uint16_t generation_ = 1;  // never 0: a slot never stored holds generation 0
  mutable std::unique_ptr<std::atomic_flag[]> locks_;
};

}  // namespace uckers
