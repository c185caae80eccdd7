#include "app/command.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>

#include "absl/flags/reflection.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace uckers {
namespace {

// The command's flags by name: its own (defined in its file) and the
// shared ones it reads.
std::map<std::string, absl::CommandLineFlag*> FlagsOf(const Command& c) {
  std::map<std::string, absl::CommandLineFlag*> flags;
  for (auto& [name, flag] : absl::GetAllFlags()) {
    if (!c.flags_file.empty() && absl::EndsWith(flag->Filename(), c.flags_file)) {
      flags[std::string(name)] = flag;
    }
  }
  auto all = absl::GetAllFlags();
  for (const SharedFlag& s : c.shared) {
    if (auto it = all.find(s.name); it != all.end()) flags[s.name] = it->second;
  }
  return flags;
}

const SharedFlag* SharedOf(const Command& c, const std::string& name) {
  for (const SharedFlag& s : c.shared) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

size_t Distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

// What a flag's value must be, in words.
std::string ValueWords(const absl::CommandLineFlag& flag) {
  if (flag.IsOfType<bool>()) return "true or false";
  if (flag.IsOfType<int>() || flag.IsOfType<int64_t>()) return "a whole number";
  if (flag.IsOfType<uint64_t>()) return "a whole number, 0 or more";
  if (flag.IsOfType<double>()) return "a number";
  return "a value";
}

absl::Status Usage(const Command& c, const std::string& message) {
  return UsageError(absl::StrCat(message, " (uckers help ", c.name, ")"));
}

// The payloads of a status that StatusExitCode reads: the name it is said
// under (WithName), and that it is not said at all (QuietFailure).
constexpr char kNamePayload[] = "uckers/command-name";
constexpr char kQuietPayload[] = "uckers/quiet";

// `c`'s command line from argv[1..], or the usage error; nullopt when
// --help asks for the command's help instead.
absl::StatusOr<std::optional<CommandLine>> ParseArguments(const Command& c, int argc, char** argv) {
  std::map<std::string, absl::CommandLineFlag*> flags = FlagsOf(c);
  std::vector<std::string> positional;
  std::set<std::string> given;
  bool only_positional = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    // A negative number ("-1") is an argument, for the command to judge, not a flag.
    bool negative_number =
        arg.size() >= 2 && arg[0] == '-' && (absl::ascii_isdigit(arg[1]) || arg[1] == '.');
    if (only_positional || arg.size() < 2 || arg[0] != '-' || negative_number) {
      positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    if (arg == "-h" || arg == "--help" || arg == "--helpfull") return std::nullopt;
    std::string name = arg.substr(arg[1] == '-' ? 2 : 1);
    std::optional<std::string> value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    auto it = flags.find(name);
    if (it == flags.end() && absl::StartsWith(name, "no") && !value) {
      // --noX turns a bool flag off, as Abseil reads it.
      auto neg = flags.find(name.substr(2));
      if (neg != flags.end() && neg->second->IsOfType<bool>()) {
        it = neg;
        name = neg->first;
        value = "false";
      }
    }
    if (it == flags.end()) {
      std::string closest;
      for (const auto& [f, unused] : flags) {
        if (closest.empty() || Distance(name, f) < Distance(name, closest)) closest = f;
      }
      return Usage(c, absl::StrCat("unknown flag --", name,
                                   closest.empty() || Distance(name, closest) > 3
                                       ? ""
                                       : absl::StrCat(" (did you mean --", closest, "?)")));
    }
    if (!value) {
      if (it->second->IsOfType<bool>()) {
        value = "true";
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        return Usage(c, absl::StrCat("--", name, " needs a value"));
      }
    }
    std::string error;
    if (!it->second->ParseFrom(*value, &error)) {
      return Usage(c,
                   absl::StrCat("--", name, ": '", *value, "' is not ", ValueWords(*it->second)));
    }
    given.insert(name);
  }
  if (static_cast<int>(positional.size()) > c.max_arguments) {
    return Usage(c, absl::StrCat("unexpected argument '", positional[c.max_arguments], "'"));
  }
  if (static_cast<int>(positional.size()) < c.min_arguments) {
    return Usage(c,
                 absl::StrCat("needs ", c.arguments_text.empty() ? "arguments" : c.arguments_text));
  }
  return CommandLine(std::move(positional), std::move(given));
}

}  // namespace

absl::Status UsageError(absl::string_view message) { return absl::InvalidArgumentError(message); }

absl::Status Failed(absl::string_view message) { return absl::UnknownError(message); }

absl::Status QuietFailure() {
  absl::Status status = absl::UnknownError("");
  status.SetPayload(kQuietPayload, absl::Cord());
  return status;
}

absl::Status WithName(absl::Status status, absl::string_view name) {
  status.SetPayload(kNamePayload, absl::Cord(name));
  return status;
}

int StatusExitCode(const absl::Status& status, absl::string_view name) {
  if (status.ok()) return 0;
  if (!status.GetPayload(kQuietPayload)) {
    auto named = status.GetPayload(kNamePayload);  // absl::optional<absl::Cord>
    std::string who = named ? std::string(*named) : std::string(name);
    std::cerr << "uckers" << (who.empty() ? "" : " ") << who << ": " << status.message() << "\n";
  }
  return absl::IsInvalidArgument(status) ? 2 : 1;
}

void PrintCommandHelp(const Command& c, std::ostream& out) {
  out << "usage: " << c.usage << "\n\n" << c.summary << "\n";
  std::map<std::string, absl::CommandLineFlag*> flags = FlagsOf(c);
  if (!flags.empty()) out << "\nflags:\n";
  for (const auto& [name, flag] : flags) {
    const SharedFlag* shared = SharedOf(c, name);
    std::string help = shared && !shared->help.empty() ? shared->help : flag->Help();
    std::string def =
        shared && !shared->default_text.empty() ? shared->default_text : flag->DefaultValue();
    out << "  --" << name << "  " << help << " (default: " << (def.empty() ? "none" : def) << ")\n";
  }
  if (c.more_help) {
    out << "\n";
    c.more_help(out);
  }
}

int CheckStdout(const std::string& who, int code) {
  std::cout.flush();
  std::fflush(stdout);
  if (!std::cout.good() || std::ferror(stdout)) {
    std::cerr << who << ": could not write to standard output (disk full or pipe closed)\n";
    return 1;
  }
  return code;
}

int RunCommand(const Command& c, int argc, char** argv) {
  absl::StatusOr<std::optional<CommandLine>> cl = ParseArguments(c, argc, argv);
  if (!cl.ok()) return StatusExitCode(cl.status(), c.name);
  if (!*cl) {
    PrintCommandHelp(c, std::cout);
    return CheckStdout("uckers " + c.name, 0);
  }
  int code = StatusExitCode(c.run(**cl), c.name);
  return CheckStdout("uckers " + c.name, code);
}

}  // namespace uckers
