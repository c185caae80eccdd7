#pragma once

#include <unistd.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "endgame/solver.h"
#include "gtest/gtest.h"

namespace uckers::testing {

// The table of `cls` under `rules`, written once per test program to a file
// under the test's temporary folder, named for the process (ctest runs test
// programs side by side, and one must not read a table another is writing);
// its path.
inline std::string TableFile(EndgameClass cls, const std::string& rules) {
  std::string path = absl::StrCat(::testing::TempDir(), "uckers-", getpid(), "-", rules, "-",
                                  std::string(ClassName(cls)), ".egt");
  absl::StatusOr<EndgameTable> t = BuildEndgameTable(cls, *Rules::Parse(rules), {}, nullptr);
  EXPECT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->Save(path).ok());
  return path;
}

// The 1v1 tables of navy and selsey (rules that differ by
// throw_after_challenge; 0.1 s each to build), and navy's 1v2 (1v1, 1v2 and
// 2v1, for decisions with a choice: about 5 s in a Release build).
inline const std::string& NavyOneAgainstOneFile() {
  static const std::string path = TableFile(EndgameClass::k1v1, "navy");
  return path;
}
inline const std::string& SelseyOneAgainstOneFile() {
  static const std::string path = TableFile(EndgameClass::k1v1, "selsey");
  return path;
}
inline const std::string& NavyOneAgainstTwoFile() {
  static const std::string path = TableFile(EndgameClass::k1v2, "navy");
  return path;
}

// A 1v1 position: red's last piece on 53 against green's on 40, yellow and
// blue home and released, red to throw.
inline constexpr char kOneAgainstOne[] = "53,h,h,h/40,h,h,h/h,h,h,h/h,h,h,h r pyb";

}  // namespace uckers::testing
