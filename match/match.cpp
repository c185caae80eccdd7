#include "match/match.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "match/games_log.h"
#include "match/play_game.h"
#include "match/progress.h"
#include "match/stats.h"
#include "match/workers.h"
#include "record/text.h"
#include "review/review.h"
#include "wire/record.h"

namespace uckers {
namespace {

struct PairResult {
  GameResult games[2];        // [0]: A plays RY; [1]: A plays GB
  double a_luck[2] = {0, 0};  // A's luck in each game (with --luck)
  bool luck_measured = false;
  bool done = false;
};

// A's luck in each game of the pair, when the match measures it.
void MeasureLuck(const MatchConfig& config, PairResult* r) {
  if (!config.luck || r->luck_measured) return;
  for (int g = 0; g < 2; ++g) {
    std::vector<double> luck = WinLuckBySide(r->games[g].game, config.luck_depth);
    r->games[g].luck_ry = luck[0];
    r->a_luck[g] = luck[g];
  }
  r->luck_measured = true;
}

std::string RecordPath(const MatchConfig& config, int pair, int game) {
  return absl::StrCat(config.records_dir, "/pair-", pair, "-", game + 1, ".txt");
}

// Saves a game as a text record `<dir>/pair-<i>-<g>.txt`.
absl::Status SaveRecord(const MatchConfig& config, int pair, int game, const GameResult& g) {
  Record record = RecordOf(g, game == 0 ? config.player_a : config.player_b,
                           game == 0 ? config.player_b : config.player_a, config.seed + pair);
  return WriteTextFile(RecordPath(config, pair, game), RecordToText(record));
}

// The pair's two games from its records when both are finished records of
// this match; nullopt when either is missing or unfinished (played again).
// A finished record of another match (other players, seed or rules) is an
// error: --resume would otherwise count it or overwrite it.
absl::StatusOr<std::optional<PairResult>> ReadPair(const MatchConfig& config, int pair) {
  PairResult r;
  for (int game = 0; game < 2; ++game) {
    const std::string path = RecordPath(config, pair, game);
    absl::StatusOr<std::string> text = ReadTextFile(path, kMaxRecordBytes);
    if (!text.ok()) return std::nullopt;
    absl::StatusOr<Record> record = wire::ParseRecord(*text);
    if (!record.ok() || record->winner.empty() || record->points < 1 || record->points > 3) {
      return std::nullopt;
    }
    if (record->seed != config.seed + pair ||
        record->ry != (game == 0 ? config.player_a : config.player_b) ||
        record->gb != (game == 0 ? config.player_b : config.player_a) ||
        !(record->game.rules() == config.rules)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--resume: ", path, " is a game of another match (players ", record->ry,
                       " and ", record->gb, ", seed ", record->seed, ", rules ",
                       record->game.rules().ToString(), "); give another --records"));
    }
    if (config.luck) r.games[game].game = record->game;  // kept only to measure its luck
    r.games[game].winner_team = record->winner == "RY" ? 0 : 1;
    r.games[game].level = static_cast<OutcomeLevel>(record->points);
    if (record->termination == "time") r.games[game].time_loss_team = 1 - r.games[game].winner_team;
  }
  r.done = true;
  return r;
}

// A's points in one game: + for a win, - for a loss, by outcome level.
int PointsForA(const GameResult& g, int a_team) {
  int points = static_cast<int>(g.level);
  return g.winner_team == a_team ? points : -points;
}

}  // namespace

absl::Status CheckPairsAndConcurrency(int pairs, int concurrency) {
  if (pairs < 1 || pairs > kMaxPairs) {
    return absl::InvalidArgumentError(absl::StrCat("pairs ", pairs, " must be 1..", kMaxPairs));
  }
  if (concurrency < 1 || concurrency > kMaxConcurrency) {
    return absl::InvalidArgumentError(
        absl::StrCat("concurrency ", concurrency, " must be 1..", kMaxConcurrency));
  }
  return absl::OkStatus();
}

