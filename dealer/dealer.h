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

// The secret sealed under `key` (AES-256-GCM, a fresh random 12-byte
// nonce): lower-case hex of nonce ‖ ciphertext ‖ 16-byte tag (120 digits).
absl::StatusOr<std::string> Seal(const Key& key, const Secret& secret);
// Opens a token Seal made with `key`; an error for anything else (another
// key, a changed byte, a malformed token), never a wrong secret.
absl::StatusOr<Secret> Open(const Key& key, absl::string_view token);

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
