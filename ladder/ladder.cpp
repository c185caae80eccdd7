#include "ladder/ladder.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "ladder/ratings.h"
#include "match/games_log.h"
#include "match/match.h"
#include "match/multi_side_match.h"
#include "match/play_game.h"
#include "match/player.h"
#include "match/progress.h"
#include "match/stats.h"
#include "match/workers.h"
#include "record/text.h"
#include "review/review.h"
#include "wire/json.h"
#include "wire/record.h"

namespace uckers {
namespace {

struct Task {
  int a, b;  // player indices; a plays RY in the pair's first game
  int pair;
};

std::string FileSafe(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out.substr(0, 40);
}

std::string RecordPath(const LadderConfig& config, const Task& task, int game) {
  const std::string& a = config.players[task.a];
  const std::string& b = config.players[task.b];
  return absl::StrCat(config.records_dir, "/", task.a, "-", FileSafe(a), "-vs-", task.b, "-",
                      FileSafe(b), "-pair-", task.pair, "-", game + 1, ".txt");
}

absl::Status SaveRecord(const LadderConfig& config, const Task& task, int game,
                        const GameResult& g) {
  const std::string& a = config.players[task.a];
  const std::string& b = config.players[task.b];
  Record record = RecordOf(g, game == 0 ? a : b, game == 0 ? b : a, config.seed + task.pair);
  return WriteTextFile(RecordPath(config, task, game), RecordToText(record));
}

// The winners (0 = RY, 1 = GB) of a pair's two games read back from its
// records, when both are there, finished and of this ladder's pairing and
// seed; nullopt when the pair must be played.
// How a game read back ended: the winning team, and whether on time.
struct GameEnd {
  int winner = 0;
  bool on_time = false;
};

// The pair's two games from its records when both are finished records of
// this ladder; nullopt when either is missing or unfinished (played again).
// A finished record of another ladder (other players, seed or rules) is an
// error: --resume would otherwise count it or overwrite it.
absl::StatusOr<std::optional<std::array<GameEnd, 2>>> ReadPair(const LadderConfig& config,
                                                               const Task& task) {
  std::array<GameEnd, 2> winners{};
  for (int game = 0; game < 2; ++game) {
    const std::string path = RecordPath(config, task, game);
    absl::StatusOr<std::string> text = ReadTextFile(path, kMaxRecordBytes);
    if (!text.ok()) return std::nullopt;
    absl::StatusOr<Record> record = wire::ParseRecord(*text);
    if (!record.ok() || record->winner.empty()) return std::nullopt;
    const std::string& a = config.players[task.a];
    const std::string& b = config.players[task.b];
    if (record->seed != config.seed + task.pair || record->ry != (game == 0 ? a : b) ||
        record->gb != (game == 0 ? b : a) || !(record->game.rules() == config.rules)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--resume: ", path, " is a game of another ladder (players ", record->ry,
                       " and ", record->gb, ", seed ", record->seed, ", rules ",
                       record->game.rules().ToString(), "); give another --records"));
    }
    winners[game] = {record->winner == "RY" ? 0 : 1, record->termination == "time"};
  }
  return winners;
}

std::vector<Task> Schedule(const LadderConfig& config) {
  std::vector<std::pair<int, int>> matchups;
  int n = static_cast<int>(config.players.size());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (!config.gauntlet || i == 0) matchups.push_back({i, j});
    }
  }
  std::vector<Task> tasks;
  for (int p = 0; p < config.pairs; ++p) {
    for (auto [a, b] : matchups) tasks.push_back({a, b, p});
  }
  return tasks;
}

}  // namespace

