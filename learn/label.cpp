#include "learn/label.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "eval/net.h"
#include "rules/ufen.h"
#include "search/levels.h"
#include "search/search.h"

namespace uckers {
namespace {

// SplitMix64's finaliser: independent seeds for position i's draw and its
// rollouts from one run seed.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The lines already in `path` that are whole and in order: their count, and
// the byte length they take (what follows is a line cut short).
struct Existing {
  int64_t lines = 0;
  std::uintmax_t bytes = 0;
};

absl::StatusOr<Existing> ReadExisting(const LabelConfig& c) {
  Existing e;
  std::ifstream in(c.out, std::ios::binary);
  if (!in) return e;
  const std::string settings = LabelSettings(c);
  // Line by line: a run's file may hold a million positions.
  std::string line;
  while (std::getline(in, line)) {
    const std::string head = absl::StrCat(R"({"index":)", e.lines, ",");
    if (in.eof()) {
      // No newline: a label cut short, labelled again; anything else is not
      // this program's to overwrite.
      if (absl::StartsWith(head, line) || absl::StartsWith(line, head)) break;
      return absl::InvalidArgumentError(
          absl::StrCat(c.out, ": line ", e.lines + 1, " is not label ", e.lines,
                       " of a `uckers label` file; give another --out"));
    }
    if (!absl::StartsWith(line, head) || !absl::EndsWith(line, "}")) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.out, ": line ", e.lines + 1, " is not label ", e.lines,
                       " of a `uckers label` file; give another --out"));
    }
    if (line.find(settings) != head.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.out, " was labelled with other settings (line 1: ", line.substr(0, 160),
                       "); give the same --rules, --level, --netfile, --seed, --trials, --plies "
                       "and --depth, or another --out"));
    }
    ++e.lines;
    e.bytes += line.size() + 1;
  }
  return e;
}

// The transposition table a search label uses: emptied before each
// position, so that a label depends on its position alone, not on the ones
// a thread labelled before.
constexpr size_t kLabelHashMb = 2;

// `pos` labelled by the expectimax of `params` searched `depth` throws deep
// (the table's exact value where it covers `pos`: trials 0).
PositionLabel SearchLabel(const Position& pos, const Rules& rules, const SearchParams& params,
                          int depth, TranspositionTable* tt) {
  tt->Clear();
  SearchLimits limits;
  limits.depth = depth;
  std::atomic<bool> never{false};
  SearchReport report = AnalysePosition(pos, rules, params, limits, tt, never, {});
  PositionLabel label;
  label.outcomes = report.eval;
  label.trials = report.exact ? 0 : 1;  // one search, no sampling error
  return label;
}

// One position's line.
std::string LabelOne(const LabelConfig& c, const SearchParams& params, int64_t index,
                     TranspositionTable* tt) {
  const uint64_t base = Mix(c.seed ^ Mix(static_cast<uint64_t>(index)));
  Position pos = SamplePosition(c.rules, params, Mix(base ^ 1));
  PositionLabel label = c.depth > 0
                            ? SearchLabel(pos, c.rules, params, c.depth, tt)
                            : LabelPosition(pos, c.rules, params, c.trials, c.plies, Mix(base ^ 2));
  return LabelLine(c, index, ToUfen(pos), label);
}

// The text of `"key":"..."` (quoted) or `"key":...` in `text`, or "".
absl::string_view FieldOf(absl::string_view text, absl::string_view key, bool quoted) {
  const std::string head = absl::StrCat("\"", key, "\":", quoted ? "\"" : "");
  size_t at = text.find(head);
  if (at == absl::string_view::npos) return {};
  at += head.size();
  size_t end = quoted ? text.find('"', at) : text.find_first_of(",}", at);
  return text.substr(at, end == absl::string_view::npos ? text.size() - at : end - at);
}

}  // namespace

std::string LabelSettings(const LabelConfig& c) {
  std::string s =
      c.depth > 0 ? absl::StrFormat(R"("rules":"%s","level":"%s","seed":%d,"depth":%d)",
                                    c.rules.ToString(), c.level, c.seed, c.depth)
                  : absl::StrFormat(R"("rules":"%s","level":"%s","seed":%d,"trials":%d,"plies":%d)",
                                    c.rules.ToString(), c.level, c.seed, c.trials, c.plies);
  if (!c.netfile.empty()) absl::StrAppend(&s, R"(,"netfile":")", c.netfile, "\"");
  return s;
}

