#include "app/interrupt.h"

#include <csignal>

namespace uckers {
namespace {

std::atomic<bool> interrupted{false};

extern "C" void OnInterrupt(int) { interrupted = true; }

}  // namespace

InterruptFlag::InterruptFlag() {
  interrupted = false;
  std::signal(SIGINT, OnInterrupt);
  std::signal(SIGTERM, OnInterrupt);
}

InterruptFlag::~InterruptFlag() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

const std::atomic<bool>* InterruptFlag::flag() const { return &interrupted; }

}  // namespace uckers
