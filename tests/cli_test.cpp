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
  EXPECT_EQ(Uckers("match --rules six --a expert,noise=1 --b greedy --pairs 1").code, 2);
  EXPECT_EQ(Uckers("match --rules six --a cmd:./x --b greedy --pairs 1").code, 2);
  EXPECT_EQ(
      Uckers("match --rules six --a expert --b greedy --pairs 1 --resume --records /tmp/x").code,
      2);
  EXPECT_EQ(Uckers("match --rules six --a expert --b greedy --pairs 1 --games_out /tmp/x").code, 2);
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

// Issue 29: `uckers endgames build` and the --endgames flags.
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

// Issue 30 B12: a match or ladder interrupted by SIGINT reports what it has
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

// Issue 30 B13: a value that is not a finite number is a usage error.
TEST(Cli, AnInfiniteOrMalformedPlayerSettingIsAUsageError) {
  EXPECT_EQ(Uckers("match --a expert,noise=inf --b greedy --pairs 1").code, 2);
  EXPECT_EQ(Uckers("match --a expert,eval.lane_pips=nan --b greedy --pairs 1").code, 2);
  EXPECT_EQ(Uckers("match --a nosuchlevel --b greedy --pairs 1").code, 2);
}

// Issue 30 B15: a --games_out that cannot be written is found before any game.
TEST(Cli, AGamesOutFileThatCannotBeWrittenIsAUsageError) {
  Result m = Uckers("match --a random --b greedy --pairs 1 --games_out /nonexistent-dir/g.jsonl");
  EXPECT_EQ(m.code, 2);
  EXPECT_NE(m.out.find("--games_out: cannot write /nonexistent-dir/g.jsonl"), std::string::npos)
      << m.out;
  EXPECT_EQ(Uckers("ladder --players 'random;greedy' --games_out /nonexistent-dir/g.jsonl").code,
            2);
}

// Issue 30 A7: gRPC would share a taken port (SO_REUSEPORT) by default.
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

// Issue 30 B11: a player that cannot start fails the match before any game
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

}  // namespace
