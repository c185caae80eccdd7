// The `uckers` command line: help, version, dispatch and exit codes
// (0 done, 1 failed, 2 usage).
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace {

struct Result {
  int code = -1;
  std::string out;  // stdout and stderr
};

Result Uckers(const std::string& args) {
  Result r;
  std::string cmd = std::string(UCKERS_BINARY) + " " + args + " 2>&1 </dev/null";
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

TEST(Cli, HelpForAnUnknownCommandIsAUsageError) {
  EXPECT_EQ(Uckers("help frobnicate").code, 2);
}

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

TEST(Cli, EachCommandRefusesAStrayArgument) {
  for (const char* c : {"match", "ladder", "serve", "train"}) {
    Result r = Uckers(std::string(c) + " table");
    EXPECT_EQ(r.code, 2) << c;
    EXPECT_NE(r.out.find("unexpected argument 'table'"), std::string::npos) << r.out;
  }
  EXPECT_EQ(Uckers("analyse a.txt b.txt").code, 2);
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

// Issue 30 A7: gRPC would share a taken port (SO_REUSEPORT) by default.
TEST(Cli, ASecondServerOnATakenPortFailsWithExitOne) {
  std::string pid_file = ::testing::TempDir() + "/serve_pid";
  std::string cmd = std::string(UCKERS_BINARY) +
                    " serve --address 127.0.0.1:50777 >/dev/null 2>&1 & echo $! > " + pid_file;
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  Result second;
  for (int i = 0; i < 50; ++i) {  // until the first one listens
    second = Uckers("serve --address 127.0.0.1:50777");
    if (second.code != 0) break;
  }
  std::system(("kill $(cat " + pid_file + ")").c_str());
  EXPECT_EQ(second.code, 1);
  EXPECT_NE(second.out.find("cannot listen on 127.0.0.1:50777"), std::string::npos) << second.out;
}

}  // namespace
