#include "ladder/db/store.h"

#include "absl/strings/match.h"
#include "ladder/db/postgres_store.h"
#include "ladder/db/sqlite_store.h"

namespace uckers {

bool IsPostgresUrl(const std::string& url) {
  return absl::StartsWith(url, "postgresql://") || absl::StartsWith(url, "postgres://");
}

absl::StatusOr<std::unique_ptr<LadderStore>> OpenLadderStore(const std::string& url,
                                                             bool read_only) {
  if (url.empty()) return absl::InvalidArgumentError("no ladder database given");
  if (IsPostgresUrl(url)) return ladderdb::OpenPostgresStore(url);
  std::string path = absl::StartsWith(url, "sqlite:") ? url.substr(7) : url;
  if (path.empty()) return absl::InvalidArgumentError("no ladder database file given");
  return ladderdb::OpenSqliteStore(path, read_only);
}

}  // namespace uckers
