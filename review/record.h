#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "uckers/v1/game.pb.h"

namespace uckers {

// Game records (docs/records.md): the text form (headers, then
// `<throw>:<play>` items) and the JSON form of uckers.v1.GameRecord.

// Reads either form (JSON when it starts with `{`). Checks every item
// against the rules and the result against the last position: an illegal or
// truncated record is refused with the item number and what is wrong.
absl::StatusOr<v1::GameRecord> ParseRecord(const std::string& text);

// The text form.
std::string RecordToText(const v1::GameRecord& record);
// The JSON form.
std::string RecordToJson(const v1::GameRecord& record);

// The rules a record is played by: its recorded switch list (`Switches`),
// else, for an older record naming only a ruleset, today's meaning of that
// name (docs/records.md). An error names the header.
absl::StatusOr<Rules> RecordRules(const v1::GameRecord& record);

// Replays a record by RecordRules: the position after its last item
// (checked as ParseRecord does). An error ends with the rules it was read
// with ("(read with rules navy+...)").
absl::StatusOr<Position> ReplayRecord(const v1::GameRecord& record);

// Writes `text` to `path`; an error names the file.
absl::Status WriteTextFile(const std::string& path, const std::string& text);
// Checks, before long work, that `path` can be written later (a file that
// did not exist is not left behind); an error names the file.
absl::Status CheckWritable(const std::string& path);

inline constexpr size_t kMaxRecordBytes = size_t{16} << 20;
// Reads a whole file ("-": standard input) of at most `max_bytes`; an error
// names the file and what is wrong (missing, a directory, too large).
absl::StatusOr<std::string> ReadTextFile(const std::string& path, size_t max_bytes);

// Makes `dir` ready for records before a match or ladder plays any game:
// creates it (and its parents) when missing and checks a file can be
// written there. An error names the directory; "" (no records) is fine.
absl::Status PrepareRecordsDir(const std::string& dir);

// Records that failed to be written during a match or ladder (a full disk,
// a file removed): counted and the first error kept, so that the games
// already played are still reported. Not thread-safe: callers lock.
struct RecordFailures {
  int count = 0;
  std::string first;
  // Counts `saved` if it is an error; with `warn`, the first one is said
  // on stderr as it happens.
  void Add(const absl::Status& saved, bool warn);
  // "" when none failed, else a line for the report.
  std::string Text() const;
};

// Checks a record's dealt dice (docs/records.md, "Dealt dice"): the
// revealed secret's SHA-256 is the commitment, and throw i of the record is
// the dealer's throw i for the client seed, for every item. An error names
// the first thing that does not match (or the header that is missing).
absl::Status VerifyDealtDice(const v1::GameRecord& record);

// Fills the result fields from a final position.
void SetRecordResult(const Position& final_position, v1::GameRecord* record);

// A side's name in records: its colours' letters in turn order, upper case
// ("RY", "GB"; "RB" under `six`; "R" under `solo`).
std::string SideName(const Layout& layout, int side);
// The side named `name` in `layout`, or -1.
int SideByName(const Layout& layout, absl::string_view name);
// Every side's name, space-separated, for errors.
std::string SideNames(const Layout& layout);
// The player a record names for `side` ("" when none): `ry`/`gb` in the
// four-sided game of two teams, `side_players` elsewhere.
std::string RecordPlayer(const v1::GameRecord& record, const Layout& layout, int side);

}  // namespace uckers
