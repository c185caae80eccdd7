#include "endgame/solver.h"

#include <sys/resource.h>

#include <chrono>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "endgame/bellman.h"
#include "rules/movegen.h"
#include "rules/turn.h"
#include "rules/ufen.h"

namespace uckers {
namespace {

// The groups of shapes solved together, in order: each group's successors
// lie in it or in the groups before.
const std::vector<std::vector<int>>& ShapeGroups() {
  static const auto* groups = new std::vector<std::vector<int>>{{0}, {1, 2}, {3}};
  return *groups;
}

// A slot packed into 32 bits: the shape over the index.
constexpr int kIndexBits = 30;
uint32_t Pack(EndgameSlot slot) { return uint32_t(slot.shape) << kIndexBits | slot.index; }
EndgameSlot Unpack(uint32_t id) {
  return {static_cast<int>(id >> kIndexBits), id & ((1u << kIndexBits) - 1)};
}

// A position and the same pieces with the other team to throw: a throw
// that only passes (nothing can move) leads from one to the other.
uint32_t PairOf(uint32_t id) {
  Position pos = PositionAt(Unpack(id));
  PassTurn(pos);
  return Pack(*SlotOf(pos));
}

// The group's slots in order of decreasing progress, so that a sweep meets
// most successors (further on) before the positions that lead to them,
// each slot followed by its pair (same progress). Counting sort.
std::vector<uint32_t> SweepOrder(const std::vector<int>& shapes) {
  constexpr int kMaxProgress = 4 * (kHome + 1);
  std::vector<uint64_t> start(kMaxProgress + 2, 0);
  for (int s : shapes) {
    for (uint32_t i = 0; i < ShapeSize(s); ++i) ++start[kMaxProgress - SlotProgress({s, i}) + 1];
  }
  for (size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
  std::vector<uint32_t> sorted(start.back());
  for (int s : shapes) {
    for (uint32_t i = 0; i < ShapeSize(s); ++i) {
      sorted[start[kMaxProgress - SlotProgress({s, i})]++] = Pack({s, i});
    }
  }
  std::array<std::vector<bool>, kNumEndgameShapes> placed;
  for (int s : shapes) placed[s].assign(ShapeSize(s), false);
  std::vector<uint32_t> order;
  order.reserve(sorted.size());
  for (uint32_t id : sorted) {
    EndgameSlot slot = Unpack(id);
    if (placed[slot.shape][slot.index]) continue;
    EndgameSlot pair = Unpack(PairOf(id));
    placed[slot.shape][slot.index] = placed[pair.shape][pair.index] = true;
    order.push_back(id);
    order.push_back(Pack(pair));
  }
  return order;
}

// Names the first play of `pos` whose successor the lookup cannot value.
template <class Lookup>
absl::Status Uncovered(const Position& pos, const Rules& rules, const Lookup& lookup) {
  PlayList plays;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, rules, t, &plays);
    if (plays.empty()) return absl::InternalError(absl::StrCat("no play in ", ToUfen(pos)));
    for (const PlayResult& r : plays) {
      if (!WinFor(r.after, TeamOf(pos.to_throw()), rules, lookup)) {
        return absl::InternalError(absl::StrCat("from ", ToUfen(pos), " throw ", t.high, t.low,
                                                " play ", PlayToString(r.play), " leads to ",
                                                ToUfen(r.after), ", outside the class"));
      }
    }
  }
  return absl::InternalError(absl::StrCat("cannot value ", ToUfen(pos)));
}

// What a throw's chosen play leads to, remembered between full sweeps: a
// position (its global id, the value flipped when the other team throws
// there), a finished game, the forced pass back to the position itself or
// to its pair, or a challenge, whose value needs the engine again.
class Step {
 public:
  static constexpr uint32_t kFlipBit = 1u << 31;
  static constexpr uint32_t kSpecialBit = 1u << 30;
  enum Special : uint32_t { kLoss, kWin, kSelf, kPair, kRecompute };
  static uint32_t To(uint32_t id, bool flip) { return id | (flip ? kFlipBit : 0); }
  static uint32_t Of(Special s) { return kSpecialBit | s; }
};

struct Solver {
  EndgameClass cls;
  const Rules& rules;
  const EndgameBuildOptions& options;
  std::array<uint32_t, kNumEndgameShapes + 1> offset{};  // global id of a shape's index 0
  std::vector<double> values{};                          // by global id
  std::array<bool, kNumEndgameShapes> ready{};           // solved or being solved
  std::vector<uint32_t> steps{};  // the group's chosen steps, 21 per position of `order`