absl::StatusOr<SprtConfig> ParseSprt(const std::string& text) {
  std::vector<std::string> v = absl::StrSplit(text, ',');
  SprtConfig s;
  if (v.size() != 4 || !absl::SimpleAtod(v[0], &s.elo0) || !absl::SimpleAtod(v[1], &s.elo1) ||
      !absl::SimpleAtod(v[2], &s.alpha) || !absl::SimpleAtod(v[3], &s.beta) ||
      !std::isfinite(s.elo0) || !std::isfinite(s.elo1) || !(s.alpha > 0 && s.alpha < 1) ||
      !(s.beta > 0 && s.beta < 1) || !(s.elo0 < s.elo1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text.substr(0, 80),
                     "' must be elo0,elo1,alpha,beta: finite, elo0 < elo1, "
                     "alpha and beta in (0, 1)"));
  }
  return s;
}

namespace {

// The checks of a ladder of more sides: what only the four-sided game of two
// teams has, and each player's specification for this game.
absl::Status CheckMultiSideLadder(const LadderConfig& config) {
  if (config.sprt)
    return absl::InvalidArgumentError("--sprt is for the four-sided game of two teams");
  if (config.resume || !config.games_out.empty()) {
    return absl::InvalidArgumentError(
        "--resume and --games_out are for the four-sided game of two teams");
  }
  for (const std::string& spec : config.players) {
    if (absl::Status s = CheckMultiSidePlayer(spec, config.rules); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// What a ladder of more sides has counted over its matches so far.
struct AloneTally {
  explicit AloneTally(int n)
      : alone_games(n, std::vector<int>(n, 0)),
        alone_wins(n, std::vector<int>(n, 0)),
        wins(n, 0),
        games(n, 0) {}
  std::vector<std::vector<int>> alone_games;     // [a][b]: decided games of a alone against b
  std::vector<std::vector<int>> alone_wins;      // [a][b]: the ones a won
  std::vector<int> wins, games;                  // each player's, over all its games
  int scheduled = 0, done = 0, total_games = 0;  // pairs, pairs, games
  RecordFailures unsaved;
};

// The match of `a` alone on each side in turn against `b` on all the others.
MultiSideMatchConfig AloneMatchConfig(const LadderConfig& config, int a, int b) {
  MultiSideMatchConfig match;
  match.player_a = config.players[a];
  match.player_b = config.players[b];
  match.rules = config.rules;
  match.sequences = config.pairs;
  match.concurrency = config.concurrency;
  match.seed = config.seed;
  match.progress = false;
  match.interrupted = config.interrupted;
  if (!config.records_dir.empty()) {
    match.records_dir = absl::StrCat(config.records_dir, "/", a, "-", FileSafe(config.players[a]),
                                     "-alone-vs-", b, "-", FileSafe(config.players[b]));
  }
  return match;
}

// Counts the match `r` of `a` alone against `b`.
void CountAloneMatch(int a, int b, const v1::MatchReport& r, AloneTally* t) {
  int decided = r.a_wins() + r.b_wins();
  t->alone_games[a][b] += decided;
  t->alone_wins[a][b] += r.a_wins();
  t->games[a] += decided;
  t->games[b] += decided;
  t->wins[a] += r.a_wins();
  t->wins[b] += r.b_wins();
  t->total_games += r.games();
  t->done += r.pairs_done();
  if (r.records_not_saved() > 0) {
    if (t->unsaved.count == 0) t->unsaved.first = r.first_record_error();
    t->unsaved.count += r.records_not_saved();
  }
}

// Plays the matches of every matchup, each player alone against the other
// (until interrupted), counting them in `t`.
absl::Status PlayAloneMatches(const LadderConfig& config, AloneTally* t) {
  int n = static_cast<int>(config.players.size());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (config.gauntlet && i != 0) continue;
      for (auto [a, b] : {std::pair{i, j}, std::pair{j, i}}) {
        t->scheduled += config.pairs;
        if (config.interrupted && *config.interrupted) continue;
        absl::StatusOr<v1::MatchReport> r = RunMultiSideMatch(AloneMatchConfig(config, a, b));
        if (!r.ok()) return r.status();
        CountAloneMatch(a, b, *r, t);
        if (config.progress) {
          std::cerr << "ladder: " << config.players[a] << " alone against " << config.players[b]
                    << ": " << r->a_wins() << " of " << r->games() << " games\n";
        }
      }
    }
  }
  return absl::OkStatus();
}

// The report of a ladder of more sides: Luce's ratings of the games counted
// in `t`, `k` sides, begun at `start`.
v1::LadderReport AloneLadderReport(const LadderConfig& config, const AloneTally& t, int k,
                                   std::chrono::steady_clock::time_point start) {
  v1::LadderReport report;
  report.set_mode(config.gauntlet ? "gauntlet" : "round-robin");
  report.set_rules(config.rules.ToString());
  report.set_seed(config.seed);
  std::vector<EloRating> ratings = LuceElo(t.alone_games, t.alone_wins, k);
  for (int i = 0; i < static_cast<int>(config.players.size()); ++i) {
    v1::LadderPlayer* p = report.add_players();
    p->set_name(config.players[i]);
    p->set_games(t.games[i]);
    p->set_wins(t.wins[i]);
    p->set_score(t.games[i] ? static_cast<double>(t.wins[i]) / t.games[i] : 0);
    p->set_elo(ratings[i].elo);
    p->set_elo_low(ratings[i].low);
    p->set_elo_high(ratings[i].high);
  }
  report.set_games(t.total_games);
  report.set_sides(k);
  report.set_pairs_scheduled(t.scheduled);
  report.set_pairs_done(t.done);
  report.set_interrupted(t.done < t.scheduled);
  report.set_records_not_saved(t.unsaved.count);
  report.set_first_record_error(t.unsaved.first);
  report.set_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  report.set_games_per_second(report.seconds() > 0 ? t.total_games / report.seconds() : 0);
  return report;
}

// A ladder of more sides (RULES.md §11, docs/ladder.md "More sides"): each
// matchup of i and j plays every dice sequence with i alone on each side in
// turn and j on all the others, then the same with j alone; the ratings are
// Luce's choice model over those games (LuceElo).
absl::StatusOr<v1::LadderReport> RunMultiSideLadder(const LadderConfig& config) {
  if (absl::Status s = CheckMultiSideLadder(config); !s.ok()) return s;
  if (absl::Status ready = PrepareRecordsDir(config.records_dir); !ready.ok()) return ready;
  const int k = config.rules.layout().num_sides;
  auto start = std::chrono::steady_clock::now();
  AloneTally tally(static_cast<int>(config.players.size()));
  if (absl::Status s = PlayAloneMatches(config, &tally); !s.ok()) return s;
  return AloneLadderReport(config, tally, k, start);
}

// The checks of every ladder, before any player starts.
absl::Status CheckLadder(const LadderConfig& config) {
  int n = static_cast<int>(config.players.size());
  if (n < 2) return absl::InvalidArgumentError("a ladder needs at least two players");
  if (config.sprt && n != 2) return absl::InvalidArgumentError("--sprt needs exactly two players");
  if (config.luck && !config.sprt) {
    return absl::InvalidArgumentError(
        "--luck adjusts the GSPRT's pair scores: give --sprt (the ratings are of the games won)");
  }
  if (absl::Status s = CheckPairsAndConcurrency(config.pairs, config.concurrency); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckLuckDepth(config.luck, config.luck_depth); !s.ok()) return s;
  int64_t matchups = config.gauntlet ? n - 1 : int64_t{n} * (n - 1) / 2;
  if (int64_t all = config.pairs * matchups; all > kMaxLadderPairs) {
    return absl::InvalidArgumentError(absl::StrCat("a ladder of ", n, " players and ", config.pairs,
                                                   " pairs per matchup plays ", all,
                                                   " pairs: at most ", kMaxLadderPairs));
  }
  return absl::OkStatus();
}

// The checks of a ladder of two teams: each player starts, and --resume has
// the records it reads and no GSPRT to continue.
absl::Status CheckTeamLadder(const LadderConfig& config) {
  for (const std::string& spec : config.players) {
    // Each player starts once before the first game: a program that does
    // not start or answer in time fails the whole run, not each game.
    if (absl::Status s = CheckPlayerStarts(spec, config.rules); !s.ok()) return s;
  }
  if (config.resume && config.records_dir.empty()) {
    return absl::InvalidArgumentError(
        "--resume reads the records of the run before: give --records");
  }
  if (config.resume && config.sprt) {
    return absl::InvalidArgumentError(
        "--resume cannot continue a GSPRT (its decision depends on the order pairs finished)");
  }
  return absl::OkStatus();
}

// What a ladder of two teams has counted so far: the games read back and
// played, and the GSPRT's state.
struct LadderTally {
  explicit LadderTally(int n) : wins(n, std::vector<int>(n, 0)), time_losses(n, 0) {}
  std::vector<std::vector<int>> wins;  // [i][j]: the games i won against j
  std::vector<int> time_losses;
  std::vector<double> pair_scores;  // player 0's, for the SPRT
  std::vector<double> pair_luck;    // player 0's luck in each pair (--luck)
  double luck_slope = 0;
  std::vector<int> pentanomial = std::vector<int>(5, 0);
  int games = 0, done = 0, resumed = 0;
  double llr = 0;
  RecordFailures unsaved;  // the ladder goes on without them
  absl::Status error = absl::OkStatus();
};

// Counts game `i` of the pair `task` (0: a is RY; 1: a is GB), won by
// `winner_team`, lost on time or not; returns whether a won it.
bool CountGame(const Task& task, int i, int winner_team, bool on_time, LadderTally* t) {
  bool a_won = winner_team == i;
  ++t->wins[a_won ? task.a : task.b][a_won ? task.b : task.a];
  if (on_time) ++t->time_losses[a_won ? task.b : task.a];
  ++t->games;
  return a_won;
}

// The pairs of `scheduled` still to play: with --resume, the ones an earlier
// run finished are read back and counted in `t` as they were.
absl::StatusOr<std::vector<Task>> PairsToPlay(const LadderConfig& config,
                                              const std::vector<Task>& scheduled, LadderTally* t) {
  std::vector<Task> tasks;
  for (const Task& task : scheduled) {
    std::optional<std::array<GameEnd, 2>> read;
    if (config.resume) {
      absl::StatusOr<std::optional<std::array<GameEnd, 2>>> pair = ReadPair(config, task);
      if (!pair.ok()) return pair.status();
      read = *pair;
    }
    if (!read) {
      tasks.push_back(task);
      continue;
    }
    for (int i = 0; i < 2; ++i) CountGame(task, i, (*read)[i].winner, (*read)[i].on_time, t);
    ++t->done;
    ++t->resumed;
  }
  return tasks;
}

// A pair a worker played, with what it measured and saved outside the lock.
struct PlayedPair {
  std::array<GameResult, 2> games;
  double a_luck = 0;      // a's luck over the pair (RY's in the first game, GB's in the second)
  absl::Status saved[4];  // the two records, then the two lines of the games log
};

// Plays the pair `task` between `a` and `b`, measures a's luck (--luck) and
// saves its records and games log lines.
PlayedPair PlayLadderPair(const LadderConfig& config, const Task& task, Player* a, Player* b,
                          GamesLog* games_log) {
  uint64_t dice = config.seed + task.pair;
  PlayedPair played;
  played.games = PlayPair(a, b, config.rules, dice);
  std::array<GameResult, 2>& g = played.games;
  for (int i = 0; i < 2 && config.luck; ++i) {
    g[i].luck_ry = WinLuckBySide(g[i].game, config.luck_depth)[0];
    played.a_luck += (i == 0 ? *g[i].luck_ry : -*g[i].luck_ry) / 2;
  }
  for (int i = 0; i < 2 && !config.records_dir.empty(); ++i) {
    played.saved[i] = SaveRecord(config, task, i, g[i]);
  }
  for (int i = 0; i < 2 && games_log; ++i) {
    const std::string& a_name = config.players[task.a];
    const std::string& b_name = config.players[task.b];
    played.saved[2 + i] = games_log->Add(GameLineOf(
        g[i], task.pair, i + 1, i == 0 ? a_name : b_name, i == 0 ? b_name : a_name, dice));
  }
  return played;
}

// Counts the pair `task` played as `played` in `t`; returns a's wins.
int CountPlayedPair(const LadderConfig& config, const Task& task, const PlayedPair& played,
                    LadderTally* t) {
  for (const absl::Status& s : played.saved) t->unsaved.Add(s, config.progress);
  int a_wins = 0;
  for (int i = 0; i < 2; ++i) {
    const GameResult& g = played.games[i];
    if (g.winner_team < 0) {
      t->error = absl::InternalError(absl::StrCat("game failed: ", g.forfeit_reason));
      continue;
    }
    a_wins += CountGame(task, i, g.winner_team, g.time_loss_team >= 0, t);
  }
  ++t->done;
  return a_wins;
}

// Adds player 0's score of the pair `task` (in which a won `a_wins` games
// with luck `a_luck`) to the GSPRT; returns whether it has decided.
bool AddToSprt(const LadderConfig& config, const Task& task, int a_wins, double a_luck,
               LadderTally* t) {
  double score = task.a == 0 ? a_wins / 2.0 : 1 - a_wins / 2.0;
  t->pentanomial[static_cast<int>(score * 4 + 0.5)]++;
  t->pair_scores.push_back(score);
  if (config.luck) {
    t->pair_luck.push_back(task.a == 0 ? a_luck : -a_luck);  // b's luck is a's, negated
    LuckAdjusted adjusted = AdjustForLuck(t->pair_scores, t->pair_luck);
    t->luck_slope = adjusted.slope;
    t->llr = SprtLlr(adjusted.scores, config.sprt->elo0, config.sprt->elo1);
  } else {
    t->llr = SprtLlr(t->pair_scores, config.sprt->elo0, config.sprt->elo1);
  }
  return SprtDecision(t->llr, static_cast<int>(t->pair_scores.size()), config.sprt->alpha,
                      config.sprt->beta) != 0;
}

// The workers of a ladder of two teams: each takes the next pair to play
// until none is left, the GSPRT has decided or the run is interrupted.
class LadderWorkers {
 public:
  LadderWorkers(const LadderConfig& config, const std::vector<Task>& tasks, GamesLog* games_log,
                Progress* progress, LadderTally* tally)
      : config_(config), tasks_(tasks), games_log_(games_log), progress_(progress), tally_(tally) {}

  // One worker's loop; safe to run on several threads at once.
  void Work() {
    std::map<int, std::unique_ptr<Player>> players;
    for (size_t k; !Stopping() && (k = next_.fetch_add(1)) < tasks_.size();) {
      const Task& task = tasks_[k];
      PlayedPair played =
          PlayLadderPair(config_, task, Get(task.a, &players), Get(task.b, &players), games_log_);
      std::lock_guard<std::mutex> lock(mutex_);
      int a_wins = CountPlayedPair(config_, task, played, tally_);
      if (config_.sprt && AddToSprt(config_, task, a_wins, played.a_luck, tally_)) decided_ = true;
      progress_->Update(tally_->done, tally_->games,
                        config_.sprt ? absl::StrFormat(", LLR %.2f", tally_->llr) : "");
    }
  }

  // Whether the GSPRT decided before every pair was played.
  bool decided() const { return decided_; }

 private:
  bool Stopping() const { return decided_ || (config_.interrupted && *config_.interrupted); }

  // The worker's player `index`, made on first use.
  Player* Get(int index, std::map<int, std::unique_ptr<Player>>* players) const {
    auto& p = (*players)[index];
    // Seeded by player, not by worker, so the report is the same at any
    // concurrency.
    if (!p) p = std::move(*MakePlayer(config_.players[index], config_.rules, 1000 * index));
    return p.get();
  }

  const LadderConfig& config_;
  const std::vector<Task>& tasks_;
  GamesLog* games_log_;
  Progress* progress_;
  LadderTally* tally_;  // guarded by mutex_
  std::atomic<size_t> next_{0};
  std::atomic<bool> decided_{false};
  std::mutex mutex_;
};

// The GSPRT's part of the report, from the pairs counted in `t`.
void SetSprt(const LadderConfig& config, const LadderTally& t, v1::Sprt* s) {
  s->set_elo0(config.sprt->elo0);
  s->set_elo1(config.sprt->elo1);
  s->set_alpha(config.sprt->alpha);
  s->set_beta(config.sprt->beta);
  s->set_llr(t.llr);
  s->set_luck_adjusted(config.luck);
  s->set_luck_slope(t.luck_slope);
  if (config.luck) s->set_luck_depth(config.luck_depth);
  s->set_lower_bound(SprtLowerBound(config.sprt->alpha, config.sprt->beta));
  s->set_upper_bound(SprtUpperBound(config.sprt->alpha, config.sprt->beta));
  // A GSPRT that stopped without reaching a bound is undecided: it cannot
  // "continue" once the run is over.
  int verdict = SprtDecision(t.llr, static_cast<int>(t.pair_scores.size()), config.sprt->alpha,
                             config.sprt->beta);
  s->set_result(verdict > 0   ? "H1 accepted"
                : verdict < 0 ? "H0 accepted"
                              : absl::StrCat("undecided after ", Plural(t.done, "pair"),
                                             config.interrupted && *config.interrupted
                                                 ? " (interrupted)"
                                                 : " (the pair limit)"));
  for (int c : t.pentanomial) s->add_pentanomial(c);
}

// The report of a ladder of two teams over the games counted in `t`, of
// `scheduled` pairs, that took `seconds`; `decided` when the GSPRT stopped it.
v1::LadderReport TeamLadderReport(const LadderConfig& config, const LadderTally& t, int scheduled,
                                  bool decided, double seconds) {
  v1::LadderReport report;
  report.set_mode(config.gauntlet ? "gauntlet" : "round-robin");
  report.set_rules(config.rules.ToString());
  report.set_seed(config.seed);
  report.set_games(t.games);
  AddRatedPlayers(t.wins, config.players, &report);
  for (int i = 0; i < static_cast<int>(config.players.size()); ++i) {
    report.mutable_players(i)->set_time_losses(t.time_losses[i]);
  }
  if (config.sprt) SetSprt(config, t, report.mutable_sprt());
  report.set_seconds(seconds);
  report.set_games_per_second(report.seconds() > 0 ? t.games / report.seconds() : 0);
  report.set_records_not_saved(t.unsaved.count);
  report.set_first_record_error(t.unsaved.first);
  report.set_pairs_scheduled(scheduled);
  report.set_pairs_done(t.done);
  report.set_pairs_resumed(t.resumed);
  report.set_interrupted(config.interrupted && *config.interrupted && t.done < scheduled &&
                         !decided);
  return report;
}

}  // namespace

absl::StatusOr<v1::LadderReport> RunLadder(const LadderConfig& config) {
  if (absl::Status s = CheckLadder(config); !s.ok()) return s;
  if (!config.rules.layout().IsFourSidedTeams()) return RunMultiSideLadder(config);
  if (absl::Status s = CheckTeamLadder(config); !s.ok()) return s;
  if (absl::Status ready = PrepareRecordsDir(config.records_dir); !ready.ok()) return ready;
  absl::StatusOr<std::unique_ptr<GamesLog>> opened =
      GamesLog::Open(config.games_out, config.resume);
  if (!opened.ok()) return opened.status();
  std::unique_ptr<GamesLog> games_log = std::move(*opened);
  std::vector<Task> scheduled = Schedule(config);
  LadderTally tally(static_cast<int>(config.players.size()));
  absl::StatusOr<std::vector<Task>> tasks = PairsToPlay(config, scheduled, &tally);
  if (!tasks.ok()) return tasks.status();
  auto start = std::chrono::steady_clock::now();
  Progress progress(config.progress, static_cast<int>(scheduled.size()));
  LadderWorkers workers(config, *tasks, games_log.get(), &progress, &tally);
  RunWorkers(config.concurrency, static_cast<int>(tasks->size()), [&] { workers.Work(); });
  progress.Finish();
  if (!tally.error.ok()) return tally.error;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return TeamLadderReport(config, tally, static_cast<int>(scheduled.size()), workers.decided(),
                          seconds);
}

void AddRatedPlayers(const std::vector<std::vector<int>>& wins,
                     const std::vector<std::string>& names, v1::LadderReport* report) {
  int n = static_cast<int>(names.size());
  std::vector<EloRating> ratings = n ? MaximumLikelihoodElo(wins) : std::vector<EloRating>{};
  for (int i = 0; i < n; ++i) {
    v1::LadderPlayer* p = report->add_players();
    int won = 0, played = 0;
    for (int j = 0; j < n; ++j) {
      won += wins[i][j];
      played += wins[i][j] + wins[j][i];
    }
    p->set_name(names[i]);
    p->set_games(played);
    p->set_wins(won);
    p->set_score(played ? double(won) / played : 0);
    p->set_elo(ratings[i].elo);
    p->set_elo_low(ratings[i].low);
    p->set_elo_high(ratings[i].high);
  }
}

std::vector<const v1::LadderPlayer*> ByRating(const v1::LadderReport& report) {
  std::vector<const v1::LadderPlayer*> sorted;
  for (const v1::LadderPlayer& p : report.players()) sorted.push_back(&p);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](auto* a, auto* b) { return a->elo() > b->elo(); });
  return sorted;
}

