#include "learn/label.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rules/ufen.h"
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

// The settings every line carries after its index; a resumed file must
// have been written with the same.
std::string Settings(const LabelConfig& c) {
  return absl::StrFormat(R"("rules":"%s","level":"%s","seed":%d,"trials":%d,"plies":%d)",
                         c.rules.ToString(), c.level, c.seed, c.trials, c.plies);
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
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const std::string settings = Settings(c);
  size_t at = 0;
  while (at < all.size()) {
    size_t end = all.find('\n', at);
    if (end == std::string::npos) break;  // cut short: labelled again
    absl::string_view line(all.data() + at, end - at);
    const std::string head = absl::StrCat(R"({"index":)", e.lines, ",");
    if (!absl::StartsWith(line, head) || !absl::EndsWith(line, "}")) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.out, ": line ", e.lines + 1, " is not label ", e.lines,
                       " of a `uckers label` file; give another --out"));
    }
    if (line.find(settings) != head.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          c.out, " was labelled with other settings (line 1: ", line.substr(0, 160),
          "); give the same --rules, --level, --seed, --trials and --plies, or another --out"));
    }
    ++e.lines;
    at = end + 1;
    e.bytes = at;
  }
  return e;
}

}  // namespace

std::string LabelLine(const LabelConfig& config, int64_t index, const std::string& ufen,
                      const PositionLabel& label) {
  std::string outcomes;
  for (int i = 0; i < kNumOutcomes; ++i) {
    absl::StrAppend(&outcomes, i ? "," : "", absl::StrFormat("%.6f", label.outcomes.p[i]));
  }
  return absl::StrFormat(
      R"({"index":%d,%s,"ufen":"%s","outcomes":[%s],"win":%.6f,"win_stderr":%.6f,"source":"%s"})",
      index, Settings(config), ufen, outcomes, label.outcomes.Win(), label.win_stderr,
      label.trials == 0 ? "table" : "rollout");
}

absl::Status Label(const LabelConfig& c, std::ostream& log, const std::atomic<bool>& stop) {
  if (absl::Status s = c.rules.RequireFourSidedTeams("uckers label"); !s.ok()) {
    return absl::InvalidArgumentError(s.message());
  }
  if (c.positions < 1 || c.trials < 1 || c.plies < 1 || c.threads < 1) {
    return absl::InvalidArgumentError(
        "--positions, --trials, --plies and --concurrency must each be at least 1");
  }
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
  // line flushed, so a stop loses only the positions in flight.
  // The level's evaluation: the net built in for the rules, unless the
  // level keeps the classic evaluation.
  const SearchParams params = ResolveEvaluation(c.params, c.rules);
  std::vector<std::string> lines(c.threads);
  while (next < c.positions && !stop) {
    const int n = static_cast<int>(std::min<int64_t>(c.threads, c.positions - next));
    auto work = [&](int k) {
      const int64_t index = next + k;
      const uint64_t base = Mix(c.seed ^ Mix(static_cast<uint64_t>(index)));
      Position pos = SamplePosition(c.rules, params, Mix(base ^ 1));
      PositionLabel label = LabelPosition(pos, c.rules, params, c.trials, c.plies, Mix(base ^ 2));
      lines[k] = LabelLine(c, index, ToUfen(pos), label);
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < n; ++k) pool.emplace_back(work, k);
    work(0);
    for (std::thread& t : pool) t.join();
    for (int k = 0; k < n; ++k) out << lines[k] << '\n';
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
