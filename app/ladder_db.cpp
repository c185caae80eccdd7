#include "app/ladder_db.h"

#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "review/proto_json.h"
#include "review/record.h"
#include "tools/ladder/ladder.h"
#include "tools/ladder/ladder_db.h"

namespace uckers {
namespace {

// A command's parsed arguments: flags by name (without dashes) and the
// positional arguments in order.
struct Args {
  std::map<std::string, std::string> flags;
  std::vector<std::string> positional;
  bool has(const std::string& name) const { return flags.count(name) > 0; }
};

// Parses args[1..]: `valued` flags take a value (`--f v` or `--f=v`),
// `switches` take none. An unknown flag or a missing value is an error.
absl::StatusOr<Args> ParseArgs(const std::vector<std::string>& args,
                               const std::set<std::string>& valued,
                               const std::set<std::string>& switches) {
  Args out;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!absl::StartsWith(a, "-") || a == "-") {
      out.positional.push_back(a);
      continue;
    }
    std::string name = a.substr(a.rfind('-', 1) + 1);
    std::string value;
    bool inline_value = name.find('=') != std::string::npos;
    if (inline_value) {
      value = name.substr(name.find('=') + 1);
      name.resize(name.find('='));
    }
    if (name == "help" || name == "h") {
      out.flags["help"] = "";
    } else if (switches.count(name) && !inline_value) {
      out.flags[name] = "";
    } else if (valued.count(name)) {
      if (!inline_value && ++i >= args.size()) {
        return absl::InvalidArgumentError(absl::StrCat("--", name, " needs a value"));
      }
      out.flags[name] = inline_value ? value : args[i];
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag '", a, "'"));
    }
  }
  return out;
}

int Usage(const std::string& command, const std::string& message, const char* usage) {
  std::cerr << "uckers ladder " << command << ": " << message << "\nusage: " << usage << "\n";
  return 2;
}

template <typename T>
bool ParseNumber(const Args& args, const std::string& name, T* out) {
  return !args.has(name) || absl::SimpleAtoi(args.flags.at(name), out);
}

constexpr const char* kAddUsage =
    "uckers ladder add --db DB NAME SPEC [--pairs N] [--nearest K] [--near-elo E] "
    "[--seed S] [--rules R]\n"
    "  enters a player (SPEC as for uckers match) and schedules N duplicate pairs\n"
    "  (default 10) against each entrant already there, or only the K nearest in\n"
    "  rating to E (default the best rating); pair p plays dice seed S + p (S = 1).\n"
    "  DB: a SQLite file (created when missing) or postgresql://...";
constexpr const char* kWorkUsage =
    "uckers ladder work --db DB [--until-empty] [--lease-seconds S] [--max-pairs N]\n"
    "  plays scheduled pairs and writes their games; a pair taken and not finished\n"
    "  within S seconds (default 600) returns to the queue. With --until-empty, exits\n"
    "  0 when no pair is left; else waits for new pairs.";
constexpr const char* kTableUsage =
    "uckers ladder table --db DB [--json] [--chart FILE]\n"
    "  the rating list from every game: maximum-likelihood Elo relative to the first\n"
    "  entrant with 95 % intervals, games and pairs.";

}  // namespace

int LadderAddMain(const std::vector<std::string>& argv) {
  absl::StatusOr<Args> args =
      ParseArgs(argv, {"db", "pairs", "nearest", "near-elo", "seed", "rules"}, {});
  if (!args.ok()) return Usage("add", std::string(args.status().message()), kAddUsage);
  if (args->has("help")) return (std::cout << "usage: " << kAddUsage << "\n", 0);
  if (!args->has("db") || args->positional.size() != 2) {
    return Usage("add", "needs --db DB, a NAME and a SPEC", kAddUsage);
  }
  LadderAddConfig config;
  config.db = args->flags["db"];
  config.name = args->positional[0];
  config.spec = args->positional[1];
  double near = 0;
  if (!ParseNumber(*args, "pairs", &config.pairs) ||
      !ParseNumber(*args, "nearest", &config.nearest) || config.nearest < 0 ||
      !ParseNumber(*args, "seed", &config.seed) ||
      (args->has("near-elo") &&
       (!absl::SimpleAtod(args->flags["near-elo"], &near) || !std::isfinite(near)))) {
    return Usage("add", "--pairs, --nearest and --seed take whole numbers, --near-elo a number",
                 kAddUsage);
  }
  if (args->has("near-elo")) config.near_elo = near;
  absl::StatusOr<Rules> rules = Rules::Parse(args->has("rules") ? args->flags["rules"] : "navy");
  if (!rules.ok())
    return Usage("add", absl::StrCat("--rules: ", rules.status().message()), kAddUsage);
  if (absl::Status s = rules->RequireFourSidedTeams("uckers ladder add"); !s.ok())
    return Usage("add", absl::StrCat("--rules: ", s.message()), kAddUsage);
  config.rules = *rules;
  absl::StatusOr<LadderAddResult> added = AddToLadder(config);
  if (!added.ok()) {
    std::cerr << "uckers ladder add: " << added.status().message() << "\n";
    return absl::IsInvalidArgument(added.status()) ? 2 : 1;
  }
  std::cout << "entrant " << added->entrant << " '" << config.name << "': " << added->pairs
            << " pairs scheduled against " << added->opponents.size() << " entrants\n";
  return 0;
}