absl::Status UseLabelNet(LabelConfig* c) {
  if (c->netfile.empty()) return absl::OkStatus();
  if (c->netfile.find_first_of("\"\\") != std::string::npos ||
      std::any_of(c->netfile.begin(), c->netfile.end(),
                  [](char ch) { return static_cast<unsigned char>(ch) < 0x20; })) {
    return absl::InvalidArgumentError(absl::StrCat(
        "netfile '", c->netfile,
        "': a path with a quote, a backslash or a control character cannot be named in the "
        "labels' lines"));
  }
  absl::StatusOr<const Net*> net = LoadNetShared(c->netfile);
  if (!net.ok()) return net.status();
  // A net of any rules labels every four-sided ruleset of two teams.
  const Net* use = (*net)->any_rules() ? (*net)->ForRules(c->rules) : *net;
  if (use == nullptr || !(use->rules() == c->rules) || use->per_side()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "netfile ", c->netfile, " is a net of rules ",
        (*net)->any_rules() ? "any (four-sided, two teams)" : (*net)->rules().ToString(),
        "; a labelling run of ", c->rules.ToString(), " needs a net of those rules"));
  }
  c->params.net = use;
  c->params.eval = EvalKind::kNet;
  return absl::OkStatus();
}

absl::StatusOr<LabelConfig> LabelConfigFromSettings(const std::string& settings) {
  LabelConfig c;
  auto bad = [&](absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat("labelling settings '", settings.substr(0, 200), "': ", what));
  };
  absl::StatusOr<Rules> rules = Rules::Parse(FieldOf(settings, "rules", true));
  if (!rules.ok()) return bad(rules.status().message());
  c.rules = *rules;
  c.level = std::string(FieldOf(settings, "level", true));
  if (absl::Status s = ApplyLevel(c.level, &c.params); !s.ok()) return bad(s.message());
  const bool searched = !FieldOf(settings, "depth", false).empty();
  if (!absl::SimpleAtoi(FieldOf(settings, "seed", false), &c.seed) ||
      (searched ? !absl::SimpleAtoi(FieldOf(settings, "depth", false), &c.depth) || c.depth < 1
                : !absl::SimpleAtoi(FieldOf(settings, "trials", false), &c.trials) ||
                      !absl::SimpleAtoi(FieldOf(settings, "plies", false), &c.plies)) ||
      !CheckLabelCounts(c).ok()) {
    return bad(absl::StrCat("a seed, and trials and plies of at least 1 or a depth of 1 to ",
                            kMaxLabelDepth));
  }
  c.netfile = std::string(FieldOf(settings, "netfile", true));
  if (LabelSettings(c) != settings) return bad("not in the form `uckers label` writes");
  if (absl::Status s = UseLabelNet(&c); !s.ok()) {
    return absl::IsInvalidArgument(s) ? bad(s.message()) : s;
  }
  c.threads = 1;
  return c;
}

absl::StatusOr<std::string> LabelRange(const LabelConfig& c, int64_t first, int64_t count,
                                       const std::atomic<bool>& stop) {
  const SearchParams params = ResolveEvaluation(c.params, c.rules);
  const int threads = std::max(1, c.threads);
  std::vector<std::string> lines(count);
  std::atomic<int64_t> next{0};
  auto work = [&] {
    std::optional<TranspositionTable> tt;
    if (c.depth > 0) tt.emplace(kLabelHashMb);
    for (int64_t k; !stop && (k = next++) < count;) {
      lines[k] = LabelOne(c, params, first + k, tt ? &*tt : nullptr);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (stop) return absl::CancelledError("stopped");
  std::string out;
  for (const std::string& line : lines) absl::StrAppend(&out, line, "\n");
  return out;
}

absl::StatusOr<LabelRead> ReadLabelLine(absl::string_view line, const Rules& rules) {
  if (FieldOf(line, "rules", true) != rules.ToString()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "labels of rules '", FieldOf(line, "rules", true), "', not ", rules.ToString()));
  }
  int64_t index = 0;
  if (!absl::SimpleAtoi(FieldOf(line, "index", false), &index)) {
    return absl::InvalidArgumentError("no index");
  }
  absl::StatusOr<Position> pos = ParseUfen(FieldOf(line, "ufen", true), rules);
  if (!pos.ok()) return absl::InvalidArgumentError(pos.status().message());
  if (pos->IsGameOver()) return absl::InvalidArgumentError("a finished game");
  size_t open = line.find("\"outcomes\":[");
  size_t close = open == absl::string_view::npos ? open : line.find(']', open);
  if (close == absl::string_view::npos) return absl::InvalidArgumentError("no outcomes");
  LabelRead read{index, *pos, {}};
  int k = 0;
  double sum = 0;
  for (absl::string_view v : absl::StrSplit(line.substr(open + 12, close - open - 12), ',')) {
    double p = 0;
    if (k == kNumOutcomes || !absl::SimpleAtod(v, &p) || p < 0) {
      return absl::InvalidArgumentError("bad outcomes");
    }
    read.outcomes[k++] = static_cast<float>(p);
    sum += p;
  }
  if (k != kNumOutcomes || std::abs(sum - 1) > 1e-3) {
    return absl::InvalidArgumentError("outcomes must be six summing to 1");
  }
  return read;
}

