// tools/check_layers and tools/check_functions (docs/architecture.md): the
// one table of the layers (cmake/layers.txt) against the includes, the
// CMake links, the docs' diagram and the README, on the real tree and on
// small trees each breaking one of them.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace {

namespace fs = std::filesystem;

struct ToolRun {
  int exit_code = -1;
  std::string output;
};

ToolRun RunTool(const std::string& tool, const fs::path& root, const std::string& args = "") {
  std::string command = std::string(UCKERS_SOURCE_DIR) + "/tools/" + tool + " --root '" +
                        root.string() + "' " + args + " 2>&1";
  ToolRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
  int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// A tree of two layers that passes: low/ (uckers_low) below high/
// (uckers_high), with its CMake calls, README rows and the docs' diagram.
class LayerCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("uckers-layers-" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    Write(root_ / "cmake/layers.txt",
          "# library  folder  depends on  what\n"
          "uckers_low   low   -           the lower layer\n"
          "uckers_high  high  uckers_low  the upper layer\n");
    Write(root_ / "low/CMakeLists.txt",
          "add_library(uckers_low low.cpp)\nuckers_layer(uckers_low)\n");
    Write(root_ / "low/low.h", "#pragma once\nint Low();\n");
    Write(root_ / "low/low.cpp", "#include \"low/low.h\"\nint Low() { return 1; }\n");
    Write(root_ / "high/CMakeLists.txt",
          "add_library(uckers_high high.cpp)\nuckers_layer(uckers_high)\n");
    Write(root_ / "high/high.cpp", "#include \"low/low.h\"\nint High() { return Low(); }\n");
    Write(root_ / "README.md", "| `low/` | below |\n| `high/` | above |\n");
    WriteDocs(RunTool("check_layers", root_, "--diagram").output);
  }
  void TearDown() override { fs::remove_all(root_); }

  void WriteDocs(const std::string& diagram) {
    Write(root_ / "docs/architecture.md",
          "# Architecture\n\n<!-- layers: printed by tools/check_layers --diagram from "
          "cmake/layers.txt -->\n" +
              diagram + "<!-- end of layers -->\n");
  }

  fs::path root_;
};

TEST(Layers, TheRealTreeFollowsTheTable) {
  ToolRun run = RunTool("check_layers", UCKERS_SOURCE_DIR);
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

TEST_F(LayerCheck, ATreeThatFollowsItsTablePasses) {
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

TEST_F(LayerCheck, AnUpwardIncludeFailsNamingTheFileAndLine) {
  Write(root_ / "low/up.cpp", "#include \"low/low.h\"\n#include \"high/high.h\"\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("low/up.cpp:2 includes \"high/high.h\": low/ may not depend on high/"),
            std::string::npos)
      << run.output;
}

TEST_F(LayerCheck, TwoFoldersThatIncludeEachOtherFail) {
  Write(root_ / "low/up.cpp", "#include \"high/high.h\"\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("high/ and low/ include each other"), std::string::npos) << run.output;
}

TEST_F(LayerCheck, ALibraryLinkedByHandFails) {
  Write(root_ / "high/CMakeLists.txt",
        "add_library(uckers_high high.cpp)\nuckers_layer(uckers_high)\n"
        "target_link_libraries(uckers_high PUBLIC uckers_low)\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("high/CMakeLists.txt:3 links uckers_low by hand"), std::string::npos)
      << run.output;
}

TEST_F(LayerCheck, ALibraryWhoseCMakeDoesNotReadTheTableFails) {
  Write(root_ / "high/CMakeLists.txt", "add_library(uckers_high high.cpp)\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("does not call uckers_layer(uckers_high)"), std::string::npos)
      << run.output;
}

TEST_F(LayerCheck, ADocsDiagramThatDiffersFromTheTableFails) {
  WriteDocs("```\nhigh/ uckers_high low\n```\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("docs/architecture.md's diagram differs from cmake/layers.txt"),
            std::string::npos)
      << run.output;
}

TEST_F(LayerCheck, AFolderOfSourcesWithoutARowFails) {
  Write(root_ / "extra/extra.cpp", "int Extra() { return 0; }\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("extra/ holds sources but has no row in cmake/layers.txt"),
            std::string::npos)
      << run.output;
}

TEST_F(LayerCheck, AFolderMissingFromTheReadmeFails) {
  Write(root_ / "README.md", "| `low/` | below |\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("README.md's layout table has no row for `high/`"), std::string::npos)
      << run.output;
}

TEST_F(LayerCheck, ADependencyOnALibraryAboveFailsInTheTableItself) {
  Write(root_ / "cmake/layers.txt",
        "uckers_low   low   uckers_high  the lower layer\n"
        "uckers_high  high  uckers_low   the upper layer\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("uckers_low depends on uckers_high, which is not a library above it"),
            std::string::npos)
      << run.output;
}

TEST_F(LayerCheck, AFunctionOverEightyLinesIsListedWithItsLength) {
  std::string body = "int Long() {\n";
  for (int i = 0; i < 85; ++i) body += "  int x" + std::to_string(i) + " = " + "1;\n";
  body += "  return 0;\n}\n";
  Write(root_ / "low/long.cpp", body);
  ToolRun run = RunTool("check_functions", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("low/long.cpp:1: Long is 88 lines (at most 80)"), std::string::npos)
      << run.output;
}

TEST_F(LayerCheck, ATableOfEightyEntriesIsNoFunction) {
  std::string table = "const int kTable[] = {\n";
  for (int i = 0; i < 90; ++i) table += "  " + std::to_string(i) + ",\n";
  table += "};\nint Short() {\n  return kTable[0];\n}\n";
  Write(root_ / "low/table.cpp", table);
  ToolRun run = RunTool("check_functions", root_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

}  // namespace

namespace {

TEST_F(LayerCheck, ACallOfTheSearchsInternalsFromAboveTheSearchFails) {
  Write(root_ / "high/player.cpp",
        "#include \"low/low.h\"\nint Choose() {\n  return SearchPlay(1, 2).ok();\n}\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("high/player.cpp:3 calls SearchPlay: the search is called through its "
                            "door, SearchPosition (search/door.h)"),
            std::string::npos)
      << run.output;
}

TEST_F(LayerCheck, AnIncludeOfTheSearchsInternalsFromAboveTheSearchFails) {
  Write(root_ / "high/review.cpp", "#include \"search/multi_side.h\"\n");
  ToolRun run = RunTool("check_layers", root_);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("high/review.cpp:1 includes \"search/multi_side.h\": the search's "
                            "internals are reached through its door"),
            std::string::npos)
      << run.output;
}

}  // namespace
