// Dealt games through the service (server/api.h, server/dealt_games.h,
// docs/frontend.md "Verified dice"): bound once, each throw dealt once and
// in order after the play before it, the client's value in every throw,
// the reveal only of a game the server saw end; every refusal names what
// was wrong and changes nothing.
#include <ctime>
#include <random>

#include "dealer/dealer.h"
#include "record/text.h"
#include "rules/ufen.h"
#include "server/dealt_games.h"
#include "tests/dealt_support.h"
#include "wire/record.h"

namespace uckers::testing {
namespace {

bool Has(const absl::Status& s, absl::string_view text) {
  return s.message().find(text) != absl::string_view::npos;
}

// A started and bound game, and its first throw dealt.
struct Begun {
  std::string token;
  Game game;
  Throw first;
};

Begun BeginGame(Api& api) {
  Begun b;
  v1::StartDealtGameResponse start;
  EXPECT_TRUE(api.StartDealtGame({}, {}, &start).ok());
  b.token = start.token();
  v1::BindDealtGameRequest bind;
  bind.set_token(b.token);
  bind.set_client_seed("bound-seed");
  v1::BindDealtGameResponse bound;
  EXPECT_TRUE(api.BindDealtGame(bind, &bound).ok());
  EXPECT_EQ(bound.commitment(), start.commitment());
  v1::DealThrowResponse d;
  EXPECT_TRUE(api.DealThrow(DealRequest(b.token, 0, TestClientValue(0, 0), ""), &d).ok());
  b.first = MakeThrow(d.throw_().die1(), d.throw_().die2());
  return b;
}

std::string FirstLegalPlay(const Game& game, Throw t) {
  return PlayToString(SortedLegalPlays(game.position(), game.rules(), t).front().play,
                      game.position().board());
}

v1::RevealDealtGameRequest RevealRequest(const std::string& token, const std::string& play) {
  v1::RevealDealtGameRequest r;
  r.set_token(token);
  r.set_play(play);
  return r;
}

TEST(DealtApi, AWholeGameIsRevealedWithARecordThatVerifies) {
  Api api{ServiceLimits{}};
  std::mt19937_64 rng(1);
  PlayedDealtGame g = PlayDealtGame(api, rng);
  ASSERT_EQ(g.error, "");
  ASSERT_TRUE(g.game.IsOver());
  v1::RevealDealtGameResponse revealed;
  absl::Status s = api.RevealDealtGame(RevealRequest(g.token, g.final_play), &revealed);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(revealed.commitment(), g.commitment);
  absl::StatusOr<Record> record = wire::FromMessage(revealed.record());
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->client_values, g.values);
  EXPECT_EQ(record->game.items().size(), g.game.items().size());
  EXPECT_TRUE(VerifyDealtDice(*record).ok()) << VerifyDealtDice(*record);
  // The text form keeps every dealer header.
  absl::StatusOr<Record> reread = wire::ParseRecord(RecordToText(*record));
  ASSERT_TRUE(reread.ok()) << reread.status();
  EXPECT_TRUE(VerifyDealtDice(*reread).ok());
}

// The binding's signature covers the key id, rules, start, commitment and
// seed, by the public key StartDealtGame named (docs/records.md, "The
// dealer's signatures"); the revealed record is signed by the same key.
TEST(DealtApi, TheCommitmentAndTheRevealedRecordAreSignedByTheKeyTheStartNames) {
  Api api{ServiceLimits{}};
  v1::StartDealtGameResponse start;
  ASSERT_TRUE(api.StartDealtGame({}, {}, &start).ok());
  EXPECT_EQ(*dealer::PublicKeyIdOf(start.dealer_public_key()), start.dealer_key());
  v1::BindDealtGameRequest bind;
  bind.set_token(start.token());
  bind.set_client_seed("signed-seed");
  bind.set_rules("navy");
  v1::BindDealtGameResponse bound;
  ASSERT_TRUE(api.BindDealtGame(bind, &bound).ok());
  const std::string statement = dealer::CommitmentStatement(
      start.dealer_key(), bound.rules(), bound.start().ufen(), start.commitment(), "signed-seed");
  EXPECT_TRUE(
      dealer::VerifySignature(start.dealer_public_key(), statement, bound.commitment_signature())
          .ok());
  EXPECT_FALSE(dealer::VerifySignature(start.dealer_public_key(), statement + "x",
                                       bound.commitment_signature())
                   .ok());
  std::mt19937_64 rng(3);
  PlayedDealtGame g = PlayDealtGame(api, rng);
  v1::RevealDealtGameResponse revealed;
  ASSERT_TRUE(api.RevealDealtGame(RevealRequest(g.token, g.final_play), &revealed).ok());
  EXPECT_EQ(revealed.record().dealer_key(), start.dealer_key());
  EXPECT_EQ(revealed.record().dealer_public_key(), start.dealer_public_key());
}

// Two servers with one dealer key sign with one key (replicas behind a
// balancer publish one public key).
TEST(DealtApi, ServersOfOneDealerKeySignWithOneKey) {
  ServiceLimits limits;
  limits.dealer_key = *dealer::NewKey();
  Api a{limits}, b{limits};
  v1::StartDealtGameResponse sa, sb;
  ASSERT_TRUE(a.StartDealtGame({}, {}, &sa).ok());
  ASSERT_TRUE(b.StartDealtGame({}, {}, &sb).ok());
  EXPECT_EQ(sa.dealer_public_key(), sb.dealer_public_key());
  Api c{ServiceLimits{}};
  v1::StartDealtGameResponse sc;
  ASSERT_TRUE(c.StartDealtGame({}, {}, &sc).ok());
  EXPECT_NE(sa.dealer_public_key(), sc.dealer_public_key());
}

TEST(DealtApi, ARevealBeforeTheGameIsOverIsRefused) {
  Api api{ServiceLimits{}};
  Begun b = BeginGame(api);
  v1::RevealDealtGameResponse r;
  absl::Status s = api.RevealDealtGame(RevealRequest(b.token, FirstLegalPlay(b.game, b.first)), &r);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(Has(s, "not over")) << s;
  EXPECT_EQ(r.secret(), "");
  // The game goes on: throw 1 is still dealt.
  v1::DealThrowResponse d;
  EXPECT_TRUE(
      api.DealThrow(DealRequest(b.token, 1, TestClientValue(0, 1), FirstLegalPlay(b.game, b.first)),
                    &d)
          .ok());
}

TEST(DealtApi, ARevealWithNoThrowIsRefused) {
  Api api{ServiceLimits{}};
  v1::StartDealtGameResponse start;
  ASSERT_TRUE(api.StartDealtGame({}, {}, &start).ok());
  v1::RevealDealtGameResponse r;
  v1::RevealDealtGameRequest request = RevealRequest(start.token(), "");
  request.set_record_text("[Rules \"navy\"]\n[Result \"GB 1\"]\n[Termination \"time\"]\n\n");
  absl::Status s = api.RevealDealtGame(request, &r);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  v1::BindDealtGameRequest bind;
  bind.set_token(start.token());
  bind.set_client_seed("s");
  v1::BindDealtGameResponse bound;
  ASSERT_TRUE(api.BindDealtGame(bind, &bound).ok());
  s = api.RevealDealtGame(request, &r);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(Has(s, "no throw")) << s;
  EXPECT_EQ(r.secret(), "");
}

TEST(DealtApi, ARevealOfARecordThatSaysTheClockRanOutIsRefused) {
  Api api{ServiceLimits{}};
  Begun b = BeginGame(api);
  Game game = b.game;
  ASSERT_TRUE(game.Play(b.first, FirstLegalPlay(game, b.first)).ok());
  Record record = RecordOf(game);
  const Position& pos = game.position();
  record.winner = SideName(pos.layout(), 1 - pos.SideOf(pos.to_throw()));
  record.points = 1;
  record.termination = "time";
  ASSERT_TRUE(wire::FromMessage(wire::ToMessage(record)).ok());  // a record that reads
  v1::RevealDealtGameRequest request = RevealRequest(b.token, "");
  *request.mutable_record() = wire::ToMessage(record);
  v1::RevealDealtGameResponse r;
  absl::Status s = api.RevealDealtGame(request, &r);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Has(s, "Termination")) << s;
  EXPECT_EQ(r.secret(), "");
}