absl::Status CheckLuckDepth(bool luck, int luck_depth) {
  if (luck_depth != 0 && luck_depth != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("luck_depth ", luck_depth,
                     ": 0 (each throw's best play by its static value) or 1 (one "
                     "throw deeper)"));
  }
  if (luck_depth != 0 && !luck) {
    return absl::InvalidArgumentError(
        "--luck_depth says how deep --luck measures each throw's luck: give --luck");
  }
  return absl::OkStatus();
}

namespace {

// The checks of a match before any thread starts: the settings, each
// player's start, and the records --resume reads.
absl::Status CheckMatch(const MatchConfig& config) {
  if (absl::Status s = CheckPairsAndConcurrency(config.pairs, config.concurrency); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckLuckDepth(config.luck, config.luck_depth); !s.ok()) return s;
  // Fail early on a bad specification, before any thread starts.
  for (const std::string& spec : {config.player_a, config.player_b}) {
    // Each player starts once before the first game: a program that does
    // not start or answer in time fails the whole run, not each game.
    if (absl::Status s = CheckPlayerStarts(spec, config.rules); !s.ok()) return s;
  }
  if (config.resume && config.records_dir.empty()) {
    return absl::InvalidArgumentError(
        "--resume reads the records of the run before: give --records");
  }
  return absl::OkStatus();
}

// What a match has counted so far, read back and played.
struct MatchTally {
  int done = 0, a_wins = 0, games = 0, resumed = 0;
  absl::Status error = absl::OkStatus();
  RecordFailures unsaved;  // the match goes on without them
};

// With --resume, reads back into `results` the pairs an earlier run
// finished, counting them in `t`.
absl::Status ResumePairs(const MatchConfig& config, std::vector<PairResult>* results,
                         MatchTally* t) {
  for (int i = 0; config.resume && i < config.pairs; ++i) {
    absl::StatusOr<std::optional<PairResult>> pair = ReadPair(config, i);
    if (!pair.ok()) return pair.status();
    const std::optional<PairResult>& read = *pair;
    if (!read) continue;
    (*results)[i] = *read;
    for (int g = 0; g < 2; ++g) t->a_wins += read->games[g].winner_team == g;
    t->games += 2;
    ++t->done;
    ++t->resumed;
  }
  return absl::OkStatus();
}

// Plays pair `i` between `a` and `b` and measures its luck (--luck); saves
// its records and games log lines, with each save's status in `saved`.
PairResult PlayMatchPair(const MatchConfig& config, int i, Player* a, Player* b,
                         GamesLog* games_log, absl::Status (&saved)[4]) {
  uint64_t dice_seed = config.seed + i;
  PairResult r;
  std::array<GameResult, 2> played = PlayPair(a, b, config.rules, dice_seed);
  r.games[0] = std::move(played[0]);
  r.games[1] = std::move(played[1]);
  r.done = true;
  MeasureLuck(config, &r);
  for (int g = 0; g < 2 && !config.records_dir.empty(); ++g) {
    saved[g] = SaveRecord(config, i, g, r.games[g]);
  }
  for (int g = 0; g < 2 && games_log; ++g) {
    saved[2 + g] =
        games_log->Add(GameLineOf(r.games[g], i, g + 1, g == 0 ? config.player_a : config.player_b,
                                  g == 0 ? config.player_b : config.player_a, dice_seed));
  }
  return r;
}

// Counts pair `i`, played as `r` with the saves `saved`, in `t`.
void CountPlayedPair(const MatchConfig& config, int i, const PairResult& r,
                     const absl::Status (&saved)[4], MatchTally* t) {
  for (const absl::Status& s : saved) t->unsaved.Add(s, config.progress);
  for (int g = 0; g < 2; ++g) {
    if (r.games[g].winner_team < 0) {
      t->error = absl::InternalError(absl::StrCat("pair ", i, ": ", r.games[g].forfeit_reason));
    }
    t->a_wins += r.games[g].winner_team == g;
  }
  t->games += 2;
  ++t->done;
}

// The workers of a match: each takes the next pair until none is left or
// the match is interrupted, and plays it unless it was read back.
class MatchWorkers {
 public:
  MatchWorkers(const MatchConfig& config, GamesLog* games_log, Progress* progress,
               std::vector<PairResult>* results, MatchTally* tally)
      : config_(config),
        games_log_(games_log),
        progress_(progress),
        results_(*results),
        tally_(tally) {}

