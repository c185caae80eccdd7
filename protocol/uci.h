#pragma once

#include <atomic>
#include <iosfwd>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/engine.h"

namespace uckers {

// A command of the text protocol, for `help` and `uckers help COMMAND`.
struct ProtocolCommand {
  std::string name;
  std::string synopsis;    // "go dice <d1> <d2> [movetime <ms>] ..."
  std::string help;        // one line
  int max_arguments = -1;  // words after the name it takes; -1: any
};

// Every command the text protocol reads, in the order `help` lists them.
const std::vector<ProtocolCommand>& ProtocolCommands();

// The command named `name`, or nullptr.
const ProtocolCommand* FindProtocolCommand(absl::string_view name);

// The text protocol of PROTOCOL.md (UCI-style) over a line stream. It only
// parses and prints: every command calls the connection's Engine
// (engine/engine.h), the one door to the search. Every bad input
// gets one `info string error: ...` line and changes nothing.
class UciLoop {
 public:
  UciLoop(Engine& engine, std::ostream& out);

  // The longest line Run() reads (1 MiB: a game of thousands of plays fits);
  // a longer one gets an error and changes nothing.
  static constexpr size_t kMaxLineBytes = 1 << 20;

  // Handles one command line; returns false after `quit`.
  bool HandleLine(absl::string_view line);
  // Reads commands until `quit` or end of input, then ends any search.
  void Run(std::istream& in);
  // How many `info string error` lines have been printed.
  int errors() const { return errors_.load(); }
  // The text of the last error line (after `info string error: `), "" for none.
  std::string last_error() const;

 private:
  using Args = std::vector<std::string>;

  void Print(const std::string& line);  // whole lines, safe from any thread
  void Error(absl::string_view what);
  // Waits for a running job unless it is an infinite search.
  void WaitUnlessInfinite();

  void Uci();
  void SetOption(const Args& args);
  void SetPosition(const Args& args);
  void Go(const Args& args);
  void Legal(const Args& args);
  void Roll(const Args& args);
  void Perft(const Args& args);
  void Bench();
  void Analyse(const Args& args);
  void Judge(const Args& args);
  void ThrowMapCommand(const Args& args);
  void ExplainCommand(const Args& args);
  void Help(const Args& args);
  void PrintReport(const SearchReport& report, bool with_pv);

  Engine& engine_;
  std::ostream& out_;
  mutable std::mutex out_mutex_;
  std::atomic<int> errors_{0};
  std::string last_error_;  // guarded by out_mutex_
};

}  // namespace uckers
