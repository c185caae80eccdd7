// `uckers drill --db FILE`: spaced repetition of reviewed mistakes. `--add
// RECORD` reviews a game (docs/analysis.md) and keeps each marked decision
// as a card (the position, the throw, the best play); a session shows the
// cards due, reads a play for each from standard input and judges it
// (JudgePlay, at the review's level: `--level`, default grandmaster): a
// play within the review's first mark (equity lost under 0.03) is right. Cards are scheduled as
// SM-2 does: right, the interval grows (1, 3 days, then times the card's ease); wrong, the card
// comes back tomorrow and its ease drops. `--list` prints the cards due with their answers. The
// store is one SQLite file of its own.
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "engine/coach.h"
#include "engine/engine.h"
#include "record/text.h"
#include "review/review.h"
#include "rules/board_text.h"
#include "rules/checked.h"
#include "rules/dice_sequence.h"
#include "rules/notation.h"
#include "search/levels.h"
#include "wire/record.h"

ABSL_FLAG(std::string, add, "", "a game record to review; its marked decisions become cards");
ABSL_FLAG(std::string, today, "", "the day of the session, YYYY-MM-DD (default: today, UTC)");
ABSL_FLAG(int, count, 10, "cards in a session at most (1..1000)");
ABSL_FLAG(bool, list, false, "print the cards due, with their answers, and exit");

namespace uckers {
namespace {

struct Card {
  int64_t id = 0;
  std::string rules, ufen, dice, best, played, source;
  double lost = 0;
  int64_t due = 0;
  int interval = 0;
  double ease = 2.5;
  int reps = 0;
};

// The cards table in one SQLite file; every error names the file.
class DrillStore {
 public:
  static absl::StatusOr<DrillStore> Open(const std::string& path) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
      std::string what = db ? sqlite3_errmsg(db) : "out of memory";
      sqlite3_close(db);
      return absl::InvalidArgumentError(absl::StrCat("--db ", path, ": ", what));
    }
    DrillStore store(db, path);
    absl::Status s = store.Exec(
        "CREATE TABLE IF NOT EXISTS cards (id INTEGER PRIMARY KEY, rules TEXT NOT NULL, "
        "ufen TEXT NOT NULL, dice TEXT NOT NULL, best TEXT NOT NULL, played TEXT NOT NULL, "
        "lost REAL NOT NULL, source TEXT NOT NULL, due INTEGER NOT NULL, interval INTEGER NOT "
        "NULL, ease REAL NOT NULL, reps INTEGER NOT NULL, UNIQUE (rules, ufen, dice))");
    if (!s.ok()) return s;
    return store;
  }
  DrillStore(DrillStore&& other) noexcept : db_(other.db_), path_(other.path_) {
    other.db_ = nullptr;
  }
  ~DrillStore() { sqlite3_close(db_); }

  // Adds a card unless the same decision is there; true when added.
  absl::StatusOr<bool> Add(const Card& c) {
    sqlite3_stmt* st = Prepare(
        "INSERT OR IGNORE INTO cards (rules, ufen, dice, best, played, lost, source, due, "
        "interval, ease, reps) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 2.5, 0)");
    if (!st) return Error();
    Text(st, 1, c.rules), Text(st, 2, c.ufen), Text(st, 3, c.dice), Text(st, 4, c.best);
    Text(st, 5, c.played), sqlite3_bind_double(st, 6, c.lost), Text(st, 7, c.source);
    sqlite3_bind_int64(st, 8, c.due);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return Error();
    return sqlite3_changes(db_) > 0;
  }

  // The cards due on `day`, the longest overdue first.
  absl::StatusOr<std::vector<Card>> Due(int64_t day, int limit) {
    sqlite3_stmt* st = Prepare(
        "SELECT id, rules, ufen, dice, best, played, lost, source, due, interval, ease, reps "
        "FROM cards WHERE due <= ? ORDER BY due, id LIMIT ?");
    if (!st) return Error();
    sqlite3_bind_int64(st, 1, day);
    sqlite3_bind_int(st, 2, limit);
    std::vector<Card> out;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      Card c;
      c.id = sqlite3_column_int64(st, 0);
      c.rules = Column(st, 1), c.ufen = Column(st, 2), c.dice = Column(st, 3);
      c.best = Column(st, 4), c.played = Column(st, 5);
      c.lost = sqlite3_column_double(st, 6);
      c.source = Column(st, 7);
      c.due = sqlite3_column_int64(st, 8);
      c.interval = sqlite3_column_int(st, 9);
      c.ease = sqlite3_column_double(st, 10);
      c.reps = sqlite3_column_int(st, 11);
      out.push_back(c);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return Error();
    return out;
  }