TEST(DealtApi, ARevealOfARecordWithAChosenStartIsRefused) {
  // The client's record claims a start one throw from the end: the server
  // plays only from the start it bound.
  Api api{ServiceLimits{}};
  Begun b = BeginGame(api);
  // A finished game of its own dice, cut to its last throw.
  std::mt19937_64 rng(4);
  Game whole;
  while (!whole.IsOver()) {
    Throw t = MakeThrow(1 + rng() % 6, 1 + rng() % 6);
    ASSERT_TRUE(whole.Play(t, FirstLegalPlay(whole, t)).ok());
  }
  const PlayedThrow& last = whole.items().back();
  Game chosen = *Game::FromStart(whole.rules(), ToUfen(last.before));
  ASSERT_TRUE(chosen.Play(last.dice, last.play).ok());
  ASSERT_TRUE(chosen.IsOver());
  v1::RevealDealtGameRequest request = RevealRequest(b.token, "");
  request.set_record_text(RecordToText(RecordOf(chosen)));
  v1::RevealDealtGameResponse r;
  absl::Status s = api.RevealDealtGame(request, &r);
  EXPECT_FALSE(s.ok()) << s;
  EXPECT_TRUE(Has(s, "is not the start bound")) << s;
  EXPECT_EQ(r.secret(), "");
}

