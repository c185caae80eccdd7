#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "dealer/dealer.h"
#include "record/record.h"
#include "rules/position.h"
#include "rules/rules.h"

// The server's state of each dealt game (docs/frontend.md "Verified dice",
// dealer/dealer.h): a store in memory, keyed by the game's token, of what
// the server has seen of the game. A game goes
//   started (the secret and its commitment) → bound (the client seed, the
//   rules and the start, once) → throws dealt one at a time, throw i only
//   once the play of throw i - 1 has been checked legal → revealed, once the
//   server's own board says the game is over.
// Every call that is refused changes nothing. Safe to call from many
// threads at once (one lock; every call is short).
namespace uckers {

struct DealtGamesLimits {
  size_t max_games = 1000;                // games held at once (started, bound or revealed)
  std::chrono::seconds expiry{6 * 3600};  // a bound game unused this long is forgotten
  // A game never bound, or revealed, is forgotten sooner: neither is in
  // play, and a stranger's cheap calls must not hold the store for hours.
  std::chrono::seconds unbound_expiry{600};
  std::chrono::seconds revealed_expiry{600};
  // A full store makes room by forgetting the game unused longest, when it
  // has been unused this long: a game left unfinished (a closed tab) does
  // not hold its place for the whole expiry while others wait.
  std::chrono::seconds evictable_after{600};
  // Games one client (its address, CallControl::client) may hold at once;
  // 0: no limit (behind a proxy every client may share one address).
  int max_games_per_client = 0;
  int64_t max_throws = 2000;                 // throws one game may be dealt
  std::chrono::seconds lifetime{24 * 3600};  // a game's token expires this long after its start
};

class DealtGames {
 public:
  using Clock = std::chrono::steady_clock;
  // `key` seals the secrets into the tokens and gives the signing key
  // (dealer::SigningKey); none (no key could be had): every call is
  // refused. `now` is the clock of the expiry and the lifetime (tests set
  // it); the tokens' expiry is on the wall clock.
  DealtGames(std::optional<dealer::Key> key, DealtGamesLimits limits,
             std::function<Clock::time_point()> now = Clock::now);

  struct Started {
    std::string commitment;  // SHA-256 of the secret, hex
    std::string token;       // names the game in every later call
    std::string dealer_key;  // the signing key's id and public key (hex)
    std::string dealer_public_key;
  };
  struct Bound {
    std::string commitment;
    // The dealer's signature (hex) of dealer::CommitmentStatement for the
    // game's rules (canonical name), start (UFEN), commitment and seed.
    std::string signature;
  };
  // A new game for `client` (an address; empty: unknown): a fresh secret,
  // its commitment and the token. Refused (RESOURCE_EXHAUSTED) when
  // max_games live games are held, or the client holds
  // max_games_per_client; FAILED_PRECONDITION without a dealer key,
  // INTERNAL when the random generator fails.
  absl::StatusOr<Started> Start(absl::string_view client = "");

  // Fixes the game's client seed, rules and start, once. Refused: an
  // unknown token, a game already bound, a bad seed, a start already over.
  // Answers the commitment, signed with the game's seed, rules and start.
  absl::StatusOr<Bound> Bind(absl::string_view token, absl::string_view client_seed,
                             const Rules& rules, const Position& start);

  // Throw `index` of a bound game for the client's fresh `client_value`
  // (32 lower-case hex digits). `index` must be the next throw (0, 1, ...);
  // for index > 0, `play` is the play made with throw index - 1 (any
  // spelling of a legal play, "-" when there is none), checked on the
  // server's board and kept; for index 0 it must be empty. Refused: a
  // skipped or repeated index, a missing or illegal play, a reused or bad
  // client value, a game over on the board or revealed.
  absl::StatusOr<std::pair<int, int>> Deal(absl::string_view token, int64_t index,
                                           absl::string_view client_value, absl::string_view play);

  // The game's record with its dealer headers and the secret, once the last
  // throw's `play` ends the game on the server's board; the game is then
  // revealed, and nothing more is dealt. `client_record` (may be null): the
  // client's record of the game; its throws, plays, rules and start must
  // be the server's, it must not claim a clock ran out, and its players and
  // date are kept. With `play` empty, the final play is taken from the
  // client record's last item. Refused (FAILED_PRECONDITION): a game not
  // over, with no throw, already revealed.
  absl::StatusOr<Record> Reveal(absl::string_view token, absl::string_view play,
                                const Record* client_record);

  // Live games now (expired ones are dropped at the next Start).
  size_t size() const;

 private:
  struct Dealt {
    Throw dice;
    std::string play;  // canonical; empty until the play is made
    dealer::ClientValue client_value;
  };
  struct Entry {
    dealer::Secret secret{};
    std::string commitment;
    bool bound = false;
    bool revealed = false;
    std::string client_seed;
    Rules rules;
    Position start;
    Position position;          // after every play made
    std::vector<Dealt> throws;  // dealt, in order
    Clock::time_point used;
    Clock::time_point started;
    std::string client;  // who started it
  };
  // Whether `e` is past its time unused (by its state) or its lifetime.
  bool Expired(const Entry& e, Clock::time_point now) const;
  // The entry of a token, or an error naming the token.
  absl::StatusOr<Entry*> Find(absl::string_view token);
  // Reveal's steps: whether `e` may be revealed at all (with the client's
  // record, if given); the play of the last throw; the server's own game
  // with it; the client's items against the server's; the dealer headers.
  static absl::Status CheckRevealable(const Entry& e, const Record* client_record);
  static absl::StatusOr<std::string> FinalPlay(const Entry& e, absl::string_view play,
                                               const Record* client_record);
  static absl::StatusOr<Game> ServerGame(const Entry& e, absl::string_view final_play);
  static absl::Status SameItems(const Game& ours, const Game& theirs);
  absl::Status AddDealerHeaders(const Entry& e, Record* out) const;
  void DropExpired();
  // Forgets the game unused longest, if unused for evictable_after.
  void EvictLeastRecentlyUsed();
  // The games `client` holds; OK when the store and the client have room
  // for one more (after dropping the expired when either is full).
  size_t HeldBy(absl::string_view client) const;
  absl::Status Room(absl::string_view client);

  std::optional<dealer::Key> key_;
  std::optional<dealer::SigningKey> signer_;
  DealtGamesLimits limits_;
  std::function<Clock::time_point()> now_;
  mutable std::mutex mu_;
  std::map<std::string, Entry, std::less<>> games_;
};

}  // namespace uckers
