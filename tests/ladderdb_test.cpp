// The standing ladder in a database (ladder/db/, ladder/ladder_db.h),
// on SQLite and on a real PostgreSQL server the test starts itself
// (docs/ladder.md). The PostgreSQL tests carry the ctest label `server`.
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "app/commands.h"
#include "gtest/gtest.h"
#include "ladder/db/schema.h"
#include "ladder/db/store.h"
#include "ladder/ladder.h"
#include "ladder/ladder_db.h"
#include "record/text.h"
#include "wire/record.h"

namespace uckers {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Starts `argv` with its stdout and stderr going to the file `out`.
pid_t Spawn(const std::vector<std::string>& argv, const std::string& out) {
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

int WaitExit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `argv` to its end; its exit code, and its output in `output`.
int RunProgram(const std::vector<std::string>& argv, const std::string& scratch,
               std::string* output) {
  std::string out = scratch + "/run.out";
  int code = WaitExit(Spawn(argv, out));
  if (output) *output = ReadFile(out);
  return code;
}

// A PostgreSQL server of its own: a data directory owned by `postgres`
// (initdb refuses root), a Unix socket in that directory and no TCP.
class PostgresServer {
 public:
  static PostgresServer& Get() {
    static PostgresServer* server = new PostgresServer();
    return *server;
  }

  // Starts the server the first time; "" when it runs, else why not.
  std::string Start() {
    if (started_ || !error_.empty()) return error_;
    error_ = StartServer();
    started_ = error_.empty();
    return error_;
  }

  void Stop() {
    if (!started_) return;
    std::string out;
    RunProgram({"/usr/sbin/runuser", "-u", "postgres", "--", bin_ + "/pg_ctl", "-D", dir_ + "/data",
                "-m", "immediate", "-w", "stop"},
               dir_, &out);
    fs::remove_all(dir_);
    started_ = false;
  }

  // Ends every other session on `database` (as a server restart would).
  void EndSessions(const std::string& database) {
    std::string out;
    int code = RunProgram({"/usr/sbin/runuser", "-u", "postgres", "--", bin_ + "/psql", "-h", dir_,
                           "-p", std::to_string(port_), "-U", "postgres", "-d", database, "-c",
                           "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND pid <> pg_backend_pid()"},
                          dir_, &out);
    EXPECT_EQ(code, 0) << "psql: " << out;
  }

  // A new empty database's URL.
  std::string NewDatabase() {
    std::string name = absl::StrCat("ladder_", ++databases_);
    std::string out;
    int code = RunProgram({"/usr/sbin/runuser", "-u", "postgres", "--", bin_ + "/createdb", "-h",
                           dir_, "-p", std::to_string(port_), "-U", "postgres", name},
                          dir_, &out);
    EXPECT_EQ(code, 0) << "createdb: " << out;
    return absl::StrCat("postgresql://postgres@/", name, "?host=", dir_, "&port=", port_);
  }

 private:
  std::string StartServer() {
    for (const char* bin : {"/usr/lib/postgresql/15/bin"}) {
      if (access((std::string(bin) + "/initdb").c_str(), X_OK) == 0) bin_ = bin;
    }
    if (bin_.empty()) {
      return "PostgreSQL is not installed (no /usr/lib/postgresql/15/bin/initdb): "
             "tools/setup installs Debian's postgresql";
    }
    char dir[] = "/tmp/uckers-pg-XXXXXX";
    if (!mkdtemp(dir)) return "cannot make a temporary directory";
    dir_ = dir;
    if (RunProgram({"/bin/chown", "postgres:postgres", dir_}, "/tmp", nullptr) != 0) {
      return "cannot give the data directory to the postgres user (the test must run as root)";
    }
    port_ = 20000 + getpid() % 20000;
    std::string out;
    if (RunProgram({"/usr/sbin/runuser", "-u", "postgres", "--", bin_ + "/initdb", "-D",
                    dir_ + "/data", "-A", "trust", "-U", "postgres", "--no-sync"},
                   "/tmp", &out) != 0) {
      return "initdb failed: " + out;
    }
    std::string options =
        absl::StrCat("-p ", port_, " -k ", dir_, " -c listen_addresses= -c fsync=off");
    if (RunProgram({"/usr/sbin/runuser", "-u", "postgres", "--", bin_ + "/pg_ctl", "-D",
                    dir_ + "/data", "-l", dir_ + "/server.log", "-o", options, "-w", "start"},
                   "/tmp", &out) != 0) {
      return "pg_ctl start failed: " + out + ReadFile(dir_ + "/server.log");
    }
    return "";
  }

  std::string bin_;
  std::string dir_;
  int port_ = 0;
  int databases_ = 0;
  bool started_ = false;
  std::string error_;
};

// Stops the server, if one was started, when the tests are over.
class StopPostgres : public ::testing::Environment {
 public:
  void TearDown() override { PostgresServer::Get().Stop(); }
};
const auto* const kStopPostgres = ::testing::AddGlobalTestEnvironment(new StopPostgres);

enum class Backend { kSqlite, kPostgres };
void PrintTo(Backend b, std::ostream* os) {
  *os << (b == Backend::kSqlite ? "sqlite" : "postgresql");
}

// A `uckers ladder work` process (or `uckers label work`: `noun` "job"),
// its output in a file.
class Worker {
 public:
  Worker(const std::string& db, const std::string& out, double lease) : out_(out) {
    pid_ = Spawn({UCKERS_BINARY, "ladder", "work", "--db", db, "--until_empty", "--lease_seconds",
                  std::to_string(lease)},
                 out);
  }
  Worker(const std::vector<std::string>& argv, const std::string& out, const std::string& noun)
      : out_(out), noun_(noun) {
    pid_ = Spawn(argv, out);
  }
  int Wait() { return WaitExit(pid_); }
  void Kill() {
    kill(pid_, SIGKILL);
    WaitExit(pid_);
  }
  void Signal(int signal) { kill(pid_, signal); }
  // The pairs it said it wrote ("pair <id> done"), in order.
  std::vector<int64_t> Done() const { return Said("done"); }
  // The pairs it said it took ("pair <id> taken"), in order.
  std::vector<int64_t> Taken() const { return Said("taken"); }
  std::string Output() const { return ReadFile(out_); }

 private:
  std::vector<int64_t> Said(const std::string& what) const {
    std::vector<int64_t> ids;
    for (absl::string_view line : absl::StrSplit(ReadFile(out_), '\n')) {
      std::vector<std::string> w = absl::StrSplit(line, ' ');
      int64_t id = 0;
      if (w.size() == 3 && w[0] == noun_ && w[2] == what && absl::SimpleAtoi(w[1], &id)) {
        ids.push_back(id);
      }
    }
    return ids;
  }

  std::string out_;
  std::string noun_ = "pair";
  pid_t pid_;
};

class LadderDb : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/uckers-ladderdb-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    if (GetParam() == Backend::kSqlite) {
      db_ = dir_ + "/ladder.sqlite";
      return;
    }
    std::string error = PostgresServer::Get().Start();
    ASSERT_EQ(error, "") << "the PostgreSQL tests need a server: " << error;
    db_ = PostgresServer::Get().NewDatabase();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::unique_ptr<LadderStore> Open() {
    absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenLadderStore(db_);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? std::move(*store) : nullptr;
  }

  LadderAddResult Add(const std::string& name, const std::string& spec, int pairs, int nearest = 0,
                      const std::string& rules = "navy") {
    LadderAddConfig config;
    config.db = db_;
    config.rules = *Rules::Parse(rules);
    config.name = name;
    config.spec = spec;
    config.pairs = pairs;
    config.nearest = nearest;
    absl::StatusOr<LadderAddResult> added = AddToLadder(config);
    EXPECT_TRUE(added.ok()) << added.status();
    return added.ok() ? *added : LadderAddResult{};
  }

  int64_t WorkHere() {
    LadderWorkConfig config;
    config.db = db_;
    config.until_empty = true;
    absl::StatusOr<int64_t> played = WorkLadder(config);
    EXPECT_TRUE(played.ok()) << played.status();
    return played.ok() ? *played : -1;
  }

  // Checks every scheduled pair is done with exactly its two games.
  void ExpectEveryPairPlayedOnce(int64_t pairs) {
    std::unique_ptr<LadderStore> store = Open();
    ASSERT_NE(store, nullptr);
    absl::StatusOr<PairCounts> counts = store->CountPairs();
    ASSERT_TRUE(counts.ok()) << counts.status();
    EXPECT_EQ(counts->done, pairs);
    EXPECT_EQ(counts->queued + counts->taken, 0);
    absl::StatusOr<std::vector<GameOutcome>> games = store->Outcomes();
    ASSERT_TRUE(games.ok()) << games.status();
    ASSERT_EQ(static_cast<int64_t>(games->size()), 2 * pairs);
    for (int64_t i = 0; i < 2 * pairs; ++i) {  // pairs 1..n, games 0 and 1 of each
      EXPECT_EQ((*games)[i].pair_id, i / 2 + 1);
      EXPECT_EQ((*games)[i].game, i % 2);
    }
  }

  std::string dir_;
  std::string db_;
};

TEST_P(LadderDb, OpeningCreatesTheSchemaAtItsVersionAndReopeningKeepsIt) {
  for (int i = 0; i < 2; ++i) {
    std::unique_ptr<LadderStore> store = Open();
    ASSERT_NE(store, nullptr);
    absl::StatusOr<int> version = store->SchemaVersion();
    ASSERT_TRUE(version.ok()) << version.status();
    EXPECT_EQ(*version, kLadderSchemaVersion);
  }
}

TEST_P(LadderDb, AddingAnEntrantSchedulesOnlyItsPairs) {
  EXPECT_EQ(Add("greedy", "greedy", 3).pairs, 0);  // nobody to play yet
  EXPECT_EQ(Add("random", "random", 3).pairs, 3);
  EXPECT_EQ(WorkHere(), 3);
  LadderAddResult third = Add("beginner", "beginner", 2);
  EXPECT_EQ(third.pairs, 4);
  EXPECT_EQ(third.opponents, (std::vector<std::string>{"greedy", "random"}));
  std::unique_ptr<LadderStore> store = Open();
  absl::StatusOr<PairCounts> counts = store->CountPairs();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->done, 3);  // the games already played stay as they are
  EXPECT_EQ(counts->queued, 4);
  EXPECT_EQ(WorkHere(), 4);  // and only the new entrant's pairs are played
  for (int64_t pair = 4; pair <= 7; ++pair) {
    absl::StatusOr<std::vector<GameRow>> games = store->GamesOfPair(pair);
    ASSERT_TRUE(games.ok());
    ASSERT_EQ(games->size(), 2u);
    EXPECT_TRUE((*games)[0].ry == third.entrant || (*games)[0].gb == third.entrant);
  }
}

