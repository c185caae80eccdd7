#pragma once

#include <string>

#include "endgame/solver.h"
#include "gtest/gtest.h"

namespace uckers::testing {

// The 1v1 endgame table for navy (0.1 s to build), written once per test
// program to a file under the test's temporary folder.
inline const std::string& NavyOneAgainstOneFile() {
  static const std::string path = [] {
    std::string p = ::testing::TempDir() + "uckers-navy-1v1.egt";
    absl::StatusOr<EndgameTable> t = BuildEndgameTable(EndgameClass::k1v1, Rules{}, {}, nullptr);
    EXPECT_TRUE(t.ok()) << t.status();
    EXPECT_TRUE(t->Save(p).ok());
    return p;
  }();
  return path;
}

// The same table for selsey, whose rules differ (throw_after_challenge).
inline const std::string& SelseyOneAgainstOneFile() {
  static const std::string path = [] {
    std::string p = ::testing::TempDir() + "uckers-selsey-1v1.egt";
    absl::StatusOr<EndgameTable> t =
        BuildEndgameTable(EndgameClass::k1v1, *Rules::Parse("selsey"), {}, nullptr);
    EXPECT_TRUE(t.ok()) << t.status();
    EXPECT_TRUE(t->Save(p).ok());
    return p;
  }();
  return path;
}

// The 1v2 table for navy (1v1, 1v2 and 2v1: about 5 s to build in a
// Release build), for decisions with a choice.
inline const std::string& NavyOneAgainstTwoFile() {
  static const std::string path = [] {
    std::string p = ::testing::TempDir() + "uckers-navy-1v2.egt";
    absl::StatusOr<EndgameTable> t = BuildEndgameTable(EndgameClass::k1v2, Rules{}, {}, nullptr);
    EXPECT_TRUE(t.ok()) << t.status();
    EXPECT_TRUE(t->Save(p).ok());
    return p;
  }();
  return path;
}

// A 1v1 position: red's last piece on 53 against green's on 40, yellow and
// blue home and released, red to throw.
inline constexpr char kOneAgainstOne[] = "53,h,h,h/40,h,h,h/h,h,h,h/h,h,h,h r pyb";

}  // namespace uckers::testing
