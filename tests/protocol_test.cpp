// Transcript tests of the text protocol (PROTOCOL.md): commands in, lines out.
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <iostream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/engine.h"
#include "protocol/uci.h"
#include "record/game.h"
#include "rules/dice_sequence.h"
#include "search/opponent_model.h"
#include "tests/endgame_file.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

// Feeds lines to a fresh engine; returns every output line after all jobs end.
class Transcript {
 public:
  std::vector<std::string> Send(const std::vector<std::string>& lines) {
    for (const std::string& line : lines) loop_.HandleLine(line);
    engine_.Wait();
    std::vector<std::string> out = absl::StrSplit(out_.str(), '\n', absl::SkipEmpty());
    out_.str("");
    return out;
  }
  Engine& engine() { return engine_; }
  UciLoop& loop() { return loop_; }

 private:
  Engine engine_;
  std::ostringstream out_;
  UciLoop loop_{engine_, out_};
};

bool HasPrefix(const std::vector<std::string>& lines, absl::string_view prefix) {
  for (const std::string& l : lines) {
    if (absl::StartsWith(l, prefix)) return true;
  }
  return false;
}

std::string Ufen(Transcript& t) { return ToUfen(t.engine().position()); }

TEST(Protocol, UciListsIdentityOptionsThenUciok) {
  Transcript t;
  std::vector<std::string> out = t.Send({"uci"});
  ASSERT_GE(out.size(), 9u);
  EXPECT_TRUE(absl::StartsWith(out[0], "id name "));
  EXPECT_TRUE(absl::StartsWith(out[1], "id author "));
  for (const char* name : {"Rules", "Threads", "Hash", "Objective", "MultiPV", "Seed"}) {
    EXPECT_TRUE(HasPrefix(out, absl::StrCat("option name ", name, " type "))) << name;
  }
  EXPECT_EQ(out.back(), "uciok");
}

TEST(Protocol, HelpListsEveryCommandAndDescribesOne) {
  Transcript t;
  std::vector<std::string> all = t.Send({"help"});
  for (const char* c : {"uci", "isready", "position", "go", "legal", "perft", "bench", "quit"}) {
    EXPECT_TRUE(HasPrefix(all, absl::StrCat("help ", c))) << c;
  }
  std::vector<std::string> one = t.Send({"help go"});
  ASSERT_EQ(one.size(), 2u);
  EXPECT_TRUE(absl::StartsWith(one[0], "help go [dice <d1> <d2>]")) << one[0];
  EXPECT_EQ(t.loop().errors(), 0);
  EXPECT_TRUE(absl::StartsWith(t.Send({"help frobnicate"})[0], "info string error: "));
}

TEST(Protocol, ACommandThatTakesNoArgumentsRefusesOneAndChangesNothing) {
  Transcript t;
  t.Send({"position startpos moves 63:rb-0,r0-3"});
  std::string before = Ufen(t);
  for (const char* line :
       {"ucinewgame garbage", "isready now", "stop x", "eval x", "d x", "uci please"}) {
    std::vector<std::string> out = t.Send({line});
    ASSERT_EQ(out.size(), 1u) << line;
    EXPECT_TRUE(absl::StartsWith(out[0], "info string error: ")) << line << ": " << out[0];
  }
  EXPECT_EQ(Ufen(t), before);  // `ucinewgame garbage` did not start a new game
}

// The same limits as gRPC's and Connect's (GrpcTest.LimitsAreReadAsByEveryFront):
// one range each, the same words (search/limits.h).
TEST(ProtocolLimits, LimitsAreReadAsByEveryFront) {
  const std::pair<const char*, const char*> cases[] = {
      {"go dice 6 3 depth 65", "depth must be 1..64, not 65"},
      {"go dice 6 3 movetime -5", "movetime must be 1..8640000000 ms"},
      {"go dice 6 3 nodes -1", "nodes must be 1 or more, not -1"},
      {"go dice 6 3 btime 5000", "wtime is missing"},
      {"go dice 6 3 wtime 5000 movestogo -1", "movestogo must be 0..1000"},
  };
  for (const auto& [line, words] : cases) {
    Transcript t;
    std::vector<std::string> out = t.Send({line});
    ASSERT_EQ(out.size(), 1u) << line;
    EXPECT_TRUE(absl::StartsWith(out[0], "info string error: ")) << out[0];
    EXPECT_NE(out[0].find(words), std::string::npos) << out[0];
  }
  Transcript t;  // movestogo 0: the rest of the game, as over gRPC
  std::vector<std::string> out = t.Send({"go dice 6 3 wtime 5000 btime 5000 movestogo 0"});
  ASSERT_FALSE(out.empty());
  EXPECT_TRUE(absl::StartsWith(out.back(), "bestmove ")) << out.back();
}