TEST_P(LadderDb, NearestSchedulesOnlyTheEntrantsNearestInRating) {
  Add("random", "random", 1);
  Add("greedy", "greedy", 10);
  Add("casual", "casual", 10);
  WorkHere();
  absl::StatusOr<v1::LadderReport> table = LadderTable(*Open());
  ASSERT_TRUE(table.ok());
  // Nearest to the best rating (the default): the best entrant itself.
  int best = 0;
  for (int i = 1; i < 3; ++i) {
    if (table->players(i).elo() > table->players(best).elo()) best = i;
  }
  LadderAddResult added = Add("beginner", "beginner", 2, /*nearest=*/1);
  EXPECT_EQ(added.pairs, 2);
  EXPECT_EQ(added.opponents, (std::vector<std::string>{table->players(best).name()}));
}

TEST_P(LadderDb, AnEntrantNameIsTakenOnce) {
  Add("greedy", "greedy", 1);
  LadderAddConfig config;
  config.db = db_;
  config.name = "greedy";
  config.spec = "random";
  absl::StatusOr<LadderAddResult> again = AddToLadder(config);
  EXPECT_TRUE(absl::IsAlreadyExists(again.status())) << again.status();
}

TEST_P(LadderDb, GamesAreStoredWithRecordFullRulesSeedsAndVersions) {
  Add("greedy", "greedy", 1);
  Add("beginner", "beginner", 2);
  WorkHere();
  std::unique_ptr<LadderStore> store = Open();
  for (int64_t pair = 1; pair <= 2; ++pair) {
    absl::StatusOr<std::vector<GameRow>> games = store->GamesOfPair(pair);
    ASSERT_TRUE(games.ok());
    ASSERT_EQ(games->size(), 2u);
    for (const GameRow& g : *games) {
      EXPECT_EQ(g.rules, FullSwitchList(Rules()));
      EXPECT_EQ(g.seed, static_cast<uint64_t>(pair));  // pair p plays seed 1 + p, p from 0
      absl::StatusOr<Record> record = wire::ParseRecord(g.record);
      ASSERT_TRUE(record.ok()) << record.status() << "\n" << g.record;
      EXPECT_EQ(record->seed, g.seed);
      EXPECT_EQ(record->winner, g.winner_team == 0 ? "RY" : "GB");
      EXPECT_EQ(record->ry, g.game == 0 ? "greedy" : "beginner");
      EXPECT_FALSE(g.version_ry.empty());
      EXPECT_GE(g.ms_ry + g.ms_gb, 0);
    }
    EXPECT_EQ((*games)[0].ry, (*games)[1].gb);  // the teams swap within a pair
  }
}