std::string LadderReportText(const v1::LadderReport& r) {
  std::string out =
      absl::StrFormat("ladder (%s), rules %s, %d games, %.1f s, %.1f games/s\n", r.mode(),
                      r.rules(), r.games(), r.seconds(), r.games_per_second());
  if (r.interrupted()) {
    absl::StrAppendFormat(&out, "interrupted: %d of %d pairs done\n", r.pairs_done(),
                          r.pairs_scheduled());
  }
  if (r.pairs_resumed() > 0) {
    absl::StrAppendFormat(&out, "resumed: %d pairs read from the records, %d played now\n",
                          r.pairs_resumed(), r.pairs_done() - r.pairs_resumed());
  }
  if (r.sides() > 2) {
    absl::StrAppendFormat(&out,
                          "%d sides: a game is one player alone against the other on every other "
                          "side; score is the share of its games won, Elo Luce's choice model "
                          "(equal ratings win the fair share %.1f%% alone)\n",
                          r.sides(), 100.0 / r.sides());
  }
  absl::StrAppendFormat(&out, "%-3s %-32s %7s %7s %8s %20s\n", "#", "player", "games", "score",
                        "Elo", "95% interval");
  int rank = 0;
  for (const v1::LadderPlayer* p : ByRating(r)) {
    absl::StrAppendFormat(&out, "%-3d %-32s %7d %6.1f%% %+8.1f %+9.1f .. %+8.1f\n", ++rank,
                          p->name(), p->games(), 100 * p->score(), p->elo(), p->elo_low(),
                          p->elo_high());
  }
  for (const v1::LadderPlayer* p : ByRating(r)) {
    if (p->time_losses() > 0) {
      absl::StrAppendFormat(&out, "%s lost %d games on time\n", p->name(), p->time_losses());
    }
  }
  if (r.has_sprt()) {
    const v1::Sprt& s = r.sprt();
    absl::StrAppendFormat(
        &out,
        "GSPRT%s elo0 %.1f elo1 %.1f alpha %.3f beta %.3f: LLR %.3f "
        "[%.3f, %.3f] %s; pairs by score 0/.25/.5/.75/1: %d %d %d %d %d\n",
        s.luck_adjusted() ? absl::StrFormat(" (luck-adjusted, slope %.2f)", s.luck_slope()) : "",
        s.elo0(), s.elo1(), s.alpha(), s.beta(), s.llr(), s.lower_bound(), s.upper_bound(),
        s.result(), s.pentanomial(0), s.pentanomial(1), s.pentanomial(2), s.pentanomial(3),
        s.pentanomial(4));
  }
  out += RecordFailures{r.records_not_saved(), r.first_record_error()}.Text();
  return out;
}