TEST(DealtApi, ARevealOfARecordThatIsNotTheServersGameIsRefusedAndChangesNothing) {
  Api api{ServiceLimits{}};
  std::mt19937_64 rng(5);
  PlayedDealtGame g = PlayDealtGame(api, rng);
  ASSERT_TRUE(g.game.IsOver()) << g.error;
  // The client's record with its first throw told otherwise.
  v1::GameRecord other = wire::ToMessage(RecordOf(g.game));
  std::string first = other.items(0).throw_();
  other.mutable_items(0)->set_throw_(first == "11" ? "22" : "11");
  v1::RevealDealtGameRequest request = RevealRequest(g.token, g.final_play);
  *request.mutable_record() = other;
  v1::RevealDealtGameResponse r;
  absl::Status s = api.RevealDealtGame(request, &r);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(r.secret(), "");
  // The true record is revealed after it, its players kept.
  Record mine = RecordOf(g.game);
  mine.ry = "Ann";
  *request.mutable_record() = wire::ToMessage(mine);
  s = api.RevealDealtGame(request, &r);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(r.record().ry(), "Ann");
}

TEST(DealtApi, ABindingWithAStartAlreadyOverIsRefused) {
  Api api{ServiceLimits{}};
  v1::StartDealtGameResponse start;
  ASSERT_TRUE(api.StartDealtGame({}, {}, &start).ok());
  v1::BindDealtGameRequest bind;
  bind.set_token(start.token());
  bind.set_client_seed("s");
  bind.mutable_start()->set_ufen("h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b r -");
  v1::BindDealtGameResponse bound;
  absl::Status s = api.BindDealtGame(bind, &bound);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Has(s, "start")) << s;
}

TEST(DealtApi, DealThrowWithASeedIsRefused) {
  Api api{ServiceLimits{}};
  Begun b = BeginGame(api);
  v1::DealThrowRequest request =
      DealRequest(b.token, 1, TestClientValue(0, 1), FirstLegalPlay(b.game, b.first));
  request.set_client_seed("another-seed");
  v1::DealThrowResponse d;
  absl::Status s = api.DealThrow(request, &d);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Has(s, "client_seed")) << s;
  request.clear_client_seed();
  EXPECT_TRUE(api.DealThrow(request, &d).ok());  // nothing changed: throw 1 is next
}