TEST_P(LadderDb, WorkersPlayEveryScheduledPairExactlyOnce) {
  Add("random", "random", 1);
  Add("greedy", "greedy", 12);
  Add("beginner", "beginner", 12);  // 36 pairs
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < 3; ++i) {
    workers.push_back(std::make_unique<Worker>(db_, absl::StrCat(dir_, "/w", i), 600));
  }
  std::multiset<int64_t> said;
  for (auto& w : workers) {
    EXPECT_EQ(w->Wait(), 0) << w->Output();
    for (int64_t id : w->Done()) said.insert(id);
  }
  EXPECT_EQ(said.size(), 36u);
  for (int64_t id = 1; id <= 36; ++id) EXPECT_EQ(said.count(id), 1u) << "pair " << id;
  ExpectEveryPairPlayedOnce(36);
}

TEST_P(LadderDb, KilledWorkersLoseNoFinishedGameAndEveryPairIsPlayedOnce) {
  // Each worker is killed a random moment after it says it took a pair, so
  // the kill lands mid pair whatever the machine's speed, and sometimes
  // after a pair it finished was written.
  Add("mcts-a", "mcts,nodes=300", 1);
  Add("mcts-b", "mcts,nodes=200", 6);
  std::mt19937 rng(7);
  std::set<int64_t> finished;  // pairs a killed worker said it wrote
  int kills_mid_pair = 0;
  for (int round = 0; round < 4; ++round) {
    Worker w(db_, absl::StrCat(dir_, "/killed", round), /*lease=*/1);
    auto give_up = Clock::now() + std::chrono::seconds(60);
    while (w.Taken().size() <= w.Done().size() && Clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_GT(w.Taken().size(), w.Done().size()) << w.Output();
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 60)(rng)));
    w.Kill();
    kills_mid_pair += w.Taken().size() > w.Done().size();
    for (int64_t id : w.Done()) {
      EXPECT_TRUE(finished.insert(id).second) << "pair " << id << " written twice";
    }
    // Every pair a killed worker finished is there with both games.
    std::unique_ptr<LadderStore> store = Open();
    for (int64_t id : finished) {
      absl::StatusOr<std::vector<GameRow>> games = store->GamesOfPair(id);
      ASSERT_TRUE(games.ok());
      EXPECT_EQ(games->size(), 2u) << "pair " << id;
    }
  }
  EXPECT_GE(kills_mid_pair, 3) << "most kills should land while a pair is played";
  Worker last(db_, dir_ + "/last", 1);  // takes the killed workers' pairs once leases end
  EXPECT_EQ(last.Wait(), 0) << last.Output();
  for (int64_t id : last.Done()) {
    EXPECT_TRUE(finished.insert(id).second) << "pair " << id << " written twice";
  }
  EXPECT_EQ(finished.size(), 6u);
  ExpectEveryPairPlayedOnce(6);
}

