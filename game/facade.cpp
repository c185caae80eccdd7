#include "game/facade.h"

#include <algorithm>
#include <random>

#include "absl/strings/str_cat.h"
#include "engine/dice_sequence.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/ufen.h"
#include "review/analyse.h"
#include "review/record.h"
#include "search/levels.h"
#include "search/settings.h"

namespace uckers::facade {

absl::StatusOr<Rules> ParseRules(absl::string_view text) {
  if (text.empty()) return Rules();
  absl::StatusOr<Rules> rules = Rules::Parse(text);
  if (!rules.ok()) return rules.status();
  if (absl::Status s = rules->RequireFourSidedTeams("this front"); !s.ok()) return s;
  return rules;
}

absl::StatusOr<Position> ParsePosition(absl::string_view text, const Rules& rules) {
  if (text == "startpos") return Position::Start(rules);
  return ParseUfen(text, rules);
}

absl::StatusOr<Throw> MakeCheckedThrow(int d1, int d2) {
  if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) {
    return absl::InvalidArgumentError(
        absl::StrCat("dice ", d1, " and ", d2, ": each must be 1..6"));
  }
  return MakeThrow(d1, d2);
}

std::vector<PlayResult> LegalPlays(const Position& pos, const Rules& rules, Throw t) {
  PlayList list;
  GenerateLegalPlays(pos, rules, t, &list);
  std::vector<PlayResult> plays(list.begin(), list.end());
  std::sort(plays.begin(), plays.end(), [&pos](const PlayResult& a, const PlayResult& b) {
    return PlayToString(a.play, pos.board()) < PlayToString(b.play, pos.board());
  });
  return plays;
}

absl::StatusOr<PlayResult> ApplyPlay(const Position& pos, const Rules& rules, Throw t,
                                     absl::string_view play) {
  return ParsePlay(play, pos, rules, t);
}

absl::StatusOr<std::vector<std::pair<int, int>>> RollDice(uint64_t seed, int index, int count) {
  if (index < 0 || index > kMaxDiceIndex) {
    return absl::InvalidArgumentError(absl::StrCat("index ", index, " must be 0..", kMaxDiceIndex));
  }
  if (count < 1 || count > kMaxDiceCount) {
    return absl::InvalidArgumentError(absl::StrCat("count ", count, " must be 1..", kMaxDiceCount));
  }
  DiceSequence dice(seed);
  dice.Skip(index);
  std::vector<std::pair<int, int>> throws;
  for (int i = 0; i < count; ++i) throws.push_back(dice.NextDice());
  return throws;
}

uint64_t NewDiceSeed() {
  std::random_device device;
  uint64_t seed = 0;
  while (seed == 0) seed = (static_cast<uint64_t>(device()) << 32) ^ device();
  return seed;
}

absl::StatusOr<SearchParams> ParamsFor(const SearchRequest& request) {
  SearchParams params;
  absl::string_view level = request.level.empty() ? kDefaultLevel : request.level;
  if (absl::Status s = ApplyLevel(level, &params); !s.ok()) return s;
  if (absl::Status s = CheckIntSetting("multipv", request.multipv); !s.ok()) return s;
  if (absl::Status s = CheckIntSetting("threads", request.threads); !s.ok()) return s;
  if (absl::Status s = CheckIntSetting("tree_mb", request.tree_mb); !s.ok()) return s;
  if (request.objective) params.objective = *request.objective;
  if (request.algorithm) params.algorithm = *request.algorithm;
  if (request.eval) params.eval = *request.eval;
  params.multipv = request.multipv;
  params.threads = request.threads;
  params.seed = request.seed;
  params.mcts_tree_mb = request.tree_mb;
  params.endgame = request.endgames;
  return params;
}

absl::StatusOr<SearchReport> Search(const Position& pos, const Rules& rules,
                                    const SearchRequest& request, TranspositionTable* tt,
                                    const std::atomic<bool>& stop,
                                    const ReportCallback& on_progress) {
  if (absl::Status s = rules.RequireFourSidedTeams("the search"); !s.ok()) return s;
  if (pos.IsGameOver()) {
    return absl::FailedPreconditionError("the game is over: no play to search");
  }
  absl::StatusOr<SearchParams> params = ParamsFor(request);
  if (!params.ok()) return params.status();
  if (absl::Status s = CheckClocks(request.limits.clocks, pos); !s.ok()) return s;
  if (request.dice) {
    return SearchPlay(pos, rules, *request.dice, *params, request.limits, tt, stop, on_progress);
  }
  return AnalysePosition(pos, rules, *params, request.limits, tt, stop, on_progress);
}

absl::StatusOr<v1::GameRecord> ParseGameRecord(const std::string& text) {
  return ParseRecord(text);
}

absl::StatusOr<v1::GameAnalysis> AnalyseGame(
    const v1::GameRecord& record, const std::string& level, const std::atomic<bool>& stop,
    const std::function<void(const v1::AnalysedItem&)>& on_item, const EndgameTable* endgames) {
  absl::StatusOr<Position> end = ReplayRecord(record);
  if (!end.ok()) return end.status();
  return uckers::AnalyseGame(record, level, stop, on_item, endgames);
}

std::vector<PlayResult> LegalPlays(const Game& game, Throw t) {
  return LegalPlays(game.position(), game.rules(), t);
}

absl::StatusOr<SearchReport> Search(const Game& game, const SearchRequest& request,
                                    TranspositionTable* tt, const std::atomic<bool>& stop,
                                    const ReportCallback& on_progress) {
  return Search(game.position(), game.rules(), request, tt, stop, on_progress);
}

absl::StatusOr<v1::GameAnalysis> AnalyseGame(
    const Game& game, const std::string& level, const std::atomic<bool>& stop,
    const std::function<void(const v1::AnalysedItem&)>& on_item, const EndgameTable* endgames) {
  if (game.items().empty()) {
    return absl::FailedPreconditionError("the game has no plays to review");
  }
  return uckers::AnalyseGame(game.Record(), level, stop, on_item, endgames);
}

std::vector<std::string> PresetNames() { return uckers::PresetNames(); }

std::vector<std::string> LevelNames() { return uckers::LevelNames(); }

}  // namespace uckers::facade
