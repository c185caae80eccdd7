#include "search/expectimax.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "endgame/table.h"
#include "eval/net.h"
#include "rules/movegen.h"
#include "rules/occupancy.h"
#include "rules/turn.h"

namespace uckers {
namespace {

constexpr uint64_t kTickEvery = 64;  // nodes between limit checks

// A cheap play-ordering key without evaluation: the mover's team progress
// minus the other team's (a knock-off shows as a big drop of theirs).
int QuickOrder(const Position& after, int team) {
  int score = 0;
  for (int c = 0; c < kNumColours; ++c) {
    int sign = TeamOf(c) == team ? 1 : -1;
    const auto& row = after.pieces(c);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      Square sq = row[i];
      score += sign * (sq == kBase ? -12 : sq);
      // Safe pieces: in the lane or home, or doubled into a blob.
      if (sq > kLastTrack || (i > 0 && row[i - 1] == sq && sq >= 0)) score += sign * 8;
    }
  }
  return score;
}

// The play that QuickOrder ranks first.
int QuickBest(const PlayList& plays, int team) {
  int best = 0, best_key = QuickOrder(plays[0].after, team);
  for (int j = 1; j < plays.size(); ++j) {
    int k = QuickOrder(plays[j].after, team);
    if (k > best_key) best = j, best_key = k;
  }
  return best;
}

uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

ScoreRange RangeOf(Objective objective) {
  return objective == Objective::kWin ? ScoreRange{0.0, 1.0} : ScoreRange{-3.0, 3.0};
}

std::optional<Evaluation> TableEvaluation(const Position& pos, const Rules& rules,
                                          const SearchParams& params) {
  if (pos.IsGameOver()) return Evaluate(pos, rules);
  if (params.endgame == nullptr) return std::nullopt;
  std::optional<EndgameValues> v = params.endgame->Probe(pos, rules);
  if (!v) return std::nullopt;
  Evaluation e;
  std::copy(v->begin(), v->end(), e.p.begin());
  return e;
}

double ChallengeSuccessProbability(int k) {
  double two_back = 1.0, one_back = 1.0;  // S(k-2), S(k-1); S(k<=0) = 1
  if (k <= 0) return 1.0;
  double s = 1.0;
  for (int i = 1; i <= k; ++i) {
    s = 10.0 / 36.0 * one_back + 1.0 / 36.0 * two_back;
    two_back = one_back;
    one_back = s;
  }
  return s;
}

Limiter::Limiter(const std::atomic<bool>& stop, std::optional<int64_t> movetime_ms,
                 std::optional<uint64_t> max_nodes)
    : stop_(stop),
      start_(std::chrono::steady_clock::now()),
      movetime_ms_(movetime_ms),
      max_nodes_(max_nodes) {}

int64_t Limiter::ElapsedMs() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start_)
      .count();
}

bool Limiter::Tick(uint64_t n) {
  uint64_t total = nodes_.fetch_add(n, std::memory_order_relaxed) + n;
  if (stop_.load(std::memory_order_relaxed) || (max_nodes_ && total >= *max_nodes_) ||
      (movetime_ms_ && ElapsedMs() >= *movetime_ms_)) {
    stopped_ = true;
  }
  return stopped_;
}

Expectimax::Expectimax(const Rules& rules, const SearchParams& params, TranspositionTable* tt,
                       Limiter* limiter)
    : rules_(rules),
      params_(params),
      range_(RangeOf(params.objective)),
      tt_(tt),
      limiter_(limiter),
      key_salt_(params.random_team >= 0 ? Mix64(0x52414E444F4D0000ull + params.random_team) : 0) {}

void Expectimax::CountNode() {
  ++nodes_;
  if (++unreported_ >= kTickEvery) {
    if (limiter_->Tick(unreported_)) aborted_ = true;
    unreported_ = 0;
  }
}

