#include "endgame/table.h"

#include <cmath>

#include "endgame/bellman.h"
#include "rules/movegen.h"

namespace uckers {

uint16_t EndgameTable::Encode(double win) {
  double clamped = std::min(1.0, std::max(0.0, win));
  return static_cast<uint16_t>(std::lround(clamped * kOne));
}

EndgameTable::EndgameTable(EndgameClass cls, const Rules& rules,
                           std::array<std::vector<uint16_t>, kNumEndgameShapes> wins)
    : class_(cls), rules_(rules), wins_(std::move(wins)) {}

uint64_t EndgameTable::size() const {
  uint64_t n = 0;
  for (const auto& codes : wins_) n += codes.size();
  return n;
}

std::optional<double> EndgameTable::ProbeWin(const Position& pos, const Rules& rules) const {
  if (!(rules == rules_)) return std::nullopt;
  auto lookup = [this](EndgameSlot slot) { return WinAt(slot); };
  if (pos.challenge_active()) {
    // A challenge under way: the chain of forced throws (RULES.md §6).
    return WinFor(pos, TeamOf(pos.to_throw()), rules_, lookup);
  }
  std::optional<EndgameSlot> slot = SlotOf(pos);
  if (!slot) return std::nullopt;
  return WinAt(*slot);
}

std::optional<EndgameValues> EndgameTable::Probe(const Position& pos, const Rules& rules) const {
  std::optional<double> win = ProbeWin(pos, rules);
  if (!win) return std::nullopt;
  return PlainWinLoss(*win);
}

std::optional<EndgameChoice> EndgameTable::BestPlay(const Position& pos, const Rules& rules,
                                                    Throw t) const {
  if (!ProbeWin(pos, rules)) return std::nullopt;
  PlayList plays;
  GenerateLegalPlays(pos, rules_, t, &plays);
  auto lookup = [this](EndgameSlot slot) { return WinAt(slot); };
  int best = 0;
  std::optional<double> win = BestPlayWin(pos, plays, rules_, lookup, &best);
  if (!win) return std::nullopt;
  return EndgameChoice{plays[best].play, plays[best].after, PlainWinLoss(*win)};
}

}  // namespace uckers
