#include "match/games_log.h"

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "wire/json.h"

namespace uckers {

v1::GameLine GameLineOf(const GameResult& game, int pair, int game_number, const std::string& ry,
                        const std::string& gb, uint64_t seed) {
  v1::GameLine line;
  line.set_pair(pair);
  line.set_game(game_number);
  line.set_ry(ry);
  line.set_gb(gb);
  line.set_seed(seed);
  if (game.winner_team >= 0) {
    line.set_winner(game.winner_team == 0 ? "RY" : "GB");
    line.set_points(static_cast<int>(game.level));
  }
  if (game.time_loss_team >= 0) {
    line.set_end("time");
  } else if (game.forfeit_team >= 0 || game.winner_team < 0) {
    line.set_end("forfeit");
    line.set_why(game.forfeit_reason);
  } else {
    line.set_end("play");
  }
  line.set_throws(static_cast<int>(game.game.items().size()));
  line.set_decisions_ry(game.choices[0]);
  line.set_decisions_gb(game.choices[1]);
  line.set_ms_ry(game.think_ms[0]);
  line.set_ms_gb(game.think_ms[1]);
  if (game.luck_ry) line.set_luck_ry(*game.luck_ry);
  return line;
}

absl::StatusOr<std::unique_ptr<GamesLog>> GamesLog::Open(const std::string& path, bool append) {
  if (path.empty()) return nullptr;
  std::FILE* file = std::fopen(path.c_str(), append ? "a" : "w");
  if (!file) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
  }
  return std::unique_ptr<GamesLog>(new GamesLog(path, file));
}

GamesLog::~GamesLog() { std::fclose(file_); }

absl::Status GamesLog::Add(const v1::GameLine& line) {
  std::string text = ToJson(line, true) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0) {
    return absl::DataLossError(absl::StrCat("cannot write ", path_, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace uckers