// A worker stopped by SIGTERM or SIGINT while it plays a pair hands the pair
// back (no lease of 600 s left behind) and exits 0.
TEST_P(LadderDb, AWorkerSignalledMidPairHandsItsPairBackAndExits) {
  Add("mcts-a", "mcts,nodes=800", 1);
  Add("mcts-b", "mcts,nodes=600", 4);
  for (int signal : {SIGTERM, SIGINT}) {
    Worker w(db_, absl::StrCat(dir_, "/signalled", signal), /*lease=*/600);
    auto give_up = Clock::now() + std::chrono::seconds(20);
    while (w.Taken().size() <= w.Done().size() && Clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_GT(w.Taken().size(), w.Done().size()) << w.Output();
    w.Signal(signal);
    auto signalled = Clock::now();
    EXPECT_EQ(w.Wait(), 0) << w.Output();
    EXPECT_LT(Clock::now() - signalled, std::chrono::seconds(10));
    EXPECT_NE(w.Output().find("handed back"), std::string::npos) << w.Output();
    std::unique_ptr<LadderStore> store = Open();
    ASSERT_NE(store, nullptr);
    absl::StatusOr<PairCounts> counts = store->CountPairs();
    ASSERT_TRUE(counts.ok()) << counts.status();
    EXPECT_EQ(counts->taken, 0) << "signal " << signal << ": " << w.Output();
    EXPECT_EQ(counts->queued + counts->done, 4);
  }
}

// A PostgreSQL session ended under the store (a server restart, a
// failover) is opened again and the operation goes on.
TEST_P(LadderDb, ALostPostgresConnectionIsOpenedAgain) {
  if (GetParam() != Backend::kPostgres) GTEST_SKIP() << "PostgreSQL only";
  Add("a", "random", 1);  // the first entrant: no one to pair with
  Add("b", "random", 3);
  std::unique_ptr<LadderStore> store = Open();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->CountPairs().ok());
  std::string database = db_.substr(db_.find("@/") + 2);  // postgresql://postgres@/NAME?...
  PostgresServer::Get().EndSessions(database.substr(0, database.find('?')));
  absl::StatusOr<PairCounts> counts = store->CountPairs();
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->queued, 3);
  absl::StatusOr<std::optional<TakenPair>> taken = store->TakePair("t", 60);
  ASSERT_TRUE(taken.ok()) << taken.status();
  EXPECT_TRUE(taken->has_value());
}

