// The `uckers` command line: help, version, dispatch and exit codes
// (0 done, 1 failed, 2 usage).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace {

struct Result {
  int code = -1;
  std::string out;  // stdout and stderr
};

Result Uckers(const std::string& args, int timeout_s = 0) {
  Result r;
  std::string prefix = timeout_s > 0 ? "timeout " + std::to_string(timeout_s) + " " : "";
  std::string cmd = prefix + std::string(UCKERS_BINARY) + " " + args + " 2>&1 </dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(Cli, VersionNamesTheVersionRevisionAndBuildType) {
  Result r = Uckers("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("uckers 0.", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("git "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" build)"), std::string::npos) << r.out;
}

// The revision is the checkout's, written at every build: an incremental
// build after a commit names the new commit.
TEST(Cli, VersionNamesTheCommitOfTheCheckoutBuilt) {
  std::string head;
  FILE* git = popen("git -C " UCKERS_SOURCE_DIR " rev-parse --short=12 HEAD 2>/dev/null", "r");
  ASSERT_NE(git, nullptr);
  char buf[64];
  while (fgets(buf, sizeof buf, git)) head += buf;
  if (pclose(git) != 0 || head.empty()) GTEST_SKIP() << "not a git checkout";
  head.erase(head.find_last_not_of('\n') + 1);
  Result r = Uckers("--version");
  EXPECT_NE(r.out.find("(git " + head + ","), std::string::npos) << r.out << " HEAD " << head;
}

TEST(Cli, HelpListsEveryCommand) {
  Result r = Uckers("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* c : {"match", "ladder", "analyse", "serve", "train", "bench", "perft"}) {
    EXPECT_NE(r.out.find(std::string("  ") + c + " "), std::string::npos) << c;
  }
  EXPECT_EQ(Uckers("help").out, r.out);
}

TEST(Cli, HelpForACommandDescribesItsFlags) {
  Result r = Uckers("help train");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--games"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--lookahead"), std::string::npos) << r.out;
}

TEST(Cli, AnUnknownCommandIsAUsageError) {
  Result r = Uckers("frobnicate");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("frobnicate"), std::string::npos) << r.out;
}

TEST(Cli, AMalformedFlagValueIsAUsageErrorNamingTheFlag) {
  for (const char* args :
       {"match --pairs abc", "match --concurrency 1.5", "train --out x --games many",
        "ladder --progress maybe", "perft 2 --rules"}) {
    Result r = Uckers(args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_EQ(r.out.find("ERROR:"), std::string::npos) << args << ": " << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ": " << r.out;
  }
  EXPECT_NE(Uckers("match --pairs abc").out.find("--pairs"), std::string::npos);
}

TEST(Cli, AnUnknownLevelIsAUsageError) {
  Result r = Uckers("analyse x.txt --level godlike");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--level"), std::string::npos) << r.out;
}

TEST(Cli, BenchAndPerftAreCommandsWithTheirOwnFlags) {
  EXPECT_EQ(Uckers("bench --no-such-flag").code, 2);
  Result help = Uckers("perft --help");
  EXPECT_EQ(help.code, 0) << help.out;
  EXPECT_NE(help.out.find("--ufen"), std::string::npos) << help.out;
  Result perft = Uckers("perft 2 --rules navy --ufen 'b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -'");
  EXPECT_EQ(perft.code, 0) << perft.out;
  EXPECT_NE(perft.out.find("perft 2 nodes 583"), std::string::npos) << perft.out;
  EXPECT_EQ(Uckers("perft 2 --ufen nonsense").code, 2);
}

TEST(Cli, HelpKnowsEveryCommandItAdvertises) {
  Result help = Uckers("help");
  for (const char* c : {"d", "eval", "legal", "go", "tune", "ladder add", "ladder work"}) {
    Result r = Uckers(std::string("help ") + c);
    EXPECT_EQ(r.code, 0) << c << ": " << r.out;
    EXPECT_NE(help.out.find(std::string(" ") + c), std::string::npos) << c;
  }
}

// docs/frontend.md, "Explained choices": the fit of the terms' sizes.
TEST(Cli, FittermsPrintsEachTermsChanceToWinAndTheTablesRow) {
  Result r = Uckers("fitterms --fit_games 3 --rules navy+solo");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("fitterms rules navy+solo games 3 decisions "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fitterms term hit_chance win_chance "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fitterms table {"), std::string::npos) << r.out;
  Result bad = Uckers("fitterms --fit_games 0");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("--fit_games"), std::string::npos) << bad.out;
  EXPECT_EQ(Uckers("fitterms --rules nonsense").code, 2);
}

