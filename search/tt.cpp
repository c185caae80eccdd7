#include "search/tt.h"

#include <algorithm>

namespace uckers {
namespace {

class SpinLock {
 public:
  explicit SpinLock(std::atomic_flag& flag) : flag_(flag) {
    while (flag_.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~SpinLock() { flag_.clear(std::memory_order_release); }

 private:
  std::atomic_flag& flag_;
};

}  // namespace

void TranspositionTable::Resize(size_t megabytes) {
  size_t bytes = std::max<size_t>(megabytes, 1) << 20;
  size_t slots = 1;
  while (slots * 2 * sizeof(TtEntry) <= bytes) slots *= 2;
  entries_.assign(slots, TtEntry{});
  mask_ = slots - 1;
  locks_ = std::make_unique<std::atomic_flag[]>(kLocks);
  for (size_t i = 0; i < kLocks; ++i) locks_[i].clear();
}

void TranspositionTable::Clear() { std::fill(entries_.begin(), entries_.end(), TtEntry{}); }

bool TranspositionTable::Probe(uint64_t key, TtEntry* out) const {
  size_t index = key & mask_;
  SpinLock lock(LockFor(index));
  const TtEntry& e = entries_[index];
  if (e.key != key || e.bound == Bound::kNone) return false;
  *out = e;
  return true;
}

void TranspositionTable::Store(const TtEntry& entry) {
  size_t index = entry.key & mask_;
  SpinLock lock(LockFor(index));
  TtEntry& slot = entries_[index];
  if (slot.key == entry.key && slot.depth > entry.depth) return;
  slot = entry;
}

}  // namespace uckers
