#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ladder/db/store.h"

namespace uckers::ladderdb {

// The SQLite backend: a file shared by the processes of one machine. Every
// write is a `BEGIN IMMEDIATE` transaction (one writer at a time; the
// others wait up to a busy timeout); the journal is a write-ahead log, so
// readers do not block the writer and a killed process loses no committed
// transaction. `read_only`: an existing database at this program's schema
// version, opened for reading only (in a folder it cannot write, too).
absl::StatusOr<std::unique_ptr<LadderStore>> OpenSqliteStore(const std::string& path,
                                                             bool read_only = false);

}  // namespace uckers::ladderdb