TEST(Cli, HelpMatchListsTheLevelsAndPlayerSettings) {
  Result r = Uckers("help match");
  for (const char* word :
       {"grandmaster", "beginner", "movetime=", "tc=", "noise=", "filter=", "ending_extension="}) {
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  }
}

TEST(Cli, HelpServeNamesTheWebBoard) {
  EXPECT_NE(Uckers("help serve").out.find("web board"), std::string::npos);
}

TEST(Cli, EachFlagShowsOneDefaultAndTheCommandsOwnWords) {
  Result analyse = Uckers("help analyse");
  size_t at = analyse.out.find("\n  --level") + 1;
  ASSERT_NE(at, 0u);
  std::string line = analyse.out.substr(at, analyse.out.find('\n', at) - at);
  EXPECT_EQ(line.find("default", line.find("default") + 1), std::string::npos) << line;
  EXPECT_NE(line.find("(default: grandmaster)"), std::string::npos) << line;
  Result endgames = Uckers("help endgames");
  EXPECT_NE(endgames.out.find("--out  the table file"), std::string::npos) << endgames.out;
  EXPECT_EQ(endgames.out.find("weights"), std::string::npos) << endgames.out;
}

TEST(Cli, TrainWithoutOutIsAUsageError) {
  Result r = Uckers("train", /*timeout_s=*/20);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--out"), std::string::npos) << r.out;
}

TEST(Cli, AReportToAFullDiskFails) {
  // (stderr goes to /dev/full too here: the exit code tells.)
  EXPECT_EQ(Uckers("match --a greedy --b random --pairs 1 --noprogress >/dev/full").code, 1);
  EXPECT_EQ(Uckers("--help >/dev/full").code, 1);
  EXPECT_EQ(Uckers("perft 1 >/dev/full").code, 1);
}

TEST(Cli, AMatchTooShortForAnIntervalSaysSo) {
  Result r = Uckers("match --a greedy --b random --pairs 1 --noprogress");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1 pair (2 games)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no interval from 1 pair"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("1000.0"), std::string::npos) << r.out;
}

TEST(Cli, ServeOnABadAddressSaysSoInOneLine) {
  Result r = Uckers("serve --address nothost.invalid:1", /*timeout_s=*/30);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_EQ(r.out.find(".cc:"), std::string::npos) << r.out;  // no raw gRPC log line
}

// RULES.md §11: with k sides A takes one seat and B the others, each dice
// sequence played with A in every seat; the same player on every seat then
// wins exactly the fair share 1/k.
TEST(Cli, AMatchOfMoreSidesRotatesTheSeatsOverTheSameDice) {
  Result r = Uckers("match --rules six --a greedy --b greedy --pairs 12 --noprogress");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("12 dice sequences (36 games"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("A's share of the wins 33.33%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fair share 33.33%"), std::string::npos) << r.out;
  Result json =
      Uckers("match --rules navy+solo --a expert --b greedy --pairs 2 --json --noprogress");
  EXPECT_EQ(json.code, 0) << json.out;
  EXPECT_NE(json.out.find("\"sides\": 4"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"games\": 8"), std::string::npos) << json.out;
}

TEST(Cli, AMatchOfMoreSidesRefusesWhatItCannotPlayOrRecord) {
  EXPECT_EQ(Uckers("match --rules six --a cmd:./x --b greedy --pairs 1").code, 2);
  EXPECT_EQ(
      Uckers("match --rules six --a expert --b greedy --pairs 1 --resume --records /tmp/x").code,
      2);
  EXPECT_EQ(Uckers("match --rules six --a expert --b greedy --pairs 1 --games_out /tmp/x").code, 2);
}