TEST_P(LadderDb, RatingsEqualTheInMemoryLaddersOnTheSameGames) {
  LadderConfig memory;
  memory.players = {"beginner", "random", "greedy", "casual"};
  memory.pairs = 6;
  memory.concurrency = 1;
  memory.progress = false;
  absl::StatusOr<v1::LadderReport> expected = RunLadder(memory);
  ASSERT_TRUE(expected.ok()) << expected.status();
  for (const std::string& p : memory.players) Add(p, p, memory.pairs);
  WorkHere();
  absl::StatusOr<v1::LadderReport> table = LadderTable(*Open());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->games(), expected->games());
  ASSERT_EQ(table->players_size(), 4);
  for (int i = 0; i < 4; ++i) {
    const v1::LadderPlayer& got = table->players(i);
    const v1::LadderPlayer& want = expected->players(i);
    EXPECT_EQ(got.name(), want.name());
    EXPECT_EQ(got.wins(), want.wins());
    EXPECT_EQ(got.games(), want.games());
    EXPECT_EQ(got.pairs(), 3 * memory.pairs);
    EXPECT_DOUBLE_EQ(got.elo(), want.elo()) << got.name();
    EXPECT_DOUBLE_EQ(got.elo_low(), want.elo_low()) << got.name();
    EXPECT_DOUBLE_EQ(got.elo_high(), want.elo_high()) << got.name();
  }
}

TEST_P(LadderDb, TheCommandsRunEndToEnd) {
  std::string out;
  EXPECT_EQ(
      RunProgram({UCKERS_BINARY, "ladder", "add", "--db", db_, "greedy", "greedy"}, dir_, &out), 0)
      << out;
  EXPECT_EQ(
      RunProgram({UCKERS_BINARY, "ladder", "add", "--db", db_, "--pairs", "2", "random", "random"},
                 dir_, &out),
      0)
      << out;
  EXPECT_EQ(RunProgram({UCKERS_BINARY, "ladder", "work", "--db", db_, "--until_empty"}, dir_, &out),
            0)
      << out;
  EXPECT_EQ(RunProgram({UCKERS_BINARY, "ladder", "table", "--db", db_, "--json"}, dir_, &out), 0)
      << out;
  EXPECT_TRUE(absl::StrContains(out, "\"mode\": \"database\"")) << out;
  EXPECT_TRUE(absl::StrContains(out, "\"pairs\": 2")) << out;
}

// RULES.md §11, docs/ladder.md "More sides": a pair of three sides is six
// games, each entrant alone on every side in turn over the pair's dice, and
// the table rates them by Luce's choice model.
TEST_P(LadderDb, APairOfMoreSidesSeatsEachEntrantAloneOnEverySide) {
  Add("random", "random", 1, 0, "six");
  Add("advanced", "advanced", 4, 0, "six");
  EXPECT_EQ(WorkHere(), 4);
  std::unique_ptr<LadderStore> store = Open();
  absl::StatusOr<std::vector<GameRow>> games = store->GamesOfPair(1);
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 6u);
  for (int g = 0; g < 6; ++g) {
    const GameRow& row = (*games)[g];
    EXPECT_EQ(row.sides, 3);
    EXPECT_EQ(row.seat, g % 3);
    EXPECT_EQ(row.ry, g < 3 ? 1 : 2);  // the entrant alone
    absl::StatusOr<Record> record = wire::ParseRecord(row.record);
    ASSERT_TRUE(record.ok()) << record.status() << "\n" << row.record;
    Layout layout = Rules::Parse("six")->layout();
    EXPECT_EQ(record->winner == SideName(layout, row.seat), row.winner_team == 0);
    EXPECT_EQ(RecordPlayer(*record, layout, row.seat), g < 3 ? "random" : "advanced");
  }
  absl::StatusOr<v1::LadderReport> table = LadderTable(*store);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->sides(), 3);
  EXPECT_EQ(table->games(), 24);
  EXPECT_GT(table->players(1).elo(), table->players(0).elo());
}