std::string LabelLine(const LabelConfig& config, int64_t index, const std::string& ufen,
                      const PositionLabel& label) {
  std::string outcomes;
  for (int i = 0; i < kNumOutcomes; ++i) {
    absl::StrAppend(&outcomes, i ? "," : "", absl::StrFormat("%.6f", label.outcomes.p[i]));
  }
  return absl::StrFormat(
      R"({"index":%d,%s,"ufen":"%s","outcomes":[%s],"win":%.6f,"win_stderr":%.6f,"source":"%s"})",
      index, LabelSettings(config), ufen, outcomes, label.outcomes.Win(), label.win_stderr,
      label.trials == 0  ? "table"
      : config.depth > 0 ? "search"
                         : "rollout");
}

absl::Status CheckLabelCounts(const LabelConfig& c) {
  if (c.positions < 1 || c.trials < 1 || c.plies < 1) {
    return absl::InvalidArgumentError("--positions, --trials and --plies must each be at least 1");
  }
  if (c.threads < 1 || c.threads > kMaxLabelThreads) {
    return absl::InvalidArgumentError(
        absl::StrCat("--concurrency must be 1 to ", kMaxLabelThreads));
  }
  if (c.depth < 0 || c.depth > kMaxLabelDepth) {
    return absl::InvalidArgumentError(
        absl::StrCat("--depth must be 0 (rollouts) or a search depth of 1 to ", kMaxLabelDepth));
  }
  return absl::OkStatus();
}

absl::Status Label(const LabelConfig& c, std::ostream& log, const std::atomic<bool>& stop) {
  if (absl::Status s = c.rules.RequireFourSidedTeams("uckers label"); !s.ok()) {
    return absl::InvalidArgumentError(s.message());
  }
  if (absl::Status s = CheckLabelCounts(c); !s.ok()) return s;
  absl::StatusOr<Existing> existing = ReadExisting(c);
  if (!existing.ok()) return existing.status();
  std::error_code ec;
  if (std::filesystem::exists(c.out, ec)) {
    std::filesystem::resize_file(c.out, existing->bytes, ec);  // drops a line cut short
    if (ec)
      return absl::PermissionDeniedError(absl::StrCat("cannot write ", c.out, ": ", ec.message()));
  }
  std::ofstream out(c.out, std::ios::binary | std::ios::app);
  if (!out) return absl::PermissionDeniedError(absl::StrCat("cannot write ", c.out));
  int64_t next = existing->lines;
  if (next > 0) log << "resuming " << c.out << " after " << next << " positions\n";
  const auto start = std::chrono::steady_clock::now();
  const int64_t first = next;
  // Positions are labelled `threads` at a time and written in order, each
  // batch flushed, so a stop loses only the positions in flight.
  while (next < c.positions && !stop) {
    const int64_t n = std::min<int64_t>(c.threads, c.positions - next);
    absl::StatusOr<std::string> lines = LabelRange(c, next, n, stop);
    if (!lines.ok()) break;  // stopped
    out << *lines;
    out.flush();
    if (!out) return absl::DataLossError(absl::StrCat("cannot write ", c.out, " (disk full?)"));
    const int64_t before = next;
    next += n;
    if (c.progress_every > 0 && next / c.progress_every != before / c.progress_every) {
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      log << absl::StrFormat("labelled %d of %d positions (%.1f a second)\n", next, c.positions,
                             s > 0 ? (next - first) / s : 0.0);
    }
  }
  log << (next >= c.positions ? "labelled " : "stopped after ") << next << " positions in " << c.out
      << "\n";
  return absl::OkStatus();
}

}  // namespace uckers
