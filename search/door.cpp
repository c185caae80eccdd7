#include "search/door.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "search/levels.h"
#include "search/multi_side.h"
#include "search/multi_side_mcts.h"
#include "search/search.h"

namespace uckers {
namespace {

// The throws a level looks ahead with more than two sides; a level the
// request's checks let through always has one.
int MultiSideDepthOrDefault(const std::string& level) {
  absl::StatusOr<int> depth = MultiSideDepthOf(level.empty() ? kDefaultLevel : level);
  return depth.ok() ? *depth : 2;
}

// A multi-side search's answer as the one report: each candidate's `sides`
// every side's chance, its `eval` the mover's side's as a plain win or loss.
SearchReport MultiSideReportOf(const Position& pos, const MultiSideReport& searched, int multipv) {
  int side = pos.SideOf(pos.to_throw());
  auto as_eval = [side](const SideValues& v) {
    Evaluation e;
    e.p[kWinPlain] = v.win[side];
    e.p[kLossPlain] = 1 - v.win[side];
    return e;
  };
  auto all = [](const SideValues& v) {
    return std::vector<double>(v.win.begin(), v.win.begin() + v.sides);
  };
  SearchReport report;
  report.depth = searched.depth;
  report.nodes = searched.nodes;
  report.time_ms = searched.time_ms;
  report.eval = as_eval(searched.values);
  report.sides = all(searched.values);
  for (const MultiSideCandidate& c : searched.candidates) {
    if (static_cast<int>(report.candidates.size()) == multipv) break;
    report.candidates.push_back({c.play, c.after, as_eval(c.values), all(c.values)});
  }
  return report;
}

// The search of a layout of more than two sides: max^n (or paranoid) at the
// level's depth, or MCTS-max^n within tree_mb, on the layout's net.
absl::StatusOr<SearchReport> SearchMoreSides(const Position& pos, const Rules& rules,
                                             const SearchRequest& request,
                                             const SearchParams& params,
                                             const std::atomic<bool>& stop) {
  MultiSideParams multi;
  multi.mode = request.paranoid ? MultiSideMode::kParanoid : MultiSideMode::kMaxN;
  multi.max_depth = MultiSideDepthOrDefault(request.level);
  multi.net = MultiSideNet(rules, params.eval, params.net);
  multi.weights = params.weights;
  multi.noise = params.noise;
  // The Filter setting where one is given (0: every play), else the
  // multi-side search's own width.
  if (request.filter) multi.filter_width = *request.filter == 0 ? 1000 : *request.filter;
  multi.seed = params.seed;
  // Opponent=random: every other side plays at random; Opponent=auto: the
  // sides whose plays so far looked random.
  const uint32_t others = ((1u << pos.num_sides()) - 1) & ~(1u << pos.SideOf(pos.to_throw()));
  if (params.random_opponent) {
    multi.random_sides = others;
  } else if (params.infer_opponent) {
    multi.random_sides = request.random_sides & others;
  }
  absl::StatusOr<MultiSideReport> searched;
  if (params.algorithm == Algorithm::kMcts) {
    MultiSideMctsParams mcts;
    mcts.mode = multi.mode;
    mcts.tree_mb = request.tree_mb;
    mcts.net = multi.net;
    searched = SearchMultiSideMcts(pos, rules, request.dice, mcts, request.limits, stop);
  } else {
    searched = SearchMultiSide(pos, rules, request.dice, multi, request.limits, stop);
  }
  if (!searched.ok()) return searched.status();
  return MultiSideReportOf(pos, *searched, request.multipv);
}

}  // namespace

absl::StatusOr<SearchParams> RequestParams(const SearchRequest& request) {
  // The fields a caller fills directly are checked against the table here.
  if (absl::Status s = CheckIntSetting("multipv", request.multipv); !s.ok()) return s;
  if (absl::Status s = CheckIntSetting("threads", request.threads); !s.ok()) return s;
  if (absl::Status s = CheckIntSetting("tree_mb", request.tree_mb); !s.ok()) return s;
  absl::StatusOr<SearchParams> params = ParamsOf(request);
  if (!params.ok()) return params.status();
  params->endgame = request.endgames;
  params->opponent_looks_random = request.opponent_looks_random;
  for (const auto& [name, value] : request.weights) {
    double* weight = EvalWeightByName(params->weights, name);
    if (!weight)
      return absl::InvalidArgumentError(absl::StrCat("unknown weight 'eval.", name, "'"));
    *weight = value;
  }
  return params;
}

absl::Status CheckClocksFor(const Clocks& clocks, const Position& pos) {
  if (pos.layout().IsFourSidedTeams()) return CheckClocks(clocks, pos);
  if (clocks.time_ms[0] || clocks.time_ms[1]) {
    return absl::InvalidArgumentError(
        "clocks (wtime, btime) are per team of the four-sided game of two teams; with more sides "
        "give movetime");
  }
  return absl::OkStatus();
}

absl::StatusOr<SearchParams> CheckSearch(const Position& pos, const Rules& rules,
                                         const SearchRequest& request) {
  if (pos.IsGameOver()) {
    return absl::FailedPreconditionError("the game is over: no play to search");
  }
  absl::StatusOr<SearchParams> params = RequestParams(request);
  if (!params.ok()) return params.status();
  if (absl::Status s = CheckOpponentModel(*params, rules); !s.ok()) return s;
  if (absl::Status s = CheckClocksFor(request.limits.clocks, pos); !s.ok()) return s;
  if (pos.layout().IsFourSidedTeams()) return params;
  if (params->algorithm == Algorithm::kRollout) {
    return absl::InvalidArgumentError(
        "with more than two sides the search is expectimax (max^n) or mcts");
  }
  if (const Net* net = params->net; net && !(net->per_side() && net->Serves(rules))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "netfile: the net is for rules ", net->any_rules() ? "of any switches of " : "",
        net->rules().ToString(), net->any_rules() ? " (mixie_stack left out)" : "", ", not ",
        rules.ToString()));
  }
  return params;
}

absl::StatusOr<SearchReport> SearchPosition(const Position& pos, const Rules& rules,
                                            const SearchRequest& request, TranspositionTable* tt,
                                            const std::atomic<bool>& stop,
                                            const ReportCallback& on_progress) {
  absl::StatusOr<SearchParams> params = CheckSearch(pos, rules, request);
  if (!params.ok()) return params.status();
  if (!pos.layout().IsFourSidedTeams()) {
    absl::StatusOr<SearchReport> report = SearchMoreSides(pos, rules, request, *params, stop);
    if (report.ok() && on_progress) on_progress(*report);
    return report;
  }
  if (request.dice) {
    return SearchPlay(pos, rules, *request.dice, *params, request.limits, tt, stop, on_progress);
  }
  return AnalysePosition(pos, rules, *params, request.limits, tt, stop, on_progress);
}

const Net* MultiSideNet(const Rules& rules, EvalKind eval, const Net* requested) {
  if (eval == EvalKind::kClassic) return nullptr;
  if (requested && requested->per_side() && requested->Serves(rules)) {
    return requested->any_rules() ? requested->ForRules(rules) : requested;
  }
  const Net* shipped = NetFor(rules);
  return shipped && shipped->per_side() ? shipped : nullptr;
}

double CandidatePoints(const Position& pos, const Candidate& candidate) {
  if (pos.layout().IsFourSidedTeams() || candidate.sides.empty()) return candidate.eval.Equity();
  return ExpectedPoints(candidate.sides[pos.SideOf(pos.to_throw())],
                        static_cast<int>(candidate.sides.size()));
}

}  // namespace uckers
