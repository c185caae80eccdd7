#include "search/search.h"

#include <algorithm>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "search/expectimax.h"
#include "search/mcts.h"
#include "search/rollout.h"

namespace uckers {
namespace {

constexpr int kMaxDepth = 64;
// A new iteration is not begun past this share of the time budget: the next
// depth costs many times the last one.
constexpr double kIterationTimeShare = 0.35;

struct RootMove {
  Play play;
  Position after;
  double score = 0;
  Evaluation eval;
  bool exact = true;
};

// The level's depth caps the search (movetime and nodes can only cut it
// short); a depth limit replaces it; an infinite search deepens until stop.
int MaxDepthFor(const SearchParams& params, const SearchLimits& limits, const Position& pos) {
  if (limits.depth) return std::min(*limits.depth, kMaxDepth);
  if (limits.infinite) return kMaxDepth;
  if (params.ending_extension > 0) {
    int left = 0;
    for (int c = 0; c < kNumColours; ++c) left += pos.CountNotHome(c);
    if (left <= params.ending_pieces) {
      return std::min(params.max_depth + params.ending_extension, kMaxDepth);
    }
  }
  return params.max_depth;
}

bool BetterRoot(const RootMove& a, const RootMove& b) {
  if (a.exact != b.exact) return a.exact;
  return a.score > b.score;
}

// One iteration at `depth` over the root plays, shared among threads; each
// play is searched with alpha at the multipv-th best exact score so far.
bool SearchRootDepth(std::vector<RootMove>& root, int team, int depth, const Rules& rules,
                     const SearchParams& params, TranspositionTable* tt, Limiter* limiter,
                     uint64_t* nodes) {
  ScoreRange range = RangeOf(params.objective);
  std::vector<RootMove> next = root;
  std::mutex mutex;
  std::vector<double> exact_scores;
  size_t cursor = 0;
  bool aborted = false;
  auto worker = [&] {
    Expectimax search(rules, params, tt, limiter);
    for (;;) {
      size_t i;
      double alpha = range.lo;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (cursor >= next.size() || aborted) break;
        i = cursor++;
        if (static_cast<int>(exact_scores.size()) >= params.multipv) {
          std::vector<double> s = exact_scores;
          std::nth_element(s.begin(), s.begin() + params.multipv - 1, s.end(),
                           std::greater<double>());
          alpha = s[params.multipv - 1];
        }
      }
      Evaluation e;
      double v = search.After(next[i].after, team, depth - 1, alpha, range.hi, &e);
      std::lock_guard<std::mutex> lock(mutex);
      if (search.aborted()) {
        aborted = true;
        break;
      }
      next[i].score = v;
      next[i].eval = e;
      next[i].exact = v > alpha || alpha == range.lo;
      if (next[i].exact) exact_scores.push_back(v);
    }
    std::lock_guard<std::mutex> lock(mutex);
    *nodes += search.nodes();
  };
  int threads = std::max(1, std::min<int>(params.threads, root.size()));
  std::vector<std::thread> pool;
  for (int k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (aborted) return false;
  std::stable_sort(next.begin(), next.end(), BetterRoot);
  root = std::move(next);
  return true;
}

SearchReport MakeReport(const std::vector<RootMove>& root, int depth, uint64_t nodes,
                        const Limiter& limiter, int multipv) {
  SearchReport report;
  report.depth = depth;
  report.nodes = nodes;
  report.time_ms = limiter.ElapsedMs();
  for (const RootMove& m : root) {
    if (static_cast<int>(report.candidates.size()) >= multipv) break;
    report.candidates.push_back({m.play, m.after, m.eval});
  }
  report.eval = root[0].eval;
  return report;
}

SearchReport ExpectimaxPlay(const Position& pos, const Rules& rules, Throw t,
                            const SearchParams& params, const SearchLimits& limits,
                            TranspositionTable* tt, const std::atomic<bool>& stop,
                            const ReportCallback& on_progress) {
  Limiter limiter(stop, limits.movetime_ms, limits.nodes);
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  int team = TeamOf(pos.to_throw());
  // Step 1. Depth 1, never interrupted: every play's static value (a
  // challenge declared resolved in closed form).
  std::atomic<bool> never{false};
  Limiter unlimited(never, std::nullopt, std::nullopt);
  Expectimax first(rules, params, tt, &unlimited);
  std::vector<RootMove> root;
  for (const PlayResult& r : plays) {
    RootMove m;
    m.play = r.play;
    m.after = r.after;
    m.score = first.Horizon(r.after, team, &m.eval);
    root.push_back(m);
  }
  std::stable_sort(root.begin(), root.end(), BetterRoot);
  uint64_t nodes = first.nodes();
  limiter.Tick(nodes);
  int depth = 1;
  if (on_progress) on_progress(MakeReport(root, 1, nodes, limiter, params.multipv));
  // Step 2. Iterative deepening while the limits allow (a single legal play
  // is searched too: its evaluation is part of the answer).
  int max_depth = MaxDepthFor(params, limits, pos);
  for (int d = 2; d <= max_depth && !limiter.stopped(); ++d) {
    if (limits.movetime_ms && !limits.infinite &&
        limiter.ElapsedMs() > kIterationTimeShare * *limits.movetime_ms) {
      break;
    }
    if (!SearchRootDepth(root, team, d, rules, params, tt, &limiter, &nodes)) break;
    depth = d;
    if (on_progress) on_progress(MakeReport(root, d, nodes, limiter, params.multipv));
  }
  return MakeReport(root, depth, nodes, limiter, params.multipv);
}

// The endgame tables' answer at a covered root: every play with its exact
// value, best first (among equal values, the first generated: the table's
// BestPlay). nullopt when no table covers the position.
std::optional<SearchReport> TablePlay(const Position& pos, const Rules& rules, Throw t,
                                      const SearchParams& params, const std::atomic<bool>& stop) {
  if (!params.endgame || pos.IsGameOver() || !TableEvaluation(pos, rules, params)) {
    return std::nullopt;
  }
  PlayList plays;
  GenerateLegalPlays(pos, rules, t, &plays);
  int team = TeamOf(pos.to_throw());
  std::vector<RootMove> root;
  for (const PlayResult& r : plays) {
    std::optional<Evaluation> e = TableEvaluation(r.after, rules, params);
    if (!e) return std::nullopt;
    if (TeamOf(r.after.to_throw()) != team) *e = e->Flipped();
    root.push_back({r.play, r.after, Score(*e, params.objective), *e, true});
  }
  std::stable_sort(root.begin(), root.end(), BetterRoot);
  Limiter limiter(stop, std::nullopt, std::nullopt);
  SearchReport report = MakeReport(root, 1, root.size(), limiter, params.multipv);
  report.exact = true;
  return report;
}

SearchReport ExpectimaxAnalyse(const Position& pos, const Rules& rules, const SearchParams& params,
                               const SearchLimits& limits, TranspositionTable* tt,
                               const std::atomic<bool>& stop, const ReportCallback& on_progress) {
  SearchReport report;
  if (std::optional<Evaluation> e = params.endgame && !pos.IsGameOver()
                                        ? TableEvaluation(pos, rules, params)
                                        : std::nullopt) {
    report.depth = 1;
    report.eval = *e;
    report.exact = true;
    if (on_progress) on_progress(report);
    return report;
  }
  Limiter limiter(stop, limits.movetime_ms, limits.nodes);
  ScoreRange range = RangeOf(params.objective);
  int max_depth = pos.IsGameOver() ? 1 : MaxDepthFor(params, limits, pos);
  for (int d = 1; d <= max_depth; ++d) {
    std::atomic<bool> never{false};
    Limiter unlimited(never, std::nullopt, std::nullopt);
    Expectimax search(rules, params, tt, d == 1 ? &unlimited : &limiter);
    Evaluation e;
    search.Chance(pos, d, range.lo, range.hi, &e);
    if (search.aborted()) break;
    if (d == 1) limiter.Tick(search.nodes());
    report.depth = d;
    report.nodes += search.nodes();
    report.eval = e;
    report.time_ms = limiter.ElapsedMs();
    if (on_progress) on_progress(report);
    if (limiter.stopped()) break;
    if (limits.movetime_ms && !limits.infinite &&
        limiter.ElapsedMs() > kIterationTimeShare * *limits.movetime_ms) {
      break;
    }
  }
  return report;
}

}  // namespace

std::optional<Algorithm> AlgorithmByName(std::string_view name) {
  if (name == "expectimax") return Algorithm::kExpectimax;
  if (name == "mcts") return Algorithm::kMcts;
  if (name == "rollout") return Algorithm::kRollout;
  return std::nullopt;
}

double Score(const Evaluation& e, Objective objective) {
  return objective == Objective::kWin ? e.Win() : e.Equity();
}

std::optional<EvalKind> EvalKindByName(std::string_view name) {
  if (name == "net") return EvalKind::kNet;
  if (name == "classic") return EvalKind::kClassic;
  return std::nullopt;
}

const char* EvalKindName(EvalKind kind) { return kind == EvalKind::kNet ? "net" : "classic"; }

SearchParams ResolveEvaluation(const SearchParams& params, const Rules& rules) {
  SearchParams p = params;
  if (p.eval == EvalKind::kClassic) {
    p.net = nullptr;
  } else if (p.net == nullptr || !(p.net->rules() == rules)) {
    p.net = NetFor(rules);
  }
  return p;
}

std::string EvaluationInUse(const SearchParams& params, const Rules& rules) {
  SearchParams p = ResolveEvaluation(params, rules);
  if (p.net) return absl::StrCat("net (", p.net->Describe(), ")");
  if (params.eval == EvalKind::kNet) {
    return absl::StrCat("classic (no net trained for rules ", rules.ToString(), ")");
  }
  return "classic";
}

SearchReport SearchPlay(const Position& pos, const Rules& rules, Throw t,
                        const SearchParams& requested, const SearchLimits& limits,
                        TranspositionTable* tt, const std::atomic<bool>& stop,
                        const ReportCallback& on_progress) {
  SearchParams params = ResolveEvaluation(requested, rules);
  if (std::optional<SearchReport> exact = TablePlay(pos, rules, t, params, stop)) {
    if (on_progress) on_progress(*exact);
    return *exact;
  }
  if (params.algorithm == Algorithm::kMcts) {
    return MctsPlay(pos, rules, t, params, limits, stop, on_progress);
  }
  if (params.algorithm == Algorithm::kRollout) {
    return RolloutPlay(pos, rules, t, params, limits, stop, on_progress);
  }
  return ExpectimaxPlay(pos, rules, t, params, limits, tt, stop, on_progress);
}

SearchReport AnalysePosition(const Position& pos, const Rules& rules, const SearchParams& params,
                             const SearchLimits& limits, TranspositionTable* tt,
                             const std::atomic<bool>& stop, const ReportCallback& on_progress) {
  return ExpectimaxAnalyse(pos, rules, ResolveEvaluation(params, rules), limits, tt, stop,
                           on_progress);
}

}  // namespace uckers
