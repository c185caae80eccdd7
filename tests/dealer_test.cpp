// Verified dice (dealer/dealer.h, docs/records.md "Dealt dice"): the
// derivation against an independent implementation, the dice's fairness,
// the sealed token, the forms of hex and of the key file, and `uckers
// verify` on a dealt game's record and on a suite of altered copies.
#include "dealer/dealer.h"

#include <sys/wait.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "record/game.h"
#include "record/text.h"
#include "rules/notation.h"
#include "tests/dealt_support.h"
#include "wire/record.h"

namespace uckers::testing {
namespace {

dealer::Secret CountingSecret() {
  dealer::Secret s{};
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<uint8_t>(i);
  return s;
}

TEST(Dealer, TheCommitmentIsTheSha256OfTheSecret) {
  // Known answers (Python's hashlib): SHA-256 of 32 zero bytes, of 0..31.
  EXPECT_EQ(dealer::Commitment(dealer::Secret{}),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
  EXPECT_EQ(dealer::Commitment(CountingSecret()),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
}

dealer::ClientValue CountingValue() {
  dealer::ClientValue v{};
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(16 + i);
  return v;
}

TEST(Dealer, ThrowsAreHmacSha256OfSeedIndexAndClientValueWithRejection) {
  // Known answers from an independent implementation (Python's hmac): the
  // bytes of HMAC-SHA256(secret, seed || index as 8 bytes big-endian ||
  // client value), each below 252 a die 1 + byte % 6.
  const std::pair<int, int> expected[] = {{1, 1}, {6, 6}, {2, 2}, {6, 2},
                                          {2, 1}, {5, 1}, {5, 5}, {4, 5}};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(dealer::DealDice(CountingSecret(), "client-seed-42", i, CountingValue()), expected[i])
        << i;
  }
  // Throw 8's first byte is 0xfd: rejected, the next two bytes make it.
  EXPECT_EQ(dealer::DealDice(CountingSecret(), "client-seed-42", 8, CountingValue()),
            std::make_pair(6, 6));
}

TEST(Dealer, TheClientValueChangesTheThrow) {
  std::set<std::pair<int, int>> seen;
  for (int v = 0; v < 200; ++v) {
    dealer::ClientValue value = CountingValue();
    value[0] = static_cast<uint8_t>(v);
    seen.insert(dealer::DealDice(CountingSecret(), "client-seed-42", 0, value));
  }
  EXPECT_GE(seen.size(), 30u);  // of the 36 ordered throws
}

TEST(Dealer, AMillionDealtDiceAreUniformByChiSquare) {
  // 500,000 throws = 10^6 dice; the faces (5 degrees of freedom) and the 36
  // ordered pairs (35) against uniform, at p = 0.001: 20.52 and 66.62.
  constexpr int kThrowsDealt = 500000;
  int64_t faces[7] = {}, pairs[7][7] = {};
  for (int i = 0; i < kThrowsDealt; ++i) {
    auto [a, b] = dealer::DealDice(CountingSecret(), "uniformity", i, CountingValue());
    ASSERT_TRUE(a >= 1 && a <= 6 && b >= 1 && b <= 6);
    ++faces[a], ++faces[b], ++pairs[a][b];
  }
  double chi_faces = 0, chi_pairs = 0;
  for (int f = 1; f <= 6; ++f) {
    double e = 2.0 * kThrowsDealt / 6;
    chi_faces += (faces[f] - e) * (faces[f] - e) / e;
    for (int g = 1; g <= 6; ++g) {
      double ep = kThrowsDealt / 36.0;
      chi_pairs += (pairs[f][g] - ep) * (pairs[f][g] - ep) / ep;
    }
  }
  EXPECT_LT(chi_faces, 20.52);
  EXPECT_LT(chi_pairs, 66.62);
}

TEST(Dealer, HexIsReadInLowerCaseOnlyAndAtItsLength) {
  std::string hex = dealer::ToHex(CountingSecret());
  EXPECT_TRUE(dealer::SecretFromHex(hex).ok());
  std::string upper = hex;
  upper[20] = 'A';
  absl::Status s = dealer::SecretFromHex(upper).status();
  EXPECT_NE(s.message().find("upper-case"), std::string::npos) << s;
  s = dealer::SecretFromHex(hex + "00").status();  // 33 bytes
  EXPECT_NE(s.message().find("64 hex digits expected"), std::string::npos) << s;
  EXPECT_FALSE(dealer::ClientValueFromHex("0123").ok());
  EXPECT_FALSE(dealer::CheckCommitmentHex(std::string(64, 'F')).ok());
}

TEST(Dealer, AKeyFileOthersCanReadIsRefused) {
  std::string path =
      (std::filesystem::temp_directory_path() / ("dealer_test_key_" + std::to_string(getpid())))
          .string();
  std::ofstream(path) << dealer::ToHex(CountingSecret()) << "\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::owner_write |
                                         std::filesystem::perms::others_read);
  absl::StatusOr<dealer::Key> key = dealer::ReadKeyFile(path);
  EXPECT_TRUE(absl::IsPermissionDenied(key.status())) << key.status();
  EXPECT_NE(key.status().message().find("chmod 600"), std::string::npos) << key.status();
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  key = dealer::ReadKeyFile(path);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(dealer::ToHex(key->data(), key->size()), dealer::ToHex(CountingSecret()));
  std::filesystem::remove(path);
  EXPECT_FALSE(dealer::ReadKeyFile(path).ok());
}

constexpr int64_t kNow = 1'800'000'000;  // seconds since the epoch, in 2027

TEST(Dealer, ATokenOpensOnlyWithItsKeyAndUnchanged) {
  absl::StatusOr<dealer::Key> key = dealer::NewKey(), other = dealer::NewKey();
  ASSERT_TRUE(key.ok() && other.ok());
  absl::StatusOr<std::string> token = dealer::Seal(*key, CountingSecret(), kNow + 60);
  ASSERT_TRUE(token.ok()) << token.status();
  EXPECT_EQ(token->size(), dealer::kTokenHexDigits);
  absl::StatusOr<dealer::Secret> opened = dealer::Open(*key, *token, kNow);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(*opened, CountingSecret());
  EXPECT_NE(*token, *dealer::Seal(*key, CountingSecret(), kNow + 60));  // a fresh nonce each time
  EXPECT_FALSE(dealer::Open(*other, *token, kNow).ok());
  // Every byte of the token counts: its key id, its expiry, the nonce, the
  // sealed secret and the tag.
  for (size_t i = 0; i < token->size(); i += 7) {
    std::string changed = *token;
    changed[i] = changed[i] == '0' ? '1' : '0';
    EXPECT_FALSE(dealer::Open(*key, changed, kNow).ok()) << "digit " << i;
  }
  EXPECT_FALSE(dealer::Open(*key, "zz", kNow).ok());
  EXPECT_FALSE(dealer::Open(*key, token->substr(2), kNow).ok());
}

TEST(Dealer, ATokenNamesItsKeyAndExpires) {
  absl::StatusOr<dealer::Key> key = dealer::NewKey(), other = dealer::NewKey();
  ASSERT_TRUE(key.ok() && other.ok());
  std::string token = *dealer::Seal(*key, CountingSecret(), kNow + 60);
  EXPECT_EQ(token.substr(0, 16), dealer::KeyIdOf(*key));
  absl::Status s = dealer::Open(*other, token, kNow).status();
  EXPECT_NE(s.message().find("sealed under dealer key " + dealer::KeyIdOf(*key)), std::string::npos)
      << s;
  EXPECT_TRUE(dealer::Open(*key, token, kNow + 59).ok());
  s = dealer::Open(*key, token, kNow + 60).status();
  EXPECT_NE(s.message().find("expired"), std::string::npos) << s;
  // The expiry is authenticated: one pushed later does not open.
  std::string later = token;
  later[17] = later[17] == 'f' ? 'e' : 'f';
  EXPECT_FALSE(dealer::Open(*key, later, kNow).ok());
}

TEST(Dealer, TheSigningKeyIsDerivedFromTheDealerKeyAndItsSignaturesVerify) {
  dealer::Key key{}, other{};
  other[0] = 1;
  absl::StatusOr<dealer::SigningKey> a = dealer::SigningKey::FromDealerKey(key);
  absl::StatusOr<dealer::SigningKey> again = dealer::SigningKey::FromDealerKey(key);
  absl::StatusOr<dealer::SigningKey> b = dealer::SigningKey::FromDealerKey(other);
  ASSERT_TRUE(a.ok() && again.ok() && b.ok());
  EXPECT_EQ(a->public_key(), again->public_key());  // replicas of one key file sign alike
  EXPECT_NE(a->public_key(), b->public_key());
  EXPECT_EQ(*dealer::PublicKeyIdOf(a->public_key()), a->key_id());
  std::string signature = *a->Sign("a statement\n");
  EXPECT_EQ(signature.size(), 128u);
  EXPECT_TRUE(dealer::VerifySignature(a->public_key(), "a statement\n", signature).ok());
  EXPECT_FALSE(dealer::VerifySignature(a->public_key(), "a statement.\n", signature).ok());
  EXPECT_FALSE(dealer::VerifySignature(b->public_key(), "a statement\n", signature).ok());
  std::string changed = signature;
  changed[5] = changed[5] == '0' ? '1' : '0';
  EXPECT_FALSE(dealer::VerifySignature(a->public_key(), "a statement\n", changed).ok());
  EXPECT_FALSE(dealer::VerifySignature(a->public_key(), "a statement\n", "00").ok());
}

TEST(Dealer, BadSeedsAreRefusedByName) {
  EXPECT_TRUE(dealer::CheckClientSeed("seed").ok());
  absl::Status s = dealer::CheckClientSeed("two words");
  EXPECT_NE(s.message().find("client seed"), std::string::npos) << s;
  s = dealer::CheckClientSeed(std::string(257, 'a'));
  EXPECT_NE(s.message().find("client seed"), std::string::npos) << s;
  s = dealer::CheckClientSeed("");
  EXPECT_NE(s.message().find("client seed"), std::string::npos) << s;
}

// `uckers verify FILE`: its exit code (0 verified, 1 not, 2 usage).
int RunVerify(const std::string& path) {
  std::string cmd = absl::StrCat(UCKERS_BINARY, " verify ", path, " >/dev/null 2>&1");
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A record as a message, written as JSON (so that records that do not
// replay can be written too).
std::string WriteRecord(const std::string& name, const v1::GameRecord& record) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("dealer_test_" + std::to_string(getpid()) + "_" + name + ".json"))
                         .string();
  std::string json;
  EXPECT_TRUE(google::protobuf::util::MessageToJsonString(record, &json).ok());
  std::ofstream(path) << json;
  return path;
}

// A finished dealt game's record, played and revealed through the service.
v1::GameRecord RevealedRecord() {
  Api api{ServiceLimits{}};
  std::mt19937_64 rng(11);
  PlayedDealtGame g = PlayDealtGame(api, rng);
  EXPECT_TRUE(g.game.IsOver()) << g.error;
  v1::RevealDealtGameRequest request;
  request.set_token(g.token);
  request.set_play(g.final_play);
  v1::RevealDealtGameResponse revealed;
  absl::Status s = api.RevealDealtGame(request, &revealed);
  EXPECT_TRUE(s.ok()) << s;
  return revealed.record();
}

// The tampered records: each altered copy of a good one, by name. No
// verifier may say "verified" of any.
std::vector<std::pair<std::string, v1::GameRecord>> TamperedRecords(const v1::GameRecord& good) {
  std::vector<std::pair<std::string, v1::GameRecord>> out;
  auto add = [&](const std::string& name, auto change) {
    v1::GameRecord r = good;
    change(r);
    out.emplace_back(name, r);
  };
  const int n = good.items_size();
  // The throw the secret deals at `index` for `value`, as a record writes it.
  auto dealt = [&](int index, const std::string& value) {
    auto [a, b] = dealer::DealDice(*dealer::SecretFromHex(good.dealer_secret()), good.client_seed(),
                                   index, *dealer::ClientValueFromHex(value));
    return ThrowToString(MakeThrow(a, b));
  };
  // A throw changed where the record stays legal: a pass ("-") made with no
  // six, thrown as another throw without a six.
  add("changed_throw", [&](v1::GameRecord& r) {
    for (int i = 0; i < n; ++i) {
      v1::RecordItem* item = r.mutable_items(i);
      if (item->play() != "-" || item->throw_().find('6') != std::string::npos) continue;
      std::string original = item->throw_();
      item->set_throw_(original == "21" ? "43" : "21");
      if (wire::FromMessage(r).ok()) return;
      item->set_throw_(original);
    }
    ADD_FAILURE() << "no pass without a six to change";
  });
  add("inserted_throw", [&](v1::GameRecord& r) {
    r.add_items()->CopyFrom(r.items(n / 2));
    for (int i = n; i > n / 2; --i) r.mutable_items()->SwapElements(i, i - 1);
    r.add_client_values(r.client_values(n / 2));
    for (int i = n; i > n / 2; --i) r.mutable_client_values()->SwapElements(i, i - 1);
  });
  add("removed_throw", [&](v1::GameRecord& r) {
    r.mutable_items()->erase(r.mutable_items()->begin() + n / 2);
    r.mutable_client_values()->erase(r.mutable_client_values()->begin() + n / 2);
  });
  // Two throws swapped with their values: the first such pair whose swap
  // the dice show (the index enters the derivation).
  add("reordered_throws", [&](v1::GameRecord& r) {
    for (int i = 0; i + 1 < n; ++i) {
      if (dealt(i, r.client_values(i + 1)) == r.items(i + 1).throw_()) continue;
      r.mutable_items()->SwapElements(i, i + 1);
      r.mutable_client_values()->SwapElements(i, i + 1);
      return;
    }
  });
  // A throw after the end, with a value: one the dice do not give.
  add("appended_throw", [&](v1::GameRecord& r) {
    std::string value(32, 'e');
    v1::RecordItem* item = r.add_items();
    item->set_throw_(dealt(n, value) == "11" ? "22" : "11");
    item->set_play("-");
    r.add_client_values(value);
  });
  add("appended_client_value",
      [&](v1::GameRecord& r) { r.add_client_values(std::string(32, '0')); });
  // Throw 0's value changed to one whose throw differs (with another value
  // the same throw comes one time in 18).
  add("changed_client_value", [&](v1::GameRecord& r) {
    std::string v = r.client_values(0);
    for (char c : std::string("0123456789abcdef")) {
      v[0] = c;
      if (dealt(0, v) != r.items(0).throw_()) break;
    }
    r.set_client_values(0, v);
  });
  add("cut_short_with_its_result", [&](v1::GameRecord& r) {
    r.mutable_items()->RemoveLast();
    r.mutable_client_values()->RemoveLast();
  });
  add("cut_short_without_a_result", [&](v1::GameRecord& r) {
    r.mutable_items()->RemoveLast();
    r.mutable_client_values()->RemoveLast();
    r.clear_winner();
    r.clear_points();
  });
  add("no_throw", [&](v1::GameRecord& r) {
    r.clear_items();
    r.clear_client_values();
    r.clear_winner();
    r.clear_points();
  });
  add("changed_seed", [&](v1::GameRecord& r) { r.set_client_seed(r.client_seed() + "x"); });
  add("changed_secret", [&](v1::GameRecord& r) {
    std::string hex = r.dealer_secret();
    hex[0] = hex[0] == 'a' ? 'b' : 'a';
    r.set_dealer_secret(hex);
  });
  add("changed_commitment", [&](v1::GameRecord& r) {
    std::string hex = r.dealer_commitment();
    hex[63] = hex[63] == 'a' ? 'b' : 'a';
    r.set_dealer_commitment(hex);
  });
  add("secret_of_65_bytes",
      [&](v1::GameRecord& r) { r.set_dealer_secret(r.dealer_secret() + std::string(66, '0')); });
  add("upper_case_secret", [&](v1::GameRecord& r) {
    std::string hex = r.dealer_secret();
    for (char& c : hex) c = static_cast<char>(std::toupper(c));
    r.set_dealer_secret(hex);
  });
  add("upper_case_commitment", [&](v1::GameRecord& r) {
    std::string hex = r.dealer_commitment();
    for (char& c : hex) c = static_cast<char>(std::toupper(c));
    r.set_dealer_commitment(hex);
  });
  add("upper_case_client_value", [&](v1::GameRecord& r) {
    std::string hex = r.client_values(0);
    for (char& c : hex) c = static_cast<char>(std::toupper(c));
    if (hex == r.client_values(0)) hex[31] = 'A';
    r.set_client_values(0, hex);
  });
  add("changed_signature", [&](v1::GameRecord& r) {
    std::string hex = r.dealer_signature();
    hex[10] = hex[10] == 'a' ? 'b' : 'a';
    r.set_dealer_signature(hex);
  });
  add("no_signature", [&](v1::GameRecord& r) { r.clear_dealer_signature(); });
  // Another key's public key under the record's key id.
  add("changed_public_key", [&](v1::GameRecord& r) {
    dealer::Key other{};
    r.set_dealer_public_key(dealer::SigningKey::FromDealerKey(other)->public_key());
  });
  // The players' names are the client's; the date too; but the start and
  // the rules are the game's.
  add("changed_rules_name", [&](v1::GameRecord& r) { r.set_rules(r.rules() + " "); });
  add("no_commitment", [&](v1::GameRecord& r) { r.clear_dealer_commitment(); });
  add("no_secret", [&](v1::GameRecord& r) { r.clear_dealer_secret(); });
  return out;
}

TEST(Verify, SaysVerifiedOfTheRevealedRecordInEitherForm) {
  v1::GameRecord good = RevealedRecord();
  std::string path = WriteRecord("good", good);
  EXPECT_EQ(RunVerify(path), 0);
  absl::StatusOr<Record> record = wire::FromMessage(good);
  ASSERT_TRUE(record.ok()) << record.status();
  std::filesystem::remove(path);
  path += ".txt";
  std::ofstream(path) << RecordToText(*record);
  EXPECT_EQ(RunVerify(path), 0);
  std::filesystem::remove(path);
}

TEST(Verify, SaysNotVerifiedOfEveryTamperedRecord) {
  v1::GameRecord good = RevealedRecord();
  for (const auto& [name, record] : TamperedRecords(good)) {
    std::string path = WriteRecord(name, record);
    EXPECT_EQ(RunVerify(path), 1) << name;
    std::filesystem::remove(path);
  }
}

// tests/verify_dealt.py, written from docs/records.md with Python's hmac,
// hashlib and Ed25519, gives the verdict of `uckers verify` on the revealed
// record and on every tampered one: it knows no rules, but the dealer's
// signature covers every throw and play and the result, so a record cut
// short is told by it too.
TEST(Verify, AnIndependentVerifierInPythonAgrees) {
  if (!std::filesystem::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  auto python = [](const std::string& path) {
    std::string cmd = absl::StrCat("/usr/bin/python3 ", UCKERS_SOURCE_DIR,
                                   "/tests/verify_dealt.py ", path, " >/dev/null 2>&1");
    int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  v1::GameRecord good = RevealedRecord();
  std::string path = WriteRecord("python_good", good);
  EXPECT_EQ(python(path), 0);
  EXPECT_EQ(RunVerify(path), 0);
  absl::StatusOr<Record> record = wire::FromMessage(good);
  ASSERT_TRUE(record.ok()) << record.status();
  std::ofstream(path + ".txt") << RecordToText(*record);
  EXPECT_EQ(python(path + ".txt"), 0);
  for (const auto& [name, tampered] : TamperedRecords(good)) {
    std::string file = WriteRecord("python_" + name, tampered);
    EXPECT_EQ(RunVerify(file), 1) << name;
    EXPECT_EQ(python(file), 1) << name;
    std::filesystem::remove(file);
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".txt");
  EXPECT_EQ(python("/nonexistent/record.txt"), 2);
}

// The suite for the verifiers outside this program (the browser's check,
// tests/web/tampered_test.mjs): with UCKERS_TAMPERED_DIR set, the revealed
// record as good.json and each tampered one as <name>.json there, each
// also checked by `uckers verify` as it is written.
TEST(Verify, WritesTheTamperedSuiteForOtherVerifiers) {
  const char* dir = std::getenv("UCKERS_TAMPERED_DIR");
  if (dir == nullptr)
    GTEST_SKIP() << "UCKERS_TAMPERED_DIR not set (tests/web/tampered_test.mjs sets it)";
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const v1::GameRecord& record) {
    std::string json;
    ASSERT_TRUE(google::protobuf::util::MessageToJsonString(record, &json).ok());
    std::string path = (std::filesystem::path(dir) / (name + ".json")).string();
    std::ofstream(path) << json;
    EXPECT_EQ(RunVerify(path), name == "good" ? 0 : 1) << name;
  };
  v1::GameRecord good = RevealedRecord();
  write("good", good);
  for (const auto& [name, tampered] : TamperedRecords(good)) write(name, tampered);
}

// A record re-signed by a key of the attacker's own verifies only as signed
// by that key: --dealer_key, the operator's published key, refuses it.
TEST(Verify, TheDealerKeyGivenMustBeTheOneThatSigned) {
  v1::GameRecord good = RevealedRecord();
  std::string path = WriteRecord("keyed", good);
  auto run = [&](const std::string& flag) {
    std::string cmd = absl::StrCat(UCKERS_BINARY, " verify ", flag, " ", path, " >/dev/null 2>&1");
    int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(run("--dealer_key " + good.dealer_key()), 0);
  EXPECT_EQ(run("--dealer_key " + good.dealer_public_key()), 0);
  dealer::Key mine{};
  mine[3] = 7;
  dealer::SigningKey forger = *dealer::SigningKey::FromDealerKey(mine);
  v1::GameRecord forged = good;
  forged.set_dealer_key(forger.key_id());
  forged.set_dealer_public_key(forger.public_key());
  absl::StatusOr<Record> record = wire::FromMessage(forged);
  ASSERT_TRUE(record.ok()) << record.status();
  forged.set_dealer_signature(*forger.Sign(DealerStatement(*record)));
  std::filesystem::remove(path);
  path = WriteRecord("forged", forged);
  EXPECT_EQ(run(""), 0);  // a good signature, by another key
  EXPECT_EQ(run("--dealer_key " + good.dealer_key()), 1);
  EXPECT_EQ(run("--dealer_key 12"), 2);
  std::filesystem::remove(path);
}

TEST(Verify, ExitsTwoWithoutAFile) {
  EXPECT_EQ(RunVerify(""), 2);
  EXPECT_EQ(RunVerify("/nonexistent/record.txt"), 1);  // a file that cannot be read
}

}  // namespace
}  // namespace uckers::testing
