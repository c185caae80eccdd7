#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "app/command.h"

// Flags shared by the `uckers` subcommands (match, ladder, analyse): Abseil
// flags live in one registry per program, so each is defined once here.
ABSL_DECLARE_FLAG(std::string, rules);
ABSL_DECLARE_FLAG(int, concurrency);
ABSL_DECLARE_FLAG(uint64_t, seed);
ABSL_DECLARE_FLAG(bool, json);
ABSL_DECLARE_FLAG(bool, progress);
ABSL_DECLARE_FLAG(std::string, records);
ABSL_DECLARE_FLAG(std::string, out);
ABSL_DECLARE_FLAG(std::string, endgames);
ABSL_DECLARE_FLAG(bool, resume);
ABSL_DECLARE_FLAG(std::string, level);
ABSL_DECLARE_FLAG(int, pairs);
ABSL_DECLARE_FLAG(std::string, chart);
ABSL_DECLARE_FLAG(std::string, db);
ABSL_DECLARE_FLAG(std::string, games_out);
ABSL_DECLARE_FLAG(double, lease_seconds);
ABSL_DECLARE_FLAG(bool, luck);
ABSL_DECLARE_FLAG(int, luck_depth);

namespace uckers {

// The outputs match and ladder share: --records, --resume and --games_out,
// read and checked before any game (INVALID_ARGUMENT naming the flag: a
// usage error).
struct RunOutputs {
  std::string records_dir;
  bool resume = false;
  std::string games_out;
};
absl::StatusOr<RunOutputs> ReadRunOutputs();

// The shared flags of a run of games (match, ladder): the rules, the
// concurrency, the seed, the report's form and the outputs above, then
// `more`.
std::vector<SharedFlag> RunFlags(std::vector<SharedFlag> more);

}  // namespace uckers
