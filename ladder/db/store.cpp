#include "ladder/db/store.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ladder/db/postgres_store.h"
#include "ladder/db/sqlite_store.h"

namespace uckers {

bool IsPostgresUrl(const std::string& url) {
  return absl::StartsWith(url, "postgresql://") || absl::StartsWith(url, "postgres://");
}

absl::Status RequireExistingDb(const std::string& url) {
  if (IsPostgresUrl(url)) return absl::OkStatus();
  std::string path = absl::StartsWith(url, "sqlite:") ? url.substr(7) : url;
  std::error_code error;
  if (path.empty() || !std::filesystem::is_regular_file(path, error)) {
    return absl::NotFoundError(
        absl::StrCat("no database file '", path, "' (`ladder add` or `label add` creates one)"));
  }
  return absl::OkStatus();
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
