#include "app/cli_flags.h"

#include <ostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "app/commands.h"
#include "match/player.h"
#include "record/text.h"

ABSL_FLAG(std::string, rules, "navy", "ruleset (a rules string)");
ABSL_FLAG(int, concurrency, 2, "games played at once");
ABSL_FLAG(uint64_t, seed, 1, "dice seed of the first pair");
ABSL_FLAG(bool, json, false, "print the report as JSON");
ABSL_FLAG(bool, progress, true, "draw a progress bar on stderr");
ABSL_FLAG(std::string, level, "", "a playing level (uckers help match lists them)");
ABSL_FLAG(std::string, records, "",
          "directory to save every game's record in (created if missing)");
ABSL_FLAG(std::string, out, "", "the file the command writes");
ABSL_FLAG(std::string, endgames, "",
          "an endgame table file (uckers endgames build): the positions it covers are valued "
          "and played exactly");
ABSL_FLAG(int, pairs, 100,
          "duplicate pairs of games (each dice sequence played twice, the seats swapped)");
ABSL_FLAG(std::string, chart, "", "write an SVG chart of the ratings to this file");
ABSL_FLAG(double, lease_seconds, 600,
          "a pair or job taken and not finished within this many seconds returns to the queue "
          "(0..604800]");
ABSL_FLAG(std::string, db, "",
          "the standing ladder's database: a SQLite file (created when missing) or "
          "postgresql://...");
ABSL_FLAG(bool, resume, false,
          "count the pairs whose records are already in --records (a run interrupted before) "
          "and play the rest");
ABSL_FLAG(bool, luck, false,
          "take each game's luck out of its result (one throw deep, by the net): the same "
          "expectation, a narrower interval; match: a luck-adjusted line, ladder: the GSPRT's "
          "scores (docs/ladder.md)");
ABSL_FLAG(int, luck_depth, 0,
          "with --luck: 0 values each throw's best play by its static value; 1 one throw "
          "deeper, a narrower interval for about twenty times the work of measuring it "
          "(docs/ladder.md)");
ABSL_FLAG(std::string, games_out, "",
          "write one JSON line per game to this file as each ends (pair, players, seed, result, "
          "how it ended, throws, decisions and time); appended to with --resume");

namespace uckers {

void PrintPlayerHelp(std::ostream& out) { out << PlayerHelp(); }

std::vector<SharedFlag> RunFlags(std::vector<SharedFlag> more) {
  std::vector<SharedFlag> flags = {{"rules"},    {"concurrency"}, {"seed"},   {"json"},
                                   {"progress"}, {"records"},     {"resume"}, {"games_out"}};
  flags.insert(flags.end(), more.begin(), more.end());
  return flags;
}

absl::StatusOr<RunOutputs> ReadRunOutputs() {
  RunOutputs out;
  out.records_dir = absl::GetFlag(FLAGS_records);
  out.resume = absl::GetFlag(FLAGS_resume);
  out.games_out = absl::GetFlag(FLAGS_games_out);
  if (!out.games_out.empty()) {
    if (absl::Status s = CheckWritable(out.games_out); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("--games_out: ", s.message()));
    }
  }
  if (out.resume && out.records_dir.empty()) {
    return absl::InvalidArgumentError(
        "--resume reads the records of the run before: give --records");
  }
  return out;
}

}  // namespace uckers
