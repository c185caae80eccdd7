#include "rules/checked.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/ufen.h"

namespace uckers {

absl::StatusOr<Rules> ParseRulesOrDefault(absl::string_view text) {
  if (text.empty()) return Rules();
  return Rules::Parse(text);
}

absl::StatusOr<Position> ParsePositionOrStart(absl::string_view text, const Rules& rules) {
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

std::vector<PlayResult> SortedLegalPlays(const Position& pos, const Rules& rules, Throw t) {
  PlayList list;
  GenerateLegalPlays(pos, rules, t, &list);
  std::vector<PlayResult> plays(list.begin(), list.end());
  std::sort(plays.begin(), plays.end(), [&pos](const PlayResult& a, const PlayResult& b) {
    return PlayToString(a.play, pos.board()) < PlayToString(b.play, pos.board());
  });
  return plays;
}

}  // namespace uckers