// RULES.md §11, PROTOCOL.md: under the six-sided board position, legal, d
// and perft work; the search refuses the layout with one error line.
TEST(Protocol, SixSidedRulesPositionLegalBoardAndPerftWork) {
  Transcript t;
  std::vector<std::string> out =
      t.Send({"setoption name Rules value six", "position startpos moves 61:rb-0,r0-1", "legal 6 5",
              "d", "perft 2"});
  EXPECT_EQ(Ufen(t), "b,b,b,1/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_TRUE(HasPrefix(out, "play rb-0,r1-6 ufen ")) << absl::StrJoin(out, "\n");
  EXPECT_TRUE(HasPrefix(out, "  p0 65 |")) << absl::StrJoin(out, "\n");
  EXPECT_TRUE(HasPrefix(out, "perft 2 nodes ")) << absl::StrJoin(out, "\n");
  EXPECT_FALSE(HasPrefix(out, "info string error")) << absl::StrJoin(out, "\n");
}

// RULES.md §11, PROTOCOL.md: with more than two sides `go` searches by
// max^n and `info` gives every side's chance after the mover's score.
TEST(Protocol, SixSidedRulesGoAnswersEverySidesChances) {
  Transcript t;
  std::vector<std::string> out =
      t.Send({"setoption name Rules value six", "position startpos", "go dice 6 3"});
  ASSERT_GE(out.size(), 2u) << absl::StrJoin(out, "\n");
  EXPECT_EQ(out.back(), "bestmove rb-0,r0-3") << absl::StrJoin(out, "\n");
  const std::string& info = out[out.size() - 2];
  size_t at = info.find(" sides ");
  ASSERT_NE(at, std::string::npos) << info;
  std::vector<std::string> sides =
      absl::StrSplit(info.substr(at + 7, info.find(" pv ") - at - 7), ' ');
  ASSERT_EQ(sides.size(), 3u) << info;  // three teams of two
  double sum = 0;
  for (const std::string& p : sides) sum += std::stod(p);
  EXPECT_NEAR(sum, 1.0, 0.001) << info;
  std::vector<std::string> before = t.Send({"go movetime 50"});
  EXPECT_EQ(before.back(), "bestmove (none)");
  EXPECT_NE(before[before.size() - 2].find(" sides "), std::string::npos);
}

// RULES.md §11, PROTOCOL.md: `eval` works on every layout; with more than
// two sides it gives each side's pips and chance, the chances sum to 1, and
// the score line is the mover's, as in `info`.
TEST(Protocol, EvalOnTheSixSidedBoardGivesEverySidesChance) {
  Transcript t;
  std::vector<std::string> out = t.Send(
      {"setoption name Rules value six+solo", "position startpos moves 61:rb-0,r0-1", "eval"});
  ASSERT_FALSE(out.empty());
  EXPECT_FALSE(HasPrefix(out, "info string error")) << absl::StrJoin(out, "\n");
  // The classic evaluation's lines (`side <n> <name> pips <p> win <w>`), then,
  // where a net is built in for the rules, the net's (`side <n> <name> win
  // <w>`); the score line is the mover's chance by the one searches use.
  std::vector<double> wins, net_wins;
  int mover = -1;
  for (absl::string_view text : out) {
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      if (!absl::StartsWith(line, "side ")) continue;
      std::vector<std::string> w = absl::StrSplit(line, ' ');
      if (w.size() == 5) {
        EXPECT_EQ(w[3], "win") << line;
        net_wins.push_back(std::stod(w[4]));
        continue;
      }
      ASSERT_GE(w.size(), 7u) << line;
      EXPECT_EQ(w[3], "pips");
      EXPECT_EQ(w[5], "win");
      wins.push_back(std::stod(w[6]));
      if (absl::EndsWith(line, "(to throw)")) mover = static_cast<int>(wins.size()) - 1;
    }
  }
  ASSERT_EQ(wins.size(), 6u) << absl::StrJoin(out, "\n");  // every colour for itself
  ASSERT_GE(mover, 0);
  for (const std::vector<double>* chances : {&wins, &net_wins}) {
    if (chances->empty()) continue;
    ASSERT_EQ(chances->size(), 6u) << absl::StrJoin(out, "\n");
    double sum = 0;
    for (double p : *chances) sum += p;
    EXPECT_NEAR(sum, 1.0, 0.001);
  }
  std::vector<std::string> lines = absl::StrSplit(out.back(), '\n');
  const std::string& last = lines.back();
  ASSERT_TRUE(absl::StartsWith(last, "score win ")) << last;
  const double searched = net_wins.empty() ? wins[mover] : net_wins[mover];
  EXPECT_NEAR(std::stod(last.substr(10)), searched, 1e-4) << last;  // red throws again after a six
  EXPECT_NE(last.find(" sides "), std::string::npos) << last;
}

TEST(Protocol, ParanoidIsAMultiSideChoice) {
  Transcript t;
  std::vector<std::string> out =
      t.Send({"setoption name Rules value navy+solo", "setoption name MultiSide value paranoid",
              "position startpos", "go dice 6 6"});
  EXPECT_EQ(out.back().rfind("bestmove ", 0), 0u) << absl::StrJoin(out, "\n");
  EXPECT_FALSE(HasPrefix(out, "info string error")) << absl::StrJoin(out, "\n");
  EXPECT_TRUE(absl::StartsWith(t.Send({"setoption name MultiSide value greedy"})[0],
                               "info string error: "));
}

// docs/protocol.md, Opponent: the search models the other team as
// `random` on the net trained against it, where one is shipped.
TEST(Protocol, OpponentRandomSearchesOnTheNetTrainedAgainstRandom) {
  Transcript t;
  std::vector<std::string> out =
      t.Send({"setoption name Opponent value random", "position startpos", "go dice 6 3", "eval"});
  EXPECT_FALSE(HasPrefix(out, "info string error")) << absl::StrJoin(out, "\n");
  EXPECT_NE(absl::StrJoin(out, "\n").find("bestmove "), std::string::npos);
  EXPECT_NE(absl::StrJoin(out, "\n").find("searches use the net against random"), std::string::npos)
      << absl::StrJoin(out, "\n");
}

// A `position startpos moves ...` line of a game where blue and green (team
// 1) play as `poor` says (the play the shipped net values least, or
// most), red and yellow their best, until team 1 has made `decisions`
// decisions and red or yellow is to throw.
std::string GameWhereTeamOnePlays(bool poor, int decisions) {
  Rules rules;
  Game game(rules);
  DiceSequence dice(9);
  PlayList plays;
  int made = 0;
  while (!game.IsOver() && (made < decisions || TeamOf(game.position().to_throw()) == 1)) {
    const Position& pos = game.position();
    Throw t = dice.Next();
    GenerateLegalPlays(pos, rules, t, &plays);
    int team = TeamOf(pos.to_throw());
    std::vector<double> wins = OpponentEvidence(rules).PlayValues(pos, plays);
    auto picked = team == 1 && poor ? std::min_element(wins.begin(), wins.end())
                                    : std::max_element(wins.begin(), wins.end());
    int pick = static_cast<int>(picked - wins.begin());
    if (team == 1 && plays.size() > 1) made++;
    game.Play(t, plays[pick]);
  }
  std::string line = "position startpos moves";
  for (const PlayedThrow& item : game.items()) {
    absl::StrAppend(&line, " ", ThrowToString(item.dice), ":", item.play);
  }
  return line;
}

