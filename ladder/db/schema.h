#pragma once

#include <string>
#include <vector>

// The ladder database's schema as migrations: script k (from 0) takes a
// database from schema version k to k + 1. Both backends run the same
// scripts; only the type of an id column differs between the dialects.
namespace uckers::ladderdb {

enum class Dialect { kSqlite, kPostgres };

// The migration scripts, oldest first; their count is kLadderSchemaVersion.
// Each is a list of statements separated by ';'.
std::vector<std::string> MigrationScripts(Dialect dialect);

// Creates the version table when missing (one row per migration applied).
inline constexpr const char* kCreateVersionTable =
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL PRIMARY KEY, "
    "applied_at DOUBLE PRECISION NOT NULL)";

}  // namespace uckers::ladderdb
