#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "match/play_game.h"
#include "uckers/v1/match.pb.h"

namespace uckers {

// The line of one played game (uckers.v1.GameLine): `pair` 0-based, `game`
// 1 or 2.
v1::GameLine GameLineOf(const GameResult& game, int pair, int game_number, const std::string& ry,
                        const std::string& gb, uint64_t seed);

// `--games_out FILE`: one JSON line per game, written and flushed as each
// game ends, so a log follows a long run. Safe to share among workers.
class GamesLog {
 public:
  // Opens `path` for writing (for appending when `append`: a resumed run
  // adds the games it plays): an error naming the file when it cannot. An
  // empty path opens nothing (null: no log).
  static absl::StatusOr<std::unique_ptr<GamesLog>> Open(const std::string& path, bool append);
  ~GamesLog();
  GamesLog(const GamesLog&) = delete;
  GamesLog& operator=(const GamesLog&) = delete;

  // Writes one line: an error naming the file when it cannot (a full disk).
  absl::Status Add(const v1::GameLine& line);

 private:
  GamesLog(std::string path, std::FILE* file) : path_(std::move(path)), file_(file) {}
  std::string path_;
  std::FILE* file_;
  std::mutex mutex_;
};

}  // namespace uckers