// Entrants meet only entrants of the same board and sides.
TEST_P(LadderDb, EntrantsMeetOnlyEntrantsOfTheSameTable) {
  Add("greedy", "greedy", 1);
  LadderAddResult six = Add("random", "random", 2, 0, "six");
  EXPECT_EQ(six.pairs, 0);
  EXPECT_TRUE(six.opponents.empty());
  LadderAddResult again = Add("advanced", "advanced", 2, 0, "six");
  EXPECT_EQ(again.opponents, (std::vector<std::string>{"random"}));
  LadderAddResult navy = Add("beginner", "beginner", 1, 0, "wafu");
  EXPECT_EQ(navy.opponents, (std::vector<std::string>{"greedy"}));
  std::unique_ptr<LadderStore> store = Open();
  absl::StatusOr<std::vector<Entrant>> entrants = store->Entrants();
  ASSERT_TRUE(entrants.ok());
  EXPECT_EQ((*entrants)[1].rules, FullSwitchList(*Rules::Parse("six")));
}

std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kSqlite ? "sqlite" : "postgresql";
}
// --- The jobs of `uckers label work` (learn/label.h) ---

TEST_P(LadderDb, ALabelJobWhoseLeaseRanOutIsTakenAgainAndItsLateFinishRefused) {
  std::unique_ptr<LadderStore> store = Open();
  ASSERT_NE(store, nullptr);
  const std::string run = R"("rules":"navy","level":"expert","seed":1,"trials":8,"plies":3)";
  absl::StatusOr<int64_t> added = store->AddLabelJobs(run, 25, 10);
  ASSERT_TRUE(added.ok()) << added.status();
  EXPECT_EQ(*added, 3);
  EXPECT_EQ(*store->AddLabelJobs(run, 25, 10), 0) << "added again: nothing new";
  EXPECT_TRUE(absl::IsFailedPrecondition(store->AddLabelJobs(run, 25, 5).status()));
  absl::StatusOr<std::optional<LabelJob>> a = store->TakeLabelJob("a", 0.05);
  ASSERT_TRUE(a.ok() && a->has_value());
  EXPECT_EQ((**a).first, 0);
  EXPECT_EQ((**a).count, 10);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  absl::StatusOr<std::optional<LabelJob>> b = store->TakeLabelJob("b", 600);
  ASSERT_TRUE(b.ok() && b->has_value());
  EXPECT_EQ((**b).id, (**a).id) << "the job whose lease ran out first";
  EXPECT_FALSE(*store->FinishLabelJob((**a).id, "a", "late\n", "a"));
  EXPECT_TRUE(*store->FinishLabelJob((**b).id, "b", "first ten\n", "b"));
  absl::StatusOr<std::optional<LabelJob>> c = store->TakeLabelJob("c", 600);
  ASSERT_TRUE(c.ok() && c->has_value());
  EXPECT_EQ((**c).first, 10);
  EXPECT_TRUE(*store->ReleaseLabelJob((**c).id, "c"));
  EXPECT_FALSE(*store->ReleaseLabelJob((**c).id, "c"));
  int64_t pending = 0;
  absl::StatusOr<std::string> lines = store->LabelLines(run, &pending);
  ASSERT_TRUE(lines.ok()) << lines.status();
  EXPECT_EQ(*lines, "first ten\n");
  EXPECT_EQ(pending, 2);
  absl::StatusOr<PairCounts> counts = store->CountLabelJobs();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->done, 1);
  EXPECT_EQ(counts->queued, 2);
}

