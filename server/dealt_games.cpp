#include "server/dealt_games.h"

#include <algorithm>
#include <ctime>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/coach.h"
#include "record/game.h"
#include "record/text.h"
#include "rules/checked.h"
#include "rules/dice_sequence.h"
#include "rules/notation.h"
#include "rules/ufen.h"

namespace uckers {
namespace {

absl::Status Refused(absl::string_view what) { return absl::FailedPreconditionError(what); }

}  // namespace

DealtGames::DealtGames(std::optional<dealer::Key> key, DealtGamesLimits limits,
                       std::function<Clock::time_point()> now)
    : key_(key), limits_(limits), now_(std::move(now)) {
  if (!key_) return;
  absl::StatusOr<dealer::SigningKey> signer = dealer::SigningKey::FromDealerKey(*key_);
  // Without a signing key no game is dealt (every call is refused).
  if (signer.ok()) {
    signer_ = *signer;
  } else {
    key_.reset();
  }
}

namespace {

int64_t WallSeconds() { return static_cast<int64_t>(std::time(nullptr)); }

}  // namespace

size_t DealtGames::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return games_.size();
}

bool DealtGames::Expired(const Entry& e, Clock::time_point now) const {
  std::chrono::seconds unused = e.revealed ? limits_.revealed_expiry
                                : e.bound  ? limits_.expiry
                                           : limits_.unbound_expiry;
  return now - e.used >= unused || now - e.started >= limits_.lifetime;
}

void DealtGames::EvictLeastRecentlyUsed() {
  auto oldest = games_.end();
  for (auto it = games_.begin(); it != games_.end(); ++it) {
    if (oldest == games_.end() || it->second.used < oldest->second.used) oldest = it;
  }
  if (oldest != games_.end() && now_() - oldest->second.used >= limits_.evictable_after) {
    games_.erase(oldest);
  }
}

void DealtGames::DropExpired() {
  Clock::time_point now = now_();
  for (auto it = games_.begin(); it != games_.end();) {
    it = Expired(it->second, now) ? games_.erase(it) : std::next(it);
  }
}

absl::StatusOr<DealtGames::Entry*> DealtGames::Find(absl::string_view token) {
  if (!key_) return Refused("this server has no dealer key: it deals no game");
  if (token.empty()) return absl::InvalidArgumentError("token: missing (StartDealtGame gives it)");
  auto it = games_.find(token);
  if (it == games_.end() || Expired(it->second, now_())) {
    // Tells a token of another key, an expired or a changed one from one
    // forgotten.
    absl::StatusOr<dealer::Secret> opened = dealer::Open(*key_, token, WallSeconds());
    if (!opened.ok()) return opened.status();
    return absl::NotFoundError(
        "token: no such dealt game on this server (expired after its time unused, or held by "
        "another server)");
  }
  return &it->second;
}

size_t DealtGames::HeldBy(absl::string_view client) const {
  size_t held = 0;
  for (const auto& [token, e] : games_) held += e.client == client;
  return held;
}

absl::Status DealtGames::Room(absl::string_view client) {
  const size_t per_client =
      client.empty() ? 0 : static_cast<size_t>(std::max(0, limits_.max_games_per_client));
  if (games_.size() >= limits_.max_games || (per_client > 0 && HeldBy(client) >= per_client)) {
    DropExpired();
  }
  if (games_.size() >= limits_.max_games) EvictLeastRecentlyUsed();
  if (games_.size() >= limits_.max_games) {
    return absl::ResourceExhaustedError(
        absl::StrCat("dealt games: ", limits_.max_games,
                     " games are held already; try again when one has expired"));
  }
  if (per_client > 0 && HeldBy(client) >= per_client) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "dealt games: this client holds ", per_client,
        " games already, the most one may hold at once; finish one, or try again when one has "
        "expired"));
  }
  return absl::OkStatus();
}

absl::StatusOr<DealtGames::Started> DealtGames::Start(absl::string_view client) {
  if (!key_) return Refused("this server has no dealer key: it deals no game");
  absl::StatusOr<dealer::Secret> secret = dealer::NewSecret();
  if (!secret.ok()) return secret.status();
  absl::StatusOr<std::string> token =
      dealer::Seal(*key_, *secret, WallSeconds() + limits_.lifetime.count());
  if (!token.ok()) return token.status();
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status room = Room(client); !room.ok()) return room;
  Entry entry;
  entry.client = std::string(client);
  entry.secret = *secret;
  entry.commitment = dealer::Commitment(*secret);
  entry.used = entry.started = now_();
  games_.emplace(*token, std::move(entry));
  return Started{dealer::Commitment(*secret), *token, signer_->key_id(), signer_->public_key()};
}