TEST(Protocol, OpponentAutoSearchesAgainstRandomOnceTheOtherTeamsPlaysLookRandom) {
  // The default, Opponent=auto: `go` says when it searches against random.
  Transcript t;
  std::vector<std::string> out = t.Send({GameWhereTeamOnePlays(true, 12), "go dice 6 3"});
  EXPECT_FALSE(HasPrefix(out, "info string error")) << absl::StrJoin(out, "\n");
  EXPECT_TRUE(HasPrefix(out, "info string opponent: the other team's 12 plays so far look random"))
      << absl::StrJoin(out, "\n");
  EXPECT_TRUE(HasPrefix(out, "bestmove ")) << absl::StrJoin(out, "\n");
  // Plays of a player who judges them do not; nor does Opponent=best.
  Transcript judged;
  out = judged.Send({GameWhereTeamOnePlays(false, 12), "go dice 6 3"});
  EXPECT_FALSE(HasPrefix(out, "info string opponent")) << absl::StrJoin(out, "\n");
  Transcript best;
  out = best.Send(
      {"setoption name Opponent value best", GameWhereTeamOnePlays(true, 12), "go dice 6 3"});
  EXPECT_FALSE(HasPrefix(out, "info string opponent")) << absl::StrJoin(out, "\n");
}

TEST(Protocol, GoRefusesAnOpponentModelNoNetServesAndSaysWhy) {
  // The error comes before any search, and no bestmove follows it.
  Transcript t;
  std::vector<std::string> out =
      t.Send({"setoption name Rules value wafu", "setoption name Opponent value random",
              "position startpos", "go dice 6 6"});
  ASSERT_EQ(out.size(), 1u) << absl::StrJoin(out, "\n");
  EXPECT_TRUE(absl::StartsWith(out[0], "info string error: go: opponent random: no net trained"))
      << out[0];
}

TEST(Protocol, GoRefusesASearchTheLayoutHasNoneOf) {
  Transcript t;
  std::vector<std::string> out = t.Send(
      {"setoption name Rules value six", "setoption name Search value rollout", "go dice 6 6"});
  ASSERT_EQ(out.size(), 1u) << absl::StrJoin(out, "\n");
  EXPECT_TRUE(absl::StartsWith(out[0], "info string error: go: with more than two sides"))
      << out[0];
}

TEST(Protocol, IsreadyAnswersReadyok) {
  Transcript t;
  EXPECT_EQ(t.Send({"isready"}), std::vector<std::string>{"readyok"});
}

