#include "dealer/dealer.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
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
constexpr char kTokenLabel[] = "uckers dealer secret v2";
constexpr size_t kKeyIdBytes = 8;
constexpr size_t kExpiryBytes = 8;
// A token's clear head, authenticated with the secret: key id ‖ expiry.
constexpr size_t kHeadBytes = kKeyIdBytes + kExpiryBytes;

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
struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* ctx) const { EVP_PKEY_CTX_free(ctx); }
};
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree>;
struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

std::array<uint8_t, 32> Sha256(const uint8_t* data, size_t size) {
  std::array<uint8_t, 32> out{};
  unsigned int n = 0;
  EVP_Digest(data, size, out.data(), &n, EVP_sha256(), nullptr);
  return out;
}

// The token's head: the key's id and the expiry, 8 bytes big-endian.
std::array<uint8_t, kHeadBytes> TokenHead(const Key& key, int64_t expires) {
  std::array<uint8_t, kHeadBytes> head{};
  std::array<uint8_t, 32> mac{};
  unsigned int n = 0;
  static constexpr char kIdLabel[] = "uckers dealer key id v1";
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const uint8_t*>(kIdLabel), sizeof kIdLabel - 1, mac.data(), &n);
  std::copy(mac.begin(), mac.begin() + kKeyIdBytes, head.begin());
  for (size_t i = 0; i < kExpiryBytes; ++i) {
    head[kKeyIdBytes + i] = static_cast<uint8_t>(static_cast<uint64_t>(expires) >> (56 - 8 * i));
  }
  return head;
}

// GCM's additional data: the label, then the head.
bool AddAad(EVP_CIPHER_CTX* ctx, const uint8_t* head, bool encrypt) {
  int n = 0;
  auto update = encrypt ? EVP_EncryptUpdate : EVP_DecryptUpdate;
  return update(ctx, nullptr, &n, reinterpret_cast<const uint8_t*>(kTokenLabel),
                sizeof kTokenLabel - 1) &&
         update(ctx, nullptr, &n, head, kHeadBytes);
}

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

std::string KeyIdOf(const Key& key) {
  std::array<uint8_t, kHeadBytes> head = TokenHead(key, 0);
  return ToHex(head.data(), kKeyIdBytes);
}

absl::StatusOr<std::string> Seal(const Key& key, const Secret& secret, int64_t expires) {
  absl::StatusOr<std::array<uint8_t, kNonceBytes>> nonce = RandomBytes<kNonceBytes>();
  if (!nonce.ok()) return nonce.status();
  std::array<uint8_t, kHeadBytes> head = TokenHead(key, expires);
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  std::array<uint8_t, kSecretBytes> sealed{};
  std::array<uint8_t, kTagBytes> tag{};
  int n = 0;
  bool ok = ctx && EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) &&
            EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, key.data(), nonce->data()) &&
            AddAad(ctx.get(), head.data(), true) &&
            EVP_EncryptUpdate(ctx.get(), sealed.data(), &n, secret.data(), secret.size()) &&
            n == static_cast<int>(kSecretBytes) &&
            EVP_EncryptFinal_ex(ctx.get(), sealed.data() + n, &n) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, tag.data());
  if (!ok) return absl::InternalError("sealing the dealer secret (OpenSSL AES-256-GCM) failed");
  return absl::StrCat(ToHex(head.data(), head.size()), ToHex(nonce->data(), nonce->size()),
                      ToHex(sealed.data(), sealed.size()), ToHex(tag.data(), tag.size()));
}