TEST(DealtApi, ASkippedIndexIsRefused) {
  Api api{ServiceLimits{}};
  Begun b = BeginGame(api);
  v1::DealThrowResponse d;
  absl::Status s = api.DealThrow(
      DealRequest(b.token, 2, TestClientValue(0, 2), FirstLegalPlay(b.game, b.first)), &d);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(Has(s, "index 2: throw 1 comes first")) << s;
  EXPECT_TRUE(
      api.DealThrow(DealRequest(b.token, 1, TestClientValue(0, 2), FirstLegalPlay(b.game, b.first)),
                    &d)
          .ok());
}

TEST(DealtApi, ARepeatedIndexIsRefused) {
  Api api{ServiceLimits{}};
  Begun b = BeginGame(api);
  v1::DealThrowResponse d;
  absl::Status s = api.DealThrow(DealRequest(b.token, 0, TestClientValue(0, 9), ""), &d);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(Has(s, "index 0: throw 0 was dealt already")) << s;
}

TEST(DealtApi, AThrowWithoutThePlayBeforeItOrWithAnIllegalOneIsRefused) {
  Api api{ServiceLimits{}};
  Begun b = BeginGame(api);
  v1::DealThrowResponse d;
  absl::Status s = api.DealThrow(DealRequest(b.token, 1, TestClientValue(0, 1), ""), &d);
  EXPECT_TRUE(Has(s, "play: missing")) << s;
  s = api.DealThrow(DealRequest(b.token, 1, TestClientValue(0, 1), "r0-99"), &d);
  EXPECT_TRUE(Has(s, "play 'r0-99' of throw 0")) << s;
  EXPECT_TRUE(
      api.DealThrow(DealRequest(b.token, 1, TestClientValue(0, 1), FirstLegalPlay(b.game, b.first)),
                    &d)
          .ok());
}

TEST(DealtApi, ABadOrReusedClientValueIsRefused) {
  Api api{ServiceLimits{}};
  Begun b = BeginGame(api);
  std::string play = FirstLegalPlay(b.game, b.first);
  v1::DealThrowResponse d;
  absl::Status s = api.DealThrow(DealRequest(b.token, 1, "", play), &d);
  EXPECT_TRUE(Has(s, "client value")) << s;
  s = api.DealThrow(DealRequest(b.token, 1, "ABCDEF0123456789abcdef0123456789", play), &d);
  EXPECT_TRUE(Has(s, "upper-case")) << s;
  s = api.DealThrow(DealRequest(b.token, 1, TestClientValue(0, 0), play), &d);
  EXPECT_TRUE(Has(s, "used for an earlier throw")) << s;
}

TEST(DealtApi, NothingIsDealtAfterTheReveal) {
  Api api{ServiceLimits{}};
  std::mt19937_64 rng(2);
  PlayedDealtGame g = PlayDealtGame(api, rng);
  ASSERT_TRUE(g.game.IsOver()) << g.error;
  v1::DealThrowResponse d;
  // Before the reveal, the play that ends the game deals nothing.
  int64_t next = static_cast<int64_t>(g.values.size());
  absl::Status s =
      api.DealThrow(DealRequest(g.token, next, TestClientValue(7, 7), g.final_play), &d);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(Has(s, "ends the game")) << s;
  v1::RevealDealtGameResponse r;
  ASSERT_TRUE(api.RevealDealtGame(RevealRequest(g.token, g.final_play), &r).ok());
  s = api.DealThrow(DealRequest(g.token, next, TestClientValue(7, 7), g.final_play), &d);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(Has(s, "revealed")) << s;
  s = api.RevealDealtGame(RevealRequest(g.token, g.final_play), &r);
  EXPECT_TRUE(Has(s, "revealed already")) << s;
}

