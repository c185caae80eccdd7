#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

// Verified dice, by commit and reveal: the dice of a game come from a
// server secret (32 random bytes), a client seed (text the client chooses
// after it has seen the commitment, fixed for the game) and a fresh client
// value for each throw (16 bytes the client sends when it asks for that
// throw). Before the first throw the server gives the commitment, SHA-256
// of the secret; throw i (0-based) is derived from
//   HMAC-SHA256(secret, client seed ‖ i as 8 bytes big-endian ‖ the 16
//               bytes of client value i),
// its bytes read in order and each one below 252 taken as a die (1 + byte
// mod 6; 252 = 6 × 42, so every face is equally likely: bytes 252..255
// are rejected, never folded). As client value i arrives only with the
// request for throw i, the server cannot compute throw i before then. When
// the game is over the secret is revealed and anyone can recompute every
// throw (`uckers verify`, docs/records.md "Dealt dice").
//
// The secret is sealed with AES-256-GCM under a key only the server holds
// into the game's token (lower-case hex), which names the game in the
// server's store of dealt games (server/dealt_games.h). All cryptography is
// OpenSSL's (EVP).
namespace uckers::dealer {

inline constexpr size_t kSecretBytes = 32;
inline constexpr size_t kKeyBytes = 32;
// A client seed: 1..256 bytes of printable ASCII without spaces or quotes,
// so that it fits a record header and a protocol line.
inline constexpr size_t kMaxClientSeedBytes = 256;
// Throw indexes 0..kMaxThrowIndex.
inline constexpr int64_t kMaxThrowIndex = 999'999;
// A throw's client value: 16 bytes, 32 lower-case hex digits.
inline constexpr size_t kClientValueBytes = 16;

using Secret = std::array<uint8_t, kSecretBytes>;
using Key = std::array<uint8_t, kKeyBytes>;
using ClientValue = std::array<uint8_t, kClientValueBytes>;

// Bytes from OpenSSL's random generator; an error when it fails.
absl::StatusOr<Secret> NewSecret();
absl::StatusOr<Key> NewKey();
absl::StatusOr<ClientValue> NewClientValue();

// Lower-case hexadecimal, and back: only the digits 0-9 and a-f are read
// (an upper-case digit is an error, so that a value has one spelling); an
// error names what is wrong.
std::string ToHex(const uint8_t* data, size_t size);
std::string ToHex(const Secret& secret);
absl::StatusOr<Secret> SecretFromHex(absl::string_view hex);
absl::StatusOr<Key> KeyFromHex(absl::string_view hex);
absl::StatusOr<ClientValue> ClientValueFromHex(absl::string_view hex);
// Checks a commitment's form: 64 lower-case hex digits.
absl::Status CheckCommitmentHex(absl::string_view hex);

// The dealer key in the file at `path`: 64 lower-case hex digits (white
// space around them allowed). Refused, as ssh refuses a private key, when
// the file can be read or written by its group or others (mode & 077), or
// is not a regular file; an error names the path and what is wrong.
absl::StatusOr<Key> ReadKeyFile(const std::string& path);

// SHA-256 of the secret's 32 bytes, in hexadecimal: the commitment.
std::string Commitment(const Secret& secret);

// Checks a client seed (kMaxClientSeedBytes, the characters allowed).
absl::Status CheckClientSeed(absl::string_view client_seed);

// The two dice of throw `index` for the throw's client value, in the order
// derived. Requires a checked seed and 0 <= index <= kMaxThrowIndex.
std::pair<int, int> DealDice(const Secret& secret, absl::string_view client_seed, int64_t index,
                             const ClientValue& client_value);

// A dealer key's id: the first 8 bytes of HMAC-SHA256(key, "uckers dealer
// key id v1"), 16 lower-case hex digits. It names the key in every token
// (so that a token of a rotated key is told apart) and shows nothing of it.
std::string KeyIdOf(const Key& key);

// The secret sealed under `key` into a token that expires at `expires`
// (seconds since the Unix epoch): lower-case hex of key id (8 bytes) ‖
// expiry (8 bytes, big-endian) ‖ nonce (12 random bytes) ‖ AES-256-GCM
// ciphertext (32) ‖ tag (16), 152 digits; the key id and the expiry are
// authenticated with the secret (GCM's additional data).
inline constexpr size_t kTokenHexDigits = 2 * (8 + 8 + 12 + kSecretBytes + 16);
absl::StatusOr<std::string> Seal(const Key& key, const Secret& secret, int64_t expires);
// Opens a token Seal made with `key`, at `now` (seconds since the epoch);
// an error for anything else, naming it (a token of another key and its
// id, one expired and when, a changed byte, a malformed token), never a
// wrong secret.
absl::StatusOr<Secret> Open(const Key& key, absl::string_view token, int64_t now);

// The dealer's signing key: Ed25519 (OpenSSL), derived from the dealer key
// by HKDF-SHA256 (info "uckers dealer signing key v1"), so that the one key
// file of a server (and of the replicas that share it) gives one signing
// key. Its public key and id are published (`uckers serve` prints them at
// start; every signed record carries them), and a record it signed means
// something to anyone who trusts that public key (docs/records.md).
class SigningKey {
 public:
  static absl::StatusOr<SigningKey> FromDealerKey(const Key& key);
  // The public key, 32 bytes as 64 lower-case hex digits.
  const std::string& public_key() const { return public_key_; }
  // The first 8 bytes of SHA-256 of the public key's 32 bytes, hex.
  const std::string& key_id() const { return key_id_; }
  // The Ed25519 signature of `message`, 64 bytes as 128 lower-case hex
  // digits; an error only when OpenSSL fails.
  absl::StatusOr<std::string> Sign(absl::string_view message) const;

 private:
  std::array<uint8_t, 32> private_key_{};
  std::string public_key_;
  std::string key_id_;
};

// The id of a public key given in hex (SigningKey::key_id), or an error
// naming what is wrong with its form.
absl::StatusOr<std::string> PublicKeyIdOf(absl::string_view public_key_hex);
// Checks an Ed25519 signature (hex) of `message` by the public key (hex);
// an error names what is wrong (a form, or a signature that does not match).
absl::Status VerifySignature(absl::string_view public_key_hex, absl::string_view message,
                             absl::string_view signature_hex);

// What the dealer signs when a game is bound (BindDealtGameResponse's
// signature, docs/records.md "The dealer's signatures"): lines
//   uckers dealt commitment v1 / key <id> / rules <rules> / start <UFEN> /
//   commitment <hex> / seed <client seed>
// each ended by "\n".
std::string CommitmentStatement(absl::string_view key_id, absl::string_view rules,
                                absl::string_view start_ufen, absl::string_view commitment,
                                absl::string_view client_seed);

// What a record's dealer headers say (docs/records.md): checks the seed,
// the forms of the commitment and the secret (lower-case hex, 32 bytes) and
// that the secret's SHA-256 is the commitment. An error names the first
// thing that is wrong.
struct DealtGame {
  std::string commitment;   // hex SHA-256
  std::string client_seed;  // as given
  std::string secret;       // hex, once revealed
};
absl::Status CheckCommitment(const DealtGame& game);

}  // namespace uckers::dealer