  // One worker's loop; safe to run on several threads at once.
  void Work() {
    // Seeds by role, not by worker: the report must not depend on which
    // worker played a pair (players reseed per game from the dice seed).
    auto a = MakePlayer(config_.player_a, config_.rules, 1000);
    auto b = MakePlayer(config_.player_b, config_.rules, 2000);
    auto stopping = [&] { return config_.interrupted && *config_.interrupted; };
    for (int i; !stopping() && (i = next_.fetch_add(1)) < config_.pairs;) {
      if (results_[i].done) {  // read back from its records
        MeasureLuck(config_, &results_[i]);
        continue;
      }
      absl::Status saved[4];
      PairResult r = PlayMatchPair(config_, i, a->get(), b->get(), games_log_, saved);
      std::lock_guard<std::mutex> lock(mutex_);
      CountPlayedPair(config_, i, r, saved, tally_);
      results_[i] = std::move(r);
      progress_->Update(
          tally_->done, tally_->games,
          absl::StrFormat(", A %.1f%%",
                          tally_->games ? 100.0 * tally_->a_wins / tally_->games : 0.0));
    }
  }

 private:
  const MatchConfig& config_;
  GamesLog* games_log_;
  Progress* progress_;
  std::vector<PairResult>& results_;  // each pair's by one worker
  MatchTally* tally_;                 // guarded by mutex_
  std::atomic<int> next_{0};
  std::mutex mutex_;
};

// A's results summed over the pairs done, and its pair scores.
struct PairTotals {
  std::vector<double> pair_scores, pair_luck;  // A's, pair by pair
  int by_wins[3] = {0, 0, 0};                  // pairs by A's wins in them
  double points = 0, think[2] = {0, 0};        // think: [0] A's, [1] B's
  int choices[2] = {0, 0};
};

// Sums A's results of `results` (the pairs done) into `totals`, and the
// forfeits and time losses into `report`.
void SumPairs(const std::vector<PairResult>& results, PairTotals* totals, v1::MatchReport* report) {
  for (const PairResult& r : results) {
    if (!r.done) continue;  // not played: the match was interrupted
    int wins = 0;
    for (int g = 0; g < 2; ++g) {
      const GameResult& game = r.games[g];
      int a_team = g;  // game 0: A plays RY (team 0); game 1: A plays GB
      wins += game.winner_team == a_team;
      totals->points += PointsForA(game, a_team);
      report->set_a_forfeits(report->a_forfeits() + (game.forfeit_team == a_team));
      report->set_b_forfeits(report->b_forfeits() + (game.forfeit_team == 1 - a_team));
      report->set_a_time_losses(report->a_time_losses() + (game.time_loss_team == a_team));
      report->set_b_time_losses(report->b_time_losses() + (game.time_loss_team == 1 - a_team));
      if (game.forfeit_team >= 0 && report->first_forfeit().empty()) {
        report->set_first_forfeit(
            absl::StrCat(game.forfeit_team == a_team ? "A" : "B", ": ", game.forfeit_reason));
      }
      totals->think[0] += game.think_ms[a_team];
      totals->choices[0] += game.choices[a_team];
      totals->think[1] += game.think_ms[1 - a_team];
      totals->choices[1] += game.choices[1 - a_team];
    }
    totals->by_wins[wins]++;
    totals->pair_scores.push_back(wins / 2.0);
    totals->pair_luck.push_back((r.a_luck[0] + r.a_luck[1]) / 2.0);
  }
}

// The luck-adjusted part of the report (--luck).
void SetLuckAdjusted(const MatchConfig& config, const PairTotals& totals, v1::MatchReport* report) {
  report->set_luck_adjusted(true);
  report->set_luck_depth(config.luck_depth);
  LuckAdjusted adjusted = AdjustForLuck(totals.pair_scores, totals.pair_luck);
  MeanInterval rate = MeanWithInterval(adjusted.scores);
  report->set_adjusted_a_win_rate(rate.mean);
  report->set_adjusted_a_win_rate_low(rate.mean - rate.half);
  report->set_adjusted_a_win_rate_high(rate.mean + rate.half);
  EloEstimate adjusted_elo = EloFromPairs(adjusted.scores);
  report->set_adjusted_elo(adjusted_elo.elo);
  report->set_adjusted_elo_low(adjusted_elo.low);
  report->set_adjusted_elo_high(adjusted_elo.high);
  report->set_luck_slope(adjusted.slope);
  MeanInterval luck = MeanWithInterval(totals.pair_luck);
  report->set_a_luck_per_game(luck.mean);
}

// The report of the match over `results`, counted in `t`, that took
// `seconds`.
v1::MatchReport MatchReportOf(const MatchConfig& config, const std::vector<PairResult>& results,
                              const MatchTally& t, double seconds) {
  const int done = t.done;
  v1::MatchReport report;
  report.set_player_a(config.player_a);
  report.set_player_b(config.player_b);
  report.set_rules(config.rules.ToString());
  report.set_seed(config.seed);
  report.set_pairs(config.pairs);
  report.set_games(2 * done);
  report.set_pairs_done(done);
  report.set_pairs_resumed(t.resumed);
  report.set_interrupted(done < config.pairs);
  PairTotals totals;
  SumPairs(results, &totals, &report);
  int total_wins = totals.by_wins[1] + 2 * totals.by_wins[2];
  report.set_a_wins(total_wins);
  report.set_b_wins(2 * done - total_wins);
  report.set_a_win_rate(done ? total_wins / (2.0 * done) : 0);
  report.set_a_points_per_game(done ? totals.points / (2.0 * done) : 0);
  EloEstimate elo = EloFromPairs(totals.pair_scores);
  report.set_elo(elo.elo);
  report.set_elo_low(elo.low);
  report.set_elo_high(elo.high);
  report.set_elo_interval(elo.interval);
  for (int w : totals.by_wins) report.add_pairs_by_a_wins(w);
  if (config.luck) SetLuckAdjusted(config, totals, &report);
  report.set_seconds(seconds);
  // Games played now: the resumed ones took no time here.
  report.set_games_per_second(report.seconds() > 0 ? 2 * (done - t.resumed) / report.seconds() : 0);
  report.set_a_ms_per_move(totals.choices[0] ? totals.think[0] / totals.choices[0] : 0);
  report.set_b_ms_per_move(totals.choices[1] ? totals.think[1] / totals.choices[1] : 0);
  report.set_records_not_saved(t.unsaved.count);
  report.set_first_record_error(t.unsaved.first);
  return report;
}

}  // namespace