TEST(Protocol, PositionStartposWithMovesAppliesThem) {
  Transcript t;
  EXPECT_TRUE(t.Send({"position startpos moves 63:rb-0,r0-3 41:r3-8"}).empty());
  EXPECT_EQ(Ufen(t), "b,b,b,8/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

TEST(Protocol, PositionAcceptsAnySpellingOfALegalPlay) {
  Transcript t;
  t.Send({"position startpos moves 36:r0-3,rb-0"});
  EXPECT_EQ(Ufen(t), "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

TEST(Protocol, IllegalPlayIsOneErrorLineAndPositionUnchanged) {
  Transcript t;
  t.Send({"position startpos moves 63:rb-0,r0-3"});
  std::vector<std::string> out = t.Send({"position startpos moves 63:rb-0,r0-3 41:r3-9"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(out[0], "info string error: moves item 2"));
  EXPECT_EQ(Ufen(t), "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

TEST(Protocol, MalformedUfenIsOneErrorLineAndPositionUnchanged) {
  Transcript t;
  for (const char* bad :
       {"position ufen b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -",
        "position ufen b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b q -",
        "position ufen b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r zz",
        "position ufen 57,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -",
        "position ufen b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r x1", "position ufen", "position"}) {
    std::vector<std::string> out = t.Send({bad});
    ASSERT_EQ(out.size(), 1u) << bad;
    EXPECT_TRUE(absl::StartsWith(out[0], "info string error: ")) << bad;
    EXPECT_EQ(Ufen(t), std::string(kStartUfen)) << bad;
  }
}

TEST(Protocol, LegalListsEachPlayWithItsUfenThenTheCount) {
  Transcript t;
  std::vector<std::string> out = t.Send({"legal 6 6"});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], "play rb-0,r0-6 ufen b,b,b,6/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_EQ(out[1], "play rb-0,rb-0 ufen b,b,0,0/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_EQ(out[2], "legal 2");
}

// Extension (docs/protocol.md): `legal <d1> <d2> effects` follows each play
// line with what the play does (RULES.md §5: a mixie blob knocked off whole).
TEST(Protocol, LegalEffectsFollowsEachPlayWithWhatItDoes) {
  Transcript t;
  std::vector<std::string> out =
      t.Send({"position ufen b,b,b,10/b,b,b,1/b,b,b,b/b,b,27,27 r -", "legal 3 1 effects"});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1],
            "effects r10-14 moves r10-14 knocked g1-b,b27-b,b27-b formed - broken gb@14:3 "
            "challenge none released - next g moving g extra 0");
  EXPECT_EQ(out[2], "legal 1");
}

// Extension: `roll` gives the dice of a seed's sequence from any index, the
// dice a match with that seed throws.
TEST(Protocol, GoTakesTeamClocksAndDeepensWithTime) {
#if defined(UCKERS_SANITIZED)
  GTEST_SKIP() << "timing: measured in the Release build";
#endif
  Transcript t;
  t.Send({"position ufen b,b,5,20/b,b,10,30/b,b,b,40/b,b,b,15 r -"});
  std::vector<std::string> out =
      t.Send({"go dice 6 5 wtime 60000 btime 1000 winc 100 binc 0 movestogo 40"});
  EXPECT_TRUE(HasPrefix(out, "info depth 3 ")) << absl::StrJoin(out, "\n");
  EXPECT_TRUE(HasPrefix(out, "bestmove rb-0,"));
}

TEST(Protocol, GoWithABadClockOrOnlyTheOtherTeamsIsOneErrorLine) {
  Transcript t;
  for (const char* bad :
       {"go dice 6 3 btime 1000", "go dice 6 3 wtime", "go dice 6 3 wtime 1.5",
        "go dice 6 3 wtime 100 winc -1", "go dice 6 3 wtime 100 movestogo -1", "go btime 100"}) {
    std::vector<std::string> out = t.Send({bad});
    ASSERT_EQ(out.size(), 1u) << bad;
    EXPECT_EQ(out[0].rfind("info string error: go: ", 0), 0u) << bad << ": " << out[0];
  }
  std::vector<std::string> out = t.Send({"go dice 6 3 btime 1000"});
  EXPECT_NE(out[0].find("wtime is missing"), std::string::npos) << out[0];
}

TEST(Protocol, RollGivesTheSeedsDiceFromAnyIndex) {
  Transcript t;
  std::vector<std::string> all = t.Send({"roll seed 17 count 3"});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].rfind("roll seed 17 index 0 dice ", 0), 0u);
  std::vector<std::string> third = t.Send({"roll seed 17 index 2"});
  EXPECT_EQ(third, std::vector<std::string>{all[2]});
}

TEST(Protocol, RollRefusesABadSeedIndexOrCount) {
  Transcript t;
  for (const char* bad : {"roll seed 0", "roll seed x", "roll index 50000", "roll count 0",
                          "roll count", "roll dice 3"}) {
    std::vector<std::string> out = t.Send({bad});
    ASSERT_EQ(out.size(), 1u) << bad;
    EXPECT_EQ(out[0].rfind("info string error: ", 0), 0u) << bad;
  }
}

TEST(Protocol, LegalPassIsDash) {
  Transcript t;
  EXPECT_EQ(
      t.Send({"legal 5 4"}),
      (std::vector<std::string>{"play - ufen b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b g -", "legal 1"}));
}

TEST(Protocol, LegalOnFinishedGameIsZero) {
  Transcript t;
  t.Send({"position ufen h,h,h,h/b,b,3,h/h,h,h,h/b,b,b,b r -"});
  EXPECT_EQ(t.Send({"legal 3 1"}), std::vector<std::string>{"legal 0"});
}

TEST(Protocol, LegalRejectsBadDice) {
  Transcript t;
  for (const char* bad : {"legal 7 1", "legal 0 3", "legal 6", "legal a b", "legal 6 6 6"}) {
    std::vector<std::string> out = t.Send({bad});
    ASSERT_EQ(out.size(), 1u) << bad;
    EXPECT_TRUE(absl::StartsWith(out[0], "info string error: ")) << bad;
  }
}

TEST(Protocol, PerftCountsMatchProtocolDocument) {
  Transcript t;
  EXPECT_EQ(
      t.Send({"perft 1", "perft 2", "perft 3"}),
      (std::vector<std::string>{"perft 1 nodes 22", "perft 2 nodes 583", "perft 3 nodes 21213"}));
}

TEST(Protocol, PerftRejectsBadDepth) {
  Transcript t;
  for (const char* bad : {"perft 0", "perft -1", "perft 99", "perft x", "perft"}) {
    std::vector<std::string> out = t.Send({bad});
    ASSERT_EQ(out.size(), 1u) << bad;
    EXPECT_TRUE(absl::StartsWith(out[0], "info string error: ")) << bad;
  }
}

TEST(Protocol, GoDiceGivesInfoThenALegalBestmove) {
  Transcript t;
  t.Send({"position startpos moves 63:rb-0,r0-3"});
  std::vector<std::string> out = t.Send({"go dice 6 1"});
  ASSERT_GE(out.size(), 2u);
  EXPECT_TRUE(absl::StartsWith(out[0], "info depth "));
  for (const char* field : {" nodes ", " nps ", " time ", " score win ", " points ", " pv "}) {
    EXPECT_TRUE(absl::StrContains(out[0], field)) << field;
  }
  ASSERT_TRUE(absl::StartsWith(out.back(), "bestmove "));
  std::string best = out.back().substr(9);
  std::vector<std::string> legal = Plays("b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r -", 6, 1);
  EXPECT_NE(std::find(legal.begin(), legal.end(), best), legal.end()) << best;
}

TEST(Protocol, GoWithoutDiceAnalysesAndAnswersNone) {
  Transcript t;
  std::vector<std::string> out = t.Send({"go"});
  ASSERT_GE(out.size(), 2u);
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    EXPECT_TRUE(absl::StartsWith(out[i], "info depth ")) << out[i];
    EXPECT_TRUE(absl::StrContains(out[i], "score win ")) << out[i];
  }
  EXPECT_EQ(out.back(), "bestmove (none)");
}

TEST(Protocol, GoOnFinishedGameIsError) {
  Transcript t;
  t.Send({"position ufen h,h,h,h/b,b,3,h/h,h,h,h/b,b,b,b r -"});
  std::vector<std::string> out = t.Send({"go dice 3 1"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(out[0], "info string error: the game is over"));
}

TEST(Protocol, GoRejectsBadParameters) {
  Transcript t;
  for (const char* bad : {"go dice 7 1", "go dice 6", "go movetime", "go movetime -5", "go nodes x",
                          "go depth 0", "go sideways"}) {
    std::vector<std::string> out = t.Send({bad});
    ASSERT_EQ(out.size(), 1u) << bad;
    EXPECT_TRUE(absl::StartsWith(out[0], "info string error: ")) << bad;
  }
}

TEST(Protocol, GoWithAParameterGivenTwiceIsOneErrorLine) {
  Transcript t;
  for (const char* bad : {"go dice 6 3 depth 2 depth 5", "go dice 6 3 dice 5 2",
                          "go movetime 50 movetime 60", "go infinite infinite"}) {
    std::vector<std::string> out = t.Send({bad});
    ASSERT_EQ(out.size(), 1u) << bad;
    EXPECT_NE(out[0].find("given twice"), std::string::npos) << bad << ": " << out[0];
  }
}

TEST(Protocol, MultiPVReportsThatManyCandidates) {
  Transcript t;
  t.Send({"setoption name MultiPV value 3", "position ufen 5,9,20,b/b,b,b,b/b,b,b,b/b,b,b,b r -"});
  std::vector<std::string> out = t.Send({"go dice 4 2"});
  ASSERT_GE(out.size(), 4u);
  size_t n = out.size();
  EXPECT_TRUE(absl::StrContains(out[n - 4], " multipv 1 "));
  EXPECT_TRUE(absl::StrContains(out[n - 3], " multipv 2 "));
  EXPECT_TRUE(absl::StrContains(out[n - 2], " multipv 3 "));
  EXPECT_TRUE(absl::StartsWith(out[n - 1], "bestmove "));
}

TEST(Protocol, StopEndsAnInfiniteSearchWithBestmove) {
  Transcript t;
  t.loop().HandleLine("go dice 6 1 infinite");
  t.loop().HandleLine("isready");  // answered at once during infinite search
  t.loop().HandleLine("stop");
  std::vector<std::string> out = t.Send({});
  ASSERT_FALSE(out.empty());
  EXPECT_TRUE(HasPrefix(out, "readyok"));
  EXPECT_TRUE(absl::StartsWith(out.back(), "bestmove "));
}

TEST(Protocol, SetoptionRejectsUnknownNamesAndBadValues) {
  Transcript t;
  for (const char* bad :
       {"setoption name Foo value 1", "setoption name Threads value 0",
        "setoption name Hash value lots", "setoption name Objective value draw",
        "setoption name Rules value navy+suck_back+", "setoption name Rules value army",
        "setoption name Rules value navy+flying", "setoption name MultiPV",
        "setoption Threads 2"}) {
    std::vector<std::string> out = t.Send({bad});
    ASSERT_EQ(out.size(), 1u) << bad;
    EXPECT_TRUE(absl::StartsWith(out[0], "info string error: ")) << bad;
  }
  EXPECT_EQ(t.engine().options().threads, 1);
  EXPECT_EQ(t.engine().options().rules, Rules());
}

TEST(Protocol, SetoptionRulesSwitchesRulesetAndResetsToItsStart) {
  Transcript t;
  EXPECT_TRUE(t.Send({"setoption name Rules value mess"}).empty());
  EXPECT_EQ(t.engine().options().rules.ToString(), "mess");
  EXPECT_EQ(Ufen(t), "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb");
}

TEST(Protocol, UnknownCommandIsOneErrorLine) {
  Transcript t;
  EXPECT_EQ(t.Send({"fly"}),
            std::vector<std::string>{
                "info string error: unknown command 'fly' (help lists the commands)"});
}

TEST(Protocol, BenchIsDeterministic) {
  Transcript t;
  std::vector<std::string> a = t.Send({"bench"});
  std::vector<std::string> b = t.Send({"bench"});
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  auto signature = [](const std::string& line) { return line.substr(line.find(" signature ")); };
  EXPECT_TRUE(absl::StartsWith(a[0], "bench nodes "));
  EXPECT_EQ(signature(a[0]), signature(b[0]));
}

TEST(Protocol, DrawsTheBoardWithUfenAndSideToThrow) {
  Transcript t;
  std::vector<std::string> out = t.Send({"d"});
  EXPECT_TRUE(HasPrefix(out, absl::StrCat("ufen ", kStartUfen)));
  EXPECT_TRUE(HasPrefix(out, "to throw Red"));
}

// RULES.md §9 mixie_stack: `d` draws a stack bottom to top (red, yellow, red
// on red's 10) and its UFEN carries the m token.
TEST(Protocol, DrawsAStackBottomToTop) {
  Transcript t;
  const std::string ufen = "b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r mr10:ryr";
  EXPECT_TRUE(t.Send({"setoption name Rules value mess", "position ufen " + ufen}).empty());
  std::vector<std::string> out = t.Send({"d"});
  EXPECT_TRUE(HasPrefix(out, absl::StrCat("ufen ", ufen)));
  bool drawn = false;
  for (const std::string& line : out) drawn |= absl::StrContains(line, " RYR ");
  EXPECT_TRUE(drawn);
}

TEST(Protocol, EvalEndsWithTheScore) {
  Transcript t;
  std::vector<std::string> out = t.Send({"eval"});
  ASSERT_FALSE(out.empty());
  EXPECT_TRUE(absl::StartsWith(out.back(), "score win "));
}

TEST(Protocol, EvalNamesEachTeamsTermsBeforeTheScore) {
  // After 6-6 entered red's blob (RULES.md §2, §4): two RY pieces out, none
  // exposed (a blob is safe); GB has none out.
  Transcript t;
  std::vector<std::string> out = t.Send({"position startpos moves 66:rb-0,rb-0", "eval"});
  ASSERT_FALSE(out.empty());
  std::string ry, gb;
  for (const std::string& line : out) {
    if (absl::StartsWith(line, "terms RY ")) ry = line;
    if (absl::StartsWith(line, "terms GB ")) gb = line;
  }
  EXPECT_TRUE(absl::StrContains(ry, " exposed 0 hit_chance 0.0000 ")) << ry;
  EXPECT_TRUE(absl::StrContains(ry, " entered 2 home 0")) << ry;
  EXPECT_TRUE(absl::StrContains(gb, " entered 0 home 0")) << gb;
  EXPECT_TRUE(absl::StartsWith(out.back(), "score win "));
}

TEST(Protocol, JudgeAndThrowmapAnswerForTheCurrentPosition) {
  Transcript t;
  std::vector<std::string> judged = t.Send({"position startpos", "judge 6 3 rb-0,r0-3"});
  ASSERT_FALSE(judged.empty());
  EXPECT_TRUE(absl::StartsWith(judged.back(), "judge play rb-0,r0-3 ")) << judged.back();
  EXPECT_TRUE(absl::StrContains(judged.back(), " lost 0.0000 mark none legal 1 level advanced"))
      << judged.back();
  std::vector<std::string> map = t.Send({"throwmap"});
  ASSERT_EQ(map.size(), 22u);
  EXPECT_TRUE(absl::StartsWith(map[0], "throwmap throw 66 probability 0.0278 best rb-0,rb-0 "))
      << map[0];
  EXPECT_TRUE(absl::StartsWith(map.back(), "throwmap mean win ")) << map.back();
  std::vector<std::string> bad = t.Send({"judge 7 3 -", "throwmap level wizard"});
  ASSERT_EQ(bad.size(), 2u);
  EXPECT_TRUE(absl::StartsWith(bad[0], "info string error: judge: dice")) << bad[0];
  EXPECT_TRUE(absl::StartsWith(bad[1], "info string error: throwmap: level")) << bad[1];
}

// docs/protocol.md, `explain`: the best plays of a throw, each with the
// terms in which it differs from the best, computed by the engine as the
// service's BestMove computes them.
TEST(Protocol, ExplainGivesTheBestPlaysAndHowEachDiffersFromTheBest) {
  Transcript t;
  std::vector<std::string> lines =
      t.Send({"position ufen b,10,13,13/b,b,16,19/1,8,8,13/6,6,16,25 r -", "explain 5 2"});
  ASSERT_GE(lines.size(), 3u);
  EXPECT_TRUE(absl::StartsWith(lines[0], "explain candidate 1 ")) << lines[0];
  EXPECT_TRUE(absl::StrContains(lines[0], " lost 0.0000")) << lines[0];
  int candidates = 0, differs = 0;
  for (const std::string& line : lines) {
    candidates += absl::StartsWith(line, "explain candidate ");
    differs += absl::StartsWith(line, "explain differs ");
  }
  EXPECT_EQ(candidates, 4);
  EXPECT_GT(differs, 0) << absl::StrJoin(lines, "\n");
  EXPECT_TRUE(absl::StartsWith(lines.back(), "explain done level grandmaster depth "))
      << lines.back();
  std::vector<std::string> bad = t.Send({"explain 7 2", "explain 5 2 level wizard"});
  ASSERT_EQ(bad.size(), 2u);
  EXPECT_TRUE(absl::StartsWith(bad[0], "info string error: explain: dice")) << bad[0];
  EXPECT_TRUE(absl::StartsWith(bad[1], "info string error: explain: ")) << bad[1];
}

// docs/protocol.md: `judge differs` and `explain differs` end with the
// reason's size, `win_chance <x>`, the change in the mover's chance to win
// it accounts for (negative: it favours the best play).
TEST(Protocol, JudgeAndExplainGiveEachReasonItsChangeInChanceToWin) {
  Transcript t;
  std::vector<std::string> lines = t.Send({"position ufen b,22,22,35/b,b,3,5/b,b,b,b/b,b,b,b r -",
                                           "judge 2 1 r22-23,r22-24", "explain 2 1"});
  int sized = 0;
  for (const std::string& line : lines) {
    if (!absl::StartsWith(line, "judge differs ") && !absl::StartsWith(line, "explain differs "))
      continue;
    std::vector<std::string> words = absl::StrSplit(line, ' ');
    ASSERT_GE(words.size(), 9u) << line;
    // The hit chance's piece, when named, follows the size.
    size_t at = absl::StrContains(line, " colour ") ? words.size() - 4 : words.size();
    EXPECT_EQ(words[at - 2], "win_chance") << line;
    double size = 0;
    ASSERT_TRUE(absl::SimpleAtod(words[at - 1], &size)) << line;
    if (absl::StartsWith(line, "judge differs exposed ")) {
      EXPECT_LT(size, 0) << line;
      ++sized;
    }
    if (absl::StartsWith(line, "judge differs hit_chance ")) {
      EXPECT_TRUE(absl::EndsWith(line, " colour g squares 5")) << line;
    }
  }
  EXPECT_EQ(sized, 1) << absl::StrJoin(lines, "\n");
}

// docs/protocol.md, "More than two sides": `eval` names each side's terms.
TEST(Protocol, EvalNamesEachSidesTermsOnTheSixSidedBoardAndUnderSolo) {
  for (const auto& [rules, sides] :
       std::vector<std::pair<std::string, int>>{{"six", 3}, {"six+solo", 6}, {"navy+solo", 4}}) {
    Transcript t;
    std::vector<std::string> lines =
        t.Send({"setoption name Rules value " + rules, "position startpos", "eval"});
    int terms = 0;
    for (const std::string& line : lines) {
      if (!absl::StartsWith(line, "terms ")) continue;
      ++terms;
      EXPECT_TRUE(absl::StrContains(line, " exposed 0 hit_chance 0.0000 "))
          << rules << ": " << line;
      EXPECT_TRUE(absl::StrContains(line, " entered 0 home 0")) << rules << ": " << line;
    }
    EXPECT_EQ(terms, sides) << rules << ": " << absl::StrJoin(lines, "\n");
  }
}

// The tutor and the throw map of the text protocol on a layout of more
// sides: the plays spelled on that board, values in the side's points.
TEST(Protocol, JudgeAndThrowmapAnswerOnTheSixSidedBoard) {
  Transcript t;
  std::vector<std::string> judged =
      t.Send({"setoption name Rules value six", "position startpos", "judge 6 6 rb-0,rb-0"});
  ASSERT_FALSE(judged.empty());
  EXPECT_TRUE(absl::StartsWith(judged.back(), "judge play rb-0,rb-0 ")) << judged.back();
  std::vector<std::string> map = t.Send({"throwmap"});
  ASSERT_EQ(map.size(), 22u) << absl::StrJoin(map, "\n");
  EXPECT_TRUE(absl::StartsWith(map.back(), "throwmap mean win ")) << map.back();
}

TEST(Protocol, QuitEndsTheLoop) {
  Transcript t;
  EXPECT_FALSE(t.loop().HandleLine("quit"));
  EXPECT_TRUE(t.loop().HandleLine(""));
}

// Runs the whole loop (reader and handler threads) over `input`; a loop that
// has not returned within a minute is a hang: fail and end the process.
std::vector<std::string> RunLoop(const std::string& input) {
  Engine engine;
  std::ostringstream out;
  UciLoop loop(engine, out);
  std::istringstream in(input);
  auto done = std::async(std::launch::async, [&] { loop.Run(in); });
  if (done.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    std::cerr << "UciLoop::Run hung on:\n" << input << std::flush;
    std::_Exit(1);
  }
  return absl::StrSplit(out.str(), '\n', absl::SkipEmpty());
}

int IndexOf(const std::vector<std::string>& lines, absl::string_view prefix) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (absl::StartsWith(lines[i], prefix)) return static_cast<int>(i);
  }
  return -1;
}