// Label workers killed mid-job lose no position and label none twice: the
// exported file is the one a single `uckers label` run writes.
TEST_P(LadderDb, KilledLabelWorkersLoseNoPositionAndLabelNoneTwice) {
  const std::vector<std::string> run = {"--positions", "40",   "--trials", "36",
                                        "--plies",     "1000", "--seed",   "21"};
  std::vector<std::string> add = {UCKERS_BINARY, "label", "add", "--db", db_, "--chunk", "5"};
  add.insert(add.end(), run.begin(), run.end());
  std::string out;
  ASSERT_EQ(RunProgram(add, dir_, &out), 0) << out;
  std::vector<std::string> work = {
      UCKERS_BINARY, "label", "work", "--db", db_, "--concurrency", "1", "--lease_seconds", "1"};
  std::set<int64_t> done;
  int kills_mid_job = 0;
  std::mt19937 rng(3);
  for (int round = 0; round < 3; ++round) {
    Worker w(work, absl::StrCat(dir_, "/label-killed", round), "job");
    auto give_up = Clock::now() + std::chrono::seconds(60);
    while (w.Taken().size() <= w.Done().size() && Clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_GT(w.Taken().size(), w.Done().size()) << w.Output();
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 40)(rng)));
    w.Kill();
    kills_mid_job += w.Taken().size() > w.Done().size();
    for (int64_t id : w.Done()) EXPECT_TRUE(done.insert(id).second) << "job " << id << " twice";
  }
  EXPECT_GE(kills_mid_job, 2);
  Worker last(work, dir_ + "/label-last", "job");
  EXPECT_EQ(last.Wait(), 0) << last.Output();
  for (int64_t id : last.Done()) EXPECT_TRUE(done.insert(id).second) << "job " << id << " twice";
  EXPECT_EQ(done.size(), 8u);
  std::vector<std::string> exported = {
      UCKERS_BINARY, "label", "export", "--db", db_, "--out", dir_ + "/exported.jsonl"};
  exported.insert(exported.end(), run.begin(), run.end());
  ASSERT_EQ(RunProgram(exported, dir_, &out), 0) << out;
  std::vector<std::string> local = {UCKERS_BINARY, "label", "--out", dir_ + "/local.jsonl"};
  local.insert(local.end(), run.begin(), run.end());
  ASSERT_EQ(RunProgram(local, dir_, &out), 0) << out;
  EXPECT_TRUE(ReadFile(dir_ + "/exported.jsonl") == ReadFile(dir_ + "/local.jsonl"));
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
}

INSTANTIATE_TEST_SUITE_P(Sqlite, LadderDb, ::testing::Values(Backend::kSqlite), BackendName);
INSTANTIATE_TEST_SUITE_P(Postgres, LadderDb, ::testing::Values(Backend::kPostgres), BackendName);

// `uckers ladder ARGS...` in this process, its flags restored after.
int LadderDbMain(std::vector<std::string> args) {
  absl::FlagSaver saver;
  args.insert(args.begin(), {"uckers", "ladder"});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return uckers::UckersMain(static_cast<int>(argv.size()), argv.data());
}

// A database of schema version 1 (four-sided games only) opens migrated to
// the current version with its entrants and games as they were.
TEST(LadderDbMigration, AVersionOneDatabaseKeepsItsGames) {
  std::string path = ::testing::TempDir() + "uckers-ladder-v1.sqlite";
  fs::remove(path);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string v1 = ladderdb::MigrationScripts(ladderdb::Dialect::kSqlite)[0];
  std::string sql = absl::StrCat(
      ladderdb::kCreateVersionTable, ";", v1, ";",
      "INSERT INTO schema_version VALUES (1, 0);"
      "INSERT INTO entrants (name, spec, options, binary_hash, added_at) VALUES "
      "('a', 'greedy', '', '', 0), ('b', 'random', '', '', 0);"
      "INSERT INTO pairs (a, b, seed, rules, state) VALUES (1, 2, 7, 'navy', 'done');"
      "INSERT INTO games VALUES (1, 0, 1, 2, 'navy', 7, 1, 2, '', 'rec', 1, 2, 'v', 'v', 'w', 0);");
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db);
  sqlite3_close(db);
  absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenLadderStore(path);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ(*(*store)->SchemaVersion(), kLadderSchemaVersion);
  absl::StatusOr<std::vector<GameRow>> games = (*store)->GamesOfPair(1);
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ((*games)[0].winner_team, 1);
  EXPECT_EQ((*games)[0].points, 2);
  EXPECT_EQ((*games)[0].sides, 2);
  absl::StatusOr<std::vector<Entrant>> entrants = (*store)->Entrants();
  ASSERT_TRUE(entrants.ok());
  ASSERT_EQ(entrants->size(), 2u);
  EXPECT_EQ((*entrants)[0].rules, "");
  fs::remove(path);
}

// The command lines' usage errors, exit 2, and failures, exit 1.
TEST(LadderDbCommands, MissingArgumentsAndUnknownFlagsAreUsageErrors) {
  EXPECT_EQ(LadderDbMain({"add", "--db", "x.sqlite", "only-a-name"}), 2);
  EXPECT_EQ(LadderDbMain({"add", "--db", "x.sqlite", "n", "greedy", "--pairs", "many"}), 2);
  EXPECT_EQ(LadderDbMain({"add", "--db", "x.sqlite", "n", "no-such-level"}), 2);
  EXPECT_EQ(LadderDbMain({"work", "--db"}), 2);
  EXPECT_EQ(LadderDbMain({"work", "--db", "x.sqlite", "--lease_seconds", "0"}), 2);
  EXPECT_EQ(LadderDbMain({"table", "--db", "x.sqlite", "--colour"}), 2);
  EXPECT_EQ(LadderDbMain({"table"}), 2);
}