absl::StatusOr<v1::MatchReport> RunMatch(const MatchConfig& config) {
  if (absl::Status s = CheckMatch(config); !s.ok()) return s;
  if (absl::Status ready = PrepareRecordsDir(config.records_dir); !ready.ok()) return ready;
  absl::StatusOr<std::unique_ptr<GamesLog>> opened =
      GamesLog::Open(config.games_out, config.resume);
  if (!opened.ok()) return opened.status();
  std::unique_ptr<GamesLog> games_log = std::move(*opened);
  std::vector<PairResult> results(config.pairs);
  MatchTally tally;
  if (absl::Status s = ResumePairs(config, &results, &tally); !s.ok()) return s;
  Progress progress(config.progress, config.pairs);
  auto start = std::chrono::steady_clock::now();
  MatchWorkers workers(config, games_log.get(), &progress, &results, &tally);
  RunWorkers(config.concurrency, config.pairs, [&] { workers.Work(); });
  progress.Finish();
  // Pairs read back that no worker reached (the match was interrupted).
  for (PairResult& r : results) {
    if (r.done) MeasureLuck(config, &r);
  }
  if (!tally.error.ok()) return tally.error;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return MatchReportOf(config, results, tally, seconds);
}

std::string MatchReportText(const v1::MatchReport& r) {
  std::string why =
      r.first_forfeit().empty() ? "" : absl::StrCat("first forfeit: ", r.first_forfeit(), "\n");
  RecordFailures unsaved{r.records_not_saved(), r.first_record_error()};
  std::string partial;
  if (r.interrupted()) {
    partial = absl::StrFormat("interrupted: %d of %d pairs done\n", r.pairs_done(), r.pairs());
  }
  if (r.pairs_resumed() > 0) {
    absl::StrAppendFormat(&partial, "resumed: %d pairs read from the records, %d played now\n",
                          r.pairs_resumed(), r.pairs_done() - r.pairs_resumed());
  }
  if (r.a_time_losses() + r.b_time_losses() > 0) {
    absl::StrAppendFormat(&partial, "losses on time A %d, B %d\n", r.a_time_losses(),
                          r.b_time_losses());
  }
  std::string elo;
  if (r.elo_interval()) {
    elo = absl::StrFormat("Elo A-B %+.1f (95%% interval %+.1f .. %+.1f)\n", r.elo(), r.elo_low(),
                          r.elo_high());
  } else if (r.pairs() < kMinPairsForInterval) {
    elo = absl::StrFormat("Elo A-B: no interval from %s (at least %d are needed)\n",
                          Plural(r.pairs(), "pair"), kMinPairsForInterval);
  } else {
    elo = absl::StrFormat("Elo A-B: no interval, every pair scored alike (%s)\n",
                          r.a_win_rate() >= 1   ? "A won every game"
                          : r.a_win_rate() <= 0 ? "B won every game"
                                                : "one game each");
  }
  std::string adjusted;
  if (r.luck_adjusted()) {
    adjusted = absl::StrFormat(
        "luck-adjusted (slope %.2f): A win rate %.2f%%, Elo A-B %+.1f%s; A's luck %+.4f a game\n",
        r.luck_slope(), 100 * r.adjusted_a_win_rate(), r.adjusted_elo(),
        r.pairs_done() >= kMinPairsForInterval
            ? absl::StrFormat(" (95%% interval %+.1f .. %+.1f)", r.adjusted_elo_low(),
                              r.adjusted_elo_high())
            : "",
        r.a_luck_per_game());
  }
  return why + unsaved.Text() + partial +
         absl::StrFormat(
             "match %s (A) vs %s (B), rules %s, %s (%s), seed %d\n"
             "A wins %d, B wins %d: A win rate %.2f%%, A points per game %+.3f\n",
             r.player_a(), r.player_b(), r.rules(), Plural(r.pairs(), "pair"),
             Plural(r.games(), "game"), r.seed(), r.a_wins(), r.b_wins(), 100 * r.a_win_rate(),
             r.a_points_per_game()) +
         elo + adjusted +
         absl::StrFormat(
             "pairs with A winning 0/1/2 games: %d / %d / %d\n"
             "forfeits A %d, B %d; ms per move A %.2f, B %.2f\n"
             "%.1f s, %.1f games/s\n",
             r.pairs_by_a_wins(0), r.pairs_by_a_wins(1), r.pairs_by_a_wins(2), r.a_forfeits(),
             r.b_forfeits(), r.a_ms_per_move(), r.b_ms_per_move(), r.seconds(),
             r.games_per_second());
}

}  // namespace uckers