TEST(ProtocolRun, StopIsHeardWhileIsreadyWaitsForALongSearch) {
  std::vector<std::string> out =
      RunLoop("position startpos\ngo dice 6 6 depth 60\nisready\nstop\nquit\n");
  int best = IndexOf(out, "bestmove ");
  int ready = IndexOf(out, "readyok");
  ASSERT_GE(best, 0);
  ASSERT_GE(ready, 0);
  EXPECT_LT(best, ready);  // readyok still follows the work in hand
}

TEST(ProtocolRun, StopEndsEverySearchSentBeforeIt) {
  std::vector<std::string> out =
      RunLoop("go dice 6 6 depth 60\ngo dice 5 5 depth 60\nstop\nisready\nquit\n");
  int bestmoves = 0;
  for (const std::string& line : out) bestmoves += absl::StartsWith(line, "bestmove ");
  EXPECT_EQ(bestmoves, 2);
  EXPECT_EQ(out.back(), "readyok");
}

TEST(ProtocolRun, LinesAfterStopAreHandledInOrderAndNotStopped) {
  std::vector<std::string> out =
      RunLoop("go dice 6 6 depth 60\nstop\ngo dice 3 1 depth 2\nisready\n");
  ASSERT_GE(out.size(), 3u);
  EXPECT_EQ(out.back(), "readyok");
  EXPECT_TRUE(absl::StartsWith(out[out.size() - 2], "bestmove "));
  // The second search was not stopped: it reported its depth 2.
  EXPECT_GE(IndexOf(out, "info depth 2 "), 0);
}

