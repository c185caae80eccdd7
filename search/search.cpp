#include "search/search.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "rules/movegen.h"
#include "search/expectimax.h"
#include "search/mcts.h"
#include "search/rollout.h"

namespace uckers {
namespace {

constexpr int kMaxDepth = 64;
// Under a clock: an iteration is expected to take this many times the one
// before it (the observed ratio of the last two, within kMinGrowth and
// kMaxGrowth: a ply of expectimax over 21 throws costs some 20 to 100 times
// the one before), and the next starts only when it should end by the target.
constexpr double kMinGrowth = 20.0;
constexpr double kMaxGrowth = 60.0;

class IterationTimer {
 public:
  explicit IterationTimer(std::optional<TimeBudget> budget)
      : budget_(budget), start_(std::chrono::steady_clock::now()) {}

  // An iteration has just ended.
  void Ended() {
    double now = ElapsedMs();
    previous_ms_ = last_ms_;
    last_ms_ = now - ended_at_ms_;
    ended_at_ms_ = now;
  }

  // No clock, or the next iteration should end by the target.
  bool NextFits() const {
    if (!budget_) return true;
    double growth = kMinGrowth;
    if (previous_ms_ > 0.01) growth = std::clamp(last_ms_ / previous_ms_, kMinGrowth, kMaxGrowth);
    return ended_at_ms_ + last_ms_ * growth <= static_cast<double>(budget_->target_ms);
  }

  // A clock whose target is still ahead: its target.
  std::optional<int64_t> TargetAhead() const {
    if (!budget_ || ElapsedMs() >= static_cast<double>(budget_->target_ms)) return std::nullopt;
    return budget_->target_ms;
  }