// Every player setting on every layout: a multi-side match reads its
// players through the settings table, so a good setting plays and a bad
// value gets the same words on every board and table.
TEST(Cli, APlayersSettingsAreReadAlikeOnEveryLayout) {
  Result ok = Uckers(
      "match --rules six+solo --a expert,movetime=20,noise=0.02,filter=3 --b greedy --pairs 1 "
      "--noprogress");
  EXPECT_EQ(ok.code, 0) << ok.out;
  std::string words;
  for (const char* rules : {"navy", "navy+solo", "six", "six+teams_of_three", "six+solo"}) {
    Result bad = Uckers(absl::StrCat("match --rules ", rules,
                                     " --a expert,noise=2 --b greedy --pairs 1 --noprogress"));
    EXPECT_EQ(bad.code, 2) << rules;
    if (words.empty()) words = bad.out;
    EXPECT_EQ(bad.out, words) << rules;
    EXPECT_NE(bad.out.find("noise"), std::string::npos) << bad.out;
  }
}

// docs/records.md: a match of more sides keeps every game's record, each
// side named with its player, and `uckers analyse` reviews one of them
// rating every side.
TEST(Cli, AMatchOfMoreSidesRecordsEveryGameAndTheReviewRatesEverySide) {
  std::string dir = ::testing::TempDir() + "uckers-six-records";
  std::filesystem::remove_all(dir);
  Result r = Uckers(
      "match --rules six --a advanced --b greedy --pairs 2 --seed 9 --noprogress "
      "--records " +
      dir);
  ASSERT_EQ(r.code, 0) << r.out;
  for (int i = 0; i < 2; ++i) {
    for (int seat = 1; seat <= 3; ++seat) {
      EXPECT_TRUE(std::filesystem::exists(dir + "/pair-" + std::to_string(i) + "-" +
                                          std::to_string(seat) + ".txt"));
    }
  }
  Result a = Uckers("analyse --level advanced " + dir + "/pair-1-2.txt");
  ASSERT_EQ(a.code, 0) << a.out;
  EXPECT_NE(a.out.find("rules six"), std::string::npos) << a.out;
  for (const char* side : {"\nRB: ", "\nGO: ", "\nYP: "}) {
    EXPECT_NE(a.out.find(side), std::string::npos) << side << a.out;
  }
}

TEST(Cli, HelpForAnUnknownCommandIsAUsageError) { EXPECT_EQ(Uckers("help frobnicate").code, 2); }

TEST(Cli, AProtocolCommandWithABadArgumentIsAUsageError) {
  EXPECT_EQ(Uckers("perft x").code, 2);
  EXPECT_EQ(Uckers("perft 2").code, 0);
}

TEST(Cli, ANegativeNumberIsAnArgumentNotAFlag) {
  Result r = Uckers("perft -1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("depth must be a positive whole number, not '-1'"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("unknown flag"), std::string::npos) << r.out;
}

}  // namespace

namespace {

TEST(Cli, EachCommandRefusesAnUnknownFlagNamingTheClosest) {
  Result r = Uckers("match --pears 3");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--pears"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("did you mean --pairs"), std::string::npos) << r.out;
  for (const char* c : {"ladder", "analyse x.txt", "serve", "train"}) {
    EXPECT_EQ(Uckers(std::string(c) + " --frobnicate 1").code, 2) << c;
  }
}

TEST(Cli, EachCommandRefusesAnotherCommandsFlag) {
  EXPECT_EQ(Uckers("match --svg x.svg").code, 2);
  EXPECT_EQ(Uckers("ladder --pairs 3").code, 2);
  EXPECT_EQ(Uckers("analyse x.txt --pairs 3").code, 2);
  EXPECT_EQ(Uckers("serve --players 'a;b'").code, 2);
  EXPECT_EQ(Uckers("train --address 127.0.0.1:1").code, 2);
}

#ifdef UCKERS_HAVE_GRPC  // needs the HTTP front
TEST(Cli, ServeWithAMissingEndgameTableFailsWithExitOne) {
  Result r = Uckers("serve --address 127.0.0.1:0 --endgames /nonexistent-uckers.egt",
                    /*timeout_s=*/60);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--endgames: endgame table /nonexistent-uckers.egt"), std::string::npos)
      << r.out;
}

TEST(Cli, ServeRefusesAWebFolderWithoutABoard) {
  Result r =
      Uckers("serve --address 127.0.0.1:0 --http 127.0.0.1:0 --http_web /nonexistent-uckers-web",
             /*timeout_s=*/60);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--http_web '/nonexistent-uckers-web': no index.html there"),
            std::string::npos)
      << r.out;
}
#endif

