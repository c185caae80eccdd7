#include "endgame/solver.h"

#include <sys/resource.h>

#include <chrono>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "endgame/bellman.h"
#include "engine/movegen.h"
#include "engine/turn.h"
#include "engine/ufen.h"

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
        return absl::InternalError(absl::StrCat(
            "from ", ToUfen(pos), " throw ", t.high, t.low, " play ", PlayToString(r.play),
            " leads to ", ToUfen(r.after), ", outside the class"));
      }
    }
  }
  return absl::InternalError(absl::StrCat("cannot value ", ToUfen(pos)));
}

struct Solver {
  EndgameClass cls;
  const Rules& rules;
  const EndgameBuildOptions& options;
  std::array<std::vector<double>, kNumEndgameShapes> values;
  std::array<bool, kNumEndgameShapes> ready{};  // solved or being solved

  std::optional<double> Lookup(EndgameSlot slot) const {
    if (!ready[slot.shape]) return std::nullopt;
    return values[slot.shape][slot.index];
  }

  // The Bellman equation of `pos` (slot `self`, pair `pair`) split as
  // 36 V(self) = rest + to_self V(self) + to_pair (1 - V(pair)): the throws
  // whose one legal play leads back to the same position (a pass that earns
  // an extra throw) or to its pair (a pass), and the others at the current
  // values.
  struct Split {
    double rest = 0;
    double to_self = 0;
    double to_pair = 0;
  };
  absl::Status Evaluate(EndgameSlot self, EndgameSlot pair, Split* split) const {
    auto lookup = [this](EndgameSlot slot) { return Lookup(slot); };
    Position pos = PositionAt(self);
    PlayGenerator generator(pos, rules);
    PlayList plays;
    *split = Split{};
    for (Throw t : kThrows) {
      generator.Generate(t, &plays);
      if (plays.size() == 1) {
        std::optional<EndgameSlot> next = SlotOf(plays[0].after);
        if (next == self) {
          split->to_self += t.Weight();
          continue;
        }
        if (next == pair) {
          split->to_pair += t.Weight();
          continue;
        }
      }
      std::optional<double> win = BestPlayWin(pos, plays, rules, lookup);
      if (!win) return Uncovered(pos, rules, lookup);
      split->rest += t.Weight() * *win;
    }
    return absl::OkStatus();
  }

  // One Gauss-Seidel sweep over pairs, each pair's two equations solved
  // together; the largest change in `change`.
  absl::Status Sweep(const std::vector<uint32_t>& order, double* change) {
    *change = 0;
    for (size_t i = 0; i < order.size(); i += 2) {
      EndgameSlot s = Unpack(order[i]);
      EndgameSlot t = Unpack(order[i + 1]);
      Split a, b;
      if (absl::Status st = Evaluate(s, t, &a); !st.ok()) return st;
      if (absl::Status st = Evaluate(t, s, &b); !st.ok()) return st;
      double& vs = values[s.shape][s.index];
      double& vt = values[t.shape][t.index];
      // 36 vs = a.rest + a.to_self vs + a.to_pair (1 - vt), and so for vt.
      double p = 36 - a.to_self, q = 36 - b.to_self;
      double det = p * q - a.to_pair * b.to_pair;
      double new_t = det > 1e-9 ? (p * (b.rest + b.to_pair) - b.to_pair * (a.rest + a.to_pair)) / det
                                : vt;
      double new_s = p > 1e-9 ? (a.rest + a.to_pair * (1 - new_t)) / p : vs;
      *change = std::max({*change, std::abs(new_s - vs), std::abs(new_t - vt)});
      vs = new_s;
      vt = new_t;
    }
    return absl::OkStatus();
  }

  absl::StatusOr<EndgameGroupStats> SolveGroup(const std::vector<int>& shapes) {
    auto start = std::chrono::steady_clock::now();
    EndgameGroupStats stats;
    for (int s : shapes) {
      absl::StrAppend(&stats.shapes, stats.shapes.empty() ? "" : "+", ShapeName(s));
      values[s].assign(ShapeSize(s), 0.5);
      ready[s] = true;
      stats.states += ShapeSize(s);
    }
    std::vector<uint32_t> order = SweepOrder(shapes);
    double change = 1;
    while (change > options.tolerance) {
      if (stats.sweeps == options.max_sweeps) {
        return absl::InternalError(absl::StrCat(stats.shapes, ": values still move by ", change,
                                                " after ", stats.sweeps, " sweeps"));
      }
      if (absl::Status s = Sweep(order, &change); !s.ok()) return s;
      ++stats.sweeps;
      if (options.progress) {
        options.progress(absl::StrFormat("%s sweep %d: largest change %.3g", stats.shapes,
                                         stats.sweeps, change));
      }
    }
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
  Solver solver{cls, rules, options, {}, {}};
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
    for (double v : solver.values[s]) wins[s].push_back(EndgameTable::Encode(v));
    solver.values[s] = {};
  }
  figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  figures.peak_rss_bytes = PeakRssBytes();
  if (stats) *stats = figures;
  return EndgameTable(cls, rules, std::move(wins));
}

}  // namespace uckers
