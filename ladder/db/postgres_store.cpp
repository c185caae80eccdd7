#include "ladder/db/postgres_store.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <iostream>
#include <pqxx/pqxx>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ladder/db/schema.h"

namespace uckers::ladderdb {
namespace {

// Any number that no other program takes an advisory lock on.
constexpr int64_t kMigrationLock = 0x75636b6572730001;  // "uckers" 1
constexpr const char* kNow = "extract(epoch from clock_timestamp())";

absl::Status ErrorOf(const std::exception& e) {
  return absl::InternalError(absl::StrCat("postgresql: ", e.what()));
}

// How long a lost connection is tried again before an operation fails.
constexpr auto kReconnectFor = std::chrono::seconds(60);

class PostgresStore : public LadderStore {
 public:
  PostgresStore(std::unique_ptr<pqxx::connection> c, std::string url)
      : c_(std::move(c)), url_(std::move(url)) {}

  // Runs `body(work)` in a transaction: committed when it returns OK,
  // rolled back otherwise (and on any exception, which becomes an error).
  // A connection found lost (the server restarted, the backend ended) is
  // said so in words and opened again for up to kReconnectFor, then the
  // transaction runs again from its start; a commit whose outcome is
  // unknown is an error, never run twice.
  template <typename Body>
  absl::Status Transaction(Body body) {
    while (true) {
      try {
        if (!c_ || !c_->is_open()) throw pqxx::broken_connection("the connection is closed");
        pqxx::work w(*c_);
        absl::Status s = body(w);
        if (s.ok()) w.commit();
        return s;
      } catch (const pqxx::in_doubt_error& e) {
        return absl::UnavailableError(absl::StrCat(
            "postgresql: the connection was lost while committing; whether the change was "
            "written is unknown: ",
            e.what()));
      } catch (const std::exception& e) {
        bool lost = dynamic_cast<const pqxx::broken_connection*>(&e) || !c_ || !c_->is_open();
        if (!lost) return ErrorOf(e);
        if (absl::Status r = Reconnect(e.what()); !r.ok()) return r;
      }
    }
  }

  // Opens the connection again, retrying with growing pauses for up to
  // kReconnectFor; each step is said on stderr.
  absl::Status Reconnect(const std::string& why) {
    std::cerr << "ladder database: the connection to the PostgreSQL server was lost ("
              << Trimmed(why) << "); connecting again for up to " << kReconnectFor.count() << " s"
              << std::endl;
    auto give_up = std::chrono::steady_clock::now() + kReconnectFor;
    auto pause = std::chrono::milliseconds(100);
    std::string last = why;
    while (true) {
      try {
        c_ = std::make_unique<pqxx::connection>(url_);
        std::cerr << "ladder database: connected again" << std::endl;
        return absl::OkStatus();
      } catch (const std::exception& e) {
        last = e.what();
      }
      if (std::chrono::steady_clock::now() + pause >= give_up) break;
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::milliseconds(5000));
    }
    return absl::UnavailableError(absl::StrCat(
        "postgresql: the connection to the server was lost and could not be opened again in ",
        kReconnectFor.count(), " s: ", Trimmed(last)));
  }

  static std::string Trimmed(const std::string& text) {
    std::string out = text;
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
  }

  absl::Status Migrate() {
    return Transaction([&](pqxx::work& w) -> absl::Status {
      w.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock);
      w.exec(kCreateVersionTable);
      int at = w.exec1("SELECT COALESCE(MAX(version), 0) FROM schema_version")[0].as<int>();
      std::vector<std::string> scripts = MigrationScripts(Dialect::kPostgres);
      if (at > static_cast<int>(scripts.size())) {
        return absl::FailedPreconditionError(
            absl::StrCat("the ladder database is at schema version ", at,
                         ", newer than this program's ", scripts.size()));
      }
      for (int v = at; v < static_cast<int>(scripts.size()); ++v) {
        w.exec(scripts[v]);
        w.exec_params(absl::StrCat("INSERT INTO schema_version (version, applied_at) VALUES ($1, ",
                                   kNow, ")"),
                      v + 1);
      }
      return absl::OkStatus();
    });
  }