TEST(ProtocolRun, GoAfterStoppingAnInfiniteSearchWaitsForItsBestmove) {
  std::string input = "position startpos\n";
  for (int i = 0; i < 20; ++i) input += "go dice 6 6 infinite\nstop\ngo dice 3 1 depth 1\n";
  std::vector<std::string> out = RunLoop(input + "isready\n");
  int bestmoves = 0;
  for (const std::string& line : out) {
    EXPECT_FALSE(absl::StartsWith(line, "info string error")) << line;
    bestmoves += absl::StartsWith(line, "bestmove ");
  }
  EXPECT_EQ(bestmoves, 40);
}

TEST(ProtocolRun, IsreadyAfterStoppingAnInfiniteSearchFollowsItsBestmove) {
  std::string input;
  for (int i = 0; i < 20; ++i) input += "go dice 6 6 infinite\nstop\nisready\n";
  std::vector<std::string> out = RunLoop(input);
  // A search may print `info` lines before its stop is heard: only the
  // bestmove and readyok lines are counted.
  int searches = 0;
  for (const std::string& line : out) {
    if (absl::StartsWith(line, "info ")) continue;
    // bestmove and readyok alternate, bestmove first.
    EXPECT_EQ(absl::StartsWith(line, "bestmove "), searches % 2 == 0) << line;
    ++searches;
  }
  EXPECT_EQ(searches, 40);
}

