#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/dice.h"
#include "engine/play.h"
#include "engine/position.h"
#include "game/game.h"
#include "review/analysis.h"
#include "search/search.h"
#include "service/options.h"

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

// The score line of a search or evaluation with more than two sides, as
// `info` and `eval` end (PROTOCOL.md): the mover's side's chance, its
// expected points (plain wins, RULES.md §11), then every side's chance.
std::string SidesScoreText(double win, const std::vector<double>& sides);

// The text protocol's state for one connection: its options, its position
// and the game record that led there, and the job running. It calls the
// facade (game/facade.h), as the gRPC service does, and holds no protocol
// parsing (service/uci.h) and no rules of its own. Called from one thread;
// jobs (`Go`, `StartPerft`) run on a worker thread against a snapshot of the
// position and options, so the caller may keep setting positions and
// options while one runs.
class TextSession {
 public:
  using DoneCallback = std::function<void(const SearchReport&, std::string)>;

  TextSession();
  ~TextSession();  // stops any job and waits for it
  TextSession(const TextSession&) = delete;
  TextSession& operator=(const TextSession&) = delete;

  const EngineOptions& options() const { return options_; }
  // Sets one option; an error leaves everything unchanged. Changing Rules
  // resets the position to that ruleset's start position.
  absl::Status SetOption(absl::string_view name, absl::string_view value);

  // "startpos" or a UFEN, then `<throw>:<play>` items applied in order. On
  // any error (naming the item) the position is unchanged.
  absl::Status SetPosition(absl::string_view start, const std::vector<std::string>& moves);
  const Position& position() const { return game_.position(); }
  // The game set by the last SetPosition (its start and moves).
  const Game& game() const { return game_; }
  // Clears the transposition table and returns to the start position.
  void NewGame();

  // The distinct legal plays for a throw, sorted by their text.
  std::vector<PlayResult> LegalPlays(Throw t) const;

  // Starts a search: with dice, `on_done` receives the chosen play; without,
  // the analysis and "(none)". Errors (a job running, a finished game) are
  // returned at once and start nothing. Does not block.
  absl::Status Go(const GoRequest& request, ReportCallback on_info, DoneCallback on_done);
  // Starts perft to `depth` (1..9); `on_done` gets the count, or nullopt
  // when stopped. Does not block.
  absl::Status StartPerft(int depth, std::function<void(std::optional<uint64_t>)> on_done);
  // Asks the running job to end at once; its callback still fires. Does not
  // block.
  void Stop();
  // Blocks until the running job (if any) has finished.
  void Wait();
  // Whether an infinite search is running and not yet told to stop (only
  // `stop` ends it; once told, it is about to end and may be waited for).
  bool RunningInfinite() const { return running_infinite_ && !stop_; }

  // The search parameters the options stand for.
  SearchParams Params() const;

  // Reviews the game set by the last SetPosition (its start and moves) at
  // `level` (empty: the default). `on_item` hears each analysed item,
  // `on_done` the whole analysis or the error. Does not block.
  absl::Status StartAnalysis(const std::string& level,
                             std::function<void(const AnalysedItem&)> on_item,
                             std::function<void(absl::StatusOr<GameAnalysis>)> on_done);

  // Fixed searches on fixed positions (default level, one thread, navy).
  // Blocks; the node count and signature depend only on the code.
  BenchResult Bench();

  std::string BoardText() const;
  // `eval`: the evaluation's terms and its score, on every layout.
  std::string EvalText() const;

 private:
  // `eval` on a layout of more than two sides (or of colours each for itself).
  std::string MultiSideEvalText() const;

  absl::Status StartJob(bool infinite, std::function<void()> job);

  EngineOptions options_;
  Game game_;
  TranspositionTable tt_;
  std::thread worker_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> busy_{false};
  std::atomic<bool> running_infinite_{false};
};

}  // namespace uckers