// `uckers endgames build` and the --endgames flags.
TEST(Cli, EndgamesBuildRefusesABadClassRulesOrTask) {
  Result cls = Uckers("endgames build --class 3v3 --rules navy --out x.egt");
  EXPECT_EQ(cls.code, 2);
  EXPECT_NE(cls.out.find("--class"), std::string::npos) << cls.out;
  Result rules = Uckers("endgames build --class 1v1 --rules mess --out x.egt");
  EXPECT_EQ(rules.code, 2);
  EXPECT_NE(rules.out.find("no_partner_pipe_moves"), std::string::npos) << rules.out;
  EXPECT_EQ(Uckers("endgames").code, 2);
  EXPECT_EQ(Uckers("endgames solve --class 1v1 --rules navy --out x.egt").code, 2);
  EXPECT_EQ(Uckers("endgames build --class 1v1 --rules navy").code, 2);
}

TEST(Cli, EndgamesBuildToAnUnwritableFileFailsBeforeTheBuild) {
  Result r = Uckers("endgames build --class 1v1 --rules navy --out /nonexistent-dir/t.egt");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("cannot write /nonexistent-dir/t.egt"), std::string::npos) << r.out;
}

TEST(Cli, AnalyseWithAMissingEndgameTableFailsWithExitOne) {
  std::string record = ::testing::TempDir() + "cli-endgame-record.txt";
  FILE* f = fopen(record.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs("63:rb-0,r0-3\n", f);
  fclose(f);
  Result r = Uckers("analyse " + record + " --endgames /nonexistent-uckers.egt");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--endgames: endgame table /nonexistent-uckers.egt: cannot open the file"),
            std::string::npos)
      << r.out;
}