  uint32_t GlobalId(EndgameSlot slot) const { return offset[slot.shape] + slot.index; }

  std::optional<double> Lookup(EndgameSlot slot) const {
    if (!ready[slot.shape]) return std::nullopt;
    return values[GlobalId(slot)];
  }

  // The Bellman equation of a position split as
  // 36 V(self) = rest + to_self V(self) + to_pair (1 - V(pair)): the throws
  // whose one legal play leads back to the same position (a pass that earns
  // an extra throw) or to its pair (a pass), and the others at the current
  // values.
  struct Split {
    double rest = 0;
    double to_self = 0;
    double to_pair = 0;
  };

  // The value of `after` for `team` and the step that remembers it.
  std::optional<double> Successor(const Position& after, int team, uint32_t* step) const {
    auto lookup = [this](EndgameSlot slot) { return Lookup(slot); };
    if (!after.IsGameOver() && !after.challenge_active()) {
      std::optional<EndgameSlot> slot = SlotOf(after);
      if (!slot || !ready[slot->shape]) return std::nullopt;
      bool flip = TeamOf(after.to_throw()) != team;
      *step = Step::To(GlobalId(*slot), flip);
      double v = values[GlobalId(*slot)];
      return flip ? 1 - v : v;
    }
    std::optional<double> win = WinFor(after, team, rules, lookup);
    if (win)
      *step = after.challenge_active() ? Step::Of(Step::kRecompute)
                                       : Step::Of(*win > 0.5 ? Step::kWin : Step::kLoss);
    return win;
  }

  // Evaluates a position with the engine, remembering each throw's chosen
  // step in `chosen` (21 entries).
  absl::Status Evaluate(EndgameSlot self, EndgameSlot pair, Split* split, uint32_t* chosen) const {
    Position pos = PositionAt(self);
    int team = TeamOf(pos.to_throw());
    PlayGenerator generator(pos, rules);
    PlayList plays;
    *split = Split{};
    for (size_t k = 0; k < kThrows.size(); ++k) {
      Throw t = kThrows[k];
      generator.Generate(t, &plays);
      if (plays.size() == 1) {
        std::optional<EndgameSlot> next = SlotOf(plays[0].after);
        if (next == self || next == pair) {
          (next == self ? split->to_self : split->to_pair) += t.Weight();
          chosen[k] = Step::Of(next == self ? Step::kSelf : Step::kPair);
          continue;
        }
      }
      auto lookup = [this](EndgameSlot slot) { return Lookup(slot); };
      if (plays.empty()) return Uncovered(pos, rules, lookup);
      double best = -1;
      for (const PlayResult& r : plays) {
        uint32_t step = 0;
        std::optional<double> win = Successor(r.after, team, &step);
        if (!win) return Uncovered(pos, rules, lookup);
        if (*win > best) {
          best = *win;
          chosen[k] = step;
        }
      }
      split->rest += t.Weight() * best;
    }
    return absl::OkStatus();
  }

  // The same from the remembered steps; false when one needs the engine.
  bool Replay(const uint32_t* chosen, Split* split) const {
    *split = Split{};
    for (size_t k = 0; k < kThrows.size(); ++k) {
      uint32_t step = chosen[k];
      double w = kThrows[k].Weight();
      if (step & Step::kSpecialBit) {
        switch (step & ~Step::kSpecialBit) {
          case Step::kWin:
            split->rest += w;
            break;
          case Step::kLoss:
            break;
          case Step::kSelf:
            split->to_self += w;
            break;
          case Step::kPair:
            split->to_pair += w;
            break;
          default:
            return false;
        }
        continue;
      }
      double v = values[step & ~Step::kFlipBit];
      split->rest += w * ((step & Step::kFlipBit) ? 1 - v : v);
    }
    return true;
  }

