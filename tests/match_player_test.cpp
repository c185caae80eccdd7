// Match players (match/player.h, match/play_game.h): what a player hears of a
// game, and a level under Opponent=auto judging its opponent by its plays.
#include <memory>

#include "match/baselines.h"
#include "match/play_game.h"
#include "match/player.h"
#include "rules/dice_sequence.h"
#include "search/opponent_model.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

// The play whose position the shipped net values least for its maker.
PlayResult PoorestPlay(const Position& pos, const Rules& rules, Throw t) {
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  std::vector<double> wins = OpponentEvidence(rules).PlayValues(pos, plays);
  return plays[std::min_element(wins.begin(), wins.end()) - wins.begin()];
}

// Plays the poorest play each time, and counts what it hears.
class PoorPlayer : public Player {
 public:
  explicit PoorPlayer(const Rules& rules) : rules_(rules) {}
  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override {
    chosen++;
    return PoorestPlay(pos, rules_, t);
  }
  void Observe(const Position&, Throw, const PlayResult&) override { heard++; }
  int chosen = 0;
  int heard = 0;

 private:
  Rules rules_;
};

// Positions where team 1 throws along a game of poor plays, with the throw
// and its poorest play: what a player of team 0 sees its opponent do.
struct Seen {
  Position before;
  Throw dice;
  PlayResult played;
};
std::vector<Seen> PoorPlaysOfTeamOne(const Rules& rules, int count) {
  std::vector<Seen> out;
  Position pos = Position::Start(rules);
  DiceSequence dice(5);
  PlayList plays;
  while (static_cast<int>(out.size()) < count && !pos.IsGameOver()) {
    Throw t = dice.Next();
    GenerateLegalPlays(pos, rules, t, &plays);
    PlayResult r = PoorestPlay(pos, rules, t);
    if (TeamOf(pos.to_throw()) == 1 && plays.size() > 1) out.push_back({pos, t, r});
    pos = r.after;
  }
  return out;
}

const char* kMidgame = "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -";

// A throw of kMidgame (red's team, 0, to throw) where `expert` chooses
// otherwise when it models its opponent as `random`.
Throw ThrowWhereTheModelsDiffer(const Rules& rules) {
  Position pos = *ParseUfen(kMidgame, rules);
  for (Throw t : kThrows) {
    auto best = *MakePlayer("expert,opponent=best", rules, 1);
    auto random = *MakePlayer("expert,opponent=random", rules, 1);
    if (!((*best->Choose(pos, t)).after == (*random->Choose(pos, t)).after)) return t;
  }
  ADD_FAILURE() << "no throw of the midgame where the models choose otherwise";
  return Throw{6, 6};
}

TEST(MatchPlayer, EachPlayerHearsEveryDecisionOfTheGame) {
  Rules rules;
  PoorPlayer a(rules), b(rules);
  Player* players[2] = {&a, &b};
  GameResult g = PlayGame(players, rules, 3);
  EXPECT_GT(a.chosen, 0);
  EXPECT_EQ(a.heard, a.chosen + b.chosen);
  EXPECT_EQ(b.heard, a.chosen + b.chosen);
}

TEST(MatchPlayer, AutoModelsAnOpponentWhosePlaysLookRandomAsRandom) {
  // Opponent=auto, the default: as `best` until the other team's plays look
  // random, then as `random`.
  Rules rules;
  Position pos = *ParseUfen(kMidgame, rules);
  Throw t = ThrowWhereTheModelsDiffer(rules);
  auto best = *MakePlayer("expert,opponent=best", rules, 1);
  auto random = *MakePlayer("expert,opponent=random", rules, 1);
  auto player = *MakePlayer("expert", rules, 1);
  EXPECT_EQ((*player->Choose(pos, t)).after, (*best->Choose(pos, t)).after);
  for (const Seen& s : PoorPlaysOfTeamOne(rules, 10)) player->Observe(s.before, s.dice, s.played);
  EXPECT_EQ((*player->Choose(pos, t)).after, (*random->Choose(pos, t)).after);
  // Its own team's poor plays say nothing of its opponent.
  auto own = *MakePlayer("expert", rules, 1);
  Position red_to_throw = pos;
  for (int i = 0; i < 10; ++i) {
    Throw dice = kThrows[i];
    own->Observe(red_to_throw, dice, PoorestPlay(red_to_throw, rules, dice));
  }
  EXPECT_EQ((*own->Choose(pos, t)).after, (*best->Choose(pos, t)).after);
}

TEST(MatchPlayer, AutoKeepsWhatItsOpponentsPlaysToldUntilANewOpponent) {
  // From one game to the next (a pair's second game, its teams swapped) the
  // opponent is the same player; NewOpponent starts the judgement afresh.
  Rules rules;
  Position pos = *ParseUfen(kMidgame, rules);
  Throw t = ThrowWhereTheModelsDiffer(rules);
  auto best = *MakePlayer("expert,opponent=best", rules, 1);
  auto random = *MakePlayer("expert,opponent=random", rules, 1);
  auto player = *MakePlayer("expert", rules, 1);
  player->NewOpponent();
  ASSERT_TRUE(player->NewGame(1).ok());
  (void)player->Choose(pos, t);  // it plays team 0 in this game
  for (const Seen& s : PoorPlaysOfTeamOne(rules, 10)) player->Observe(s.before, s.dice, s.played);
  ASSERT_TRUE(player->NewGame(1).ok());
  EXPECT_EQ((*player->Choose(pos, t)).after, (*random->Choose(pos, t)).after);
  player->NewOpponent();
  ASSERT_TRUE(player->NewGame(2).ok());
  EXPECT_EQ((*player->Choose(pos, t)).after, (*best->Choose(pos, t)).after);
}

// Counts what a pair tells it, and plays the first legal play.
class CountingPlayer : public Player {
 public:
  explicit CountingPlayer(const Rules& rules) : rules_(rules) {}
  absl::StatusOr<PlayResult> Choose(const Position& pos, Throw t) override {
    PlayList plays;
    GenerateLegalPlays(pos, rules_, t, &plays);
    return plays[0];
  }
  absl::Status NewGame(uint64_t) override {
    events += "g";
    return absl::OkStatus();
  }
  void NewOpponent() override { events += "o"; }
  std::string events;

 private:
  Rules rules_;
};

TEST(MatchPlayer, APairTellsEachPlayerItsOpponentIsNewBeforeItsTwoGames) {
  Rules rules;
  CountingPlayer a(rules), b(rules);
  std::array<GameResult, 2> games = PlayPair(&a, &b, rules, 7);
  EXPECT_EQ(a.events, "ogg");
  EXPECT_EQ(b.events, "ogg");
  EXPECT_GE(games[0].winner_team, 0);
  EXPECT_GE(games[1].winner_team, 0);
}

TEST(MatchPlayer, BestAndRandomDoNotListen) {
  Rules rules;
  Position pos = *ParseUfen(kMidgame, rules);
  Throw t = ThrowWhereTheModelsDiffer(rules);
  auto best = *MakePlayer("expert,opponent=best", rules, 1);
  auto reference = *MakePlayer("expert,opponent=best", rules, 1);
  for (const Seen& s : PoorPlaysOfTeamOne(rules, 10)) best->Observe(s.before, s.dice, s.played);
  EXPECT_EQ((*best->Choose(pos, t)).after, (*reference->Choose(pos, t)).after);
}

}  // namespace
}  // namespace uckers::testing
