// Not a Google Benchmark: how many pairs a ladder database takes and writes
// per second when the games cost nothing, so that the database alone is
// measured. Each worker thread has its own connection and loops: take a
// pair, write its two games (records of a typical length), mark it done.
//
//   ladderdb_bench DB [PAIRS] [WORKERS]
//
// DB: a SQLite file (removed first) or an empty postgresql://... database.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "ladder/db/store.h"

namespace {

// A record of a typical length: ~120 items of `<throw>:<play>`.
std::string TypicalRecord() {
  std::string r =
      "[Rules \"navy\"]\n[RY \"beginner\"]\n[GB \"casual\"]\n[Seed \"1\"]\n"
      "[Date \"2026-11-25\"]\n[Result \"RY 1\"]\n\n";
  for (int i = 0; i < 120; ++i) absl::StrAppend(&r, i % 3 ? "52:r3-8,r8-10 " : "11:- ");
  return r + "\n";
}

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "ladderdb_bench: %s\n", std::string(s.message()).c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace uckers;
  int pairs = 20000, workers = 1;
  if (argc < 2 || (argc > 2 && !absl::SimpleAtoi(argv[2], &pairs)) ||
      (argc > 3 && !absl::SimpleAtoi(argv[3], &workers)) || pairs < 1 || workers < 1) {
    std::fprintf(stderr, "usage: ladderdb_bench DB [PAIRS] [WORKERS]\n");
    return 2;
  }
  std::string db = argv[1];
  if (!IsPostgresUrl(db)) {
    for (const char* suffix : {"", "-wal", "-shm"}) unlink((db + suffix).c_str());
  }
  absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenLadderStore(db);
  if (!store.ok()) return Fail(store.status());
  absl::StatusOr<int64_t> a = (*store)->AddEntrant({0, "a", "beginner", "", "", ""}, {});
  if (!a.ok()) return Fail(a.status());
  std::vector<PairToSchedule> schedule;
  for (int p = 0; p < pairs; ++p) schedule.push_back({*a, static_cast<uint64_t>(p + 1), "navy"});
  if (absl::StatusOr<int64_t> b = (*store)->AddEntrant({0, "b", "casual", "", "", ""}, schedule);
      !b.ok()) {
    return Fail(b.status());
  }
  const std::string record = TypicalRecord();
  std::atomic<int64_t> written{0};
  std::atomic<bool> failed{false};
  auto start = std::chrono::steady_clock::now();
  auto work = [&](int w) {
    absl::StatusOr<std::unique_ptr<LadderStore>> mine = OpenLadderStore(db);
    if (!mine.ok()) return (void)(failed = true, Fail(mine.status()));
    std::string token = absl::StrCat("bench-", w);
    for (;;) {
      absl::StatusOr<std::optional<TakenPair>> pair = (*mine)->TakePair(token, 600);
      if (!pair.ok() || !*pair) return (void)(failed = failed || !pair.ok());
      std::vector<GameRow> games(2);
      for (int g = 0; g < 2; ++g) {
        GameRow& row = games[g];
        row.pair_id = (*pair)->id;
        row.game = g;
        row.ry = g ? (*pair)->b : (*pair)->a;
        row.gb = g ? (*pair)->a : (*pair)->b;
        row.rules = (*pair)->rules;
        row.seed = (*pair)->seed;
        row.winner_team = g;
        row.points = 1;
        row.record = record;
        row.version_ry = row.version_gb = "bench";
        row.worker = token;
      }
      absl::StatusOr<bool> kept = (*mine)->FinishPair((*pair)->id, token, games);
      if (!kept.ok() || !*kept) return (void)(failed = true);
      ++written;
    }
  };
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) threads.emplace_back(work, w);
  for (std::thread& t : threads) t.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %d workers wrote %lld pairs (%lld games) in %.2f s: %.0f games/s\n",
              IsPostgresUrl(db) ? "postgresql" : "sqlite", workers,
              static_cast<long long>(written.load()), 2 * static_cast<long long>(written.load()),
              seconds, 2 * written / seconds);
  return failed || written != pairs ? 1 : 0;
}
