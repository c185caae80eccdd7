#pragma once

#include "server/api.h"

// The service's caps under the fuzzers of both fronts (service_fuzz,
// connect_fuzz): small enough that a search stays fast under ASan + UBSan
// (depth 2, 5,000 nodes, 10 ms), two search slots.
namespace uckers {

inline ServiceLimits FuzzServiceLimits() {
  ServiceLimits limits;
  limits.max_searches = 2;
  limits.max_threads = 1;
  limits.max_hash_mb = 4;
  limits.tree_mb = 16;
  limits.max_depth = 2;
  limits.max_nodes = 5000;
  limits.max_movetime_ms = 10;
  limits.max_analyse_ms = 20;
  limits.deadline_margin_ms = 2;
  return limits;
}

}  // namespace uckers