double EvaluationNoise(uint64_t key, uint64_t seed, double sd) {
  if (sd <= 0) return 0;
  uint64_t a = Mix64(key ^ seed), b = Mix64(a + 0x9E3779B97F4A7C15ull);
  double u1 = ((a >> 11) + 1.0) / 9007199254740993.0, u2 = (b >> 11) / 9007199254740992.0;
  return sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

double Expectimax::Noise(uint64_t key) const {
  return EvaluationNoise(key, params_.seed, params_.noise);
}

double Expectimax::Static(const Position& pos, int team, Evaluation* eval) {
  CountNode();
  // A position the endgame tables cover is valued exactly, without noise;
  // otherwise the net (chosen only for the ruleset it was trained for,
  // NetFor in eval/net.h) or the classic evaluation.
  // Step 0. A value this search computed already (search/static_cache.h).
  Evaluation e;
  bool exact = false;
  if (const Evaluation* cached = static_cache_.Find(Key(pos), &exact)) {
    e = *cached;
  } else {
    std::optional<Evaluation> table =
        params_.endgame ? TableEvaluation(pos, rules_, params_) : std::nullopt;
    exact = table.has_value();
    e = exact         ? *table
        : params_.net ? NetValue(pos)
                      : Evaluate(pos, rules_, nullptr, params_.weights);
    static_cache_.Store(Key(pos), e, exact);
  }
  double s = Score(e, params_.objective);
  if (!exact && !pos.IsGameOver()) s = std::clamp(s + Noise(pos.key()), range_.lo, range_.hi);
  if (TeamOf(pos.to_throw()) != team) {
    e = e.Flipped();
    s = range_.Flip(s);
  }
  if (eval) *eval = e;
  return s;
}

Evaluation Expectimax::NetValue(const Position& pos) const {
  if (params_.random_team < 0) return params_.net->Evaluate(pos);
  NetInputs in;
  return ValueAgainstRandom(*params_.net, pos, params_.random_team, &in);
}

double Expectimax::Horizon(const Position& after, int team, Evaluation* eval) {
  return After(after, team, 0, range_.lo, range_.hi, eval);
}

double Expectimax::After(const Position& after, int team, int depth, double alpha, double beta,
                         Evaluation* eval) {
  if (after.IsGameOver()) return Static(after, team, eval);
  if (depth <= 0) {
    // A challenge under way resolves in closed form even at the horizon: the
    // static evaluation knows nothing of it.
    if (!after.challenge_active()) return Static(after, team, eval);
    depth = 1;
  }
  if (TeamOf(after.to_throw()) == team) return Chance(after, depth, alpha, beta, eval);
  double v = Chance(after, depth, range_.Flip(beta), range_.Flip(alpha), eval);
  if (eval) *eval = eval->Flipped();
  return range_.Flip(v);
}

double Expectimax::ChallengeNode(const Position& pos, int depth, Evaluation* eval) {
  // A challenge's run of sixes in closed form: it succeeds or fails, and
  // the throws in between move nothing (RULES.md §6).
  Position success = pos, failure = pos;
  int mover = pos.MovingColour();
  int target = ChallengeTarget(pos.board(), mover, pos.challenge_from());
  int need = ChallengeNeed(pos.challenge_from(), OpponentCountAt(pos, mover, target), rules_);
  while (success.challenge_active()) ResolveChallengeThrow(success, Throw{6, 6}, rules_);
  ResolveChallengeThrow(failure, Throw{1, 1}, rules_);
  double p = ChallengeSuccessProbability(need - pos.challenge_count());
  int team = TeamOf(pos.to_throw());
  Evaluation es, ef;
  double vs = After(success, team, depth - 1, range_.lo, range_.hi, &es);
  double vf = After(failure, team, depth - 1, range_.lo, range_.hi, &ef);
  if (eval) {
    *eval = Evaluation{};
    eval->AddScaled(es, p);
    eval->AddScaled(ef, 1 - p);
  }
  return p * vs + (1 - p) * vf;
}

// The steps of Chance, inlined into it: it is the search's hot path, and
// one function in the object code as before.
#define UCKERS_CHANCE_STEP [[gnu::always_inline]] inline

UCKERS_CHANCE_STEP bool Expectimax::TableCut(const Position& pos, int depth, double alpha,
                                             double beta, Evaluation* eval, double* score) {
  TtEntry entry;
  if (!tt_->Probe(Key(pos), &entry) || entry.depth < depth) return false;
  bool usable = entry.bound == Bound::kExact ||
                (entry.bound == Bound::kLower && entry.score >= beta) ||
                (entry.bound == Bound::kUpper && entry.score <= alpha);
  if (!usable) return false;
  if (eval) std::copy(entry.outcomes.begin(), entry.outcomes.end(), eval->p.begin());
  *score = entry.score;
  return true;
}

UCKERS_CHANCE_STEP bool Expectimax::Star2(const Position& pos, int team, int depth, double beta,
                                          PlayGenerator& generator, PlayList& plays,
                                          Star2Bounds* bounds, Evaluation* eval, double* score) {
  bounds->lower_sum = 0;
  double probed = 0;
  for (int i = 0; i < 21 && !aborted_; ++i) {
    Throw t = kThrows[i];
    double w = t.Weight() / 36.0;
    generator.Generate(t, &plays);
    int best = KillerIndex(plays, depth, i);
    if (best < 0) best = QuickBest(plays, team);
    double remaining = 1.0 - probed - w;
    double beta_i = (beta - bounds->lower_sum - remaining * range_.lo) / w;
    Probe& probe = bounds->probes[i];
    probe.index = best;
    probe.value = After(plays[best].after, team, depth - 1, range_.lo, std::min(beta_i, range_.hi),
                        &probe.eval);
    if (plays.size() == 1 && probe.value < beta_i) probe.index = -2;  // exact, only play
    bounds->lower[i] = probe.value;
    bounds->lower_sum += w * probe.value;
    probed += w;
    double bound = bounds->lower_sum + (1.0 - probed) * range_.lo;
    if (bound >= beta && !aborted_) {
      tt_->Store(
          {Key(pos), static_cast<float>(bound), {}, static_cast<int8_t>(depth), Bound::kLower});
      if (eval) *eval = probe.eval;  // a bound: not reported as exact
      *score = bound;
      return true;
    }
  }
  return false;
}

UCKERS_CHANCE_STEP double Expectimax::SearchThrow(int i, int team, int depth, double a, double b,
                                                  bool use_star2, PlayGenerator& generator,
                                                  PlayList& plays, Star2Bounds& bounds,
                                                  Evaluation* e) {
  Probe& probe = bounds.probes[i];
  if (use_star2 && probe.index == -2) {
    *e = probe.eval;
    return probe.value;
  }
  generator.Generate(kThrows[i], &plays);
  // A probed play is the killer when there is a legal one: it is
  // searched first already.
  bool known = use_star2 && probe.index >= 0;
  double v = Decide(plays, team, depth, a, b, e, known ? probe.index : -1, known ? probe.value : 0,
                    known ? &probe.eval : nullptr, known ? -1 : KillerIndex(plays, depth, i));
  if (!aborted_) SetKiller(depth, i, last_best_);
  return v;
}

UCKERS_CHANCE_STEP bool Expectimax::Star1Cut(const Position& pos, int depth, double alpha,
                                             double beta, double sum, double done,
                                             double rest_lower, bool use_star2,
                                             const Evaluation& total, Evaluation* eval,
                                             double* score) {
  double rest_lo = use_star2 ? rest_lower : (1.0 - done) * range_.lo;
  if (sum + rest_lo >= beta) {
    tt_->Store({Key(pos),
                static_cast<float>(sum + rest_lo),
                {},
                static_cast<int8_t>(depth),
                Bound::kLower});
    if (eval) *eval = total;
    *score = sum + rest_lo;
    return true;
  }
  if (sum + (1.0 - done) * range_.hi <= alpha) {
    tt_->Store({Key(pos),
                static_cast<float>(sum + (1.0 - done) * range_.hi),
                {},
                static_cast<int8_t>(depth),
                Bound::kUpper});
    if (eval) *eval = total;
    *score = sum + (1.0 - done) * range_.hi;
    return true;
  }
  return false;
}

UCKERS_CHANCE_STEP bool Expectimax::Star1(const Position& pos, int team, int depth, double alpha,
                                          double beta, bool use_star2, PlayGenerator& generator,
                                          PlayList& plays, Star2Bounds& bounds, double* sum,
                                          Evaluation* total, Evaluation* eval, double* score) {
  double done = 0;
  double rest_lower = use_star2 ? bounds.lower_sum : range_.lo;  // sum over unsearched
  for (int i = 0; i < 21 && !aborted_; ++i) {
    double w = kThrows[i].Weight() / 36.0;
    rest_lower -= use_star2 ? w * bounds.lower[i] : 0;
    double remaining = 1.0 - done - w;
    double a = range_.lo, b = range_.hi;
    if (params_.star1) {
      double rest_hi = remaining * range_.hi;
      double rest_lo = use_star2 ? rest_lower : remaining * range_.lo;
      a = std::max(range_.lo, (alpha - *sum - rest_hi) / w);
      b = std::min(range_.hi, (beta - *sum - rest_lo) / w);
    }
    Evaluation e;
    double v = SearchThrow(i, team, depth, a, b, use_star2, generator, plays, bounds, &e);
    if (aborted_) {
      *score = range_.lo;
      return true;
    }
    *sum += w * v;
    done += w;
    total->AddScaled(e, w);
    if (!params_.star1) continue;
    if (Star1Cut(pos, depth, alpha, beta, *sum, done, rest_lower, use_star2, *total, eval, score)) {
      return true;
    }
  }
  return false;
}

UCKERS_CHANCE_STEP double Expectimax::StoreChance(const Position& pos, int depth, double alpha,
                                                  double beta, double sum, const Evaluation& total,
                                                  Evaluation* eval) {
  Bound bound = sum <= alpha ? Bound::kUpper : sum >= beta ? Bound::kLower : Bound::kExact;
  TtEntry store{Key(pos), static_cast<float>(sum), {}, static_cast<int8_t>(depth), bound};
  for (int k = 0; k < kNumOutcomes; ++k) store.outcomes[k] = static_cast<float>(total.p[k]);
  tt_->Store(store);
  if (eval) *eval = total;
  return sum;
}

double Expectimax::Chance(const Position& pos, int depth, double alpha, double beta,
                          Evaluation* eval) {
  int team = TeamOf(pos.to_throw());
  if (depth <= 0 || pos.IsGameOver()) return Static(pos, team, eval);
  // Step 0. A position the endgame tables cover needs no search.
  if (params_.endgame && TableEvaluation(pos, rules_, params_)) return Static(pos, team, eval);
  CountNode();
  if (aborted_) return range_.lo;
  double score;

  // Step 1. Transposition table.
  if (TableCut(pos, depth, alpha, beta, eval, &score)) return score;
  if (pos.challenge_active()) return ChallengeNode(pos, depth, eval);
  if (team == params_.random_team) return Average(pos, depth, eval);

  // Step 2. Star2 probing: one play per throw gives a lower bound of that
  // throw's best; their weighted sum may already reach beta.
  PlayGenerator generator(pos, rules_);
  PlayList plays;
  Star2Bounds bounds;
  bounds.lower.fill(range_.lo);
  bounds.lower_sum = range_.lo;
  bool use_star2 = params_.star2 && beta < range_.hi;
  if (use_star2 && Star2(pos, team, depth, beta, generator, plays, &bounds, eval, &score)) {
    return score;
  }

  // Step 3. Star1: search each throw's decision with a window derived from
  // the chance node's, cutting off as soon as the bounds decide.
  double sum = 0;
  Evaluation total;
  if (Star1(pos, team, depth, alpha, beta, use_star2, generator, plays, bounds, &sum, &total, eval,
            &score)) {
    return score;
  }
  if (aborted_) return range_.lo;

  // Step 4. An exact value (within the window): store it whole.
  return StoreChance(pos, depth, alpha, beta, sum, total, eval);
}

#undef UCKERS_CHANCE_STEP

double Expectimax::Average(const Position& pos, int depth, Evaluation* eval) {
  // Step 2 for the random team: every play of every throw searched, each
  // weighted alike within its throw, so no window cuts and the value is
  // exact whatever the window.
  int team = TeamOf(pos.to_throw());
  PlayGenerator generator(pos, rules_);
  PlayList plays;
  double sum = 0;
  Evaluation total;
  for (int i = 0; i < 21; ++i) {
    generator.Generate(kThrows[i], &plays);
    double share = kThrows[i].Weight() / 36.0 / plays.size();
    for (const PlayResult& r : plays) {
      Evaluation e;
      double v = After(r.after, team, depth - 1, range_.lo, range_.hi, &e);
      if (aborted_) return range_.lo;
      sum += share * v;
      total.AddScaled(e, share);
    }
  }
  TtEntry store{Key(pos), static_cast<float>(sum), {}, static_cast<int8_t>(depth), Bound::kExact};
  for (int k = 0; k < kNumOutcomes; ++k) store.outcomes[k] = static_cast<float>(total.p[k]);
  tt_->Store(store);
  if (eval) *eval = total;
  return sum;
}

int Expectimax::KillerIndex(const PlayList& plays, int depth, int throw_index) const {
  if (depth >= kKillerDepths || !has_killer_[depth][throw_index]) return -1;
  const Play& killer = killers_[depth][throw_index];
  for (int j = 0; j < plays.size(); ++j) {
    if (plays[j].play == killer) return j;
  }
  return -1;
}

void Expectimax::SetKiller(int depth, int throw_index, const Play& play) {
  if (depth >= kKillerDepths) return;
  killers_[depth][throw_index] = play;
  has_killer_[depth][throw_index] = true;
}

double Expectimax::Decide(const PlayList& plays, int team, int depth, double alpha, double beta,
                          Evaluation* eval, int known_index, double known_value,
                          const Evaluation* known_eval, int first_index) {
  // Step 5. Order the plays: statically evaluated when they will be searched
  // deeper, then filtered (keep the best N and any within the margin).
  int n = plays.size();
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (depth - 1 >= 1 && n > 1) {
    std::vector<double> quick(n);
    for (int j = 0; j < n; ++j) quick[j] = Horizon(plays[j].after, team, nullptr);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return quick[x] > quick[y]; });
    if (params_.filter_width > 0 && n > params_.filter_width) {
      double cut = quick[order[0]] - params_.filter_margin;
      int keep = params_.filter_width;
      while (keep < n && quick[order[keep]] >= cut) ++keep;
      order.resize(keep);
    }
  } else if (first_index > 0) {
    std::rotate(order.begin(), order.begin() + first_index, order.begin() + first_index + 1);
  }
  // Step 6. Alpha-beta over the kept plays.
  double best = range_.lo - 1;
  int best_index = order.empty() ? 0 : order[0];
  Evaluation best_eval;
  if (known_index >= 0) {
    best = known_value;
    best_index = known_index;
    best_eval = *known_eval;
  }
  for (int j : order) {
    if (j == known_index) continue;
    if (best >= beta || aborted_) break;
    Evaluation e;
    double v = After(plays[j].after, team, depth - 1, std::max(alpha, best), beta, &e);
    if (v > best) {
      best = v;
      best_index = j;
      best_eval = e;
    }
  }
  last_best_ = plays[best_index].play;
  if (best < range_.lo) best = range_.lo;
  if (eval) *eval = best_eval;
  return best;
}

}  // namespace uckers
