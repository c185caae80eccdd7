#include "match/multi_side_match.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "match/match.h"
#include "match/player.h"
#include "match/stats.h"
#include "record/game.h"
#include "record/text.h"
#include "review/review.h"
#include "rules/dice_sequence.h"
#include "rules/movegen.h"

namespace uckers {
namespace {

// A game that has not ended after this many throws is stopped and counted
// as won by nobody (no layout has come near it).
constexpr int kMaxThrows = 20000;

// A player of a match of more sides: `greedy` and `random` of their own (for
// any layout), else any player of match/player.h (a level, `mcts`, with
// every setting of the settings table), made afresh for each game.
struct PlayerSpec {
  enum Kind { kSearch, kGreedy, kRandom } kind = kSearch;
  std::string spec;
};

absl::StatusOr<PlayerSpec> ParseSpec(const std::string& spec, const Rules& rules) {
  PlayerSpec out;
  out.spec = spec;
  std::string name = spec.substr(0, spec.find(','));
  if (name == "greedy" || name == "random") {
    out.kind = name == "greedy" ? PlayerSpec::kGreedy : PlayerSpec::kRandom;
    if (name != spec) {
      return absl::InvalidArgumentError(
          absl::StrCat("player '", spec, "': ", name,
                       " does not search; with more than two sides it takes no "
                       "setting"));
    }
    return out;
  }
  if (absl::StartsWith(name, "cmd:") || absl::StartsWith(name, "grpc:")) {
    return absl::InvalidArgumentError(
        absl::StrCat("player '", spec,
                     "': with more than two sides a player is a level, mcts, greedy or "
                     "random"));
  }
  absl::StatusOr<std::unique_ptr<Player>> player = MakePlayer(spec, rules, 0);
  if (!player.ok()) return player.status();
  return out;
}

// The players of one game: A's and B's searching players, where they search.
struct GamePlayers {
  std::unique_ptr<Player> a, b;
};

absl::StatusOr<GamePlayers> MakeGamePlayers(const PlayerSpec& a, const PlayerSpec& b,
                                            const Rules& rules, uint64_t seed) {
  GamePlayers out;
  for (auto [spec, player] : {std::pair{&a, &out.a}, std::pair{&b, &out.b}}) {
    if (spec->kind != PlayerSpec::kSearch) continue;
    absl::StatusOr<std::unique_ptr<Player>> made = MakePlayer(spec->spec, rules, seed);
    if (!made.ok()) return made.status();
    if (absl::Status s = (*made)->NewGame(seed); !s.ok()) return s;
    *player = *std::move(made);
  }
  return out;
}

// Greedy for any layout: bring a piece home, else knock off the most
// pieces of other sides, else move the piece furthest ahead, else the most
// squares. Never challenges.
std::tuple<int, int, int, int> GreedyKey(const Position& before, const PlayResult& r) {
  int mover = before.MovingColour();
  const Board& b = before.board();
  int home = r.after.CountAt(mover, b.home) - before.CountAt(mover, b.home);
  int knocked = 0;
  for (int c = 0; c < b.colours; ++c) {
    if (before.SideOf(c) == before.SideOf(mover)) continue;
    knocked += r.after.CountAt(c, kBase) - before.CountAt(c, kBase);
  }
  int furthest = -2, advance = 0;
  if (r.play.kind == PlayKind::kMoves) {
    for (int i = 0; i < r.play.num_moves; ++i) {
      furthest = std::max<int>(furthest, r.play.moves[i].from);
      advance += r.play.moves[i].to - r.play.moves[i].from;
    }
  }
  return {home, knocked, furthest, advance};
}

int Choose(const PlayerSpec& player, Player* searcher, const Position& pos, Throw t,
           const PlayList& plays, std::mt19937_64& rng) {
  if (player.kind == PlayerSpec::kRandom) {
    return std::uniform_int_distribution<int>(0, plays.size() - 1)(rng);
  }
  if (player.kind == PlayerSpec::kGreedy) {
    int best = -1;
    std::tuple<int, int, int, int> best_key;
    for (int i = 0; i < plays.size(); ++i) {
      if (plays[i].play.kind == PlayKind::kChallenge) continue;
      auto key = GreedyKey(pos, plays[i]);
      if (best < 0 || key > best_key) best = i, best_key = key;
    }
    return best < 0 ? 0 : best;
  }
  absl::StatusOr<PlayResult> r = searcher->Choose(pos, t);
  if (!r.ok()) return 0;
  for (int i = 0; i < plays.size(); ++i) {
    if (plays[i].after == r->after) return i;
  }
  return 0;
}

// One game on the dice of `seed` with A on side `a_side`: the winning
// side, or -1 when none; `a_ms`/`a_choices` A's thinking. The game is
// played as a Game: `game` (from the start of `rules`), or one of its own.
int PlayOne(const PlayerSpec& a, const PlayerSpec& b, const Rules& rules, uint64_t seed, int a_side,
            double* a_ms, int* a_choices, Game* game) {
  Game unkept(rules);
  if (!game) game = &unkept;
  absl::StatusOr<GamePlayers> players = MakeGamePlayers(a, b, rules, seed);
  if (!players.ok()) return -1;  // checked when the match began
  DiceSequence dice(seed);
  std::mt19937_64 rng(seed * 7919 + a_side);
  PlayList plays;
  for (int n = 0; n < kMaxThrows && !game->IsOver(); ++n) {
    const Position& pos = game->position();
    Throw t = dice.Next();
    GenerateLegalPlays(pos, rules, t, &plays);
    int pick = 0;
    if (plays.size() > 1) {
      bool is_a = pos.SideOf(pos.to_throw()) == a_side;
      auto start = std::chrono::steady_clock::now();
      pick = Choose(is_a ? a : b, is_a ? players->a.get() : players->b.get(), pos, t, plays, rng);
      if (is_a) {
        *a_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count();
        ++*a_choices;
      }
    }
    // Every searching player sees each play made (Opponent=auto judges the
    // other sides by theirs).
    for (Player* seen : {players->a.get(), players->b.get()}) {
      if (seen) seen->Observe(pos, t, plays[pick]);
    }
    game->Play(t, plays[pick]);
  }
  return game->position().WinningSide();
}

// The record of a game with A on `a_side` and B on every other side.
Record RecordOfGame(const Game& game, const MultiSideMatchConfig& config, int a_side,
                    uint64_t seed) {
  Record record = RecordOf(game);
  const Layout& layout = config.rules.layout();
  for (int side = 0; side < layout.num_sides; ++side) {
    record.side_players.push_back(
        {SideName(layout, side), side == a_side ? config.player_a : config.player_b});
  }
  record.seed = seed;
  return record;
}

}  // namespace

absl::Status CheckMultiSidePlayer(const std::string& spec, const Rules& rules) {
  return ParseSpec(spec, rules).status();
}

namespace {

// The checks of a match of more sides; the two players parsed.
absl::StatusOr<std::pair<PlayerSpec, PlayerSpec>> CheckMultiSideMatch(
    const MultiSideMatchConfig& config) {
  absl::StatusOr<PlayerSpec> a = ParseSpec(config.player_a, config.rules);
  if (!a.ok()) return a.status();
  absl::StatusOr<PlayerSpec> b = ParseSpec(config.player_b, config.rules);
  if (!b.ok()) return b.status();
  if (config.sequences < 1 || config.concurrency < 1) {
    return absl::InvalidArgumentError("--pairs and --concurrency must be 1 or more");
  }
  if (absl::Status s = CheckLuckDepth(config.luck, config.luck_depth); !s.ok()) return s;
  return std::pair{*std::move(a), *std::move(b)};
}

// The k games of one dice sequence, A on each side in turn.
struct SequenceResult {
  double ms = 0;                        // A's thinking
  int choices = 0, wins = 0, none = 0;  // A's choices and wins, games won by nobody
  double a_luck = 0;                    // A's luck summed over the games (--luck)
  std::vector<absl::Status> saved;      // each record's save
};

// Plays dice sequence `i` with A on each of the `k` sides in turn, measuring
// A's luck (--luck) and saving the records (with records_dir).
SequenceResult PlaySequence(const MultiSideMatchConfig& config, const PlayerSpec& a,
                            const PlayerSpec& b, int i, int k) {
  SequenceResult r;
  for (int side = 0; side < k; ++side) {
    Game game(config.rules);
    bool keep = !config.records_dir.empty();
    int winner = PlayOne(a, b, config.rules, config.seed + i, side, &r.ms, &r.choices,
                         keep || config.luck ? &game : nullptr);
    r.wins += winner == side;
    r.none += winner < 0;
    if (config.luck) r.a_luck += WinLuckBySide(game, config.luck_depth)[side];
    if (keep) {
      // `pair-<sequence>-<seat>.txt`: A on the seat'th side.
      r.saved.push_back(
          WriteTextFile(absl::StrCat(config.records_dir, "/pair-", i, "-", side + 1, ".txt"),
                        RecordToText(RecordOfGame(game, config, side, config.seed + i))));
    }
  }
  return r;
}

// What a match of more sides has counted over its dice sequences so far.
struct SequenceTally {
  explicit SequenceTally(int sequences) : scores(sequences, -1), luck(sequences) {}
  RecordFailures unsaved;      // the match goes on without them
  std::vector<double> scores;  // A's share of a sequence's k games (-1: not played)
  std::vector<double> luck;    // A's mean luck a game of it (--luck)
  double a_ms = 0;
  int a_choices = 0, a_wins = 0, games = 0, unfinished = 0, done = 0;
};

// Counts sequence `i` of `k` games, played as `r`, in `t`.
void CountSequence(const MultiSideMatchConfig& config, int i, int k, const SequenceResult& r,
                   SequenceTally* t) {
  for (const absl::Status& s : r.saved) t->unsaved.Add(s, config.progress);
  t->scores[i] = static_cast<double>(r.wins) / k;
  t->luck[i] = r.a_luck / k;
  t->a_ms += r.ms;
  t->a_choices += r.choices;
  t->a_wins += r.wins;
  t->games += k;
  t->unfinished += r.none;
  int d = ++t->done;
  if (config.progress && d % std::max(1, config.sequences / 10) == 0) {
    std::cerr << "match: " << d << " of " << config.sequences << " dice sequences\n";
  }
}

// Plays the dice sequences on `concurrency` threads, each taking the next
// until none is left or the match is interrupted, counting them in `t`.
void PlaySequences(const MultiSideMatchConfig& config, const PlayerSpec& a, const PlayerSpec& b,
                   SequenceTally* t) {
  const int k = config.rules.layout().num_sides;
  std::atomic<int> next{0};
  std::mutex mu;
  auto work = [&] {
    for (int i = next++; i < config.sequences; i = next++) {
      if (config.interrupted && *config.interrupted) return;
      SequenceResult r = PlaySequence(config, a, b, i, k);
      std::lock_guard<std::mutex> lock(mu);
      CountSequence(config, i, k, r, t);
    }
  };
  std::vector<std::thread> threads;
  for (int w = 0; w < config.concurrency; ++w) threads.emplace_back(work);
  for (std::thread& w : threads) w.join();
}

// The luck-adjusted part of the report (--luck), from the scores and luck
// of the sequences played.
void SetSequenceLuck(const MultiSideMatchConfig& config, const std::vector<double>& played,
                     const std::vector<double>& played_luck, v1::MatchReport* report) {
  LuckAdjusted adjusted = AdjustForLuck(played, played_luck);
  MeanInterval fair = MeanWithInterval(adjusted.scores);
  report->set_luck_adjusted(true);
  report->set_luck_depth(config.luck_depth);
  report->set_adjusted_a_win_rate(fair.mean);
  report->set_adjusted_a_win_rate_low(fair.mean - fair.half);
  report->set_adjusted_a_win_rate_high(fair.mean + fair.half);
  report->set_luck_slope(adjusted.slope);
  report->set_a_luck_per_game(MeanWithInterval(played_luck).mean);
}

// The report of a match of more sides over the sequences counted in `t`,
// begun at `start`.
v1::MatchReport SequenceReport(const MultiSideMatchConfig& config, const SequenceTally& t,
                               std::chrono::steady_clock::time_point start) {
  const int k = config.rules.layout().num_sides;
  std::vector<double> played, played_luck;
  for (int i = 0; i < config.sequences; ++i) {
    if (t.scores[i] >= 0) played.push_back(t.scores[i]), played_luck.push_back(t.luck[i]);
  }
  v1::MatchReport report;
  report.set_player_a(config.player_a);
  report.set_player_b(config.player_b);
  report.set_rules(config.rules.ToString());
  report.set_seed(config.seed);
  report.set_pairs(static_cast<int>(played.size()));
  report.set_pairs_done(static_cast<int>(played.size()));
  report.set_games(t.games);
  report.set_a_wins(t.a_wins);
  report.set_b_wins(t.games - t.a_wins - t.unfinished);
  report.set_sides(k);
  MeanInterval share = MeanWithInterval(played);
  report.set_a_win_rate(share.mean);
  report.set_a_win_rate_low(std::max(0.0, share.mean - share.half));
  report.set_a_win_rate_high(std::min(1.0, share.mean + share.half));
  report.set_elo_interval(share.spread);
  if (config.luck) SetSequenceLuck(config, played, played_luck, &report);
  report.set_a_ms_per_move(t.a_choices ? t.a_ms / t.a_choices : 0);
  report.set_interrupted(config.interrupted && *config.interrupted &&
                         static_cast<int>(played.size()) < config.sequences);
  report.set_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  report.set_games_per_second(report.seconds() > 0 ? t.games / report.seconds() : 0);
  report.set_records_not_saved(t.unsaved.count);
  report.set_first_record_error(t.unsaved.first);
  return report;
}

}  // namespace

absl::StatusOr<v1::MatchReport> RunMultiSideMatch(const MultiSideMatchConfig& config) {
  absl::StatusOr<std::pair<PlayerSpec, PlayerSpec>> players = CheckMultiSideMatch(config);
  if (!players.ok()) return players.status();
  if (absl::Status ready = PrepareRecordsDir(config.records_dir); !ready.ok()) return ready;
  auto start = std::chrono::steady_clock::now();
  SequenceTally tally(config.sequences);
  PlaySequences(config, players->first, players->second, &tally);
  return SequenceReport(config, tally, start);
}

absl::StatusOr<MultiSideGame> PlayMultiSideGame(const std::string& alone, const std::string& other,
                                                const Rules& rules, uint64_t seed, int seat) {
  absl::StatusOr<PlayerSpec> a = ParseSpec(alone, rules);
  if (!a.ok()) return a.status();
  absl::StatusOr<PlayerSpec> b = ParseSpec(other, rules);
  if (!b.ok()) return b.status();
  if (seat < 0 || seat >= rules.layout().num_sides) {
    return absl::InvalidArgumentError(absl::StrCat("seat ", seat, " is no side of these rules"));
  }
  MultiSideGame out;
  Game game(rules);
  int choices = 0;
  out.winner_side = PlayOne(*a, *b, rules, seed, seat, &out.alone_ms, &choices, &game);
  MultiSideMatchConfig config;
  config.player_a = alone;
  config.player_b = other;
  config.rules = rules;
  out.record = RecordOfGame(game, config, seat, seed);
  return out;
}

std::string MultiSideMatchReportText(const v1::MatchReport& r) {
  int k = r.sides();
  std::string share =
      r.elo_interval()
          ? absl::StrFormat("A's share of the wins %.2f%% (95%% interval %.2f%% .. %.2f%%)",
                            100 * r.a_win_rate(), 100 * r.a_win_rate_low(),
                            100 * r.a_win_rate_high())
          : absl::StrFormat("A's share of the wins %.2f%% (no interval from %s)",
                            100 * r.a_win_rate(), Plural(r.pairs(), "dice sequence"));
  std::string adjusted;
  if (r.luck_adjusted()) {
    adjusted = absl::StrFormat(
        "luck-adjusted (slope %.2f): A's share of the wins %.2f%%%s, %.2f times the fair share; "
        "A's luck %+.4f a game\n",
        r.luck_slope(), 100 * r.adjusted_a_win_rate(),
        r.pairs() >= kMinPairsForInterval
            ? absl::StrFormat(" (95%% interval %.2f%% .. %.2f%%)",
                              100 * r.adjusted_a_win_rate_low(), 100 * r.adjusted_a_win_rate_high())
            : "",
        r.adjusted_a_win_rate() * k, r.a_luck_per_game());
  }
  return absl::StrFormat(
      "match %s (A, one side) vs %s (B, the other %d), rules %s, %s (%s, A in every seat on "
      "each), seed %d\n"
      "A wins %d, B wins %d\n"
      "%s against the fair share %.2f%%: %.2f times it\n"
      "%sms per move A %.2f; %.1f s, %.1f games/s\n%s",
      r.player_a(), r.player_b(), k - 1, r.rules(), Plural(r.pairs(), "dice sequence"),
      Plural(r.games(), "game"), r.seed(), r.a_wins(), r.b_wins(), share, 100.0 / k,
      r.a_win_rate() * k, adjusted, r.a_ms_per_move(), r.seconds(), r.games_per_second(),
      RecordFailures{r.records_not_saved(), r.first_record_error()}.Text());
}

}  // namespace uckers