  absl::StatusOr<int64_t> AddLabelJobs(const std::string& settings, int64_t positions,
                                       int64_t chunk) override {
    int64_t added = 0;
    absl::Status s = Transaction([&](pqxx::work& w) -> absl::Status {
      pqxx::result first = w.exec_params(
          "SELECT count FROM label_jobs WHERE settings = $1 AND first_index = 0", settings);
      if (!first.empty() && first[0][0].as<int64_t>() != std::min(chunk, positions)) {
        return absl::FailedPreconditionError(
            absl::StrCat("this run is already scheduled in jobs of ", first[0][0].as<int64_t>(),
                         " positions, not ", chunk));
      }
      for (int64_t at = 0; at < positions; at += chunk) {
        added += w.exec_params(
                      "INSERT INTO label_jobs (settings, first_index, count) VALUES ($1, $2, $3) "
                      "ON CONFLICT (settings, first_index) DO NOTHING",
                      settings, at, std::min(chunk, positions - at))
                     .affected_rows();
      }
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return added;
  }

  absl::StatusOr<std::optional<LabelJob>> TakeLabelJob(const std::string& token,
                                                       double lease_seconds) override {
    absl::StatusOr<pqxx::result> r =
        TakeRow("label_jobs", "id, settings, first_index, count", token, lease_seconds);
    if (!r.ok()) return r.status();
    if (r->empty()) return std::nullopt;
    const pqxx::row row = (*r)[0];
    return LabelJob{row[0].as<int64_t>(), row[1].as<std::string>(), row[2].as<int64_t>(),
                    row[3].as<int64_t>()};
  }

  absl::StatusOr<bool> FinishLabelJob(int64_t id, const std::string& token,
                                      const std::string& lines,
                                      const std::string& worker) override {
    bool held = false;
    absl::Status s = Transaction([&](pqxx::work& w) {
      held = !w.exec_params(
                   "UPDATE label_jobs SET state = 'done', token = '', lines = $1, worker = $2 "
                   "WHERE id = $3 AND state = 'taken' AND token = $4 RETURNING id",
                   lines, worker, id, token)
                  .empty();
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
    std::string out;
    *pending = 0;
    absl::Status s = Transaction([&](pqxx::work& w) {
      bool gap = false;
      for (const pqxx::row& r :
           w.exec_params("SELECT state = 'done', lines FROM label_jobs WHERE settings = $1 "
                         "ORDER BY first_index",
                         settings)) {
        if (!r[0].as<bool>()) {
          ++*pending;
          gap = true;
        } else if (!gap) {
          out += r[1].as<std::string>();
        }
      }
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return out;
  }

  absl::StatusOr<int> SchemaVersion() override {
    int version = 0;
    absl::Status s = Transaction([&](pqxx::work& w) {
      version = w.exec1("SELECT COALESCE(MAX(version), 0) FROM schema_version")[0].as<int>();
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return version;
  }

  absl::StatusOr<int64_t> AddEntrant(const Entrant& e,
                                     const std::vector<PairToSchedule>& pairs) override {
    int64_t id = 0;
    absl::Status s = Transaction([&](pqxx::work& w) -> absl::Status {
      // Entrants are added one at a time, so that two adds of one name
      // cannot both pass the check below.
      w.exec("LOCK TABLE entrants IN SHARE ROW EXCLUSIVE MODE");
      if (!w.exec_params("SELECT 1 FROM entrants WHERE name = $1", e.name).empty()) {
        return absl::AlreadyExistsError(absl::StrCat("an entrant is already named '", e.name, "'"));
      }
      id = w.exec_params1(absl::StrCat("INSERT INTO entrants (name, spec, options, binary_hash, "
                                       "rules, added_at) VALUES ($1, $2, $3, $4, $5, ",
                                       kNow, ") RETURNING id"),
                          e.name, e.spec, e.options, e.binary_hash, e.rules)[0]
               .as<int64_t>();
      for (const PairToSchedule& p : pairs) {
        if (p.opponent == id ||
            w.exec_params("SELECT 1 FROM entrants WHERE id = $1", p.opponent).empty()) {
          return absl::NotFoundError(absl::StrCat("no entrant has id ", p.opponent));
        }
        w.exec_params("INSERT INTO pairs (a, b, seed, rules) VALUES ($1, $2, $3, $4)", p.opponent,
                      id, static_cast<int64_t>(p.seed), p.rules);
      }
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return id;
  }

  absl::StatusOr<std::vector<Entrant>> Entrants() override {
    std::vector<Entrant> out;
    absl::Status s = Transaction([&](pqxx::work& w) {
      for (const pqxx::row& r :
           w.exec("SELECT id, name, spec, options, binary_hash, rules FROM entrants ORDER BY id")) {
        out.push_back({r[0].as<int64_t>(), r[1].as<std::string>(), r[2].as<std::string>(),
                       r[3].as<std::string>(), r[4].as<std::string>(), r[5].as<std::string>()});
      }
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return out;
  }

  // Takes the first row of `table` (pairs, label_jobs) not done and not
  // held by a live lease, and holds it under `token`: its `columns` (id
  // first), or an empty result when there is none.
  absl::StatusOr<pqxx::result> TakeRow(const char* table, const char* columns,
                                       const std::string& token, double lease_seconds) {
    pqxx::result taken;
    absl::Status s = Transaction([&](pqxx::work& w) {
      // A take lost in a server crash costs nothing: the row is queued.
      w.exec("SET LOCAL synchronous_commit = off");
      taken = w.exec_params(
          absl::StrCat("UPDATE ", table, " SET state = 'taken', lease_until = ", kNow,
                       " + $1, token = $2, attempts = attempts + 1 WHERE id = (SELECT id FROM ",
                       table, " WHERE state <> 'done' AND (state = 'queued' OR lease_until < ",
                       kNow, ") ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING ", columns),
          lease_seconds, token);
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return taken;
  }

  // Hands row `id` of `table` held under `token` back to the queue.
  absl::StatusOr<bool> ReleaseRow(const char* table, int64_t id, const std::string& token) {
    bool held = false;
    absl::Status s = Transaction([&](pqxx::work& w) {
      held = !w.exec_params(absl::StrCat("UPDATE ", table,
                                         " SET state = 'queued', token = '', lease_until = 0 "
                                         "WHERE id = $1 AND state = 'taken' AND token = $2 "
                                         "RETURNING id"),
                            id, token)
                  .empty();
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return held;
  }

  absl::StatusOr<PairCounts> CountRows(const char* table) {
    PairCounts c;
    absl::Status s = Transaction([&](pqxx::work& w) {
      pqxx::row r = w.exec1(absl::StrCat(
          "SELECT COUNT(*) FILTER (WHERE state = 'done'), COUNT(*) FILTER (WHERE state = "
          "'taken' AND lease_until >= ",
          kNow, "), COUNT(*) FROM ", table));
      c.done = r[0].as<int64_t>();
      c.taken = r[1].as<int64_t>();
      c.queued = r[2].as<int64_t>() - c.done - c.taken;
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return c;
  }

  absl::StatusOr<std::optional<TakenPair>> TakePair(const std::string& token,
                                                    double lease_seconds) override {
    absl::StatusOr<pqxx::result> r =
        TakeRow("pairs", "id, a, b, seed, rules", token, lease_seconds);
    if (!r.ok()) return r.status();
    if (r->empty()) return std::nullopt;
    const pqxx::row row = (*r)[0];
    return TakenPair{row[0].as<int64_t>(), row[1].as<int64_t>(), row[2].as<int64_t>(),
                     static_cast<uint64_t>(row[3].as<int64_t>()), row[4].as<std::string>()};
  }

  absl::StatusOr<bool> FinishPair(int64_t pair_id, const std::string& token,
                                  const std::vector<GameRow>& games) override {
    bool held = false;
    absl::Status s = Transaction([&](pqxx::work& w) {
      held = !w.exec_params(
                   "SELECT 1 FROM pairs WHERE id = $1 AND state = 'taken' AND "
                   "token = $2 FOR UPDATE",
                   pair_id, token)
                  .empty();
      if (!held) return absl::OkStatus();
      for (const GameRow& g : games) {
        w.exec_params(
            absl::StrCat("INSERT INTO games (pair_id, game, ry, gb, rules, seed, winner_team, "
                         "points, forfeit, record, ms_ry, ms_gb, version_ry, version_gb, "
                         "worker, sides, seat, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, "
                         "$8, $9, $10, $11, $12, $13, $14, $15, $16, $17, ",
                         kNow, ")"),
            g.pair_id, g.game, g.ry, g.gb, g.rules, static_cast<int64_t>(g.seed), g.winner_team,
            g.points, g.forfeit, g.record, g.ms_ry, g.ms_gb, g.version_ry, g.version_gb, g.worker,
            g.sides, g.seat);
      }
      w.exec_params("UPDATE pairs SET state = 'done', token = '' WHERE id = $1", pair_id);
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return held;
  }

  absl::StatusOr<bool> ReleasePair(int64_t pair_id, const std::string& token) override {
    return ReleaseRow("pairs", pair_id, token);
  }

  absl::StatusOr<PairCounts> CountPairs() override { return CountRows("pairs"); }

  absl::StatusOr<std::vector<GameOutcome>> Outcomes() override {
    std::vector<GameOutcome> out;
    absl::Status s = Transaction([&](pqxx::work& w) {
      for (const pqxx::row& r :
           w.exec("SELECT pair_id, game, CASE winner_team WHEN 0 THEN ry ELSE gb END, "
                  "CASE winner_team WHEN 0 THEN gb ELSE ry END, sides, ry FROM games "
                  "ORDER BY pair_id, game")) {
        out.push_back({r[0].as<int64_t>(), r[1].as<int>(), r[2].as<int64_t>(), r[3].as<int64_t>(),
                       r[4].as<int>(), r[5].as<int64_t>()});
      }
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return out;
  }

  absl::StatusOr<std::vector<GameRow>> GamesOfPair(int64_t pair_id) override {
    std::vector<GameRow> out;
    absl::Status s = Transaction([&](pqxx::work& w) {
      for (const pqxx::row& r :
           w.exec_params("SELECT pair_id, game, ry, gb, rules, seed, winner_team, points, forfeit, "
                         "record, ms_ry, ms_gb, version_ry, version_gb, worker, sides, seat "
                         "FROM games "
                         "WHERE pair_id = $1 ORDER BY game",
                         pair_id)) {
        out.push_back({r[0].as<int64_t>(), r[1].as<int>(), r[2].as<int64_t>(), r[3].as<int64_t>(),
                       r[4].as<std::string>(), static_cast<uint64_t>(r[5].as<int64_t>()),
                       r[6].as<int>(), r[7].as<int>(), r[8].as<std::string>(),
                       r[9].as<std::string>(), r[10].as<double>(), r[11].as<double>(),
                       r[12].as<std::string>(), r[13].as<std::string>(), r[14].as<std::string>(),
                       r[15].as<int>(), r[16].as<int>()});
      }
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return out;
  }

 private:
  std::unique_ptr<pqxx::connection> c_;
  std::string url_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<LadderStore>> OpenPostgresStore(const std::string& url) {
  std::unique_ptr<pqxx::connection> c;
  try {
    c = std::make_unique<pqxx::connection>(url);
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("cannot connect to the ladder database: ", e.what()));
  }
  auto store = std::make_unique<PostgresStore>(std::move(c), url);
  if (absl::Status s = store->Migrate(); !s.ok()) return s;
  return store;
}

}  // namespace uckers::ladderdb