absl::StatusOr<DealtGames::Bound> DealtGames::Bind(absl::string_view token,
                                                   absl::string_view client_seed,
                                                   const Rules& rules, const Position& start) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<Entry*> found = Find(token);
  if (!found.ok()) return found.status();
  Entry& e = **found;
  if (e.bound) {
    return Refused(
        "token: its game is bound already (one game per token: StartDealtGame for another)");
  }
  if (absl::Status s = dealer::CheckClientSeed(client_seed); !s.ok()) return s;
  if (start.IsGameOver()) {
    return absl::InvalidArgumentError("start: the game is over there already; nothing to deal");
  }
  absl::StatusOr<std::string> signature = signer_->Sign(dealer::CommitmentStatement(
      signer_->key_id(), rules.ToString(), ToUfen(start), e.commitment, client_seed));
  if (!signature.ok()) return signature.status();
  e.bound = true;
  e.client_seed = std::string(client_seed);
  e.rules = rules;
  e.start = e.position = start;
  e.used = now_();
  return Bound{e.commitment, *signature};
}

absl::StatusOr<std::pair<int, int>> DealtGames::Deal(absl::string_view token, int64_t index,
                                                     absl::string_view client_value,
                                                     absl::string_view play) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<Entry*> found = Find(token);
  if (!found.ok()) return found.status();
  Entry& e = **found;
  if (!e.bound) return Refused("token: its game is not bound yet (BindDealtGame first)");
  if (e.revealed) return Refused("token: its game was revealed; nothing is dealt after the reveal");
  const int64_t next = static_cast<int64_t>(e.throws.size());
  if (index != next) {
    return Refused(index < next
                       ? absl::StrCat("index ", index, ": throw ", index,
                                      " was dealt already (each throw once); the next is ", next)
                       : absl::StrCat("index ", index, ": throw ", next,
                                      " comes first (throws are dealt in order)"));
  }
  if (index >= limits_.max_throws) {
    return absl::InvalidArgumentError(absl::StrCat("index ", index, ": a dealt game has at most ",
                                                   limits_.max_throws, " throws"));
  }
  absl::StatusOr<dealer::ClientValue> value = dealer::ClientValueFromHex(client_value);
  if (!value.ok()) return value.status();
  for (const Dealt& d : e.throws) {
    if (d.client_value == *value) {
      return absl::InvalidArgumentError(
          "client value: used for an earlier throw of this game; send a fresh one");
    }
  }
  Position after = e.position;
  std::string canonical;
  if (index == 0) {
    if (!play.empty()) {
      return absl::InvalidArgumentError("play: throw 0 has no play before it; give none");
    }
  } else {
    if (play.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("play: missing: the play made with throw ", index - 1,
                       " comes with the request for throw ", index, " (\"-\" when there is none)"));
    }
    const Dealt& last = e.throws.back();
    absl::StatusOr<PlayResult> made = ParsePlay(play, e.position, e.rules, last.dice);
    if (!made.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("play '", play, "' of throw ", index - 1, " (",
                                                     ThrowToString(last.dice),
                                                     "): ", made.status().message()));
    }
    if (made->after.IsGameOver()) {
      return Refused(
          absl::StrCat("play '", play, "' of throw ", index - 1,
                       " ends the game: nothing more is dealt; RevealDealtGame with it"));
    }
    canonical = PlayToString(made->play, e.position.board());
    after = made->after;
  }
  auto [d1, d2] = dealer::DealDice(e.secret, e.client_seed, index, *value);
  // Everything is checked: the game moves on.
  if (index > 0) e.throws.back().play = canonical;
  e.position = after;
  e.throws.push_back({MakeThrow(d1, d2), "", *value});
  e.used = now_();
  return std::make_pair(d1, d2);
}