TEST(DealtApi, ASecondGameOnOneTokenIsRefused) {
  Api api{ServiceLimits{}};
  v1::StartDealtGameResponse start;
  ASSERT_TRUE(api.StartDealtGame({}, {}, &start).ok());
  v1::BindDealtGameRequest bind;
  bind.set_token(start.token());
  bind.set_client_seed("first");
  v1::BindDealtGameResponse bound;
  ASSERT_TRUE(api.BindDealtGame(bind, &bound).ok());
  bind.set_client_seed("second");
  absl::Status s = api.BindDealtGame(bind, &bound);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(Has(s, "bound already")) << s;
}

TEST(DealtApi, AThrowBeforeTheBindingIsRefused) {
  Api api{ServiceLimits{}};
  v1::StartDealtGameResponse start;
  ASSERT_TRUE(api.StartDealtGame({}, {}, &start).ok());
  v1::DealThrowResponse d;
  absl::Status s = api.DealThrow(DealRequest(start.token(), 0, TestClientValue(0, 0), ""), &d);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(Has(s, "not bound")) << s;
}

TEST(DealtApi, ATokenOfAnotherServerIsRefusedByName) {
  Api a{ServiceLimits{}}, b{ServiceLimits{}};
  v1::StartDealtGameResponse start;
  ASSERT_TRUE(a.StartDealtGame({}, {}, &start).ok());
  v1::BindDealtGameRequest bind;
  bind.set_token(start.token());
  bind.set_client_seed("s");
  v1::BindDealtGameResponse bound;
  absl::Status s = b.BindDealtGame(bind, &bound);
  EXPECT_TRUE(Has(s, "token")) << s;
  bind.set_token("abc");
  s = a.BindDealtGame(bind, &bound);
  EXPECT_TRUE(Has(s, "token")) << s;
}

TEST(DealtGames, WithoutAKeyNoGameIsDealt) {
  DealtGames games(std::nullopt, DealtGamesLimits{});
  absl::StatusOr<DealtGames::Started> started = games.Start();
  EXPECT_TRUE(absl::IsFailedPrecondition(started.status())) << started.status();
  EXPECT_TRUE(Has(started.status(), "no dealer key")) << started.status();
}

TEST(DealtGames, AFullStoreRefusesANewGameUntilOneExpires) {
  DealtGames::Clock::time_point now{};
  DealtGamesLimits limits;
  limits.max_games = 2;
  limits.unbound_expiry = std::chrono::seconds(60);
  DealtGames games(*dealer::NewKey(), limits, [&now] { return now; });
  absl::StatusOr<DealtGames::Started> first = games.Start();
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(games.Start().ok());
  absl::StatusOr<DealtGames::Started> third = games.Start();
  EXPECT_TRUE(absl::IsResourceExhausted(third.status())) << third.status();
  now += std::chrono::seconds(61);
  EXPECT_TRUE(games.Start().ok());
  EXPECT_EQ(games.size(), 1u);
  absl::StatusOr<DealtGames::Bound> bound =
      games.Bind(first->token, "s", Rules(), Position::Start(Rules()));
  EXPECT_TRUE(absl::IsNotFound(bound.status())) << bound.status();
  EXPECT_TRUE(Has(bound.status(), "expired")) << bound.status();
}

TEST(DealtGames, OneClientHoldsAtMostItsShareOfTheStore) {
  DealtGamesLimits limits;
  limits.max_games_per_client = 2;
  DealtGames games(*dealer::NewKey(), limits);
  ASSERT_TRUE(games.Start("10.0.0.7").ok());
  ASSERT_TRUE(games.Start("10.0.0.7").ok());
  absl::StatusOr<DealtGames::Started> third = games.Start("10.0.0.7");
  EXPECT_TRUE(absl::IsResourceExhausted(third.status())) << third.status();
  EXPECT_TRUE(Has(third.status(), "this client holds 2 games already")) << third.status();
  EXPECT_EQ(games.size(), 2u);
  // Another client, and a caller of no known address, are not counted
  // against it.
  EXPECT_TRUE(games.Start("10.0.0.8").ok());
  EXPECT_TRUE(games.Start("").ok());
}