std::string LadderReportSvg(const v1::LadderReport& r) {
  constexpr double kW = 800, kRow = 34, kLeft = 260, kRight = 40, kTop = 40;
  double lo = 0, hi = 0;
  for (const v1::LadderPlayer& p : r.players()) {
    lo = std::min(lo, p.elo_low());
    hi = std::max(hi, p.elo_high());
  }
  lo = std::max(lo, -1500.0) - 20;
  hi = std::min(hi, 1500.0) + 20;
  auto x = [&](double elo) {
    return kLeft + (kW - kLeft - kRight) * (std::clamp(elo, lo, hi) - lo) / (hi - lo);
  };
  // Entries by rating, best first.
  std::vector<const v1::LadderPlayer*> players;
  for (const v1::LadderPlayer& p : r.players()) players.push_back(&p);
  std::stable_sort(players.begin(), players.end(),
                   [](const auto* a, const auto* b) { return a->elo() > b->elo(); });
  double axis = kTop + kRow * r.players_size() + 5;
  double h = axis + 60;
  std::string out = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
      "fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\">Ladder: Elo relative to %s, "
      "%d games, rules %s</text>\n"
      "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#999\"/>\n",
      kW, h, XmlEscape(r.players(0).name()), r.games(), XmlEscape(r.rules()), x(0), kTop - 5, x(0),
      axis);
  // The Elo axis with ticks at a round step.
  double span = hi - lo;
  double step = span > 1200 ? 200 : span > 600 ? 100 : span > 240 ? 50 : span > 100 ? 20 : 10;
  absl::StrAppendFormat(&out,
                        "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#333\"/>\n",
                        kLeft, axis, kW - kRight, axis);
  for (double t = std::ceil(lo / step) * step; t <= hi; t += step) {
    absl::StrAppendFormat(&out,
                          "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#333\"/>"
                          "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%+.0f</text>\n",
                          x(t), axis, x(t), axis + 5, x(t), axis + 18, t);
  }
  absl::StrAppendFormat(&out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">Elo</text>\n",
                        (kLeft + kW - kRight) / 2, axis + 34);
  for (size_t i = 0; i < players.size(); ++i) {
    const v1::LadderPlayer& p = *players[i];
    double y = kTop + kRow * i + kRow / 2;
    absl::StrAppendFormat(
        &out,
        "<text x=\"10\" y=\"%.1f\">%s</text>\n"
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2c3e50\" "
        "stroke-width=\"2\"/>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#c0392b\"/>\n"
        "<text x=\"%.1f\" y=\"%.1f\">%+.0f</text>\n",
        y + 4, XmlEscape(p.name().substr(0, 36)), x(p.elo_low()), y, x(p.elo_high()), y, x(p.elo()),
        y, x(p.elo()) + 8, y - 8, p.elo());
  }
  // Legend.
  double ly = h - 8;
  absl::StrAppendFormat(&out,
                        "<circle cx=\"15\" cy=\"%.0f\" r=\"5\" fill=\"#c0392b\"/>"
                        "<text x=\"25\" y=\"%.0f\">Elo</text>"
                        "<line x1=\"70\" y1=\"%.0f\" x2=\"100\" y2=\"%.0f\" stroke=\"#2c3e50\" "
                        "stroke-width=\"2\"/><text x=\"106\" y=\"%.0f\">95%% interval</text>\n",
                        ly - 4, ly, ly - 4, ly - 4, ly);
  out += "</svg>\n";
  return out;
}

}  // namespace uckers
