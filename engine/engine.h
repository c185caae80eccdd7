#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/coach.h"
#include "engine/options.h"
#include "record/game.h"
#include "record/record.h"
#include "review/analysis.h"
#include "rules/dice.h"
#include "rules/play.h"
#include "rules/position.h"
#include "search/opponent_model.h"
#include "search/search.h"
#include "search/tt.h"

// The engine controller: the one door from every front to the search (as
// Stockfish's `Engine` and lc0's engine controller). It owns the options,
// the transposition table, the job thread with its stop and wait, and the
// game; it answers go, the analysis before the throw, the evaluation (also
// per throw), the tutor's judgement and throw map, the review of a game,
// bench, perft and the evaluation text. The text protocol (protocol/uci.h)
// holds one for its connection; the transport-neutral service
// (server/api.h), under gRPC and Connect, makes one for each searching
// call. What it answers the coach with is engine/coach.h's; a play's terms
// (eval/terms.h), the checked inputs (rules/checked.h) and the dice
// (rules/dice_sequence.h) are value-level helpers that search nothing.
namespace uckers {

// A `go` request: with dice, choose a play; without, analyse before the throw.
struct GoRequest {
  std::optional<Throw> dice;
  SearchLimits limits;
};

// The result of `bench`.
struct BenchResult {
  uint64_t nodes = 0;
  uint64_t nps = 0;
  uint64_t signature = 0;  // hash of every choice made: changes with behaviour
};

// The value of one throw in an evaluation per throw: its best play and the
// mover's chances after it.
struct ThrowValue {
  Throw dice;
  Candidate best;
};

// An evaluation before the throw and, when asked for, of each of the 21
// throws (kThrows' order).
struct EvaluationReport {
  SearchReport before;
  std::vector<ThrowValue> per_throw;
};

// The score line of a search or evaluation with more than two sides, as
// `info` and `eval` end (PROTOCOL.md): the mover's side's chance, its
// expected points (plain wins, RULES.md §11), then every side's chance.
std::string SidesScoreText(double win, const std::vector<double>& sides);

// Jobs (Go, StartPerft, StartAnalysis) run on the engine's own thread
// against a snapshot of the game and options, so the caller may keep
// setting positions and options while one runs; they never block. The
// blocking calls (Search, Evaluate, Judge, MapThrows, Review, Bench) run on
// the caller's thread and end early when their `stop` is set. Every other
// method is called from one thread (the owner's).
class Engine {
 public:
  using DoneCallback = std::function<void(const SearchReport&, std::string)>;
  using ItemCallback = std::function<void(const AnalysedItem&)>;

  // `options` as they are (a front that checked them itself); the game is
  // the start position of options.rules and the table options.hash_mb.
  explicit Engine(EngineOptions options = EngineOptions());
  ~Engine();  // stops any job and waits for it
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // --- Options

  const EngineOptions& options() const { return options_; }
  // Gives back the table's memory above `hash_mb` MiB (a table a caller
  // asked for larger than its default), keeping its options otherwise; the
  // next search clears the table in any case.
  void ShrinkTable(int hash_mb);
  // The table's memory, in bytes.
  size_t TableBytes() const;
  // Sets one option; an error leaves everything unchanged. Changing Rules
  // resets the position to that ruleset's start position.
  absl::Status SetOption(absl::string_view name, absl::string_view value);
  // The search parameters the options stand for.
  SearchParams Params() const;
  // The search the options ask for with `go`'s dice and limits.
  SearchRequest RequestFor(const GoRequest& go) const;

  // The explained choices (docs/frontend.md): for each candidate of
  // `report` (a search of the engine's position), the terms in which it
  // differs from the first, the first's list empty, each with its size in
  // chance to win (TermDifference, eval/terms.h), on every layout.
  std::vector<std::vector<TermDifference>> Explain(const SearchReport& report) const;

  // --- The game

  // "startpos" or a UFEN, then `<throw>:<play>` items applied in order. On
  // any error (naming the item) the game is unchanged.
  absl::Status SetPosition(absl::string_view start, const std::vector<std::string>& moves);
  // A position of the options' rules, no moves before it.
  absl::Status SetPosition(const Position& pos);
  // The engine made as new for another call (a pool's engine, reused):
  // `options`, the table resized to their Hash and cleared, the game at
  // `pos` (a position of their rules; none: the start), nothing of the
  // calls before kept. Refused while a job runs, and when the table cannot
  // be resized (the engine is then unchanged).
  absl::Status Reuse(EngineOptions options, const std::optional<Position>& pos);
  const Position& position() const { return game_.position(); }
  // The game set by the last SetPosition (its start and moves) and the
  // plays applied since.
  const Game& game() const { return game_; }
  // Clears the transposition table (unless a job runs) and returns to the
  // start position.
  void NewGame();
  // The distinct legal plays of the position for a throw, sorted by text.
  std::vector<PlayResult> LegalPlays(Throw t) const;
  // Plays `play` (any spelling of a legal play) with throw `t` on the game;
  // an error leaves it unchanged.
  absl::StatusOr<PlayResult> ApplyPlay(Throw t, absl::string_view play);

