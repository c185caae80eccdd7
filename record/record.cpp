#include "record/record.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_join.h"
#include "rules/ufen.h"

namespace uckers {

Record RecordOf(const Game& game) {
  Record record;
  record.game = game;
  record.rules = game.rules().ToString();
  record.switches = game.rules().SwitchList();
  record.start_ufen = StartUfen(game);
  SetRecordResult(game.position(), &record);
  return record;
}

std::string StartUfen(const Game& game) {
  if (game.start() == Position::Start(game.rules())) return "";
  return ToUfen(game.start());
}

void SetRecordResult(const Position& final_position, Record* record) {
  if (!final_position.IsGameOver()) return;
  int side = final_position.WinningSide();
  record->winner = SideName(final_position.layout(), side);
  record->points = final_position.Points()[side];
}

std::string SideName(const Layout& layout, int side) {
  return absl::AsciiStrToUpper(SideLetters(layout, side));
}

int SideByName(const Layout& layout, absl::string_view name) {
  for (int side = 0; side < layout.num_sides; ++side) {
    if (SideName(layout, side) == name) return side;
  }
  return -1;
}

std::string SideNames(const Layout& layout) {
  std::vector<std::string> names;
  for (int side = 0; side < layout.num_sides; ++side) names.push_back(SideName(layout, side));
  return absl::StrJoin(names, " ");
}

std::string RecordPlayer(const Record& record, const Layout& layout, int side) {
  if (layout.IsFourSidedTeams()) return side == 0 ? record.ry : record.gb;
  for (const SidePlayer& player : record.side_players) {
    if (player.side == SideName(layout, side)) return player.player;
  }
  return "";
}

}  // namespace uckers
