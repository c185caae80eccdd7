#include "search/one_throw.h"

#include <atomic>
#include <optional>

#include "eval/evaluate.h"
#include "search/door.h"
#include "search/expectimax.h"
#include "search/tt.h"

namespace uckers {

SideValues StaticSideValues(const Position& p, const Net* net) {
  return p.IsGameOver() ? TerminalSideValues(p)
         : net          ? net->EvaluateSides(p)
                        : ClassicSideValues(p);
}

SideValues BestPlaySideValues(const PlayList& plays, int side, const Net* net) {
  SideValues best;
  double best_value = -1e9;
  for (const PlayResult& r : plays) {
    SideValues e = StaticSideValues(r.after, net);
    if (e.win[side] > best_value) best_value = e.win[side], best = e;
  }
  return best;
}

class OneThrowChances::Impl {
 public:
  explicit Impl(const Rules& rules)
      : rules_(rules),
        teams_(rules.layout().IsFourSidedTeams()),
        side_net_(teams_ ? nullptr : MultiSideNet(rules, EvalKind::kNet)),
        limiter_(never_, std::nullopt, std::nullopt),
        tt_(1) {
    params_.net = teams_ ? NetFor(rules) : nullptr;
    params_.objective = Objective::kWin;
    params_.noise = 0;
    search_.emplace(rules_, params_, &tt_, &limiter_);
  }

  // Every side's chance by the static value.
  SideValues Static(const Position& p) const {
    if (!teams_) return StaticSideValues(p, side_net_);
    Evaluation e = p.IsGameOver() || !params_.net ? Evaluate(p, rules_) : params_.net->Evaluate(p);
    return TeamChances(e.Win(), TeamOf(p.to_throw()));
  }

  // Every side's chance one throw on.
  SideValues Deeper(const Position& pos) {
    if (pos.IsGameOver()) return Static(pos);
    if (teams_) {
      double win = search_->Chance(pos, 1, 0.0, 1.0, nullptr);
      return TeamChances(win, TeamOf(pos.to_throw()));
    }
    if (pos.challenge_active()) return Static(pos);
    const int side = pos.SideOf(pos.to_throw());
    SideValues mean;
    mean.sides = pos.num_sides();
    PlayList plays;
    for (Throw t : kThrows) {
      GenerateLegalPlays(pos, rules_, t, &plays);
      SideValues best = BestPlaySideValues(plays, side, side_net_);
      for (int s = 0; s < mean.sides; ++s) mean.win[s] += t.Weight() / 36.0 * best.win[s];
    }
    return mean;
  }

 private:
  static SideValues TeamChances(double win, int team) {
    SideValues v;
    v.sides = 2;
    v.win[team] = win;
    v.win[1 - team] = 1 - win;
    return v;
  }

  const Rules& rules_;
  const bool teams_;
  const Net* side_net_;
  std::atomic<bool> never_{false};
  Limiter limiter_;
  TranspositionTable tt_;
  SearchParams params_;
  std::optional<Expectimax> search_;
};

OneThrowChances::OneThrowChances(const Rules& rules) : impl_(std::make_unique<Impl>(rules)) {}
OneThrowChances::~OneThrowChances() = default;
SideValues OneThrowChances::Static(const Position& p) const { return impl_->Static(p); }
SideValues OneThrowChances::Deeper(const Position& pos) { return impl_->Deeper(pos); }

}  // namespace uckers