TEST(ProtocolRun, QuitStopsALongSearchSentBeforeIt) {
  std::vector<std::string> out = RunLoop("go dice 6 6 depth 60\nisready\nquit\nisready\n");
  int best = IndexOf(out, "bestmove ");
  ASSERT_GE(best, 0);
  EXPECT_EQ(out.back(), "readyok");  // the one before quit, after bestmove
  EXPECT_LT(best, static_cast<int>(out.size()) - 1);
}

TEST(ProtocolRun, EndOfInputStopsNothing) {
  std::vector<std::string> out = RunLoop("go dice 3 1 depth 2\nisready\n");
  EXPECT_GE(IndexOf(out, "info depth 2 "), 0);
  EXPECT_EQ(out.back(), "readyok");
}

TEST(ProtocolRun, EndOfInputWaitsForTheLastJobToFinish) {
  std::vector<std::string> out = RunLoop("position startpos\nperft 4\n");
  EXPECT_EQ(out, std::vector<std::string>{"perft 4 nodes 994540"});  // PROTOCOL.md
}

TEST(ProtocolRun, EndOfInputStopsAnInfiniteSearchThatNothingElseCouldStop) {
  std::vector<std::string> out = RunLoop("position startpos\ngo dice 6 6 infinite\n");
  ASSERT_FALSE(out.empty());
  EXPECT_TRUE(absl::StartsWith(out.back(), "bestmove ")) << out.back();
}

TEST(ProtocolRun, QuitEndsTheLoopAfterTheLinesBeforeIt) {
  std::vector<std::string> out = RunLoop("isready\nquit\nisready\n");
  EXPECT_EQ(out, std::vector<std::string>{"readyok"});
}

