#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ladder/db/store.h"
#include "rules/rules.h"
#include "uckers/v1/match.pb.h"

// A standing ladder kept in a database (ladder/db/store.h): entrants are
// added one at a time with only their own pairs scheduled, workers play the
// scheduled pairs, and the rating list is computed from every game stored,
// by the same maximum-likelihood model as the in-memory ladder
// (ladder/ratings.h). docs/ladder.md.
namespace uckers {

struct LadderAddConfig {
  std::string db;                  // a database URL or SQLite path (OpenLadderStore)
  std::string name;                // the new entrant's name, unique in the ladder
  std::string spec;                // its player specification (match/player.h)
  int pairs = 10;                  // duplicate pairs against each chosen opponent
  int nearest = 0;                 // > 0: only the entrants nearest in rating; 0: all
  std::optional<double> near_elo;  // the rating "nearest" measures from;
                                   // default the best entrant's
  uint64_t seed = 1;               // pair p against an opponent plays dice seed + p
  Rules rules;
};

struct LadderAddResult {
  int64_t entrant = 0;
  std::vector<std::string> opponents;  // names, by id
  int pairs = 0;                       // scheduled in all
};

// Checks the specification (a `cmd:` program is hashed), chooses the
// opponents and enters the player with its pairs in one transaction. Bad
// values (spec, pairs, seed, empty name) are InvalidArgument; a name taken
// is AlreadyExists.
absl::StatusOr<LadderAddResult> AddToLadder(const LadderAddConfig& config);

struct LadderWorkConfig {
  std::string db;
  bool until_empty = false;     // return when no pair is left to play; else
                                // wait for new pairs for ever
  double lease_seconds = 600;   // a pair not finished by then is played again
  int64_t max_pairs = 0;        // > 0: return after this many pairs
  std::ostream* log = nullptr;  // "pair <id> taken", then "pair <id> done"
                                // after its commit
  // When set (SIGTERM or SIGINT): no new pair is taken, the pair held is
  // handed back to the queue once the game being played ends, and the
  // worker returns the pairs it finished.
  const std::atomic<bool>* stop = nullptr;
};

// Takes scheduled pairs one at a time, plays both games and writes them
// with the pair's completion in one transaction. Returns the pairs this
// worker finished. A game that cannot end, a program whose hash differs
// from the one entered, or a database error stops the worker with an
// error; the pair it held is handed back to the queue at once (or, when the
// database cannot be reached, when its lease runs out).
absl::StatusOr<int64_t> WorkLadder(const LadderWorkConfig& config);

// A worker's lease token, unique across machines and processes:
// `host:pid:random`.
std::string WorkerToken();

// The rating list from every stored game (mode "database"): entrants by id,
// the first rated 0, with games, wins, score and pairs played.
absl::StatusOr<v1::LadderReport> LadderTable(LadderStore& store);
// The rating list as text, best first.
std::string LadderTableText(const v1::LadderReport& table);

// The ruleset as its full switch list: "navy" then "+name" or "-name" for
// every switch of RULES.md §9 in order; Rules::Parse reads it back.
std::string FullSwitchList(const Rules& rules);

// A hash of the program a `cmd:` specification runs ("fnv1a64:<hex>" of
// its first word, found on PATH when it has no '/'), "" for other specs or
// a program that cannot be found.
std::string ProgramHash(const std::string& spec);

}  // namespace uckers