  // What the game's plays so far tell of the team not to throw now
  // (search/opponent_model.h), and whether `go` models it as `random`:
  // under Opponent=auto, when its plays look random and the model serves
  // the rules and the options' search. The evidence is brought up to date
  // with the game (only the plays added since, when the game goes on).
  struct OpponentVerdict {
    int team = -1;  // -1 on a layout of more sides, or a finished game
    int decisions = 0;
    double log_odds = 0;
    bool modelled_random = false;
    // On a layout of more sides: the sides whose plays look random (a bit
    // a side), modelled so under Opponent=auto.
    uint32_t random_sides = 0;
  };
  OpponentVerdict OpponentSoFar();

  // --- Jobs on the engine's thread

  // Starts a search with the options' settings: with dice, `on_done`
  // receives the chosen play; without, the analysis and "(none)". `on_info`
  // hears of each depth. Errors (a job running, a finished game, clocks the
  // layout does not take) are returned at once and start nothing.
  absl::Status Go(const GoRequest& request, ReportCallback on_info, DoneCallback on_done);
  // Starts perft to `depth` (1..9); `on_done` gets the count, or nullopt
  // when stopped.
  absl::Status StartPerft(int depth, std::function<void(std::optional<uint64_t>)> on_done);
  // Reviews the game (its start and moves) at `level` (empty: the default).
  // `on_item` hears each analysed item, `on_done` the whole analysis or the
  // error.
  absl::Status StartAnalysis(const std::string& level, ItemCallback on_item,
                             std::function<void(absl::StatusOr<GameAnalysis>)> on_done);
  // Asks the running job to end at once; its callback still fires.
  void Stop();
  // Blocks until the running job (if any) has finished.
  void Wait();
  // Whether a job is running.
  bool busy() const { return busy_; }
  // Whether an infinite search is running and not yet told to stop (only
  // Stop ends it; once told, it is about to end and may be waited for).
  bool RunningInfinite() const { return running_infinite_ && !stop_; }

  // --- Blocking calls on the caller's thread

  // Searches the position with `request`'s settings (not the options'),
  // with the engine's table: with dice, the best play (candidates best
  // first); without, the position before the throw. `on_progress` hears of
  // each depth. Refuses a finished game, a bad setting, clocks the layout
  // does not take, and a job running (it would share the table).
  absl::StatusOr<SearchReport> Search(const SearchRequest& request, const std::atomic<bool>& stop,
                                      const ReportCallback& on_progress = nullptr);
  // Search without dice; with `per_throw`, then each of the 21 throws
  // searched in turn with the same table, a movetime split 21 ways.
  absl::StatusOr<EvaluationReport> Evaluate(const SearchRequest& request, bool per_throw,
                                            const std::atomic<bool>& stop);
  // The tutor's verdict on `play` (any spelling of a legal play) for throw
  // `t` at `level` (empty: kTutorLevel): every legal play valued at
  // that level's depth, as the review values them, with the options'
  // endgame table. Refuses a finished game, a bad level or play, and a
  // layout other than the four-sided one of two teams; CANCELLED when
  // stopped.
  absl::StatusOr<Judgement> Judge(Throw t, absl::string_view play, const std::string& level,
                                  const std::atomic<bool>& stop) const;
  // The map of the position before the throw at `level` (empty:
  // kTutorLevel): each of the 21 throws searched as Judge searches
  // it. The four-sided game of two teams only; CANCELLED when stopped.
  absl::StatusOr<ThrowMap> MapThrows(const std::string& level, const std::atomic<bool>& stop) const;
  // Reviews a game record at `level` (empty: kAnalysisLevel) with the
  // options' endgame table; `on_item` (may be empty) hears each item.
  // An error names what in the record is wrong; CANCELLED when stopped.
  absl::StatusOr<GameAnalysis> Review(const Record& record, const std::string& level,
                                      const std::atomic<bool>& stop,
                                      const ItemCallback& on_item = nullptr) const;
  // Fixed searches on fixed positions (the reference level, one thread, navy,
  // a table of their own). The node count and signature depend only on
  // the code.
  static BenchResult Bench();

  // --- Text

  std::string BoardText() const;
  // `eval`: the evaluation's terms and its score, on every layout.
  std::string EvalText() const;

 private:
  // `eval` on a layout of more than two sides (or of colours each for itself).
  std::string MultiSideEvalText() const;
  absl::Status StartJob(bool infinite, std::function<void()> job);

  EngineOptions options_;
  Game game_;
  // The evidence on the plays of game_ (OpponentSoFar), and the game it
  // was taken from.
  OpponentJudge judge_;
  Game evidence_game_;
  TranspositionTable tt_;
  std::thread worker_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> busy_{false};
  std::atomic<bool> running_infinite_{false};
};

}  // namespace uckers
