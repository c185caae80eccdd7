#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "rules/position.h"

// The engines of the service's searching calls, one a search slot, kept
// between calls: each with its transposition table and a thread of its own
// at the search's lowered priority (nice + 10), so that a call neither
// builds an engine and its table nor starts a thread. A call borrows an
// engine, which is first made as new for it (Engine::Reuse: the call's
// options, its position without a round trip through text, the table
// cleared: no call sees another's state), runs on that engine's thread,
// and gives it back.
namespace uckers {

class EnginePool {
 public:
  // At most `size` engines (at least one), each made when a call first
  // finds none free, with a table of `hash_mb` until a call asks another.
  EnginePool(int size, int hash_mb);
  ~EnginePool();
  EnginePool(const EnginePool&) = delete;
  EnginePool& operator=(const EnginePool&) = delete;

  // Runs `work` on a free engine's thread, the engine reused with `options`
  // at `pos` (none: the rules' start), waiting for an engine when all are
  // borrowed. While it runs, `should_stop` is asked about every millisecond
  // on the calling thread; once it says so, `*stop` is set (the work is to
  // watch it). Returns when the work has returned: OK, or why the engine
  // could not be reused for these options (the work then did not run).
  absl::Status Run(EngineOptions options, const std::optional<Position>& pos,
                   std::atomic<bool>* stop, const std::function<bool()>& should_stop,
                   const std::function<void(Engine&)>& work);

  // The engines made so far.
  int made() const;
  // The memory of the free engines' tables, in bytes: each is given back to
  // the pool's `hash_mb` after its call, so that a call that asked for a
  // large table does not keep it held between calls.
  size_t FreeTableBytes() const;

 private:
  struct Worker;
  void Serve(Worker* worker);

  const int size_;
  const int hash_mb_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::condition_variable free_cv_;
  std::vector<Worker*> free_;
  bool stopping_ = false;
};

}  // namespace uckers