// An endgame table set by EndgamePath values covered positions
// exactly and says so; a file for other rules or a missing one is refused
// and the table held before stays.
TEST(Protocol, EndgamePathPlaysCoveredPositionsExactly) {
  Transcript t;
  EXPECT_TRUE(t.Send({"setoption name EndgamePath value " + NavyOneAgainstOneFile()}).empty());
  std::vector<std::string> out =
      t.Send({std::string("position ufen ") + kOneAgainstOne, "go dice 3 1"});
  EXPECT_TRUE(HasPrefix(out, "info string exact: the values come from the endgame table"));
  EXPECT_EQ(out.back(), "bestmove r53-h");
  std::vector<std::string> eval = t.Send({"eval"});
  EXPECT_TRUE(HasPrefix(eval, "exact, from the endgame table ")) << absl::StrJoin(eval, "\n");
}

TEST(Protocol, EndgamePathRefusesOtherRulesAndKeepsItsTable) {
  Transcript t;
  t.Send({"setoption name EndgamePath value " + NavyOneAgainstOneFile()});
  std::vector<std::string> other =
      t.Send({"setoption name EndgamePath value " + SelseyOneAgainstOneFile()});
  ASSERT_EQ(other.size(), 1u);
  EXPECT_NE(other[0].find("was built for rules selsey, the engine plays navy"), std::string::npos)
      << other[0];
  std::vector<std::string> missing =
      t.Send({"setoption name EndgamePath value /nonexistent/table.egt"});
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_NE(missing[0].find("endgame table /nonexistent/table.egt: cannot open the file"),
            std::string::npos)
      << missing[0];
  EXPECT_EQ(t.engine().options().endgame_path, NavyOneAgainstOneFile());
  std::vector<std::string> out =
      t.Send({std::string("position ufen ") + kOneAgainstOne, "go dice 3 1"});
  EXPECT_TRUE(HasPrefix(out, "info string exact:"));
  EXPECT_TRUE(t.Send({"setoption name EndgamePath value <empty>"}).empty());
  out = t.Send({"go dice 3 1"});
  EXPECT_FALSE(HasPrefix(out, "info string exact:"));
}

// An error quotes at most a few hundred bytes of the input and
// escapes control bytes.
TEST(Protocol, ErrorsQuoteLongInputBrieflyAndEscapeControlBytes) {
  Transcript t;
  std::string flood(20000, 'y');
  std::vector<std::string> out = t.Send({"foo" + flood + "\x1b[31m"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_LT(out[0].size(), 400u) << out[0].substr(0, 400);
  EXPECT_NE(out[0].find(" bytes in all)"), std::string::npos) << out[0].substr(0, 400);
  std::vector<std::string> esc = t.Send({"go dice 6 3 \x1b[2J"});
  ASSERT_EQ(esc.size(), 1u);
  EXPECT_EQ(esc[0].find('\x1b'), std::string::npos) << esc[0];
  EXPECT_NE(esc[0].find("\\x1b[2J"), std::string::npos) << esc[0];
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// A command that takes no arguments refuses any, with one error line, and
// does nothing: `ucinewgame <garbage>` keeps the game.
TEST(Protocol, CommandsWithoutArgumentsRefuseGarbageAndChangeNothing) {
  Transcript t;
  t.Send({"position startpos moves 63:rb-0,r0-3"});
  std::string before = Ufen(t);
  for (const char* line : {"isready now", "stop it", "eval x", "d board", "uci please",
                           "ucinewgame garbage", "ucinewgame  a b c"}) {
    std::vector<std::string> out = t.Send({line});
    ASSERT_EQ(out.size(), 1u) << line << ": " << absl::StrJoin(out, " | ");
    EXPECT_TRUE(absl::StartsWith(out[0], "info string error: ")) << out[0];
    EXPECT_NE(out[0].find("takes no arguments"), std::string::npos) << out[0];
    EXPECT_EQ(Ufen(t), before) << line;
  }
  EXPECT_EQ(t.loop().errors(), 7);
}

// Through Run too: `stop <garbage>` is an error, not a stop.
TEST(ProtocolRun, StopWithGarbageIsAnErrorAndStopsNothing) {
  std::vector<std::string> out = RunLoop("position startpos\nstop now\nisready\n");
  ASSERT_EQ(out.size(), 2u) << absl::StrJoin(out, " | ");
  EXPECT_TRUE(absl::StartsWith(out[0], "info string error: 'stop' takes no arguments")) << out[0];
  EXPECT_EQ(out[1], "readyok");
}

// A 20 MB line of short words gets one error and is not kept: the peak
// memory of the process grows by far less than the 600 MB its words would
// take split, and the lines after it are served.
TEST(ProtocolRun, AHugeLineIsRefusedWithoutTakingItsSizeInMemory) {
  std::string input = "position startpos\n";
  input.reserve(21 << 20);
  for (int i = 0; i < 10 << 20; ++i) input += "a ";
  input += "\nisready\n";
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  std::vector<std::string> out = RunLoop(input);
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  ASSERT_EQ(out.size(), 2u) << absl::StrJoin(out, " | ").substr(0, 500);
  EXPECT_TRUE(absl::StartsWith(out[0], "info string error: line too long")) << out[0];
  EXPECT_EQ(out[1], "readyok");
  // ru_maxrss is in KiB; the input and its copy in the stream are 40 MB.
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 100 << 10)
      << "peak RSS grew by " << (after.ru_maxrss - before.ru_maxrss) / 1024 << " MiB";
}

// A line just under the cap is read whole (and refused by its command).
TEST(ProtocolRun, ALongLineUnderTheCapIsReadWhole) {
  std::string word(UciLoop::kMaxLineBytes - 10, 'x');
  std::vector<std::string> out = RunLoop("eval " + word + "\nisready\n");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(absl::StartsWith(out[0], "info string error: 'eval' takes no arguments")) << out[0];
  EXPECT_EQ(out[1], "readyok");
}

}  // namespace
}  // namespace uckers::testing
