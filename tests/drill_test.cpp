// `uckers drill` (app/drill.cpp): cards from a review's marked decisions,
// a session that judges the answers, SM-2 scheduling, usage errors.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace uckers::testing {
namespace {

struct Result {
  int code = -1;
  std::string out;
};

Result Uckers(const std::string& args, const std::string& input = "") {
  std::string in = std::filesystem::temp_directory_path() /
                   ("drill_test_in_" + std::to_string(getpid()) + ".txt");
  std::ofstream(in) << input;
  std::string cmd = std::string(UCKERS_BINARY) + " " + args + " 2>&1 <" + in;
  Result r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class DrillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("drill_test_" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    db_ = (dir_ / "drill.sqlite").string();
    // A game of two noisy beginners: it has marked decisions.
    Result m = Uckers("match --a beginner --b beginner --pairs 1 --seed 11 --records " +
                      (dir_ / "games").string());
    ASSERT_EQ(m.code, 0) << m.out;
    record_ = (dir_ / "games" / "pair-0-1.txt").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The cards due on `day`: {best play, played play, id, equity lost} each.
  std::vector<std::vector<std::string>> Due(const std::string& day) {
    Result r = Uckers("drill --db " + db_ + " --list --count 1000 --today " + day);
    EXPECT_EQ(r.code, 0) << r.out;
    std::vector<std::vector<std::string>> cards;
    for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
      std::vector<std::string> w = absl::StrSplit(line, ' ');
      if (w.size() > 17 && w[0] == "card") cards.push_back({w[13], w[15], w[1], w[17]});
    }
    return cards;
  }

  std::filesystem::path dir_;
  std::string db_, record_;
};

TEST_F(DrillTest, AReviewedGamesMarkedDecisionsBecomeCardsOnce) {
  Result add =
      Uckers("drill --db " + db_ + " --add " + record_ + " --today 2026-01-01 --level expert");
  ASSERT_EQ(add.code, 0) << add.out;
  EXPECT_NE(add.out.find("new cards"), std::string::npos) << add.out;
  size_t cards = Due("2026-01-01").size();
  EXPECT_GT(cards, 0u) << add.out;
  ASSERT_EQ(
      Uckers("drill --db " + db_ + " --add " + record_ + " --today 2026-01-01 --level expert").code,
      0);
  EXPECT_EQ(Due("2026-01-01").size(), cards);  // the same decisions are not added twice
  EXPECT_EQ(Due("2025-12-31").size(), 0u);     // none due before they were added
}

TEST_F(DrillTest, ARightAnswerComesBackTomorrowAndAWrongOneToday) {
  ASSERT_EQ(
      Uckers("drill --db " + db_ + " --add " + record_ + " --today 2026-01-01 --level expert").code,
      0);
  std::vector<std::vector<std::string>> due = Due("2026-01-01");
  ASSERT_GE(due.size(), 2u);
  // The first card answered with its best play, the second with the play
  // that was marked in the game (the sessions judge at the review's level).
  Result session = Uckers("drill --db " + db_ + " --today 2026-01-01 --count 2 --level expert",
                          due[0][0] + "\n" + due[1][1] + "\n");
  ASSERT_EQ(session.code, 0) << session.out;
  EXPECT_NE(session.out.find("right: "), std::string::npos) << session.out;
  EXPECT_NE(session.out.find("wrong: "), std::string::npos) << session.out;
  EXPECT_NE(session.out.find("drill: 1 of 2 right"), std::string::npos) << session.out;
  // The wrong card is due again today, the right one tomorrow.
  auto has = [](const std::vector<std::vector<std::string>>& cards, const std::string& id) {
    for (const auto& c : cards) {
      if (c[2] == id) return true;
    }
    return false;
  };
  std::vector<std::vector<std::string>> today = Due("2026-01-01");
  EXPECT_FALSE(has(today, due[0][2]));
  EXPECT_TRUE(has(today, due[1][2]));
  EXPECT_TRUE(has(Due("2026-01-02"), due[0][2]));
  EXPECT_NE(session.out.find("next on 2026-01-02"), std::string::npos) << session.out;
  EXPECT_NE(session.out.find("next on 2026-01-01"), std::string::npos) << session.out;
}

TEST_F(DrillTest, AnIllegalAnswerIsAskedAgainAndEndOfInputKeepsTheRestDue) {
  ASSERT_EQ(
      Uckers("drill --db " + db_ + " --add " + record_ + " --today 2026-01-01 --level expert").code,
      0);
  size_t cards = Due("2026-01-01").size();
  Result session = Uckers("drill --db " + db_ + " --today 2026-01-01 --level expert", "zz9-99\n");
  ASSERT_EQ(session.code, 0) << session.out;
  EXPECT_NE(session.out.find("zz9-99"), std::string::npos) << session.out;
  EXPECT_NE(session.out.find("drill: 0 of 0 right"), std::string::npos) << session.out;
  EXPECT_EQ(Due("2026-01-01").size(), cards);
}

TEST_F(DrillTest, BadFlagsAreUsageErrors) {
  EXPECT_EQ(Uckers("drill").code, 2);
  EXPECT_EQ(Uckers("drill --db " + db_ + " --today 2026-13-45").code, 2);
  EXPECT_EQ(Uckers("drill --db " + db_ + " --count 0").code, 2);
  EXPECT_EQ(Uckers("drill --db " + db_ + " --level wizard").code, 2);
  EXPECT_EQ(Uckers("drill --db /nonexistent/dir/drill.sqlite").code, 1);
}

// A record that cannot be read is a failure (exit 1), and it leaves no
// database behind.
TEST_F(DrillTest, AnUnreadableRecordFailsAndCreatesNoDatabase) {
  std::filesystem::remove(db_);
  EXPECT_EQ(Uckers("drill --db " + db_ + " --add /nonexistent/game.txt").code, 1);
  EXPECT_FALSE(std::filesystem::exists(db_));
}

}  // namespace
}  // namespace uckers::testing