// A match or ladder interrupted by SIGINT reports what it has
// done and exits 1; `--resume` finishes it from its records to the same
// figures as an uninterrupted run with the same seed. `args` ends with
// --json; the part of the JSON report from `from` to `to` must match.
void ExpectResumedRunEqualsAWholeOne(const std::string& name, const std::string& args,
                                     const std::string& from, const std::string& to) {
  std::string dir = ::testing::TempDir() + "uckers-" + name + "-resume";
  std::string whole = ::testing::TempDir() + "uckers-" + name + "-whole";
  std::system(("rm -rf " + dir + " " + whole).c_str());
  Result full = Uckers(args + " --records " + whole, /*timeout_s=*/300);
  ASSERT_EQ(full.code, 0) << full.out;
  // Interrupted half a second in (or, on a fast machine, perhaps done).
  std::string script = "sh -c '" + std::string(UCKERS_BINARY) + " " + args + " --records " + dir +
                       " >/dev/null 2>&1 & pid=$!; sleep 0.5; kill -INT $pid; wait $pid; "
                       "echo exit=$?'";
  FILE* pipe = popen(script.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buf[256] = "";
  std::string interrupted_out;
  while (fgets(buf, sizeof buf, pipe)) interrupted_out += buf;
  pclose(pipe);
  EXPECT_TRUE(interrupted_out == "exit=1\n" || interrupted_out == "exit=0\n") << interrupted_out;
  Result resumed = Uckers(args + " --records " + dir + " --resume", /*timeout_s=*/300);
  ASSERT_EQ(resumed.code, 0) << resumed.out;
  auto part = [&](const std::string& json) {
    size_t at = json.find(from);
    size_t end = json.find(to, at);
    return at == std::string::npos || end == std::string::npos ? std::string()
                                                               : json.substr(at, end - at);
  };
  EXPECT_FALSE(part(full.out).empty()) << full.out;
  EXPECT_EQ(part(resumed.out), part(full.out));
}

TEST(Cli, ALadderInterruptedAndResumedEndsAsAnUninterruptedOne) {
  ExpectResumedRunEqualsAWholeOne(
      "ladder",
      "ladder --players \"beginner;casual\" --ladder_pairs 80 --seed 9 --json --progress=false",
      "\"players\"", "\"seconds\"");
}

TEST(Cli, AMatchInterruptedAndResumedEndsAsAnUninterruptedOne) {
  ExpectResumedRunEqualsAWholeOne(
      "match", "match --a casual --b beginner --pairs 120 --seed 3 --json --progress=false",
      "\"a_wins\"", "\"seconds\"");
}

TEST(Cli, LadderResumeNeedsRecordsAndNoSprt) {
  EXPECT_EQ(Uckers("ladder --players 'beginner;casual' --resume").code, 2);
  EXPECT_EQ(Uckers("ladder --players 'beginner;casual' --resume --records /tmp/x "
                   "--sprt 0,10,0.05,0.05")
                .code,
            2);
}

TEST(Cli, EachCommandRefusesAStrayArgument) {
  for (const char* c : {"match", "ladder", "serve", "train"}) {
    Result r = Uckers(std::string(c) + " extra");
    EXPECT_EQ(r.code, 2) << c;
    EXPECT_NE(r.out.find("unexpected argument 'extra'"), std::string::npos) << r.out;
  }
  EXPECT_EQ(Uckers("analyse a.txt b.txt").code, 2);
}

TEST(Cli, LadderDatabaseCommandsAreDispatchedWithTheirOwnUsage) {
  for (const char* c : {"add", "work", "table"}) {
    Result r = Uckers(std::string("ladder ") + c);  // no --db
    EXPECT_EQ(r.code, 2) << c;
    EXPECT_NE(r.out.find(std::string("uckers help ladder ") + c), std::string::npos) << r.out;
    EXPECT_EQ(Uckers(std::string("ladder ") + c + " --help").code, 0) << c;
  }
}

TEST(Cli, EachCommandsHelpExitsZero) {
  for (const char* c : {"match", "ladder", "analyse", "serve", "train"}) {
    Result r = Uckers(std::string(c) + " --help");
    EXPECT_EQ(r.code, 0) << c;
    EXPECT_NE(r.out.find("flags:"), std::string::npos) << c;
    EXPECT_EQ(r.out.find(".cpp"), std::string::npos) << c << ": no build paths";
  }
}

}  // namespace

