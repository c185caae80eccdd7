#include "search/opponent_model.h"

#include <algorithm>
#include <cmath>

#include "eval/evaluate.h"
#include "rules/movegen.h"
#include "search/door.h"

namespace uckers {

void PlayerEvidence::Add(const std::vector<double>& wins, int chosen) {
  const int n = static_cast<int>(wins.size());
  if (n < 2 || chosen < 0 || chosen >= n) return;
  const double best = *std::max_element(wins.begin(), wins.end());
  random_ += std::log(1.0 / n);
  for (size_t k = 0; k < kTemperatures.size(); ++k) {
    double sum = 0;
    for (double w : wins) sum += std::exp((w - best) / kTemperatures[k]);
    double softmax = std::exp((wins[chosen] - best) / kTemperatures[k]) / sum;
    judged_[k] += std::log((1 - kJudgedMix) * softmax + kJudgedMix / n);
  }
  decisions_++;
}

void PlayerEvidence::Add(const PlayerEvidence& other) {
  random_ += other.random_;
  for (size_t k = 0; k < kTemperatures.size(); ++k) judged_[k] += other.judged_[k];
  decisions_ += other.decisions_;
}

double PlayerEvidence::LogOdds() const {
  if (decisions_ == 0) return 0;
  // ln of the mean over the temperatures of exp(judged_[k]), kept finite.
  const double top = *std::max_element(judged_.begin(), judged_.end());
  double sum = 0;
  for (double j : judged_) sum += std::exp(j - top);
  return random_ - (top + std::log(sum / kTemperatures.size()));
}

OpponentEvidence::OpponentEvidence(const Rules& rules)
    : rules_(rules),
      net_(rules.layout().IsFourSidedTeams() ? NetFor(rules)
                                             : MultiSideNet(rules, EvalKind::kNet)) {}

std::vector<double> OpponentEvidence::PlayValues(const Position& before,
                                                 const PlayList& plays) const {
  std::vector<double> wins(plays.size());
  if (!before.layout().IsFourSidedTeams()) {
    const int side = before.SideOf(before.to_throw());
    for (int i = 0; i < plays.size(); ++i) {
      const Position& p = plays[i].after;
      SideValues v = net_ ? net_->EvaluateSides(p) : ClassicSideValues(p);
      wins[i] = v.win[side];
    }
    return wins;
  }
  const int team = TeamOf(before.to_throw());
  for (int i = 0; i < plays.size(); ++i) {
    const Position& p = plays[i].after;
    Evaluation e = net_ ? net_->Evaluate(p) : Evaluate(p, rules_);
    wins[i] = TeamOf(p.to_throw()) == team ? e.Win() : 1 - e.Win();
  }
  return wins;
}

void OpponentEvidence::Observe(const Position& before, Throw t, const Position& after) {
  if (before.IsGameOver()) return;
  PlayList plays;
  GenerateLegalPlays(before, rules_, t, &plays);
  if (plays.size() < 2) return;
  int chosen = -1;
  for (int i = 0; i < plays.size() && chosen < 0; ++i) {
    if (plays[i].after == after) chosen = i;
  }
  if (chosen < 0) return;
  const int side = before.layout().IsFourSidedTeams() ? TeamOf(before.to_throw())
                                                      : before.SideOf(before.to_throw());
  sides_[side].Add(PlayValues(before, plays), chosen);
}

void OpponentJudge::NewGame() {
  if (team_ >= 0) past_.Add(game_.Of(1 - team_));
  game_.Clear();
  team_ = -1;
}

void OpponentJudge::NewOpponent() {
  past_ = PlayerEvidence();
  game_.Clear();
  team_ = -1;
}

OpponentJudge::Verdict OpponentJudge::Against(const Position& pos) {
  Verdict verdict;
  if (pos.IsGameOver()) return verdict;
  if (!pos.layout().IsFourSidedTeams()) {
    const int mine = pos.SideOf(pos.to_throw());
    for (int side = 0; side < pos.num_sides(); ++side) {
      if (side != mine && game_.Of(side).LooksRandom()) verdict.random_sides |= 1u << side;
    }
    return verdict;
  }
  team_ = TeamOf(pos.to_throw());
  verdict.team = 1 - team_;
  verdict.evidence = past_;
  verdict.evidence.Add(game_.Of(verdict.team));
  return verdict;
}

}  // namespace uckers