// A stranger's cheap calls cannot hold the store for hours: a game never
// bound is forgotten after ten minutes unused, a bound one only after six
// hours.
TEST(DealtGames, AGameNeverBoundIsForgottenAfterTenMinutes) {
  DealtGames::Clock::time_point now{};
  DealtGames games(*dealer::NewKey(), DealtGamesLimits{}, [&now] { return now; });
  absl::StatusOr<DealtGames::Started> idle = games.Start();
  absl::StatusOr<DealtGames::Started> played = games.Start();
  ASSERT_TRUE(idle.ok() && played.ok());
  ASSERT_TRUE(games.Bind(played->token, "s", Rules(), Position::Start(Rules())).ok());
  now += std::chrono::seconds(601);
  absl::StatusOr<DealtGames::Bound> late =
      games.Bind(idle->token, "s", Rules(), Position::Start(Rules()));
  EXPECT_TRUE(absl::IsNotFound(late.status())) << late.status();
  EXPECT_TRUE(games.Deal(played->token, 0, TestClientValue(0, 0), "").ok());
}

// A full store makes room by forgetting the game unused longest, once it
// has been unused ten minutes: games left unfinished do not lock others
// out for the six hours a bound game is kept.
TEST(DealtGames, AFullStoreForgetsTheGameUnusedLongestAfterTenMinutes) {
  DealtGames::Clock::time_point now{};
  DealtGamesLimits limits;
  limits.max_games = 2;
  DealtGames games(*dealer::NewKey(), limits, [&now] { return now; });
  absl::StatusOr<DealtGames::Started> left = games.Start();
  absl::StatusOr<DealtGames::Started> played = games.Start();
  ASSERT_TRUE(left.ok() && played.ok());
  ASSERT_TRUE(games.Bind(left->token, "s", Rules(), Position::Start(Rules())).ok());
  now += std::chrono::seconds(300);
  ASSERT_TRUE(games.Bind(played->token, "s", Rules(), Position::Start(Rules())).ok());
  EXPECT_TRUE(absl::IsResourceExhausted(games.Start().status()));
  now += std::chrono::seconds(301);  // `left` unused 601 s, `played` 301 s
  ASSERT_TRUE(games.Start().ok());
  EXPECT_EQ(games.size(), 2u);
  EXPECT_TRUE(absl::IsNotFound(games.Deal(left->token, 0, TestClientValue(0, 0), "").status()));
  EXPECT_TRUE(games.Deal(played->token, 0, TestClientValue(0, 1), "").ok());
}

// A revealed game is in play no more: it is forgotten after ten minutes
// unused, so that finished games do not fill the store.
TEST(DealtGames, ARevealedGameIsForgottenAfterTenMinutes) {
  DealtGames::Clock::time_point now{};
  DealtGames games(*dealer::NewKey(), DealtGamesLimits{}, [&now] { return now; });
  absl::StatusOr<DealtGames::Started> started = games.Start();
  ASSERT_TRUE(started.ok());
  ASSERT_TRUE(games.Bind(started->token, "s", Rules(), Position::Start(Rules())).ok());
  Game game;
  std::string play;
  for (int64_t i = 0; !game.IsOver() && i < 2000; ++i) {
    absl::StatusOr<std::pair<int, int>> dice =
        games.Deal(started->token, i, TestClientValue(0, i), play);
    ASSERT_TRUE(dice.ok()) << dice.status();
    Throw t = MakeThrow(dice->first, dice->second);
    play = FirstLegalPlay(game, t);
    ASSERT_TRUE(game.Play(t, play).ok());
  }
  ASSERT_TRUE(game.IsOver());
  ASSERT_TRUE(games.Reveal(started->token, play, nullptr).ok());
  now += std::chrono::seconds(599);
  absl::StatusOr<Record> again = games.Reveal(started->token, play, nullptr);
  EXPECT_TRUE(absl::IsFailedPrecondition(again.status())) << again.status();
  now += std::chrono::seconds(2);
  EXPECT_EQ(games.size(), 1u);
  ASSERT_TRUE(games.Start().ok());
  again = games.Reveal(started->token, play, nullptr);
  EXPECT_TRUE(absl::IsNotFound(again.status())) << again.status();
}

