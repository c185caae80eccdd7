#include "ladder/db/sqlite_store.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ladder/db/schema.h"

namespace uckers::ladderdb {
namespace {

constexpr int kBusyTimeoutMs = 60'000;

double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// One prepared statement; binds by position from 1, steps, reads columns.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    rc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
  }
  ~Stmt() { sqlite3_finalize(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& Bind(int i, int64_t v) {
    if (ok()) rc_ = sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Stmt& Bind(int i, double v) {
    if (ok()) rc_ = sqlite3_bind_double(stmt_, i, v);
    return *this;
  }
  Stmt& Bind(int i, const std::string& v) {
    if (ok())
      rc_ = sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  // True while a row is there to read; an error ends the steps (see status).
  bool Step() {
    if (!ok()) return false;
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) rc_ = rc;
    return false;
  }
  int64_t Int(int c) { return sqlite3_column_int64(stmt_, c); }
  double Real(int c) { return sqlite3_column_double(stmt_, c); }
  std::string Text(int c) {
    const unsigned char* t = sqlite3_column_text(stmt_, c);
    return t ? std::string(reinterpret_cast<const char*>(t)) : "";
  }
  bool ok() const { return rc_ == SQLITE_OK; }
  absl::Status status() const {
    if (ok()) return absl::OkStatus();
    return absl::InternalError(absl::StrCat("sqlite: ", sqlite3_errmsg(db_)));
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int rc_;
};

class SqliteStore : public LadderStore {
 public:
  explicit SqliteStore(sqlite3* db) : db_(db) {}
  ~SqliteStore() override { sqlite3_close_v2(db_); }

  // PRAGMA quick_check over every page: a file damaged anywhere is refused
  // before anything is written into it (SQLite itself only notices a bad
  // page when it reads that page).
  absl::Status CheckIntact() {
    Stmt q(db_, "PRAGMA quick_check(5)");
    std::vector<std::string> problems;
    while (q.Step()) problems.push_back(q.Text(0));
    if (!q.ok()) return q.status();
    if (problems.size() == 1 && problems[0] == "ok") return absl::OkStatus();
    std::string said;
    for (std::string p : problems) {
      std::replace(p.begin(), p.end(), '\n', ' ');
      absl::StrAppend(&said, said.empty() ? "" : "; ", p);
    }
    return absl::DataLossError(absl::StrCat("the database file is damaged (", said, ")"));
  }

  absl::Status Exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) == SQLITE_OK) {
      return absl::OkStatus();
    }
    std::string message = error ? error : sqlite3_errmsg(db_);
    sqlite3_free(error);
    return absl::InternalError(absl::StrCat("sqlite: ", message));
  }

  // Runs `body` in a BEGIN IMMEDIATE transaction: committed when it
  // returns OK, rolled back otherwise.
  template <typename Body>
  absl::Status Transaction(Body body) {
    if (absl::Status s = Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
    absl::Status s = body();
    if (s.ok()) s = Exec("COMMIT");
    if (!s.ok()) (void)Exec("ROLLBACK");
    return s;
  }

  absl::Status Migrate() {
    return Transaction([&]() -> absl::Status {
      if (absl::Status s = Exec(kCreateVersionTable); !s.ok()) return s;
      absl::StatusOr<int> at = SchemaVersion();
      if (!at.ok()) return at.status();
      std::vector<std::string> scripts = MigrationScripts(Dialect::kSqlite);
      if (*at > static_cast<int>(scripts.size())) {
        return absl::FailedPreconditionError(
            absl::StrCat("the ladder database is at schema version ", *at,
                         ", newer than this program's ", scripts.size()));
      }
      for (int v = *at; v < static_cast<int>(scripts.size()); ++v) {
        if (absl::Status s = Exec(scripts[v]); !s.ok()) return s;
        Stmt mark(db_, "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)");
        mark.Bind(1, int64_t{v + 1}).Bind(2, NowSeconds()).Step();
        if (!mark.ok()) return mark.status();
      }
      return absl::OkStatus();
    });
  }

  absl::StatusOr<int64_t> AddLabelJobs(const std::string& settings, int64_t positions,
                                       int64_t chunk) override {
    int64_t added = 0;
    absl::Status s = Transaction([&]() -> absl::Status {
      Stmt first(db_, "SELECT count FROM label_jobs WHERE settings = ? AND first_index = 0");
      if (first.Bind(1, settings).Step() && first.Int(0) != std::min(chunk, positions)) {
        return absl::FailedPreconditionError(absl::StrCat(
            "this run is already scheduled in jobs of ", first.Int(0), " positions, not ", chunk));
      }
      if (!first.ok()) return first.status();
      for (int64_t at = 0; at < positions; at += chunk) {
        Stmt add(db_,
                 "INSERT INTO label_jobs (settings, first_index, count) VALUES (?, ?, ?) "
                 "ON CONFLICT (settings, first_index) DO NOTHING");
        add.Bind(1, settings).Bind(2, at).Bind(3, std::min(chunk, positions - at)).Step();
        if (!add.ok()) return add.status();
        added += sqlite3_changes(db_);
      }
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return added;
  }

  absl::StatusOr<std::optional<LabelJob>> TakeLabelJob(const std::string& token,
                                                       double lease_seconds) override {
    std::optional<LabelJob> taken;
    absl::StatusOr<bool> found = TakeRow(
        "label_jobs", "id, settings, first_index, count", token, lease_seconds, [&](Stmt& q) {
          taken = LabelJob{q.Int(0), q.Text(1), q.Int(2), q.Int(3)};
        });
    if (!found.ok()) return found.status();
    return taken;
  }

  absl::StatusOr<bool> FinishLabelJob(int64_t id, const std::string& token,
                                      const std::string& lines,
                                      const std::string& worker) override {
    bool held = false;
    absl::Status s = Transaction([&]() -> absl::Status {
      Stmt q(db_,
             "UPDATE label_jobs SET state = 'done', token = '', lines = ?, worker = ? "
             "WHERE id = ? AND state = 'taken' AND token = ?");
      q.Bind(1, lines).Bind(2, worker).Bind(3, id).Bind(4, token).Step();
      if (!q.ok()) return q.status();
      held = sqlite3_changes(db_) > 0;
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return held;
  }

  absl::StatusOr<bool> ReleaseLabelJob(int64_t id, const std::string& token) override {
    return ReleaseRow("label_jobs", id, token);
  }

  absl::StatusOr<PairCounts> CountLabelJobs() override { return CountRows("label_jobs"); }

  absl::StatusOr<std::string> LabelLines(const std::string& settings, int64_t* pending) override {
    Stmt q(db_,
           "SELECT state = 'done', lines FROM label_jobs WHERE settings = ? ORDER BY first_index");
    q.Bind(1, settings);
    std::string out;
    bool gap = false;
    *pending = 0;
    while (q.Step()) {
      if (q.Int(0) == 0) {
        ++*pending;
        gap = true;
      } else if (!gap) {
        out += q.Text(1);
      }
    }
    if (!q.ok()) return q.status();
    return out;
  }

  absl::StatusOr<int> SchemaVersion() override {
    Stmt q(db_, "SELECT COALESCE(MAX(version), 0) FROM schema_version");
    int version = q.Step() ? static_cast<int>(q.Int(0)) : 0;
    if (!q.ok()) return q.status();
    return version;
  }

  absl::StatusOr<int64_t> AddEntrant(const Entrant& e,
                                     const std::vector<PairToSchedule>& pairs) override {
    int64_t id = 0;
    absl::Status s = Transaction([&]() -> absl::Status {
      Stmt taken(db_, "SELECT 1 FROM entrants WHERE name = ?");
      if (taken.Bind(1, e.name).Step()) {
        return absl::AlreadyExistsError(absl::StrCat("an entrant is already named '", e.name, "'"));
      }
      Stmt add(db_,
               "INSERT INTO entrants (name, spec, options, binary_hash, added_at, rules) "
               "VALUES (?, ?, ?, ?, ?, ?)");
      add.Bind(1, e.name).Bind(2, e.spec).Bind(3, e.options).Bind(4, e.binary_hash);
      add.Bind(5, NowSeconds()).Bind(6, e.rules).Step();
      if (!add.ok()) return add.status();
      id = sqlite3_last_insert_rowid(db_);
      for (const PairToSchedule& p : pairs) {
        Stmt known(db_, "SELECT 1 FROM entrants WHERE id = ?");
        if (!known.Bind(1, p.opponent).Step() || p.opponent == id) {
          return absl::NotFoundError(absl::StrCat("no entrant has id ", p.opponent));
        }
        Stmt pair(db_, "INSERT INTO pairs (a, b, seed, rules) VALUES (?, ?, ?, ?)");
        pair.Bind(1, p.opponent).Bind(2, id).Bind(3, static_cast<int64_t>(p.seed));
        pair.Bind(4, p.rules).Step();
        if (!pair.ok()) return pair.status();
      }
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return id;
  }

  absl::StatusOr<std::vector<Entrant>> Entrants() override {
    Stmt q(db_, "SELECT id, name, spec, options, binary_hash, rules FROM entrants ORDER BY id");
    std::vector<Entrant> out;
    while (q.Step()) {
      out.push_back({q.Int(0), q.Text(1), q.Text(2), q.Text(3), q.Text(4), q.Text(5)});
    }
    if (!q.ok()) return q.status();
    return out;
  }

  // Takes the first row of `table` (pairs, label_jobs) not done and not
  // held by a live lease, and holds it under `token`; `read` reads its
  // `columns` (id first). False when there is none.
  absl::StatusOr<bool> TakeRow(const char* table, const char* columns, const std::string& token,
                               double lease_seconds, const std::function<void(Stmt&)>& read) {
    bool taken = false;
    absl::Status s = Transaction([&]() -> absl::Status {
      double now = NowSeconds();
      Stmt q(db_, absl::StrCat("SELECT ", columns, " FROM ", table,
                               " WHERE state <> 'done' AND (state = 'queued' OR lease_until < ?) "
                               "ORDER BY id LIMIT 1")
                      .c_str());
      int64_t id = 0;
      if (q.Bind(1, now).Step()) {
        taken = true;
        id = q.Int(0);
        read(q);
      }
      if (!q.ok()) return q.status();
      if (!taken) return absl::OkStatus();
      Stmt hold(db_, absl::StrCat("UPDATE ", table,
                                  " SET state = 'taken', lease_until = ?, token = ?, "
                                  "attempts = attempts + 1 WHERE id = ?")
                         .c_str());
      hold.Bind(1, now + lease_seconds).Bind(2, token).Bind(3, id).Step();
      return hold.status();
    });
    if (!s.ok()) return s;
    return taken;
  }

  // Hands row `id` of `table` held under `token` back to the queue.
  absl::StatusOr<bool> ReleaseRow(const char* table, int64_t id, const std::string& token) {
    bool held = false;
    absl::Status s = Transaction([&]() -> absl::Status {
      Stmt q(db_, absl::StrCat("UPDATE ", table,
                               " SET state = 'queued', token = '', lease_until = 0 "
                               "WHERE id = ? AND state = 'taken' AND token = ?")
                      .c_str());
      q.Bind(1, id).Bind(2, token).Step();
      if (!q.ok()) return q.status();
      held = sqlite3_changes(db_) > 0;
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return held;
  }

  absl::StatusOr<PairCounts> CountRows(const char* table) {
    Stmt q(db_, absl::StrCat("SELECT COALESCE(SUM(state = 'done'), 0), "
                             "COALESCE(SUM(state = 'taken' AND lease_until >= ?), 0), COUNT(*) "
                             "FROM ",
                             table)
                    .c_str());
    PairCounts c;
    if (q.Bind(1, NowSeconds()).Step()) {
      c.done = q.Int(0);
      c.taken = q.Int(1);
      c.queued = q.Int(2) - c.done - c.taken;
    }
    if (!q.ok()) return q.status();
    return c;
  }

  absl::StatusOr<std::optional<TakenPair>> TakePair(const std::string& token,
                                                    double lease_seconds) override {
    std::optional<TakenPair> taken;
    absl::StatusOr<bool> found =
        TakeRow("pairs", "id, a, b, seed, rules", token, lease_seconds, [&](Stmt& q) {
          taken =
              TakenPair{q.Int(0), q.Int(1), q.Int(2), static_cast<uint64_t>(q.Int(3)), q.Text(4)};
        });
    if (!found.ok()) return found.status();
    return taken;
  }

  absl::Status InsertGame(const GameRow& g, double now) {
    Stmt add(db_,
             "INSERT INTO games (pair_id, game, ry, gb, rules, seed, winner_team, points, "
             "forfeit, record, ms_ry, ms_gb, version_ry, version_gb, worker, finished_at, sides, "
             "seat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    add.Bind(1, g.pair_id).Bind(2, int64_t{g.game}).Bind(3, g.ry).Bind(4, g.gb);
    add.Bind(5, g.rules).Bind(6, static_cast<int64_t>(g.seed));
    add.Bind(7, int64_t{g.winner_team}).Bind(8, int64_t{g.points}).Bind(9, g.forfeit);
    add.Bind(10, g.record).Bind(11, g.ms_ry).Bind(12, g.ms_gb).Bind(13, g.version_ry);
    add.Bind(14, g.version_gb).Bind(15, g.worker).Bind(16, now).Bind(17, int64_t{g.sides});
    add.Bind(18, int64_t{g.seat}).Step();
    return add.status();
  }

  absl::StatusOr<bool> FinishPair(int64_t pair_id, const std::string& token,
                                  const std::vector<GameRow>& games) override {
    bool held = false;
    absl::Status s = Transaction([&]() -> absl::Status {
      Stmt q(db_, "SELECT 1 FROM pairs WHERE id = ? AND state = 'taken' AND token = ?");
      held = q.Bind(1, pair_id).Bind(2, token).Step();
      if (!q.ok()) return q.status();
      if (!held) return absl::OkStatus();
      double now = NowSeconds();
      for (const GameRow& g : games) {
        if (absl::Status st = InsertGame(g, now); !st.ok()) return st;
      }
      Stmt done(db_, "UPDATE pairs SET state = 'done', token = '' WHERE id = ?");
      done.Bind(1, pair_id).Step();
      return done.status();
    });
    if (!s.ok()) return s;
    return held;
  }

  absl::StatusOr<bool> ReleasePair(int64_t pair_id, const std::string& token) override {
    return ReleaseRow("pairs", pair_id, token);
  }

  absl::StatusOr<PairCounts> CountPairs() override { return CountRows("pairs"); }

  absl::StatusOr<std::vector<GameOutcome>> Outcomes() override {
    Stmt q(db_,
           "SELECT pair_id, game, CASE winner_team WHEN 0 THEN ry ELSE gb END, "
           "CASE winner_team WHEN 0 THEN gb ELSE ry END, sides, ry FROM games "
           "ORDER BY pair_id, game");
    std::vector<GameOutcome> out;
    while (q.Step()) {
      out.push_back({q.Int(0), static_cast<int>(q.Int(1)), q.Int(2), q.Int(3),
                     static_cast<int>(q.Int(4)), q.Int(5)});
    }
    if (!q.ok()) return q.status();
    return out;
  }

  absl::StatusOr<std::vector<GameRow>> GamesOfPair(int64_t pair_id) override {
    Stmt q(db_,
           "SELECT pair_id, game, ry, gb, rules, seed, winner_team, points, forfeit, record, "
           "ms_ry, ms_gb, version_ry, version_gb, worker, sides, seat FROM games WHERE pair_id = ? "
           "ORDER BY game");
    q.Bind(1, pair_id);
    std::vector<GameRow> out;
    while (q.Step()) {
      out.push_back({q.Int(0), static_cast<int>(q.Int(1)), q.Int(2), q.Int(3), q.Text(4),
                     static_cast<uint64_t>(q.Int(5)), static_cast<int>(q.Int(6)),
                     static_cast<int>(q.Int(7)), q.Text(8), q.Text(9), q.Real(10), q.Real(11),
                     q.Text(12), q.Text(13), q.Text(14), static_cast<int>(q.Int(15)),
                     static_cast<int>(q.Int(16))});
    }
    if (!q.ok()) return q.status();
    return out;
  }

 private:
  sqlite3* db_;
};

}  // namespace

namespace {

// `path` as a SQLite URI filename (sqlite.org/uri.html).
std::string UriOf(const std::string& path, const std::string& query) {
  std::string out = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      absl::StrAppendFormat(&out, "%%%02X", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "?" + query;
}

// Opens an existing database for reading only: nothing is created, written
// or migrated. In a folder this process cannot write, SQLite could not make
// the write-ahead log's index there: the file is then opened as immutable.
absl::StatusOr<std::unique_ptr<LadderStore>> OpenSqliteReadOnly(const std::string& path) {
  if (access(path.c_str(), R_OK) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot read '", path, "': ", std::strerror(errno)));
  }
  std::string dir = std::filesystem::path(path).parent_path().string();
  bool dir_writable = access(dir.empty() ? "." : dir.c_str(), W_OK) == 0;
  std::string uri = UriOf(path, dir_writable ? "mode=ro" : "mode=ro&immutable=1");
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return absl::UnavailableError(absl::StrCat("cannot open '", path, "': ", message));
  }
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  auto store = std::make_unique<SqliteStore>(db);
  absl::StatusOr<int> version = store->SchemaVersion();
  if (!version.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "cannot read '", path, "' as a ladder database: ", version.status().message()));
  }
  if (*version != kLadderSchemaVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", path, "' is at schema version ", *version,
                     ", this program reads version ", kLadderSchemaVersion,
                     (*version < kLadderSchemaVersion
                          ? "; open it once writable (ladder add or work) to migrate it"
                          : "")));
  }
  return store;
}

}  // namespace

absl::StatusOr<std::unique_ptr<LadderStore>> OpenSqliteStore(const std::string& path,
                                                             bool read_only) {
  if (read_only) return OpenSqliteReadOnly(path);
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return absl::UnavailableError(absl::StrCat("cannot open '", path, "': ", message));
  }
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  auto store = std::make_unique<SqliteStore>(db);
  // WAL: readers never block the writer. synchronous=NORMAL: a commit
  // survives the process being killed (the log is on disk), though not a
  // power cut in the last moments.
  for (const char* pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"}) {
    if (absl::Status s = store->Exec(pragma); !s.ok()) {
      return absl::UnavailableError(absl::StrCat("cannot use '", path, "': ", s.message()));
    }
  }
  if (absl::Status s = store->CheckIntact(); !s.ok()) {
    return absl::DataLossError(
        absl::StrCat("'", path, "': ", s.message(), "; nothing was written to it"));
  }
  if (absl::Status s = store->Migrate(); !s.ok()) return s;
  return store;
}

}  // namespace uckers::ladderdb
