#include "server/engine_pool.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

namespace uckers {

// One engine, its thread, and the call it runs.
struct EnginePool::Worker {
  explicit Worker(int hash_mb)
      : engine([hash_mb] {
          EngineOptions options;
          options.hash_mb = hash_mb;
          return options;
        }()) {}

  Engine engine;
  std::thread thread;
  std::mutex mu;
  std::condition_variable cv;
  const std::function<void(Engine&)>* work = nullptr;  // the call's, while it runs
  bool done = false;
};

EnginePool::EnginePool(int size, int hash_mb) : size_(std::max(1, size)), hash_mb_(hash_mb) {}

int EnginePool::made() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(workers_.size());
}

EnginePool::~EnginePool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  for (auto& w : workers_) {
    {
      std::lock_guard<std::mutex> lock(w->mu);
      w->done = true;  // wakes an idle worker to leave
    }
    w->cv.notify_all();
    w->thread.join();
  }
}

void EnginePool::Serve(Worker* w) {
  // The searches run below the front's threads, so that cheap calls stay
  // quick while searches run.
  id_t tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, tid);
  if (errno == 0) setpriority(PRIO_PROCESS, tid, std::min(19, nice + 10));
  std::unique_lock<std::mutex> lock(w->mu);
  for (;;) {
    w->cv.wait(lock, [w] { return w->work != nullptr || w->done; });
    if (!w->work) return;  // the pool is going
    const std::function<void(Engine&)>* work = w->work;
    lock.unlock();
    (*work)(w->engine);
    lock.lock();
    w->work = nullptr;
    w->cv.notify_all();
  }
}

absl::Status EnginePool::Run(EngineOptions options, const std::optional<Position>& pos,
                             std::atomic<bool>* stop, const std::function<bool()>& should_stop,
                             const std::function<void(Engine&)>& work) {
  Worker* w = nullptr;
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (free_.empty() && static_cast<int>(workers_.size()) < size_) {
      workers_.push_back(std::make_unique<Worker>(hash_mb_));
      Worker* made = workers_.back().get();
      made->thread = std::thread([this, made] { Serve(made); });
      free_.push_back(made);
    }
    free_cv_.wait(lock, [this] { return !free_.empty() || stopping_; });
    if (stopping_) return absl::UnavailableError("the server is stopping");
    w = free_.back();
    free_.pop_back();
  }
  absl::Status reused = w->engine.Reuse(std::move(options), pos);
  if (reused.ok()) {
    std::unique_lock<std::mutex> lock(w->mu);
    w->work = &work;
    w->cv.notify_all();
    while (w->work != nullptr) {
      if (w->cv.wait_for(lock, std::chrono::milliseconds(1), [w] { return w->work == nullptr; })) {
        break;
      }
      if (!*stop && should_stop()) *stop = true;
    }
  }
  // A table asked larger than the pool's own goes back to that size: the
  // pool holds at most `size` tables of `hash_mb` between calls.
  w->engine.ShrinkTable(hash_mb_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(w);
  }
  free_cv_.notify_one();
  return reused;
}

size_t EnginePool::FreeTableBytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t bytes = 0;
  for (const Worker* w : free_) bytes += w->engine.TableBytes();
  return bytes;
}

}  // namespace uckers