namespace {

// A value that is not a finite number is a usage error.
TEST(Cli, AnInfiniteOrMalformedPlayerSettingIsAUsageError) {
  EXPECT_EQ(Uckers("match --a expert,noise=inf --b greedy --pairs 1").code, 2);
  EXPECT_EQ(Uckers("match --a expert,eval.lane_pips=nan --b greedy --pairs 1").code, 2);
  EXPECT_EQ(Uckers("match --a nosuchlevel --b greedy --pairs 1").code, 2);
}

// docs/evaluation.md, "A player that knows its opponent": a level models
// the other team as `random` with opponent=random, where a net and a search
// serve it, and names what is missing where none does.
TEST(Cli, AMatchPlayerCanModelItsOpponentAsRandom) {
  Result r = Uckers("match --a expert,opponent=random --b random --pairs 2 --noprogress");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(Uckers("match --a mcts,opponent=random --b random --pairs 1").code, 2);
  EXPECT_EQ(Uckers("match --a expert,opponent=random,eval=classic --b random --pairs 1").code, 2);
  Result wafu = Uckers("match --rules wafu --a expert,opponent=random --b random --pairs 1");
  EXPECT_EQ(wafu.code, 2);
  EXPECT_NE(wafu.out.find("no net trained against random"), std::string::npos) << wafu.out;
  // With more sides max^n takes every other side's plays alike.
  EXPECT_EQ(Uckers("match --rules six --a expert,opponent=random --b random --pairs 1 "
                   "--noprogress")
                .code,
            0);
  EXPECT_EQ(Uckers("match --rules six --a expert,search=mcts,opponent=random --b random "
                   "--pairs 1")
                .code,
            2);
}

TEST(Cli, APlayerSettingGivenTwiceIsAUsageError) {
  Result m = Uckers("match --a expert,depth=1,depth=2 --b greedy --pairs 1");
  EXPECT_EQ(m.code, 2);
  EXPECT_NE(m.out.find("setting 'depth' given twice"), std::string::npos) << m.out;
  EXPECT_EQ(m.out.find("pairs"), std::string::npos) << m.out;
}

// A --games_out that cannot be written is found before any game.
TEST(Cli, AGamesOutFileThatCannotBeWrittenFailsBeforeAnyGame) {
  Result m = Uckers("match --a random --b greedy --pairs 1 --games_out /nonexistent-dir/g.jsonl");
  EXPECT_EQ(m.code, 1);
  EXPECT_NE(m.out.find("--games_out: cannot write /nonexistent-dir/g.jsonl"), std::string::npos)
      << m.out;
  EXPECT_EQ(m.out.find("pairs"), std::string::npos) << m.out;
  EXPECT_EQ(Uckers("ladder --players 'random;greedy' --games_out /nonexistent-dir/g.jsonl").code,
            1);
}

// gRPC would share a taken port (SO_REUSEPORT) by default.
#ifdef UCKERS_HAVE_GRPC  // needs the gRPC front
TEST(Cli, AServerOnATakenPortFailsWithExitOne) {
  // The test itself holds a listening socket on a free port, opened with
  // SO_REUSEPORT as another gRPC server would open it; a server asked for that
  // port must refuse to start rather than share it. `timeout` keeps a server
  // that wrongly starts from hanging the run.
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  int one = 1;
  ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one), 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 4), 0);
  socklen_t len = sizeof addr;
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  std::string address = "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  Result second = Uckers("serve --address " + address, /*timeout_s=*/60);
  close(fd);
  EXPECT_EQ(second.code, 1);
  EXPECT_NE(second.out.find("cannot listen on " + address), std::string::npos) << second.out;
}
#endif  // UCKERS_HAVE_GRPC

}  // namespace

