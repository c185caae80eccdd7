#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "record/game.h"
#include "rules/types.h"

// A game record (docs/records.md) as a value: the game, replayed, and the
// headers around it. Reading and printing its text form is record/text.h;
// its message and JSON form (uckers.v1.GameRecord) are wire/record.h.
namespace uckers {

// A side's player in a record: the side named by its colours' letters.
struct SidePlayer {
  std::string side;    // "RB", "GO", ...; "R" under `solo`
  std::string player;  // as the record names it
  friend bool operator==(const SidePlayer&, const SidePlayer&) = default;
};

struct Record {
  Game game;  // rules, start, throws and plays (the items), replayed
  // The `Rules` header as played, a preset's name kept as given ("mess");
  // empty reads as "navy".
  std::string rules;
  // The `Switches` header: the full switch list; empty in records older
  // than it (then `rules` says what the game was played by).
  std::string switches;
  std::string ry;                        // team RY's player (four sides, two teams)
  std::string gb;                        // team GB's player
  std::vector<SidePlayer> side_players;  // every other layout's players
  uint64_t seed = 0;                     // the dice seed, 0 for none
  std::string date;                      // YYYY-MM-DD
  // The `Start` header as written (a UFEN), empty when the game starts
  // from its ruleset's start; `game` starts there.
  std::string start_ufen;
  std::string winner;             // a side's name, empty while unfinished
  int points = 0;                 // the winners' points
  std::string termination;        // "time" when a clock ran out, else empty
  std::string dealer_commitment;  // dealt dice: the server's commitment (hex)
  std::string client_seed;        // ...the client's seed
  std::string dealer_secret;      // ...the secret, revealed at the end (hex)
  // ...the client's fresh value for each throw, in order (32 lower-case hex
  // digits each; docs/records.md "Dealt dice").
  std::vector<std::string> client_values;
  // ...the dealer's signature of the record's statement (DealerStatement in
  // record/text.h): its key's id, its public key and the signature (hex).
  std::string dealer_key;
  std::string dealer_public_key;
  std::string dealer_signature;
};

// The one builder of records: `game` with its rules (the ruleset's name
// and full switch list) and, once it is over, its result. Players, seed,
// date and the rest are the caller's to fill.
Record RecordOf(const Game& game);

// A record's `Start`: the UFEN of the game's start when it is not its
// ruleset's start position, else empty.
std::string StartUfen(const Game& game);

// Sets the result fields from a final position (nothing when it is not).
void SetRecordResult(const Position& final_position, Record* record);

// A side's name in records: its colours' letters in turn order, upper case
// ("RY", "GB"; "RB" under `six`; "R" under `solo`).
std::string SideName(const Layout& layout, int side);
// The side named `name` in `layout`, or -1.
int SideByName(const Layout& layout, absl::string_view name);
// Every side's name, space-separated, for errors.
std::string SideNames(const Layout& layout);
// The player a record names for `side` ("" when none): `ry`/`gb` in the
// four-sided game of two teams, `side_players` elsewhere.
std::string RecordPlayer(const Record& record, const Layout& layout, int side);

}  // namespace uckers