absl::Status DealtGames::CheckRevealable(const Entry& e, const Record* client_record) {
  if (!e.bound) return Refused("token: its game is not bound: no throw was dealt");
  if (e.revealed) return Refused("token: its game was revealed already");
  if (e.throws.empty()) {
    return Refused("the game has no throw dealt: the secret is revealed only at its end");
  }
  if (!client_record) return absl::OkStatus();
  if (!client_record->termination.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("record: Termination \"", client_record->termination,
                     "\": a dealt game has no clocks; it ends on the board"));
  }
  const Game& theirs = client_record->game;
  if (theirs.rules().SwitchList() != e.rules.SwitchList()) {
    return absl::InvalidArgumentError(
        absl::StrCat("record: played by ", theirs.rules().SwitchList(), ", the game was bound to ",
                     e.rules.SwitchList()));
  }
  if (ToUfen(theirs.start()) != ToUfen(e.start)) {
    return absl::InvalidArgumentError(absl::StrCat("record: Start ", ToUfen(theirs.start()),
                                                   " is not the start bound, ", ToUfen(e.start)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> DealtGames::FinalPlay(const Entry& e, absl::string_view play,
                                                  const Record* client_record) {
  std::string final_play(play);
  const size_t dealt = e.throws.size();
  if (final_play.empty() && client_record && client_record->game.items().size() == dealt) {
    final_play = client_record->game.items().back().play;
  }
  if (final_play.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "play: missing: the play made with the last throw dealt (throw ", dealt - 1, ")"));
  }
  return final_play;
}

absl::StatusOr<Game> DealtGames::ServerGame(const Entry& e, absl::string_view final_play) {
  const size_t dealt = e.throws.size();
  absl::StatusOr<Game> game = Game::FromStart(e.rules, ToUfen(e.start));
  if (!game.ok()) return absl::InternalError(absl::StrCat("dealt game: ", game.status().message()));
  for (size_t i = 0; i < dealt; ++i) {
    absl::string_view p = i + 1 < dealt ? absl::string_view(e.throws[i].play) : final_play;
    if (absl::Status s = game->Play(e.throws[i].dice, p); !s.ok()) {
      return absl::InternalError(absl::StrCat("dealt game: replay: ", s.message()));
    }
  }
  return game;
}

absl::Status DealtGames::SameItems(const Game& ours, const Game& theirs) {
  const std::vector<PlayedThrow>& a = ours.items();
  const std::vector<PlayedThrow>& b = theirs.items();
  auto text = [](const std::vector<PlayedThrow>& items, size_t i) {
    return i < items.size()
               ? absl::StrCat("'", ThrowToString(items[i].dice), ":", items[i].play, "'")
               : std::string("(none)");
  };
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    if (i >= a.size() || i >= b.size() || !(b[i].dice == a[i].dice) || b[i].play != a[i].play) {
      return absl::InvalidArgumentError(absl::StrCat("record: item ", i + 1, " ", text(b, i),
                                                     " is not the server's ", text(a, i)));
    }
  }
  return absl::OkStatus();
}

absl::Status DealtGames::AddDealerHeaders(const Entry& e, Record* out) const {
  out->dealer_commitment = e.commitment;
  out->client_seed = e.client_seed;
  out->dealer_secret = dealer::ToHex(e.secret);
  for (const Dealt& d : e.throws) {
    out->client_values.push_back(dealer::ToHex(d.client_value.data(), d.client_value.size()));
  }
  out->dealer_key = signer_->key_id();
  out->dealer_public_key = signer_->public_key();
  absl::StatusOr<std::string> signature = signer_->Sign(DealerStatement(*out));
  if (!signature.ok()) return signature.status();
  out->dealer_signature = *signature;
  return absl::OkStatus();
}

absl::StatusOr<Record> DealtGames::Reveal(absl::string_view token, absl::string_view play,
                                          const Record* client_record) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<Entry*> found = Find(token);
  if (!found.ok()) return found.status();
  Entry& e = **found;
  if (absl::Status s = CheckRevealable(e, client_record); !s.ok()) return s;
  absl::StatusOr<std::string> final_play = FinalPlay(e, play, client_record);
  if (!final_play.ok()) return final_play.status();
  const size_t dealt = e.throws.size();
  const Dealt& last = e.throws.back();
  absl::StatusOr<PlayResult> made = ParsePlay(*final_play, e.position, e.rules, last.dice);
  if (!made.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("play '", *final_play, "' of throw ", dealt - 1,
                                                   " (", ThrowToString(last.dice),
                                                   "): ", made.status().message()));
  }
  if (!made->after.IsGameOver()) {
    return Refused(
        absl::StrCat("the game is not over on the server's board after throw ", dealt - 1,
                     ": the secret is revealed only at its end (the next throw is DealThrow index ",
                     dealt, ")"));
  }
  // The server's own game, from the start and rules it bound.
  absl::StatusOr<Game> game = ServerGame(e, *final_play);
  if (!game.ok()) return game.status();
  Record out = RecordOf(*game);
  if (client_record) {
    if (absl::Status s = SameItems(*game, client_record->game); !s.ok()) return s;
    out.ry = client_record->ry;
    out.gb = client_record->gb;
    out.side_players = client_record->side_players;
    out.date = client_record->date;
  }
  if (absl::Status s = AddDealerHeaders(e, &out); !s.ok()) return s;
  if (absl::Status s = VerifyDealtDice(out); !s.ok()) {
    return absl::InternalError(absl::StrCat("dealt game: its own check failed: ", s.message()));
  }
  e.throws.back().play = PlayToString(made->play, e.position.board());
  e.position = made->after;
  e.revealed = true;
  e.used = now_();
  return out;
}

}  // namespace uckers