namespace {

// A player that cannot start fails the match before any game
// (exit 1), whether its program is missing, never answers its handshake, or
// its gRPC endpoint cannot be reached.
TEST(Cli, AMatchWithAPlayerThatCannotStartFailsWithExitOne) {
  for (const char* player : {"cmd:/nonexistent/engine", "cmd:/bin/cat,handshake=300",
#ifdef UCKERS_HAVE_GRPC
                             "grpc:127.0.0.1:1,handshake=300"
#endif
       }) {
    Result r = Uckers(std::string("match --a '") + player + "' --b greedy --pairs 1", 60);
    EXPECT_EQ(r.code, 1) << player << ": " << r.out;
    EXPECT_NE(r.out.find("cannot start"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("A wins"), std::string::npos) << "no report: " << r.out;
  }
}

TEST(Cli, ALadderWithAPlayerThatCannotStartFailsWithExitOne) {
  Result r = Uckers("ladder --players 'greedy;cmd:/bin/cat,handshake=300' --ladder_pairs 1", 60);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cannot start"), std::string::npos) << r.out;
}

// A path given to a command: the file, made afresh in the test's folder.
std::string Fresh(const std::string& name) {
  std::string path = ::testing::TempDir() + "uckers-cli-" + name;
  std::filesystem::remove_all(path);
  std::filesystem::remove_all(path + ".ckpt");  // a run that failed before may have left one
  return path;
}

std::string ReadAll(const std::string& path) {
  std::string text;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
  }
  return text;
}

void WriteAll(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

TEST(Cli, ALabelExportFromAMissingDatabaseFailsAndKeepsTheFile) {
  std::string db = Fresh("export.sqlite"), out = Fresh("export.jsonl");
  WriteAll(out, "kept\n");
  Result r = Uckers("label export --db " + db + " --out " + out + " --trials 1 --plies 1");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("no database file '" + db + "'"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(db));
  EXPECT_EQ(ReadAll(out), "kept\n");
}

TEST(Cli, ALabelExportOfARunTheDatabaseLacksFailsAndKeepsTheFile) {
  std::string db = Fresh("export-run.sqlite"), out = Fresh("export-run.jsonl");
  ASSERT_EQ(Uckers("label add --db " + db + " --positions 2 --chunk 2 --trials 1 --plies 1").code,
            0);
  WriteAll(out, "kept\n");
  Result r = Uckers("label export --db " + db + " --out " + out + " --trials 2 --plies 1");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("holds no labelling run of these settings"), std::string::npos) << r.out;
  EXPECT_EQ(ReadAll(out), "kept\n");
}

TEST(Cli, WorkersOnAMissingDatabaseFailAndCreateNone) {
  std::string db = Fresh("work.sqlite");
  EXPECT_EQ(Uckers("label work --db " + db).code, 1);
  EXPECT_EQ(Uckers("ladder work --db " + db + " --until_empty").code, 1);
  EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(Cli, ALabelWorkerRefusesTheSettingsOfARun) {
  Result r = Uckers("label work --db " + Fresh("worker.sqlite") + " --trials 9");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--trials: a setting of the run"), std::string::npos) << r.out;
}

TEST(Cli, LabelKeepsAnOutFileThatIsNotItsOwnEvenWithoutANewline) {
  std::string out = Fresh("notes.txt");
  WriteAll(out, "hello world");
  Result r = Uckers("label --out " + out + " --positions 1 --trials 1 --plies 1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("is not label 0"), std::string::npos) << r.out;
  EXPECT_EQ(ReadAll(out), "hello world");
}

TEST(Cli, LabelRefusesMoreThreadsThanItAllows) {
  Result r = Uckers("label --out " + Fresh("threads.jsonl") + " --positions 1 --concurrency 257");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--concurrency must be 1 to 256"), std::string::npos) << r.out;
}

TEST(Cli, ResumeRefusesTheRecordsOfAnotherMatch) {
  std::string dir = Fresh("resume-other");
  ASSERT_EQ(Uckers("match --a random --b greedy --pairs 1 --records " + dir).code, 0);
  for (const char* other : {"--rules wafu", "--seed 2"}) {
    Result r =
        Uckers("match --a random --b greedy --pairs 1 --records " + dir + " --resume " + other);
    EXPECT_EQ(r.code, 2) << other << ": " << r.out;
    EXPECT_NE(r.out.find("is a game of another match"), std::string::npos) << r.out;
  }
  Result same = Uckers("match --a random --b greedy --pairs 1 --records " + dir + " --resume");
  EXPECT_EQ(same.code, 0) << same.out;
  EXPECT_NE(same.out.find("resumed: 1 pairs"), std::string::npos) << same.out;
}

TEST(Cli, AMatchRefusesANetOfOtherRules) {
  Result r = Uckers("match --a 'expert,netfile=" UCKERS_SOURCE_DIR
                    "/nets/wafu.unet' --b greedy --pairs 1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("is for rules wafu, the game plays navy"), std::string::npos) << r.out;
  EXPECT_EQ(Uckers("match --a expert,netfile=/nonexistent/x.unet --b greedy --pairs 1").code, 1);
}

TEST(Cli, APlayerThatDoesNotSearchTakesNoSearchSetting) {
  Result r = Uckers("match --a random,depth=2 --b greedy --pairs 1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("random does not search"), std::string::npos) << r.out;
}

TEST(Cli, LuckDepthWithoutLuckIsAUsageError) {
  for (const char* args :
       {"match --pairs 1 --luck_depth 1",
        "ladder --players 'advanced;greedy' --sprt 0,20,0.05,0.05 --luck_depth 1",
        "match --pairs 1 --luck --luck_depth 2"}) {
    Result r = Uckers(args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_NE(r.out.find("luck_depth"), std::string::npos) << args << ": " << r.out;
  }
}

TEST(Cli, TrainAverageRefusesTheFlagsOfTraining) {
  Result r = Uckers("train --out " + Fresh("mean.unet") +
                    " --average " UCKERS_SOURCE_DIR "/nets/navy.unet --games 5");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--games: --average writes the mean"), std::string::npos) << r.out;
}

TEST(Cli, TrainAverageRefusesANetOfAnyRulesBesideANetOfOne) {
  Result r =
      Uckers("train --out " + Fresh("mean-any.unet") +
             " --average " UCKERS_SOURCE_DIR "/nets/navy.unet," UCKERS_SOURCE_DIR "/nets/any.unet");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("only nets of one rules and shape average"), std::string::npos) << r.out;
}

TEST(Cli, TrainRefusesSettingsItsModeWouldIgnore) {
  std::string out = Fresh("ignored.unet");
  for (const char* args :
       {" --epochs 3 --games 1", " --teacher_depth 0 --games 1",
        " --labels x.jsonl --lookahead 0.5", " --labels x.jsonl --rules any --layers 16,8",
        " --labels x.jsonl --explore 0.1", " --rules six --explore 0.1 --games 1",
        " --explore 1 --games 1", " --opponent best --games 1",
        " --rules six --opponent random --games 1", " --labels x.jsonl --opponent random",
        " --opponent random --lookahead 0.5 --games 1",
        " --opponent random --explore 0.1 --games 1"}) {
    Result r = Uckers("train --out " + out + args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_FALSE(std::filesystem::exists(out)) << args;
    EXPECT_FALSE(std::filesystem::exists(out + ".ckpt")) << args;
  }
}

TEST(Cli, TrainChecksItsCurveAndCheckpointBeforeTraining) {
  std::string out = Fresh("outputs.unet");
  Result curve = Uckers("train --out " + out + " --games 1 --curve /nonexistent-dir/c.svg");
  EXPECT_EQ(curve.code, 1) << curve.out;
  EXPECT_FALSE(std::filesystem::exists(out));
  Result same = Uckers("train --out " + out + " --checkpoint " + out + " --games 1");
  EXPECT_EQ(same.code, 2) << same.out;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(Cli, TuneRefusesANonFiniteOrRepeatedWeight) {
  EXPECT_EQ(Uckers("tune --weights eval.tempo_pips=nan --iterations 1 --pairs 1").code, 2);
  EXPECT_EQ(Uckers("tune --weights eval.tempo_pips=inf --iterations 1 --pairs 1").code, 2);
  EXPECT_EQ(Uckers("tune --weights tempo_pips,tempo_pips --iterations 1 --pairs 1").code, 2);
}

TEST(Cli, AOneShotProtocolErrorIsOnStderr) {
  std::string cmd = std::string(UCKERS_BINARY) + " perft 1 --ufen garbage 2>&1 >/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string err;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) err.append(buf, n);
  int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_EQ(err.rfind("uckers: ", 0), 0u) << err;
}

#ifdef UCKERS_HAVE_GRPC  // needs the gRPC front
TEST(Cli, ServeChecksEveryAddressAndHttpSettingBeforeListening) {
  for (const char* args : {"--address 127.0.0.1:99999", "--address 127.0.0.1:0 --http bogus",
                           "--address 127.0.0.1:0 --http 127.0.0.1:0 --http_threads 0",
                           "--address 127.0.0.1:0 --http_threads 4", "--grace_ms -1",
                           "--address 127.0.0.1:0 --http 127.0.0.1:0 --http_max_line_bytes 10",
                           "--address 127.0.0.1:0 --http 127.0.0.1:0 --http_max_headers 0",
                           "--address 127.0.0.1:0 --http 127.0.0.1:0 --http_request_timeout_ms 5",
                           "--address 127.0.0.1:0 --http 127.0.0.1:0 --http_metrics nowhere",
                           "--address 127.0.0.1:0 --http 127.0.0.1:0 --http_min_request_rate -1",
                           "--address 127.0.0.1:0 --http 127.0.0.1:0 --http_max_search_ms -1",
                           "--address 127.0.0.1:0 --http_allowed_hosts a.example"}) {
    Result r = Uckers(std::string("serve ") + args, /*timeout_s=*/30);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_EQ(r.out.find("listening"), std::string::npos) << args << ": " << r.out;
  }
  Result limit = Uckers("serve --max_nodes 0", 30);
  EXPECT_NE(limit.out.find("--max_nodes: must be at least 1"), std::string::npos) << limit.out;
}
#endif

}  // namespace
