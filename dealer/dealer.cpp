#include "dealer/dealer.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <sys/stat.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace uckers::dealer {
namespace {

constexpr size_t kNonceBytes = 12;
constexpr size_t kTagBytes = 16;
// Bound to every token (AES-GCM's additional data), so that a token of
// another use of the same key is refused.
constexpr char kTokenLabel[] = "uckers dealer secret v1";

template <size_t N>
absl::StatusOr<std::array<uint8_t, N>> RandomBytes() {
  std::array<uint8_t, N> out{};
  if (RAND_bytes(out.data(), static_cast<int>(N)) != 1) {
    return absl::InternalError("the random generator (OpenSSL RAND_bytes) failed");
  }
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

absl::StatusOr<std::vector<uint8_t>> FromHex(absl::string_view hex, absl::string_view what) {
  if (hex.size() % 2 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": an odd number of hex digits"));
  }
  std::vector<uint8_t> out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = HexValue(hex[i]), lo = HexValue(hex[i + 1]);
    if (hi < 0 || lo < 0) {
      char bad = hi < 0 ? hex[i] : hex[i + 1];
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": '", std::string(1, bad), "' at ", hi < 0 ? i + 1 : i + 2,
                       bad >= 'A' && bad <= 'F' ? " is upper-case: only lower-case hex is read"
                                                : " is not a lower-case hex digit"));
    }
    out.push_back(static_cast<uint8_t>(hi * 16 + lo));
  }
  return out;
}

template <size_t N>
absl::StatusOr<std::array<uint8_t, N>> FixedFromHex(absl::string_view hex, absl::string_view what) {
  if (hex.size() != 2 * N) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": ", 2 * N, " hex digits expected, found ", hex.size()));
  }
  absl::StatusOr<std::vector<uint8_t>> bytes = FromHex(hex, what);
  if (!bytes.ok()) return bytes.status();
  std::array<uint8_t, N> out{};
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return out;
}

struct CipherCtxFree {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree>;

// HMAC-SHA256(secret, seed ‖ index (8 bytes, big-endian) ‖ client value
// (16 bytes) [‖ block (4 bytes, big-endian) for block >= 1]).
std::array<uint8_t, 32> Block(const Secret& secret, absl::string_view seed, int64_t index,
                              const ClientValue& value, uint32_t block) {
  std::vector<uint8_t> message(seed.begin(), seed.end());
  for (int shift = 56; shift >= 0; shift -= 8) {
    message.push_back(static_cast<uint8_t>(static_cast<uint64_t>(index) >> shift));
  }
  message.insert(message.end(), value.begin(), value.end());
  if (block > 0) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      message.push_back(static_cast<uint8_t>(block >> shift));
    }
  }
  std::array<uint8_t, 32> out{};
  unsigned int size = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), message.data(), message.size(),
       out.data(), &size);
  return out;
}

}  // namespace

absl::StatusOr<Secret> NewSecret() { return RandomBytes<kSecretBytes>(); }
absl::StatusOr<Key> NewKey() { return RandomBytes<kKeyBytes>(); }
absl::StatusOr<ClientValue> NewClientValue() { return RandomBytes<kClientValueBytes>(); }

std::string ToHex(const uint8_t* data, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * size);
  for (size_t i = 0; i < size; ++i) {
    out.push_back(kDigits[data[i] >> 4]);
    out.push_back(kDigits[data[i] & 15]);
  }
  return out;
}

std::string ToHex(const Secret& secret) { return ToHex(secret.data(), secret.size()); }

absl::StatusOr<Secret> SecretFromHex(absl::string_view hex) {
  return FixedFromHex<kSecretBytes>(hex, "secret");
}

absl::StatusOr<Key> KeyFromHex(absl::string_view hex) {
  return FixedFromHex<kKeyBytes>(hex, "dealer key");
}

absl::StatusOr<ClientValue> ClientValueFromHex(absl::string_view hex) {
  return FixedFromHex<kClientValueBytes>(hex, "client value");
}

absl::Status CheckCommitmentHex(absl::string_view hex) {
  return FixedFromHex<32>(hex, "commitment").status();
}

absl::StatusOr<Key> ReadKeyFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return absl::NotFoundError(absl::StrCat(path, ": cannot read the dealer key file"));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": the dealer key is not a regular file"));
  }
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return absl::PermissionDeniedError(
        absl::StrCat(path, ": the dealer key file has mode ", mode,
                     ": its group or others may read or write it; refused (chmod 600 ", path, ")"));
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return absl::NotFoundError(absl::StrCat(path, ": cannot read the dealer key file"));
  char buf[256];
  size_t n = std::fread(buf, 1, sizeof buf, f);
  bool more = std::fgetc(f) != EOF;
  std::fclose(f);
  if (more) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": the dealer key file is longer than a key (64 hex digits)"));
  }
  absl::StatusOr<Key> key = KeyFromHex(absl::StripAsciiWhitespace(absl::string_view(buf, n)));
  if (!key.ok())
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", key.status().message()));
  return key;
}

