#pragma once

#include <atomic>

namespace uckers {

// SIGINT and SIGTERM turned into a flag while an instance lives (match and
// ladder: no new pair starts, the pairs in flight finish, the report covers
// what is done); the default actions come back when it goes.
class InterruptFlag {
 public:
  InterruptFlag();
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  const std::atomic<bool>* flag() const;
};

}  // namespace uckers
