// RunCommand (app/command.h): a command's status is said once on stderr,
// under the command's name, and becomes the exit code (0 done, 1 failed,
// 2 usage).
#include "app/command.h"

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace uckers {
namespace {

struct Outcome {
  int code = -1;
  std::string err;  // what was said on stderr
};

// Runs the command `probe`, whose work returns `status`, with `args`.
Outcome RunProbe(absl::Status status, std::vector<std::string> args = {}) {
  Command command = {
      .name = "probe",
      .summary = "a command for the test",
      .usage = "uckers probe",
      .run = [status](const CommandLine&) { return status; },
  };
  args.insert(args.begin(), "probe");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  testing::internal::CaptureStderr();
  Outcome out;
  out.code = RunCommand(command, static_cast<int>(argv.size()), argv.data());
  out.err = testing::internal::GetCapturedStderr();
  return out;
}

TEST(Command, AnOkStatusExitsZeroSayingNothing) {
  Outcome out = RunProbe(absl::OkStatus());
  EXPECT_EQ(out.code, 0);
  EXPECT_EQ(out.err, "");
}

TEST(Command, AUsageErrorExitsTwoSaidUnderTheCommandsName) {
  Outcome out = RunProbe(UsageError("--depth: give a number"));
  EXPECT_EQ(out.code, 2);
  EXPECT_EQ(out.err, "uckers probe: --depth: give a number\n");
}

TEST(Command, AFailureExitsOneSaidUnderTheCommandsName) {
  Outcome out = RunProbe(Failed("cannot write /x"));
  EXPECT_EQ(out.code, 1);
  EXPECT_EQ(out.err, "uckers probe: cannot write /x\n");
}

TEST(Command, EveryCodeButInvalidArgumentExitsOne) {
  for (const absl::Status& s : {absl::NotFoundError("m"), absl::InternalError("m"),
                                absl::FailedPreconditionError("m"), absl::UnavailableError("m")}) {
    Outcome out = RunProbe(s);
    EXPECT_EQ(out.code, 1) << s;
    EXPECT_EQ(out.err, "uckers probe: m\n") << s;
  }
}

TEST(Command, AQuietFailureExitsOneSayingNothing) {
  Outcome out = RunProbe(QuietFailure());
  EXPECT_EQ(out.code, 1);
  EXPECT_EQ(out.err, "");
}

TEST(Command, AStatusGivenANameIsSaidUnderThatName) {
  Outcome out = RunProbe(WithName(Failed("no table"), "probe build"));
  EXPECT_EQ(out.code, 1);
  EXPECT_EQ(out.err, "uckers probe build: no table\n");
  out = RunProbe(WithName(UsageError("bad line"), ""));
  EXPECT_EQ(out.code, 2);
  EXPECT_EQ(out.err, "uckers: bad line\n");
}

TEST(Command, AnUnknownFlagIsAUsageErrorSaidOnceBeforeTheWork) {
  Outcome out = RunProbe(Failed("the work ran"), {"--bogus"});
  EXPECT_EQ(out.code, 2);
  EXPECT_EQ(out.err, "uckers probe: unknown flag --bogus (uckers help probe)\n");
}

}  // namespace
}  // namespace uckers