std::string Commitment(const Secret& secret) {
  uint8_t digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(secret.data(), secret.size(), digest, &size, EVP_sha256(), nullptr);
  return ToHex(digest, size);
}

absl::Status CheckClientSeed(absl::string_view seed) {
  if (seed.empty() || seed.size() > kMaxClientSeedBytes) {
    return absl::InvalidArgumentError(absl::StrCat("client seed: 1..", kMaxClientSeedBytes,
                                                   " characters expected, found ", seed.size()));
  }
  for (char c : seed) {
    if (c <= ' ' || c > '~' || c == '"' || c == '\\') {
      return absl::InvalidArgumentError(
          "client seed: only printable ASCII without spaces, quotes or backslashes");
    }
  }
  return absl::OkStatus();
}

std::pair<int, int> DealDice(const Secret& secret, absl::string_view seed, int64_t index,
                             const ClientValue& client_value) {
  int dice[2];
  int found = 0;
  for (uint32_t block = 0; found < 2; ++block) {
    for (uint8_t byte : Block(secret, seed, index, client_value, block)) {
      if (byte >= 252) continue;  // 252 = 6 * 42: the rest would favour 1..4
      dice[found++] = 1 + byte % 6;
      if (found == 2) break;
    }
  }
  return {dice[0], dice[1]};
}

absl::StatusOr<std::string> Seal(const Key& key, const Secret& secret) {
  absl::StatusOr<std::array<uint8_t, kNonceBytes>> nonce = RandomBytes<kNonceBytes>();
  if (!nonce.ok()) return nonce.status();
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  std::array<uint8_t, kSecretBytes> sealed{};
  std::array<uint8_t, kTagBytes> tag{};
  int n = 0;
  bool ok = ctx && EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) &&
            EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, key.data(), nonce->data()) &&
            EVP_EncryptUpdate(ctx.get(), nullptr, &n, reinterpret_cast<const uint8_t*>(kTokenLabel),
                              sizeof kTokenLabel - 1) &&
            EVP_EncryptUpdate(ctx.get(), sealed.data(), &n, secret.data(), secret.size()) &&
            n == static_cast<int>(kSecretBytes) &&
            EVP_EncryptFinal_ex(ctx.get(), sealed.data() + n, &n) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, tag.data());
  if (!ok) return absl::InternalError("sealing the dealer secret (OpenSSL AES-256-GCM) failed");
  return absl::StrCat(ToHex(nonce->data(), nonce->size()), ToHex(sealed.data(), sealed.size()),
                      ToHex(tag.data(), tag.size()));
}

absl::StatusOr<Secret> Open(const Key& key, absl::string_view token) {
  constexpr size_t kTokenBytes = kNonceBytes + kSecretBytes + kTagBytes;
  if (token.size() != 2 * kTokenBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("token: ", 2 * kTokenBytes, " hex digits expected, found ", token.size()));
  }
  absl::StatusOr<std::vector<uint8_t>> bytes = FromHex(token, "token");
  if (!bytes.ok()) return bytes.status();
  const uint8_t* nonce = bytes->data();
  const uint8_t* sealed = nonce + kNonceBytes;
  std::array<uint8_t, kTagBytes> tag{};
  std::copy(sealed + kSecretBytes, sealed + kSecretBytes + kTagBytes, tag.begin());
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  Secret secret{};
  int n = 0;
  bool ok = ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) &&
            EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, key.data(), nonce) &&
            EVP_DecryptUpdate(ctx.get(), nullptr, &n, reinterpret_cast<const uint8_t*>(kTokenLabel),
                              sizeof kTokenLabel - 1) &&
            EVP_DecryptUpdate(ctx.get(), secret.data(), &n, sealed, kSecretBytes) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) &&
            EVP_DecryptFinal_ex(ctx.get(), secret.data() + n, &n) > 0;
  if (!ok) {
    return absl::InvalidArgumentError(
        "token: not one this server sealed (another server's key, or changed)");
  }
  return secret;
}

absl::Status CheckCommitment(const DealtGame& game) {
  if (absl::Status s = CheckClientSeed(game.client_seed); !s.ok()) return s;
  if (absl::Status s = CheckCommitmentHex(game.commitment); !s.ok()) return s;
  absl::StatusOr<Secret> secret = SecretFromHex(game.secret);
  if (!secret.ok()) return secret.status();
  if (Commitment(*secret) != game.commitment) {
    return absl::InvalidArgumentError(absl::StrCat("the secret's SHA-256 is ", Commitment(*secret),
                                                   ", not the commitment ", game.commitment));
  }
  return absl::OkStatus();
}

}  // namespace uckers::dealer