// The client's value enters the throw: the same game state asked with
// other values gives other throws, so the server cannot know a throw before
// its request. (Two servers with the same key hold no shared game, so the
// comparison is over the derivation the server uses, at throw 0.)
TEST(DealtGames, TheClientValueChangesTheThrow) {
  dealer::Key key = *dealer::NewKey();
  std::set<std::pair<int, int>> seen;
  absl::StatusOr<dealer::Secret> secret;
  DealtGames games(key, DealtGamesLimits{});
  absl::StatusOr<DealtGames::Started> started = games.Start();
  ASSERT_TRUE(started.ok());
  secret = dealer::Open(key, started->token, std::time(nullptr));
  ASSERT_TRUE(secret.ok());
  for (uint64_t v = 0; v < 200; ++v) {
    seen.insert(
        dealer::DealDice(*secret, "s", 0, *dealer::ClientValueFromHex(TestClientValue(0, v))));
  }
  EXPECT_GE(seen.size(), 30u);  // of 36 ordered throws
  // And the server deals throw 0 by that derivation for the value sent.
  ASSERT_TRUE(games.Bind(started->token, "s", Rules(), Position::Start(Rules())).ok());
  absl::StatusOr<std::pair<int, int>> dealt =
      games.Deal(started->token, 0, TestClientValue(0, 5), "");
  ASSERT_TRUE(dealt.ok()) << dealt.status();
  EXPECT_EQ(*dealt,
            dealer::DealDice(*secret, "s", 0, *dealer::ClientValueFromHex(TestClientValue(0, 5))));
}

TEST(DealtApi, AHundredThousandThrowsThroughTheServiceAreUniformByChiSquare) {
  // Whole games, each play a random legal one, until 100,000 throws; the
  // faces (5 degrees of freedom) and the 36 ordered pairs (35) against
  // uniform, at p = 10^-5 (the secrets are fresh each run, so the bound is
  // one that a fair dealer fails once in 50,000 runs): 30.86 and 82.64.
  constexpr int64_t kThrows = 100000;
  ServiceLimits limits;
  limits.dealt_games.max_games = 100000;
  Api api(limits);
  std::mt19937_64 rng(3);
  int64_t faces[7] = {}, pairs[7][7] = {}, n = 0;
  for (uint64_t id = 1; n < kThrows; ++id) {
    PlayedDealtGame g = PlayDealtGame(api, rng, id);
    ASSERT_EQ(g.error, "");
    ASSERT_TRUE(g.game.IsOver()) << "a game longer than a dealt game may be";
    for (size_t i = 0; i < g.dealt.size() && n < kThrows; ++i, ++n) {
      auto [a, b] = g.dealt[i];
      ASSERT_TRUE(a >= 1 && a <= 6 && b >= 1 && b <= 6);
      ++faces[a], ++faces[b], ++pairs[a][b];
    }
  }
  double chi_faces = 0, chi_pairs = 0;
  for (int f = 1; f <= 6; ++f) {
    double e = 2.0 * kThrows / 6;
    chi_faces += (faces[f] - e) * (faces[f] - e) / e;
    for (int g = 1; g <= 6; ++g) {
      double ep = kThrows / 36.0;
      chi_pairs += (pairs[f][g] - ep) * (pairs[f][g] - ep) / ep;
    }
  }
  EXPECT_LT(chi_faces, 30.86);
  EXPECT_LT(chi_pairs, 82.64);
}

}  // namespace
}  // namespace uckers::testing
