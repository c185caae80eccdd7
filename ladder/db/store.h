#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

// The standing ladder's database: entrants, the schedule of duplicate pairs
// and every game played. One interface, two backends with the same schema:
// SQLite (a file; the processes of one machine) and PostgreSQL (a server;
// workers on any number of machines). docs/ladder.md describes the tables.
namespace uckers {

// One player of the ladder.
struct Entrant {
  int64_t id = 0;           // 1, 2, ... in the order entered
  std::string name;         // unique in the ladder
  std::string spec;         // a player specification (match/player.h)
  std::string options;      // the spec's `key=value` settings, "" if none
  std::string binary_hash;  // of the program a `cmd:` spec runs, else ""
  std::string rules;        // the ruleset it was entered under (full switch
                            // list); "" for an entrant of schema version 1
};

// A pair to schedule for a new entrant: `opponent` plays Red-Yellow in the
// pair's first game and Green-Blue in its second, on the dice of `seed`.
struct PairToSchedule {
  int64_t opponent = 0;
  uint64_t seed = 0;  // below 2^63
  std::string rules;  // the ruleset as its full switch list
};

// A scheduled pair a worker holds until its lease runs out.
struct TakenPair {
  int64_t id = 0;
  int64_t a = 0;  // entrant playing RY in game 0 and GB in game 1
  int64_t b = 0;
  uint64_t seed = 0;
  std::string rules;
};

// One finished game, as stored.
struct GameRow {
  int64_t pair_id = 0;
  int game = 0;    // 0: the pair's entrant a plays RY; 1: a plays GB
  int64_t ry = 0;  // entrant ids
  int64_t gb = 0;
  std::string rules;    // the ruleset as its full switch list
  uint64_t seed = 0;    // the dice seed
  int winner_team = 0;  // 0 = RY, 1 = GB
  int points = 0;       // 1..3 (RULES.md §8)
  std::string forfeit;  // why a player forfeited, "" when none did
  std::string record;   // docs/records.md text
  double ms_ry = 0;     // thinking time each team used
  double ms_gb = 0;
  std::string version_ry;  // engine versions
  std::string version_gb;
  std::string worker;  // the worker that played it
  // With more than two sides (RULES.md §11): `ry` is the entrant alone on
  // side `seat`, `gb` the entrant on every other side, and `winner_team`
  // 0 when the lone entrant's side won; `points` the winners'.
  int sides = 2;
  int seat = 0;
};

// A game's outcome: all the ratings need.
struct GameOutcome {
  int64_t pair_id = 0;
  int game = 0;
  int64_t winner = 0;  // entrant ids
  int64_t loser = 0;
  int sides = 2;      // the layout's sides
  int64_t alone = 0;  // with more than two sides, the entrant alone on its side
};

struct PairCounts {
  int64_t queued = 0;  // never taken, or taken and the lease ran out
  int64_t taken = 0;   // held by a worker whose lease still runs
  int64_t done = 0;
};

// A job of `uckers label work` (learn/label.h): positions [first, first +
// count) of the labelling run its settings name.
struct LabelJob {
  int64_t id = 0;
  std::string settings;  // the run's settings, as its lines carry them
  int64_t first = 0;
  int64_t count = 0;
};

inline constexpr int kLadderSchemaVersion = 3;

class LadderStore {
 public:
  virtual ~LadderStore() = default;

  // Enters `entrant` (its id is assigned) and schedules `pairs` against
  // entrants already there, in one transaction; returns the new id. A name
  // already taken or an unknown opponent is refused and nothing is written.
  virtual absl::StatusOr<int64_t> AddEntrant(const Entrant& entrant,
                                             const std::vector<PairToSchedule>& pairs) = 0;

  // Every entrant, by id.
  virtual absl::StatusOr<std::vector<Entrant>> Entrants() = 0;

  // Takes the first scheduled pair that is not done and not held by a
  // live lease, and holds it under `token` for `lease_seconds`; nullopt
  // when there is none to take now. Safe from any number of workers.
  virtual absl::StatusOr<std::optional<TakenPair>> TakePair(const std::string& token,
                                                            double lease_seconds) = 0;

  // Writes the pair's games and marks it done, in one transaction, when the
  // pair is still held under `token`; false (nothing written) when another
  // worker took it over after the lease ran out, or it is done.
  virtual absl::StatusOr<bool> FinishPair(int64_t pair_id, const std::string& token,
                                          const std::vector<GameRow>& games) = 0;

  // Hands a pair held under `token` back to the queue at once (a worker
  // stopping before it has finished the pair); false (nothing changed) when
  // the pair is not held under `token`.
  virtual absl::StatusOr<bool> ReleasePair(int64_t pair_id, const std::string& token) = 0;

  virtual absl::StatusOr<PairCounts> CountPairs() = 0;

  // Every game's outcome, by pair and game.
  virtual absl::StatusOr<std::vector<GameOutcome>> Outcomes() = 0;

  // Every stored game of one pair, by game.
  virtual absl::StatusOr<std::vector<GameRow>> GamesOfPair(int64_t pair_id) = 0;

  // Schedules the labelling run `settings` as jobs of `chunk` positions
  // until `positions`, in one transaction; returns the jobs newly added (a
  // job already there is kept as it is). Refused when the run is already
  // scheduled in jobs of another size.
  virtual absl::StatusOr<int64_t> AddLabelJobs(const std::string& settings, int64_t positions,
                                               int64_t chunk) = 0;

  // Takes the first job not done and not held by a live lease, as TakePair.
  virtual absl::StatusOr<std::optional<LabelJob>> TakeLabelJob(const std::string& token,
                                                               double lease_seconds) = 0;

  // Stores the job's lines and marks it done when it is still held under
  // `token`; false (nothing written) otherwise, as FinishPair.
  virtual absl::StatusOr<bool> FinishLabelJob(int64_t id, const std::string& token,
                                              const std::string& lines,
                                              const std::string& worker) = 0;

  // Hands a job held under `token` back to the queue, as ReleasePair.
  virtual absl::StatusOr<bool> ReleaseLabelJob(int64_t id, const std::string& token) = 0;

  virtual absl::StatusOr<PairCounts> CountLabelJobs() = 0;

  // The lines of run `settings`'s jobs, in position order, up to the first
  // job not done; `*pending` gets the number of its jobs not done.
  virtual absl::StatusOr<std::string> LabelLines(const std::string& settings, int64_t* pending) = 0;

  // The schema version the database is at (kLadderSchemaVersion once open).
  virtual absl::StatusOr<int> SchemaVersion() = 0;
};

// Opens (creating when missing, and migrating to kLadderSchemaVersion) the
// ladder database at `url`: `postgresql://...` or `postgres://...` for
// PostgreSQL, else a SQLite file path (an optional `sqlite:` prefix is
// dropped). A database at a newer schema version than this program's is
// refused by name.
// With `read_only`, a SQLite file is not created, written or migrated, and
// can be read in a folder this process cannot write (`ladder table`).
absl::StatusOr<std::unique_ptr<LadderStore>> OpenLadderStore(const std::string& url,
                                                             bool read_only = false);

// OK when the database at `url` exists: a PostgreSQL database always (the
// server answers for it when it is opened), a SQLite file when it is there.
// A worker or an export that would create an empty database on a mistyped
// path is refused instead (NotFound, naming the path).
absl::Status RequireExistingDb(const std::string& url);

// Whether `url` names a PostgreSQL database.
bool IsPostgresUrl(const std::string& url);

}  // namespace uckers
