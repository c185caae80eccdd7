#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

// Verified dice, by commit and reveal: the dice of a game come from a
// server secret (32 random bytes) and a client seed (text the client
// chooses after it has seen the commitment). Before the first throw the
// server gives the commitment, SHA-256 of the secret; throw i (0-based) is
// derived from HMAC-SHA256(secret, client seed ‖ i as 8 bytes big-endian),
// its bytes read in order and each one below 252 taken as a die (1 + byte
// mod 6; 252 = 6 × 42, so every face is equally likely: bytes 252..255
// are rejected, never folded). When the game is over the secret is
// revealed and anyone can recompute every throw (`uckers verify`).
//
// The server stays stateless: the secret travels with the client inside a
// token, sealed with AES-256-GCM under a key only the server holds; the
// server opens it at each throw. All cryptography is OpenSSL's (EVP).
namespace uckers::dealer {

inline constexpr size_t kSecretBytes = 32;
inline constexpr size_t kKeyBytes = 32;
// A client seed: 1..256 bytes of printable ASCII without spaces or quotes,
// so that it fits a record header and a protocol line.
inline constexpr size_t kMaxClientSeedBytes = 256;
// Throw indexes 0..kMaxThrowIndex.
inline constexpr int64_t kMaxThrowIndex = 999'999;

using Secret = std::array<uint8_t, kSecretBytes>;
using Key = std::array<uint8_t, kKeyBytes>;

// Bytes from OpenSSL's random generator; an error when it fails.
absl::StatusOr<Secret> NewSecret();
absl::StatusOr<Key> NewKey();

// Lower-case hexadecimal, and back (an error names what is wrong).
std::string ToHex(const uint8_t* data, size_t size);
std::string ToHex(const Secret& secret);
absl::StatusOr<Secret> SecretFromHex(absl::string_view hex);
absl::StatusOr<Key> KeyFromHex(absl::string_view hex);

// SHA-256 of the secret's 32 bytes, in hexadecimal: the commitment.
std::string Commitment(const Secret& secret);

// Checks a client seed (kMaxClientSeedBytes, the characters allowed).
absl::Status CheckClientSeed(absl::string_view client_seed);

// The two dice of throw `index`, in the order derived. Requires a checked
// seed and 0 <= index <= kMaxThrowIndex.
std::pair<int, int> DealDice(const Secret& secret, absl::string_view client_seed, int64_t index);

// The secret sealed under `key` (AES-256-GCM, a fresh random 12-byte
// nonce): base64url without padding of nonce ‖ ciphertext ‖ 16-byte tag.
absl::StatusOr<std::string> Seal(const Key& key, const Secret& secret);
// Opens a token Seal made with `key`; an error for anything else (another
// key, a changed byte, a malformed token), never a wrong secret.
absl::StatusOr<Secret> Open(const Key& key, absl::string_view token);

// What a record's dealer headers say (docs/records.md): checks that the
// secret matches the commitment and recomputes every throw. An error names
// the first thing that does not match.
struct DealtGame {
  std::string commitment;   // hex SHA-256
  std::string client_seed;  // as given
  std::string secret;       // hex, once revealed
};
absl::Status CheckCommitment(const DealtGame& game);

}  // namespace uckers::dealer
