#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <type_traits>

namespace uckers {

// A cache of static values inside one search. One search values the same
// position many times: plays of the same sum from different throws meet (a
// piece moved 3 then 4, or 2 then 5), and a chance node searched again
// under another window values its leaves again (docs/evaluation.md, "Values
// computed once"). Each thread keeps one direct-mapped table per value
// type; an entry counts only for the StaticCache that stored it (an owner id
// taken at construction), so rules, net, tables and settings never differ
// between writer and reader, and a value found is the value the reader
// would compute, bit for bit. One instance per search object, used only on
// the thread that made it (the table is that thread's).
template <typename Value>
class StaticCache {
  static_assert(std::is_trivially_copyable_v<Value>);

 public:
  static constexpr size_t kSlots = size_t{1} << 15;

  StaticCache() : owner_(NextOwner()), table_(Table()) {}

  // The value this instance stored for `key`, and in `flag` (when given) the
  // flag it was stored with; null when it has none (or the thread has no
  // table).
  const Value* Find(uint64_t key, bool* flag = nullptr) const {
    if (table_ == nullptr) return nullptr;
    const Entry& e = table_[key & (kSlots - 1)];
    if (e.key != key || (e.owner & ~kFlagBit) != owner_) return nullptr;
    if (flag != nullptr) *flag = (e.owner & kFlagBit) != 0;
    return &e.value;
  }

  void Store(uint64_t key, const Value& value, bool flag = false) {
    if (table_ == nullptr) return;
    table_[key & (kSlots - 1)] = {key, owner_ | (flag ? kFlagBit : 0), value};
  }

 private:
  static constexpr uint64_t kFlagBit = uint64_t{1} << 63;

  struct Entry {
    uint64_t key;
    uint64_t owner;  // 0: empty (ids start at 1); the top bit is the flag
    Value value;
  };

  static uint64_t NextOwner() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }

  // This thread's table, allocated zeroed (every entry empty) at its first
  // use; calloc maps the pages only as they are touched.
  static Entry* Table() {
    struct Free {
      void operator()(Entry* p) const { std::free(p); }
    };
    thread_local std::unique_ptr<Entry, Free> table(
        static_cast<Entry*>(std::calloc(kSlots, sizeof(Entry))));
    return table.get();
  }

  uint64_t owner_;
  Entry* table_;
};

}  // namespace uckers
