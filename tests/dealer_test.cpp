// Verified dice (dealer/dealer.h, docs/records.md "Dealt dice"): the
// derivation against an independent implementation, the dice's fairness,
// the sealed token, a whole dealt game recomputed from its revealed secret,
// and `uckers verify` on it and on altered copies.
#include "dealer/dealer.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "engine/facade.h"
#include "gtest/gtest.h"
#include "record/game.h"
#include "record/text.h"
#include "rules/movegen.h"
#include "rules/notation.h"
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

TEST(Dealer, ThrowsAreHmacSha256OfSeedAndIndexWithRejection) {
  // Known answers from an independent implementation (Python's hmac): the
  // bytes of HMAC-SHA256(secret, seed || index as 8 bytes big-endian), each
  // below 252 a die 1 + byte % 6.
  const std::pair<int, int> expected[] = {{5, 6}, {2, 3}, {2, 5}, {3, 5},
                                          {5, 2}, {4, 1}, {5, 2}, {5, 2}};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(dealer::DealDice(CountingSecret(), "client-seed-42", i), expected[i]) << i;
  }
  // Throw 39's first byte is 0xff: rejected, the next two bytes make it.
  EXPECT_EQ(dealer::DealDice(CountingSecret(), "client-seed-42", 39), std::make_pair(1, 3));
}

