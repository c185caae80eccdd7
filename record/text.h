#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "record/record.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// Game records (docs/records.md): the text form (headers, then
// `<throw>:<play>` items), read and printed here in plain C++. The JSON form
// (uckers.v1.GameRecord) is wire/record.h's; both read through
// ReplayRecord below, the one check of a record.

// A record as written, before it is replayed: its headers (`game` still
// empty) and its items' text.
struct WrittenRecord {
  Record headers;                  // every field but `game`
  std::vector<std::string> items;  // `<throw>:<play>`, as written
};

// Reads the text form's headers and items; an error names the line or
// item whose shape is wrong. Nothing is replayed yet.
absl::StatusOr<WrittenRecord> ParseWrittenRecord(const std::string& text);

// The one check of a record: replays its items from its start by
// RecordRules, checks every item, the players' sides and the result
// against the last position (an illegal or truncated record is refused with
// the item number and what is wrong), and fills the result from the last
// position. An error ends with the rules it was read with ("(read with
// rules navy+...)").
absl::StatusOr<Record> ReplayRecord(const WrittenRecord& written);

// The text form, read and replayed: ParseWrittenRecord, then ReplayRecord
// (wire::ParseRecord reads either form).
absl::StatusOr<Record> ParseTextRecord(const std::string& text);

// The text form: the headers the record has, then its items in their
// canonical text, wrapped at 78 columns.
std::string RecordToText(const Record& record);

// The rules a record is played by: its recorded switch list (`Switches`),
// else, for an older record naming only a ruleset, today's meaning of that
// name (docs/records.md). An error names the header.
absl::StatusOr<Rules> RecordRules(const Record& headers);

// Writes `text` to `path`; an error names the file.
absl::Status WriteTextFile(const std::string& path, const std::string& text);
// Checks, before long work, that `path` can be written later (a file that
// did not exist is not left behind); an error names the file
// (PERMISSION_DENIED: the work cannot be done, not a usage error).
absl::Status CheckWritable(const std::string& path);

inline constexpr size_t kMaxRecordBytes = size_t{16} << 20;
// Reads a whole file ("-": standard input) of at most `max_bytes`; an error
// names the file and what is wrong: missing or a directory (NOT_FOUND),
// unreadable (DATA_LOSS), too large or no path given (INVALID_ARGUMENT).
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
// headers' forms (lower-case hex, a 32-byte secret, one client value a
// throw), the revealed secret's SHA-256 is the commitment, throw i of the
// record is the dealer's throw i for the client seed and client value i,
// for every item, and the game is over on the board (at least one throw,
// a result, no Termination). An error names the first thing that does not
// match (or the header that is missing).
absl::Status VerifyDealtDice(const Record& record);

// What the dealer signs when it reveals a game (docs/records.md, "The
// dealer's signatures"): lines, each ended by "\n",
//   uckers dealt game v1 / key <DealerKey> / rules <Rules> / start <Start> /
//   commitment <hex> / seed <ClientSeed> / secret <hex> / result <Result> /
//   items <n> / then one line per item: <throw>:<play> <client value>
// with the headers as the record writes them (Rules "navy" when empty,
// Start empty for the ruleset's start, Result "*" while unfinished), each
// throw higher die first.
std::string DealerStatement(const Record& record);

}  // namespace uckers