  absl::Status Schedule(const Card& c) {
    sqlite3_stmt* st =
        Prepare("UPDATE cards SET due = ?, interval = ?, ease = ?, reps = ? WHERE id = ?");
    if (!st) return Error();
    sqlite3_bind_int64(st, 1, c.due);
    sqlite3_bind_int(st, 2, c.interval);
    sqlite3_bind_double(st, 3, c.ease);
    sqlite3_bind_int(st, 4, c.reps);
    sqlite3_bind_int64(st, 5, c.id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? absl::OkStatus() : Error();
  }

  absl::StatusOr<int64_t> NextDue() {
    sqlite3_stmt* st = Prepare("SELECT MIN(due) FROM cards");
    if (!st) return Error();
    int64_t due = -1;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
      due = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return due;
  }

 private:
  DrillStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  absl::Status Exec(const char* sql) {
    return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK ? absl::OkStatus()
                                                                          : Error();
  }
  sqlite3_stmt* Prepare(const char* sql) {
    sqlite3_stmt* st = nullptr;
    return sqlite3_prepare_v2(db_, sql, -1, &st, nullptr) == SQLITE_OK ? st : nullptr;
  }
  absl::Status Error() const {
    return absl::InternalError(absl::StrCat("--db ", path_, ": ", sqlite3_errmsg(db_)));
  }
  static void Text(sqlite3_stmt* st, int i, const std::string& s) {
    sqlite3_bind_text(st, i, s.c_str(), -1, SQLITE_TRANSIENT);
  }
  static std::string Column(sqlite3_stmt* st, int i) {
    const unsigned char* t = sqlite3_column_text(st, i);
    return t ? reinterpret_cast<const char*>(t) : "";
  }

  sqlite3* db_;
  std::string path_;
};

constexpr absl::CivilDay kEpoch(1970, 1, 1);

std::string DayText(int64_t day) { return absl::FormatCivilTime(kEpoch + day); }

// SM-2's schedule after an answer.
void Reschedule(bool right, int64_t today, Card* c) {
  if (right) {
    ++c->reps;
    c->interval = c->reps == 1   ? 1
                  : c->reps == 2 ? 3
                                 : static_cast<int>(std::lround(c->interval * c->ease));
    c->ease = std::min(3.0, c->ease + 0.1);
  } else {
    c->reps = 0;
    c->interval = 0;  // again today, at the next session
    c->ease = std::max(1.3, c->ease - 0.2);
  }
  c->due = today + c->interval;
}

// Reads and reviews the record before the database is opened, so that a
// record that cannot be read or reviewed leaves no database behind.
absl::Status AddRecord(const std::string& db, const std::string& path, const std::string& level,
                       int64_t today) {
  absl::StatusOr<std::string> text = ReadTextFile(path, kMaxRecordBytes);
  if (!text.ok()) {
    return absl::Status(text.status().code(), absl::StrCat("--add: ", text.status().message()));
  }
  absl::StatusOr<Record> record = wire::ParseRecord(*text);
  if (!record.ok()) {
    return Failed(absl::StrCat(path, ": ", record.status().message()));
  }
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> analysis = AnalyseGame(*record, level, stop);
  if (!analysis.ok()) {
    return Failed(absl::StrCat(path, ": ", analysis.status().message()));
  }
  absl::StatusOr<DrillStore> opened = DrillStore::Open(db);
  if (!opened.ok()) return Failed(opened.status().message());
  DrillStore& store = *opened;
  int marked = 0, added = 0;
  for (const AnalysedItem& item : analysis->items) {
    if (item.mark < Mark::kDoubtful) continue;
    ++marked;
    Card c;
    c.rules = analysis->rules;
    c.ufen = item.ufen;
    c.dice = ThrowToString(item.dice);
    c.best = item.best_play;
    c.played = item.play;
    c.lost = item.equity_lost;
    c.source = absl::StrCat(path, " #", item.index);
    c.due = today;
    absl::StatusOr<bool> a = store.Add(c);
    if (!a.ok()) return Failed(a.status().message());
    added += *a;
  }
  std::cout << absl::StrFormat("drill: %s reviewed at %s: %d marked decisions, %d new cards\n",
                               path, analysis->level, marked, added);
  return absl::OkStatus();
}

absl::Status Session(DrillStore& store, std::vector<Card> cards, const std::string& level,
                     int64_t today) {
  int right = 0, asked = 0;
  std::atomic<bool> stop{false};
  for (Card& c : cards) {
    absl::StatusOr<Rules> rules = ParseRulesOrDefault(c.rules);
    absl::StatusOr<Position> pos = rules.ok() ? ParsePositionOrStart(c.ufen, *rules)
                                              : absl::StatusOr<Position>(rules.status());
    absl::StatusOr<Throw> dice = ParseThrow(c.dice);
    if (!pos.ok() || !dice.ok()) {
      return Failed(absl::StrCat(
          "card ", c.id, " is unreadable: ", (pos.ok() ? dice.status() : pos.status()).message()));
    }
    std::cout << "\ncard " << c.id << " (" << c.source << ")\n" << DrawBoard(*pos);
    std::cout << ColourName(pos->to_throw()) << " threw " << c.dice << ": your play? "
              << std::flush;
    EngineOptions options;  // the card's rules, no endgame table
    options.rules = *rules;
    Engine engine(options);
    if (absl::Status s = engine.SetPosition(*pos); !s.ok()) {
      return Failed(absl::StrCat("card ", c.id, " is unreadable: ", s.message()));
    }
    std::optional<Judgement> verdict;
    std::string line;
    while (!verdict && std::getline(std::cin, line)) {
      std::string play(absl::StripAsciiWhitespace(line));
      if (play == "quit") break;
      absl::StatusOr<Judgement> j = engine.Judge(*dice, play, level, stop);
      if (j.ok()) {
        verdict = *j;
      } else {
        std::cout << j.status().message() << "; your play? " << std::flush;
      }
    }
    if (!verdict) break;  // end of input or quit: the rest stay due
    ++asked;
    bool ok = verdict->equity_lost < kDoubtful;
    right += ok;
    std::cout << absl::StrFormat(
        "%s: %s loses %.3f; best %s (in the game %s was played, losing %.3f)\n",
        ok ? "right" : "wrong", PlayToString(verdict->played.play), verdict->equity_lost,
        PlayToString(verdict->candidates[0].play), c.played, c.lost);
    Reschedule(ok, today, &c);
    if (absl::Status s = store.Schedule(c); !s.ok()) return Failed(s.message());
    std::cout << "next on " << DayText(c.due) << "\n";
  }
  absl::StatusOr<int64_t> next = store.NextDue();
  std::cout << absl::StrFormat("\ndrill: %d of %d right; %s\n", right, asked,
                               next.ok() && *next >= 0
                                   ? absl::StrCat("next card due ", DayText(*next))
                                   : std::string("no cards"));
  return absl::OkStatus();
}

absl::Status RunDrillCommand(const CommandLine&) {
  std::string db = absl::GetFlag(FLAGS_db);
  if (db.empty()) return UsageError("give --db FILE");
  int count = absl::GetFlag(FLAGS_count);
  if (count < 1 || count > 1000) {
    return UsageError(absl::StrCat("--count ", count, ": must be 1..1000"));
  }
  absl::CivilDay day = absl::ToCivilDay(absl::Now(), absl::UTCTimeZone());
  if (std::string text = absl::GetFlag(FLAGS_today); !text.empty()) {
    if (!absl::ParseCivilTime(text, &day)) {
      return UsageError(absl::StrCat("--today '", text, "': expected YYYY-MM-DD"));
    }
  }
  int64_t today = day - kEpoch;
  // One level for the review that makes the cards and the judge of the
  // answers, so that a verdict agrees with the mark that made the card.
  std::string level = absl::GetFlag(FLAGS_level);
  if (level.empty()) level = std::string(kAnalysisLevel);
  {
    SearchRequest probe;
    probe.level = level;
    if (absl::StatusOr<SearchParams> p = RequestParams(probe); !p.ok()) {
      return UsageError(absl::StrCat("--level: ", p.status().message()));
    }
  }
  if (std::string add = absl::GetFlag(FLAGS_add); !add.empty()) {
    return AddRecord(db, add, level, today);
  }
  absl::StatusOr<DrillStore> store = DrillStore::Open(db);
  if (!store.ok()) return Failed(store.status().message());
  absl::StatusOr<std::vector<Card>> due = store->Due(today, count);
  if (!due.ok()) return Failed(due.status().message());
  if (absl::GetFlag(FLAGS_list)) {
    for (const Card& c : *due) {
      std::cout << absl::StrFormat(
          "card %d due %s rules %s ufen %s throw %s best %s played %s lost %.4f\n", c.id,
          DayText(c.due), c.rules, c.ufen, c.dice, c.best, c.played, c.lost);
    }
    std::cout << "cards due " << due->size() << "\n";
    return absl::OkStatus();
  }
  return Session(*store, *due, level, today);
}

}  // namespace

const Command& DrillCommand() {
  static const Command command = {
      .name = "drill",
      .summary = "spaced repetition of a review's marked decisions, in SQLite (docs/analysis.md)",
      .usage =
          "uckers drill --db FILE [--add RECORD] [--level L] [--today YYYY-MM-DD] [--count N] "
          "[--list]\n"
          "  --add reviews a record and keeps its marked decisions as cards; without it, a\n"
          "  session: each card due is shown and a play read from stdin is judged",
      .flags_file = "app/drill.cpp",
      .shared = {{"db", "the drill's SQLite file (created when missing)"},
                 {"level", "the level cards are reviewed and answers judged at",
                  std::string(kAnalysisLevel)}},
      .run = RunDrillCommand,
  };
  return command;
}

}  // namespace uckers