 private:
  double ElapsedMs() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }
  std::optional<TimeBudget> budget_;
  std::chrono::steady_clock::time_point start_;
  double ended_at_ms_ = 0, last_ms_ = 0, previous_ms_ = 0;
};

// The time a finite search may spend: `movetime` (its target and its
// limit), the clock's budget for the team to throw, or the sooner of both.
std::optional<TimeBudget> SpendableTime(const SearchLimits& limits, const Position& pos) {
  if (limits.infinite) return std::nullopt;
  std::optional<TimeBudget> budget = BudgetFor(limits.clocks, pos);
  if (limits.movetime_ms) {
    TimeBudget fixed{*limits.movetime_ms, *limits.movetime_ms};
    if (!budget) return fixed;
    budget->target_ms = std::min(budget->target_ms, fixed.target_ms);
    budget->limit_ms = std::min(budget->limit_ms, fixed.limit_ms);
  }
  return budget;
}

// The hard stop: the budget's limit; for an infinite search, movetime.
std::optional<int64_t> HardStop(const SearchLimits& limits, std::optional<TimeBudget> budget) {
  return budget ? std::optional<int64_t>(budget->limit_ms) : limits.movetime_ms;
}

struct RootMove {
  Play play;
  Position after;
  double score = 0;
  Evaluation eval;
  bool exact = true;
};

// The level's depth caps the search (nodes can only cut it short); a depth
// limit replaces it; an infinite search deepens until stop, and one with
// time to spend (`spends_time`: movetime or a clock) while its time allows.
int MaxDepthFor(const SearchParams& params, const SearchLimits& limits, const Position& pos,
                bool spends_time) {
  if (limits.depth) return std::min(*limits.depth, kMaxDepth);
  if (limits.infinite || spends_time) return kMaxDepth;
  if (params.ending_extension > 0) {
    int left = 0;
    for (int c = 0; c < kNumColours; ++c) left += pos.CountNotHome(c);
    if (left <= params.ending_pieces) {
      return std::min(params.max_depth + params.ending_extension, kMaxDepth);
    }
  }
  return params.max_depth;
}

// The parameters of the iteration at `depth`: with time to spend, from
// kDeepFilterFromDepth on, the deep filter (search/params.h).
SearchParams ForIteration(const SearchParams& params, int depth, bool spends_time) {
  if (!spends_time || depth < kDeepFilterFromDepth || params.deep_filter_width <= 0) {
    return params;
  }
  SearchParams p = params;
  p.filter_width = params.deep_filter_width;
  p.filter_margin = params.deep_filter_margin;
  return p;
}

bool BetterRoot(const RootMove& a, const RootMove& b) {
  if (a.exact != b.exact) return a.exact;
  return a.score > b.score;
}

// An iteration cut short (`done`: the plays it searched to its end). When
// it searched the best play of the iteration before, the plays it valued
// exactly go first, best first, with their deeper values, and the others
// keep their order and values: the best play is then the best of those
// searched deeper (a play searched after the first is exact only when it
// beats it). Otherwise `root` is left as it was.
void TakePartial(std::vector<RootMove>& root, const std::vector<RootMove>& next,
                 const std::vector<bool>& done) {
  if (root.empty() || !done[0]) return;
  std::vector<RootMove> deeper, rest;
  for (size_t i = 0; i < root.size(); ++i) {
    if (done[i] && next[i].exact) {
      deeper.push_back(next[i]);
    } else {
      rest.push_back(root[i]);
    }
  }
  std::stable_sort(deeper.begin(), deeper.end(), BetterRoot);
  deeper.insert(deeper.end(), rest.begin(), rest.end());
  root = std::move(deeper);
}

// One iteration at `depth` over the root plays, shared among threads; each
// play is searched with alpha at the multipv-th best exact score so far.
// False when the limits cut it short; then with partial iterations the
// plays it searched count (TakePartial), otherwise `root` is left as it was.
bool SearchRootDepth(std::vector<RootMove>& root, int team, int depth, const Rules& rules,
                     const SearchParams& params, TranspositionTable* tt, Limiter* limiter,
                     uint64_t* nodes) {
  ScoreRange range = RangeOf(params.objective);
  std::vector<RootMove> next = root;
  std::vector<bool> done(next.size(), false);
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
      done[i] = true;
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
  if (aborted) {
    if (params.partial_iteration) TakePartial(root, next, done);
    return false;
  }
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
  std::optional<TimeBudget> budget = SpendableTime(limits, pos);
  IterationTimer timer(budget);
  Limiter limiter(stop, HardStop(limits, budget), limits.nodes);
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
  timer.Ended();
  // One legal play keeps the level's depth whatever the time: nothing to choose.
  int max_depth = MaxDepthFor(params, limits, pos, budget && root.size() > 1);
  // With partial iterations, one that would not end by the target still
  // starts while the target is ahead, and ends at it.
  for (int d = 2; d <= max_depth && !limiter.stopped(); ++d) {
    if (d > 2 && !timer.NextFits()) {
      std::optional<int64_t> target = timer.TargetAhead();
      if (!params.partial_iteration || !target) break;
      limiter.EndBy(*target);
    }
    if (!SearchRootDepth(root, team, d, rules, ForIteration(params, d, budget.has_value()), tt,
                         &limiter, &nodes)) {
      break;
    }
    timer.Ended();
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
  std::optional<TimeBudget> budget = pos.IsGameOver() ? std::nullopt : SpendableTime(limits, pos);
  IterationTimer timer(budget);
  Limiter limiter(stop, HardStop(limits, budget), limits.nodes);
  ScoreRange range = RangeOf(params.objective);
  int max_depth = pos.IsGameOver() ? 1 : MaxDepthFor(params, limits, pos, budget.has_value());
  for (int d = 1; d <= max_depth; ++d) {
    if (d > 2 && !timer.NextFits()) break;
    std::atomic<bool> never{false};
    Limiter unlimited(never, std::nullopt, std::nullopt);
    SearchParams iteration = ForIteration(params, d, budget.has_value());
    Expectimax search(rules, iteration, tt, d == 1 ? &unlimited : &limiter);
    Evaluation e;
    search.Chance(pos, d, range.lo, range.hi, &e);
    if (search.aborted()) break;
    if (d == 1) limiter.Tick(search.nodes());
    report.depth = d;
    report.nodes += search.nodes();
    report.eval = e;
    report.time_ms = limiter.ElapsedMs();
    timer.Ended();
    if (on_progress) on_progress(report);
    if (limiter.stopped()) break;
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
  if (p.random_opponent) {
    p.endgame = nullptr;
    bool given =
        p.net != nullptr && p.net->rules() == rules && !p.net->any_rules() && !p.net->per_side();
    p.net = p.eval == EvalKind::kClassic ? nullptr : given ? p.net : NetAgainstRandomFor(rules);
    if (p.net == nullptr) p.random_opponent = false;  // CheckOpponentModel refuses it
    return p;
  }
  if (p.eval == EvalKind::kClassic) {
    p.net = nullptr;
  } else if (p.net != nullptr && p.net->any_rules()) {
    const Net* view = p.net->ForRules(rules);
    p.net = view ? view : NetFor(rules);
  } else if (p.net == nullptr || !(p.net->rules() == rules)) {
    p.net = NetFor(rules);
  }
  return p;
}

absl::Status CheckOpponentModel(const SearchParams& params, const Rules& rules) {
  if (!params.random_opponent) return absl::OkStatus();
  if (!rules.layout().IsFourSidedTeams()) {
    if (params.algorithm == Algorithm::kMcts) {
      return absl::InvalidArgumentError(
          "opponent random: with more sides the search must be expectimax (max^n), not mcts");
    }
    return absl::OkStatus();  // every other side's plays averaged (search/multi_side.h)
  }
  if (params.algorithm != Algorithm::kExpectimax) {
    return absl::InvalidArgumentError(
        absl::StrCat("opponent random: the search must be expectimax, not ",
                     params.algorithm == Algorithm::kMcts ? "mcts" : "rollout"));
  }
  if (params.eval == EvalKind::kClassic) {
    return absl::InvalidArgumentError(
        "opponent random: values positions by a net trained against random, not the classic "
        "evaluation (eval classic)");
  }
  if (!ResolveEvaluation(params, rules).random_opponent) {
    return absl::InvalidArgumentError(absl::StrCat(
        "opponent random: no net trained against random is shipped for rules ", rules.ToString(),
        " (train one with `uckers train --opponent random` and give it as the net file)"));
  }
  return absl::OkStatus();
}

SearchParams WithOpponentInferred(const SearchParams& params, const Rules& rules) {
  if (!params.infer_opponent || params.random_opponent || !params.opponent_looks_random) {
    return params;
  }
  SearchParams p = params;
  p.random_opponent = true;
  return CheckOpponentModel(p, rules).ok() ? p : params;
}

std::string EvaluationInUse(const SearchParams& params, const Rules& rules) {
  SearchParams p = ResolveEvaluation(WithOpponentInferred(params, rules), rules);
  if (p.random_opponent) {
    return absl::StrCat("net against random (", p.net->Describe(), ")");
  }
  if (p.net) return absl::StrCat("net (", p.net->Describe(), ")");
  if (params.eval == EvalKind::kNet) {
    return absl::StrCat("classic (no net trained for rules ", rules.ToString(), ")");
  }
  return "classic";
}

namespace {

// The parameters of a search from `root`: the evaluation settled, and the
// team modelled as random, where one is, the one not to play there.
SearchParams ForRoot(const SearchParams& requested, const Rules& rules, const Position& root) {
  SearchParams p = ResolveEvaluation(WithOpponentInferred(requested, rules), rules);
  p.random_team = p.random_opponent ? 1 - TeamOf(root.to_throw()) : -1;
  return p;
}

}  // namespace

SearchReport SearchPlay(const Position& pos, const Rules& rules, Throw t,
                        const SearchParams& requested, const SearchLimits& limits,
                        TranspositionTable* tt, const std::atomic<bool>& stop,
                        const ReportCallback& on_progress) {
  SearchParams params = ForRoot(requested, rules, pos);
  if (std::optional<SearchReport> exact = TablePlay(pos, rules, t, params, stop)) {
    if (on_progress) on_progress(*exact);
    return *exact;
  }
  if (params.algorithm != Algorithm::kExpectimax) {
    // Sampling searches run until told to stop: with time to spend, at its
    // target.
    SearchLimits timed = limits;
    if (std::optional<TimeBudget> budget = SpendableTime(limits, pos)) {
      timed.movetime_ms = budget->target_ms;
    }
    if (params.algorithm == Algorithm::kMcts) {
      return MctsPlay(pos, rules, t, params, timed, stop, on_progress);
    }
    return RolloutPlay(pos, rules, t, params, timed, stop, on_progress);
  }
  return ExpectimaxPlay(pos, rules, t, params, limits, tt, stop, on_progress);
}

SearchReport AnalysePosition(const Position& pos, const Rules& rules, const SearchParams& params,
                             const SearchLimits& limits, TranspositionTable* tt,
                             const std::atomic<bool>& stop, const ReportCallback& on_progress) {
  return ExpectimaxAnalyse(pos, rules, ForRoot(params, rules, pos), limits, tt, stop, on_progress);
}

}  // namespace uckers