int LadderWorkMain(const std::vector<std::string>& argv) {
  absl::StatusOr<Args> args =
      ParseArgs(argv, {"db", "lease-seconds", "max-pairs"}, {"until-empty"});
  if (!args.ok()) return Usage("work", std::string(args.status().message()), kWorkUsage);
  if (args->has("help")) return (std::cout << "usage: " << kWorkUsage << "\n", 0);
  if (!args->has("db") || !args->positional.empty()) {
    return Usage("work", "needs --db DB and no other arguments", kWorkUsage);
  }
  LadderWorkConfig config;
  config.db = args->flags["db"];
  config.until_empty = args->has("until-empty");
  config.log = &std::cout;
  if ((args->has("lease-seconds") &&
       (!absl::SimpleAtod(args->flags["lease-seconds"], &config.lease_seconds) ||
        !(config.lease_seconds > 0 && config.lease_seconds <= 7 * 86400))) ||
      !ParseNumber(*args, "max-pairs", &config.max_pairs) || config.max_pairs < 0) {
    return Usage("work", "--lease-seconds must be in (0, 604800], --max-pairs a count", kWorkUsage);
  }
  absl::StatusOr<int64_t> played = WorkLadder(config);
  if (!played.ok()) {
    std::cerr << "uckers ladder work: " << played.status().message() << "\n";
    return 1;
  }
  std::cerr << "uckers ladder work: " << *played << " pairs played\n";
  return 0;
}

int LadderTableMain(const std::vector<std::string>& argv) {
  absl::StatusOr<Args> args = ParseArgs(argv, {"db", "chart"}, {"json"});
  if (!args.ok()) return Usage("table", std::string(args.status().message()), kTableUsage);
  if (args->has("help")) return (std::cout << "usage: " << kTableUsage << "\n", 0);
  if (!args->has("db") || !args->positional.empty()) {
    return Usage("table", "needs --db DB and no other arguments", kTableUsage);
  }
  std::string chart = args->has("chart") ? args->flags["chart"] : "";
  if (absl::Status s = chart.empty() ? absl::OkStatus() : CheckWritable(chart); !s.ok()) {
    return Usage("table", absl::StrCat("--chart: ", s.message()), kTableUsage);
  }
  absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenLadderStore(args->flags["db"]);
  absl::StatusOr<v1::LadderReport> table =
      store.ok() ? LadderTable(**store) : absl::StatusOr<v1::LadderReport>(store.status());
  if (!table.ok()) {
    std::cerr << "uckers ladder table: " << table.status().message() << "\n";
    return 1;
  }
  std::cout << (args->has("json") ? ToJson(*table) : LadderTableText(*table));
  if (!chart.empty() && table->players_size() > 0) {
    if (absl::Status s = WriteTextFile(chart, LadderReportSvg(*table)); !s.ok()) {
      std::cerr << "uckers ladder table: " << s.message() << "\n";
      return 1;
    }
  }
  return 0;
}

bool IsLadderDbCommand(const std::string& command) {
  return command == "add" || command == "work" || command == "table";
}

int LadderDbMain(const std::vector<std::string>& args) {
  if (args.empty()) return Usage("", "needs a command: add, work or table", kAddUsage);
  if (args[0] == "add") return LadderAddMain(args);
  if (args[0] == "work") return LadderWorkMain(args);
  if (args[0] == "table") return LadderTableMain(args);
  return Usage(args[0], "unknown command: add, work or table", kAddUsage);
}

}  // namespace uckers
