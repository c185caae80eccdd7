#include "record/game.h"

#include "rules/notation.h"
#include "rules/ufen.h"

namespace uckers {

Game::Game(const Rules& rules) : rules_(rules), start_(Position::Start(rules)), position_(start_) {}

absl::StatusOr<Game> Game::FromStart(const Rules& rules, absl::string_view start) {
  Game game(rules);
  if (start != "startpos") {
    absl::StatusOr<Position> pos = ParseUfen(start, rules);
    if (!pos.ok()) return pos.status();
    game.start_ = game.position_ = *pos;
  }
  return game;
}

Game Game::At(const Rules& rules, const Position& start) {
  Game game(rules);
  game.start_ = game.position_ = start;
  return game;
}

absl::Status Game::Play(Throw t, absl::string_view play) {
  absl::StatusOr<PlayResult> r = ParsePlay(play, position_, rules_, t);
  if (!r.ok()) return r.status();
  Play(t, *r);
  return absl::OkStatus();
}

void Game::Play(Throw t, const PlayResult& played) {
  items_.push_back({t, PlayToString(played.play, position_.board()), position_});
  position_ = played.after;
}

absl::Status Game::PlayItem(absl::string_view item) {
  size_t colon = item.find(':');
  if (colon == absl::string_view::npos) {
    return absl::InvalidArgumentError("expected <throw>:<play>");
  }
  absl::StatusOr<Throw> t = ParseThrow(item.substr(0, colon));
  if (!t.ok()) return t.status();
  return Play(*t, item.substr(colon + 1));
}

bool Game::TakeBack() {
  if (items_.empty()) return false;
  position_ = items_.back().before;
  items_.pop_back();
  return true;
}

}  // namespace uckers