namespace {

// A token's head checked against this key and the clock, before its tag.
absl::Status CheckTokenHead(const Key& key, const uint8_t* head, int64_t now) {
  std::string id = ToHex(head, kKeyIdBytes);
  if (id != KeyIdOf(key)) {
    return absl::InvalidArgumentError(absl::StrCat("token: sealed under dealer key ", id,
                                                   ", not this server's (", KeyIdOf(key), ")"));
  }
  uint64_t expires = 0;
  for (size_t i = 0; i < kExpiryBytes; ++i) expires = expires << 8 | head[kKeyIdBytes + i];
  if (static_cast<int64_t>(expires) <= now) {
    return absl::InvalidArgumentError(
        absl::StrCat("token: expired ", now - static_cast<int64_t>(expires),
                     " s ago (a dealt game's token lives a limited time)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Secret> Open(const Key& key, absl::string_view token, int64_t now) {
  if (token.size() != kTokenHexDigits) {
    return absl::InvalidArgumentError(
        absl::StrCat("token: ", kTokenHexDigits, " hex digits expected, found ", token.size()));
  }
  absl::StatusOr<std::vector<uint8_t>> bytes = FromHex(token, "token");
  if (!bytes.ok()) return bytes.status();
  const uint8_t* head = bytes->data();
  if (absl::Status s = CheckTokenHead(key, head, now); !s.ok()) return s;
  const uint8_t* nonce = head + kHeadBytes;
  const uint8_t* sealed = nonce + kNonceBytes;
  std::array<uint8_t, kTagBytes> tag{};
  std::copy(sealed + kSecretBytes, sealed + kSecretBytes + kTagBytes, tag.begin());
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  Secret secret{};
  int n = 0;
  bool ok = ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, kNonceBytes, nullptr) &&
            EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, key.data(), nonce) &&
            AddAad(ctx.get(), head, false) &&
            EVP_DecryptUpdate(ctx.get(), secret.data(), &n, sealed, kSecretBytes) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) &&
            EVP_DecryptFinal_ex(ctx.get(), secret.data() + n, &n) > 0;
  if (!ok) {
    return absl::InvalidArgumentError("token: not one this server sealed (changed)");
  }
  return secret;
}

absl::StatusOr<SigningKey> SigningKey::FromDealerKey(const Key& key) {
  static constexpr char kInfo[] = "uckers dealer signing key v1";
  SigningKey out;
  size_t size = out.private_key_.size();
  PkeyCtx kdf(EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nullptr));
  bool ok = kdf && EVP_PKEY_derive_init(kdf.get()) > 0 &&
            EVP_PKEY_CTX_set_hkdf_md(kdf.get(), EVP_sha256()) > 0 &&
            EVP_PKEY_CTX_set1_hkdf_key(kdf.get(), key.data(), static_cast<int>(key.size())) > 0 &&
            EVP_PKEY_CTX_add1_hkdf_info(kdf.get(), reinterpret_cast<const uint8_t*>(kInfo),
                                        sizeof kInfo - 1) > 0 &&
            EVP_PKEY_derive(kdf.get(), out.private_key_.data(), &size) > 0 && size == 32;
  if (!ok) return absl::InternalError("deriving the signing key (OpenSSL HKDF) failed");
  Pkey pkey(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, out.private_key_.data(), 32));
  std::array<uint8_t, 32> pub{};
  size = pub.size();
  if (!pkey || EVP_PKEY_get_raw_public_key(pkey.get(), pub.data(), &size) != 1 || size != 32) {
    return absl::InternalError("making the signing key (OpenSSL Ed25519) failed");
  }
  out.public_key_ = ToHex(pub.data(), pub.size());
  std::array<uint8_t, 32> digest = Sha256(pub.data(), pub.size());
  out.key_id_ = ToHex(digest.data(), 8);
  return out;
}

absl::StatusOr<std::string> SigningKey::Sign(absl::string_view message) const {
  Pkey pkey(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, private_key_.data(), 32));
  MdCtx ctx(EVP_MD_CTX_new());
  std::array<uint8_t, 64> signature{};
  size_t size = signature.size();
  bool ok = pkey && ctx &&
            EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) == 1 &&
            EVP_DigestSign(ctx.get(), signature.data(), &size,
                           reinterpret_cast<const uint8_t*>(message.data()), message.size()) == 1 &&
            size == signature.size();
  if (!ok) return absl::InternalError("signing (OpenSSL Ed25519) failed");
  return ToHex(signature.data(), signature.size());
}

absl::StatusOr<std::string> PublicKeyIdOf(absl::string_view public_key_hex) {
  absl::StatusOr<std::array<uint8_t, 32>> pub = FixedFromHex<32>(public_key_hex, "public key");
  if (!pub.ok()) return pub.status();
  std::array<uint8_t, 32> digest = Sha256(pub->data(), pub->size());
  return ToHex(digest.data(), 8);
}

absl::Status VerifySignature(absl::string_view public_key_hex, absl::string_view message,
                             absl::string_view signature_hex) {
  absl::StatusOr<std::array<uint8_t, 32>> pub = FixedFromHex<32>(public_key_hex, "public key");
  if (!pub.ok()) return pub.status();
  absl::StatusOr<std::array<uint8_t, 64>> signature = FixedFromHex<64>(signature_hex, "signature");
  if (!signature.ok()) return signature.status();
  Pkey pkey(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, pub->data(), pub->size()));
  if (!pkey) return absl::InvalidArgumentError("public key: not an Ed25519 public key");
  MdCtx ctx(EVP_MD_CTX_new());
  bool ok = ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) == 1 &&
            EVP_DigestVerify(ctx.get(), signature->data(), signature->size(),
                             reinterpret_cast<const uint8_t*>(message.data()), message.size()) == 1;
  if (!ok) {
    return absl::InvalidArgumentError(
        "signature: not the signature of this record by the dealer key it names");
  }
  return absl::OkStatus();
}

std::string CommitmentStatement(absl::string_view key_id, absl::string_view rules,
                                absl::string_view start_ufen, absl::string_view commitment,
                                absl::string_view client_seed) {
  return absl::StrCat("uckers dealt commitment v1\nkey ", key_id, "\nrules ", rules, "\nstart ",
                      start_ufen, "\ncommitment ", commitment, "\nseed ", client_seed, "\n");
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
