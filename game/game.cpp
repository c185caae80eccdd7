#include "game/game.h"

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "engine/ufen.h"
#include "review/record.h"

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

absl::StatusOr<Game> Game::FromRecord(const v1::GameRecord& record) {
  absl::StatusOr<Rules> rules = RecordRules(record);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Game> game =
      FromStart(*rules, record.start_ufen().empty() ? "startpos" : record.start_ufen());
  if (!game.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("start: ", game.status().message()));
  }
  for (int i = 0; i < record.items_size(); ++i) {
    const v1::RecordItem& item = record.items(i);
    if (absl::Status s = game->PlayItem(absl::StrCat(item.throw_(), ":", item.play())); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("item ", i + 1, ": ", s.message()));
    }
  }
  return game;
}

absl::Status Game::Play(Throw t, absl::string_view play) {
  absl::StatusOr<PlayResult> r = ParsePlay(play, position_, rules_, t);
  if (!r.ok()) return r.status();
  items_.push_back({t, PlayToString(r->play, position_.board()), position_});
  position_ = r->after;
  return absl::OkStatus();
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

v1::GameRecord Game::Record() const {
  v1::GameRecord record;
  record.set_rules(rules_.ToString());
  record.set_switches(rules_.SwitchList());
  if (!(start_ == Position::Start(rules_))) record.set_start_ufen(ToUfen(start_));
  for (const PlayedThrow& item : items_) {
    v1::RecordItem* r = record.add_items();
    r->set_throw_(absl::StrCat(item.dice.high, item.dice.low));
    r->set_play(item.play);
  }
  SetRecordResult(position_, &record);
  return record;
}

}  // namespace uckers
