#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ladder/db/store.h"

namespace uckers::ladderdb {

// The PostgreSQL backend (libpqxx): one server shared by workers on any
// number of machines. Workers take pairs with `SELECT ... FOR UPDATE SKIP
// LOCKED`, so they never wait on each other's pairs; leases are timed by
// the server's clock, so the machines' clocks need not agree. Migrations
// hold an advisory lock, so workers started together migrate once.
absl::StatusOr<std::unique_ptr<LadderStore>> OpenPostgresStore(const std::string& url);

}  // namespace uckers::ladderdb