TEST(Dealer, AMillionDealtDiceAreUniformByChiSquare) {
  // 500,000 throws = 10^6 dice; the faces (5 degrees of freedom) and the 36
  // ordered pairs (35) against uniform, at p = 0.001: 20.52 and 66.62.
  constexpr int kThrowsDealt = 500000;
  int64_t faces[7] = {}, pairs[7][7] = {};
  for (int i = 0; i < kThrowsDealt; ++i) {
    auto [a, b] = dealer::DealDice(CountingSecret(), "uniformity", i);
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

TEST(Dealer, ATokenOpensOnlyWithItsKeyAndUnchanged) {
  absl::StatusOr<dealer::Key> key = dealer::NewKey(), other = dealer::NewKey();
  ASSERT_TRUE(key.ok() && other.ok());
  absl::StatusOr<std::string> token = dealer::Seal(*key, CountingSecret());
  ASSERT_TRUE(token.ok()) << token.status();
  absl::StatusOr<dealer::Secret> opened = dealer::Open(*key, *token);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(*opened, CountingSecret());
  EXPECT_NE(*token, *dealer::Seal(*key, CountingSecret()));  // a fresh nonce each time
  EXPECT_FALSE(dealer::Open(*other, *token).ok());
  std::string changed = *token;
  changed[30] = changed[30] == '0' ? '1' : '0';
  EXPECT_FALSE(dealer::Open(*key, changed).ok());
  EXPECT_FALSE(dealer::Open(*key, "zz").ok());
  EXPECT_FALSE(dealer::Open(*key, token->substr(2)).ok());
}

TEST(Dealer, BadSeedsIndexesAndTokensAreRefusedByName) {
  dealer::Key key = *dealer::NewKey();
  facade::DealtStart start = *facade::StartDealtGame(key);
  EXPECT_TRUE(facade::DealThrow(key, start.token, "seed", 0).ok());
  absl::Status s = facade::DealThrow(key, start.token, "two words", 0).status();
  EXPECT_NE(s.message().find("client seed"), std::string::npos) << s;
  s = facade::DealThrow(key, start.token, std::string(257, 'a'), 0).status();
  EXPECT_NE(s.message().find("client seed"), std::string::npos) << s;
  s = facade::DealThrow(key, start.token, "seed", -1).status();
  EXPECT_NE(s.message().find("index"), std::string::npos) << s;
  s = facade::DealThrow(key, start.token, "seed", dealer::kMaxThrowIndex + 1).status();
  EXPECT_NE(s.message().find("index"), std::string::npos) << s;
  s = facade::DealThrow(key, "abc", "seed", 0).status();
  EXPECT_NE(s.message().find("token"), std::string::npos) << s;
}

// A whole game with dealt dice, each side playing its first legal play.
struct DealtGame {
  dealer::Key key;
  facade::DealtStart start;
  std::string seed = "my-seed-7";
  Game game;
  std::vector<std::pair<int, int>> dealt;
};

DealtGame PlayDealtGame() {
  DealtGame g;
  g.key = *dealer::NewKey();
  g.start = *facade::StartDealtGame(g.key);
  for (int i = 0; !g.game.IsOver() && i < 20000; ++i) {
    absl::StatusOr<std::pair<int, int>> dice = facade::DealThrow(g.key, g.start.token, g.seed, i);
    EXPECT_TRUE(dice.ok()) << dice.status();
    g.dealt.push_back(*dice);
    Throw t = MakeThrow(dice->first, dice->second);
    std::vector<PlayResult> plays = facade::LegalPlays(g.game.position(), g.game.rules(), t);
    EXPECT_TRUE(g.game.Play(t, PlayToString(plays.front().play)).ok());
  }
  return g;
}

TEST(Dealer, AWholeGamesThrowsAreRecomputedFromTheRevealedSecret) {
  DealtGame g = PlayDealtGame();
  ASSERT_TRUE(g.game.IsOver());
  absl::StatusOr<Record> revealed =
      facade::RevealDealtGame(g.key, g.start.token, g.seed, RecordOf(g.game));
  ASSERT_TRUE(revealed.ok()) << revealed.status();
  EXPECT_EQ(revealed->dealer_commitment, g.start.commitment);
  absl::StatusOr<dealer::Secret> secret = dealer::SecretFromHex(revealed->dealer_secret);
  ASSERT_TRUE(secret.ok());
  EXPECT_EQ(dealer::Commitment(*secret), g.start.commitment);
  for (size_t i = 0; i < g.dealt.size(); ++i) {
    EXPECT_EQ(dealer::DealDice(*secret, g.seed, i), g.dealt[i]) << i;
  }
  EXPECT_TRUE(VerifyDealtDice(*revealed).ok());
  // The text form keeps the three headers.
  absl::StatusOr<Record> reread = wire::ParseRecord(RecordToText(*revealed));
  ASSERT_TRUE(reread.ok()) << reread.status();
  EXPECT_TRUE(VerifyDealtDice(*reread).ok());
}

TEST(Dealer, TheSecretIsNotRevealedBeforeTheGameEnds) {
  DealtGame g = PlayDealtGame();
  Game last_taken_back = g.game;
  ASSERT_TRUE(last_taken_back.TakeBack());
  Record unfinished = RecordOf(last_taken_back);
  ASSERT_TRUE(unfinished.winner.empty());
  absl::StatusOr<Record> r = facade::RevealDealtGame(g.key, g.start.token, g.seed, unfinished);
  EXPECT_TRUE(absl::IsFailedPrecondition(r.status())) << r.status();
  // Nor for another seed, whose throws are not the game's.
  r = facade::RevealDealtGame(g.key, g.start.token, "other-seed", RecordOf(g.game));
  EXPECT_FALSE(r.ok());
}

int RunVerify(const std::string& path) {
  std::string cmd = absl::StrCat(UCKERS_BINARY, " verify ", path, " >/dev/null 2>&1");
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string WriteRecord(const std::string& name, const Record& record) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("dealer_test_" + std::to_string(getpid()) + "_" + name + ".txt"))
                         .string();
  std::ofstream(path) << RecordToText(record);
  return path;
}

TEST(Dealer, VerifyPassesTheRecordAndFailsAChangedThrowSeedOrSecret) {
  DealtGame g = PlayDealtGame();
  Record record = *facade::RevealDealtGame(g.key, g.start.token, g.seed, RecordOf(g.game));
  EXPECT_EQ(RunVerify(WriteRecord("good", record)), 0);

  Record seed = record;
  seed.client_seed = "my-seed-8";
  EXPECT_EQ(RunVerify(WriteRecord("seed", seed)), 1);

  Record secret = record;
  std::string hex = secret.dealer_secret;
  hex[0] = hex[0] == 'a' ? 'b' : 'a';
  secret.dealer_secret = hex;
  EXPECT_EQ(RunVerify(WriteRecord("secret", secret)), 1);

  // A throw changed where the record stays legal: a pass ("-") made with
  // no six, thrown as another throw without a six. The record is changed
  // as a message: a Record holds only games that replay.
  v1::GameRecord changed = wire::ToMessage(record);
  absl::StatusOr<Record> replayed;
  bool found = false;
  for (int i = 0; i < changed.items_size() && !found; ++i) {
    v1::RecordItem* item = changed.mutable_items(i);
    if (item->play() != "-" || item->throw_().find('6') != std::string::npos) continue;
    std::string original = item->throw_();
    item->set_throw_(original == "21" ? "43" : "21");
    replayed = wire::FromMessage(changed);
    found = replayed.ok();
    if (!found) item->set_throw_(original);
  }
  ASSERT_TRUE(found) << "no pass without a six to change";
  EXPECT_EQ(RunVerify(WriteRecord("throw", *replayed)), 1);

  Record undealt = record;
  undealt.dealer_commitment.clear();
  EXPECT_EQ(RunVerify(WriteRecord("undealt", undealt)), 1);
  EXPECT_EQ(RunVerify(""), 2);
  EXPECT_EQ(RunVerify("/nonexistent/record.txt"), 1);  // a file that cannot be read
}

}  // namespace
}  // namespace uckers::testing
