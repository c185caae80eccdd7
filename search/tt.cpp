#include "search/tt.h"

#include <algorithm>
#include <exception>

#include "absl/strings/str_cat.h"

namespace uckers {

// The entry fills 40 bytes, its generation in what was padding: the slot
// count of a table of N MiB, and so every search, is as before.
static_assert(sizeof(TtEntry) == 40);

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
  generation_ = 1;
  locks_ = std::make_unique<std::atomic_flag[]>(kLocks);
  for (size_t i = 0; i < kLocks; ++i) locks_[i].clear();
}

absl::Status TranspositionTable::TryResize(size_t megabytes) {
  try {
    TranspositionTable bigger(megabytes);
    std::swap(entries_, bigger.entries_);
    std::swap(mask_, bigger.mask_);
    std::swap(locks_, bigger.locks_);
    std::swap(generation_, bigger.generation_);
  } catch (const std::exception& e) {  // bad_alloc, length_error
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot allocate a ", megabytes, " MiB table (", e.what(), "); the table keeps its size"));
  }
  return absl::OkStatus();
}

void TranspositionTable::Clear() {
  if (++generation_ != 0) return;
  std::fill(entries_.begin(), entries_.end(), TtEntry{});
  generation_ = 1;
}

bool TranspositionTable::Probe(uint64_t key, TtEntry* out) const {
  size_t index = key & mask_;
  SpinLock lock(LockFor(index));
  const TtEntry& e = entries_[index];
  if (e.key != key || e.bound == Bound::kNone || e.generation != generation_) return false;
  *out = e;
  return true;
}

void TranspositionTable::Store(const TtEntry& entry) {
  size_t index = entry.key & mask_;
  SpinLock lock(LockFor(index));
  TtEntry& slot = entries_[index];
  if (slot.key == entry.key && slot.generation == generation_ && slot.depth > entry.depth) return;
  slot = entry;
  slot.generation = generation_;
}

}  // namespace uckers