  // One Gauss-Seidel sweep over pairs, each pair's two equations solved
  // together: with the engine (`full`), or replaying the steps chosen in the
  // last full sweep (policy evaluation). The largest change in `change`.
  absl::Status Sweep(const std::vector<uint32_t>& order, bool full, double* change) {
    *change = 0;
    constexpr size_t kN = kThrows.size();
    for (size_t i = 0; i < order.size(); i += 2) {
      EndgameSlot s = Unpack(order[i]);
      EndgameSlot t = Unpack(order[i + 1]);
      uint32_t* chosen_s = &steps[i * kN];
      uint32_t* chosen_t = &steps[(i + 1) * kN];
      Split a, b;
      if (full || !Replay(chosen_s, &a)) {
        if (absl::Status st = Evaluate(s, t, &a, chosen_s); !st.ok()) return st;
      }
      if (full || !Replay(chosen_t, &b)) {
        if (absl::Status st = Evaluate(t, s, &b, chosen_t); !st.ok()) return st;
      }
      double& vs = values[GlobalId(s)];
      double& vt = values[GlobalId(t)];
      // 36 vs = a.rest + a.to_self vs + a.to_pair (1 - vt), and so for vt.
      double p = 36 - a.to_self, q = 36 - b.to_self;
      double det = p * q - a.to_pair * b.to_pair;
      double new_t =
          det > 1e-9 ? (p * (b.rest + b.to_pair) - b.to_pair * (a.rest + a.to_pair)) / det : vt;
      double new_s = p > 1e-9 ? (a.rest + a.to_pair * (1 - new_t)) / p : vs;
      *change = std::max({*change, std::abs(new_s - vs), std::abs(new_t - vt)});
      vs = new_s;
      vt = new_t;
    }
    return absl::OkStatus();
  }

  void Report(EndgameGroupStats& stats, const char* kind, double change) const {
    if (!options.progress) return;
    options.progress(absl::StrFormat("%s %s sweep %d: largest change %.3g", stats.shapes, kind,
                                     stats.sweeps + stats.replay_sweeps, change));
  }

  // Modified policy iteration: a full sweep (the Bellman operator, which
  // also chooses each throw's play), then replayed sweeps with those plays
  // until their values settle, again and again, until a full sweep moves no
  // value more than the tolerance: the values then satisfy the expectimax
  // equations themselves, whatever the replays did.
  absl::StatusOr<EndgameGroupStats> SolveGroup(const std::vector<int>& shapes) {
    auto start = std::chrono::steady_clock::now();
    EndgameGroupStats stats;
    for (int s : shapes) {
      absl::StrAppend(&stats.shapes, stats.shapes.empty() ? "" : "+", ShapeName(s));
      std::fill(values.begin() + offset[s], values.begin() + offset[s + 1], 0.5);
      ready[s] = true;
      stats.states += ShapeSize(s);
    }
    std::vector<uint32_t> order = SweepOrder(shapes);
    steps.assign(order.size() * kThrows.size(), 0);
    double change = 1;
    while (true) {
      if (stats.sweeps == options.max_sweeps) {
        return absl::InternalError(absl::StrCat(stats.shapes, ": values still move by ", change,
                                                " after ", stats.sweeps, " full sweeps"));
      }
      if (absl::Status s = Sweep(order, /*full=*/true, &change); !s.ok()) return s;
      ++stats.sweeps;
      Report(stats, "full", change);
      if (change <= options.tolerance) break;
      double replayed = 1;
      for (int k = 0; k < options.max_replays && replayed > options.tolerance / 4; ++k) {
        if (absl::Status s = Sweep(order, /*full=*/false, &replayed); !s.ok()) return s;
        ++stats.replay_sweeps;
        Report(stats, "replay", replayed);
      }
    }
    steps = {};
    stats.last_change = change;
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
  }
};

uint64_t PeakRssBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // kilobytes on Linux
}

}  // namespace

absl::StatusOr<EndgameTable> BuildEndgameTable(EndgameClass cls, const Rules& rules,
                                               const EndgameBuildOptions& options,
                                               EndgameBuildStats* stats) {
  if (absl::Status s = CheckEndgameRules(rules); !s.ok()) return s;
  auto start = std::chrono::steady_clock::now();
  Solver solver{cls, rules, options};
  for (int s = 0; s < kNumEndgameShapes; ++s) {
    solver.offset[s + 1] = solver.offset[s] + (ClassHasShape(cls, s) ? ShapeSize(s) : 0);
  }
  solver.values.assign(solver.offset.back(), 0.0);
  EndgameBuildStats figures;
  for (const std::vector<int>& group : ShapeGroups()) {
    if (!ClassHasShape(cls, group.front())) continue;
    absl::StatusOr<EndgameGroupStats> g = solver.SolveGroup(group);
    if (!g.ok()) return g.status();
    figures.groups.push_back(*g);
    figures.states += g->states;
  }
  std::array<std::vector<uint16_t>, kNumEndgameShapes> wins;
  for (int s = 0; s < kNumEndgameShapes; ++s) {
    for (uint32_t i = solver.offset[s]; i < solver.offset[s + 1]; ++i) {
      wins[s].push_back(EndgameTable::Encode(solver.values[i]));
    }
  }
  figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  figures.peak_rss_bytes = PeakRssBytes();
  if (stats) *stats = figures;
  return EndgameTable(cls, rules, std::move(wins));
}

}  // namespace uckers