TEST(LadderDbCommands, ADatabaseThatCannotBeOpenedFails) {
  EXPECT_EQ(LadderDbMain({"table", "--db", "/nonexistent-dir/ladder.sqlite"}), 1);
  EXPECT_EQ(LadderDbMain({"table", "--db", "postgresql://nobody@/none?host=/nonexistent"}), 1);
}

TEST(LadderDbRules, TheFullSwitchListReadsBackAsTheSameRules) {
  for (const char* text : {"navy", "navy+one_less_six", "navy+suck_back+bounce_back"}) {
    absl::StatusOr<Rules> rules = Rules::Parse(text);
    ASSERT_TRUE(rules.ok());
    absl::StatusOr<Rules> back = Rules::Parse(FullSwitchList(*rules));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, *rules) << text;
  }
}

}  // namespace
}  // namespace uckers

namespace uckers::testing {
namespace {

// `ladder table` only reads: a database in a folder its user cannot write
// (SQLite could not make its write-ahead log's files there) is read, as
// the user `nobody` (root could write anywhere).
TEST(LadderDbCommands, TableReadsADatabaseInAFolderItCannotWrite) {
  char made[] = "/tmp/uckers-readonly-XXXXXX";
  ASSERT_NE(mkdtemp(made), nullptr);
  std::string dir = made;
  std::string db = dir + "/ladder.sqlite";
  std::string out;
  ASSERT_EQ(RunProgram({UCKERS_BINARY, "ladder", "add", "--db", db, "greedy", "greedy"}, dir, &out),
            0)
      << out;
  ASSERT_EQ(
      RunProgram({UCKERS_BINARY, "ladder", "add", "--db", db, "--pairs", "1", "random", "random"},
                 dir, &out),
      0)
      << out;
  ASSERT_EQ(RunProgram({UCKERS_BINARY, "ladder", "work", "--db", db, "--until_empty"}, dir, &out),
            0)
      << out;
  ASSERT_EQ(chmod(db.c_str(), 0444), 0);
  ASSERT_EQ(chmod(dir.c_str(), 0555), 0);
  std::string files_before;
  for (const auto& e : fs::directory_iterator(dir)) files_before += e.path().filename().string();
  int code = RunProgram({"/usr/sbin/runuser", "-u", "nobody", "--", UCKERS_BINARY, "ladder",
                         "table", "--db", db, "--json"},
                        "/tmp", &out);
  EXPECT_EQ(code, 0) << out;
  EXPECT_TRUE(absl::StrContains(out, "\"pairs\": 1")) << out;
  std::string files_after;
  for (const auto& e : fs::directory_iterator(dir)) files_after += e.path().filename().string();
  EXPECT_EQ(files_after, files_before);
  // A file that is not there is not created by a read.
  EXPECT_NE(
      RunProgram({UCKERS_BINARY, "ladder", "table", "--db", dir + "/none.sqlite"}, "/tmp", &out),
      0);
  EXPECT_FALSE(fs::exists(dir + "/none.sqlite"));
  chmod(dir.c_str(), 0755);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// A SQLite file damaged in a page that adding an entrant would not read is
// refused by `ladder add` before anything is written, naming the damage.
TEST(LadderDbCommands, AddRefusesADamagedFileAndWritesNothing) {
  char made[] = "/tmp/uckers-damaged-XXXXXX";
  ASSERT_NE(mkdtemp(made), nullptr);
  std::string dir = made;
  std::string db = dir + "/ladder.sqlite";
  std::string out;
  for (const char* name : {"greedy", "random"}) {
    ASSERT_EQ(RunProgram({UCKERS_BINARY, "ladder", "add", "--db", db, name, name}, dir, &out), 0)
        << out;
  }
  ASSERT_EQ(RunProgram({UCKERS_BINARY, "ladder", "work", "--db", db, "--until_empty"}, dir, &out),
            0)
      << out;
  // The last page (the file is checkpointed and closed): garbage over it.
  uintmax_t size = fs::file_size(db);
  ASSERT_GE(size, 4u * 4096);
  {
    std::fstream f(db, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 4096 + 8));
    std::string garbage(4000, '\x5a');
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  std::string before = ReadFile(db);
  int code = RunProgram({UCKERS_BINARY, "ladder", "add", "--db", db, "third", "greedy"}, dir, &out);
  EXPECT_EQ(code, 1) << out;
  EXPECT_TRUE(absl::StrContains(out, "damaged")) << out;
  EXPECT_EQ(ReadFile(db), before);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace uckers::testing
