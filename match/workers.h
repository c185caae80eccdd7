#pragma once

#include <algorithm>
#include <functional>
#include <thread>
#include <vector>

namespace uckers {

// The worker pool of matches and ladders: runs `work` on
// min(concurrency, tasks) threads (this one among them, so that one worker
// needs no thread) and returns when all have returned. Each `work` takes
// its tasks from a shared counter until none are left; results must not
// depend on which worker played which task.
inline void RunWorkers(int concurrency, int tasks, const std::function<void()>& work) {
  int workers = std::max(1, std::min(concurrency, tasks));
  std::vector<std::thread> pool;
  for (int k = 1; k < workers; ++k) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace uckers
