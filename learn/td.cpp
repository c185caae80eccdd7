#include "learn/td.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <type_traits>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "endgame/table.h"
#include "learn/label.h"
#include "learn/selfplay.h"
#include "rules/ufen.h"

namespace uckers {
namespace {

constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kAdamEps = 1e-8;

uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The dice of game `index` of a run, and of strength-check pair `index`.
uint64_t GameSeed(uint64_t seed, int64_t index) { return Mix(seed * 2 + 1) ^ Mix(index); }
uint64_t PairSeed(int64_t index) { return Mix(0x5EEDull + static_cast<uint64_t>(index)); }

// A weight array of a net seen as a matrix, for Adam and checkpoints.
struct ParamRef {
  float* data;
  Eigen::Index rows, cols;
  Eigen::Map<Net::Matrix> map() const { return Eigen::Map<Net::Matrix>(data, rows, cols); }
};

// The weight arrays in a fixed order: w1, b1, each further layer's weights
// and biases (a deep net), w2, b2.
std::vector<ParamRef> Params(Net& net) {
  std::vector<ParamRef> out;
  auto add = [&](auto& m) { out.push_back({m.data(), m.rows(), m.cols()}); };
  add(net.w1());
  add(net.b1());
  for (size_t i = 0; i < net.mid_w().size(); ++i) {
    add(net.mid_w()[i]);
    add(net.mid_b()[i]);
  }
  add(net.w2());
  add(net.b2());
  return out;
}

// Zero matrices shaped as the net's weight arrays, in Params order.
std::vector<Net::Matrix> ZerosLike(Net& net) {
  std::vector<Net::Matrix> out;
  for (const ParamRef& p : Params(net)) out.push_back(Net::Matrix::Zero(p.rows, p.cols));
  return out;
}

// Gradients of one minibatch's mean cross-entropy (in Params order), with
// its value.
struct Gradients {
  std::vector<Net::Matrix> g;
  double loss = 0;
};

// Dense inputs of an example: they are the last columns of w1.
int NumDense(const Net& net, const NetInputs&) { return net.deep() ? 0 : kNetDenseInputs; }
int NumDense(const Net&, const SideNetInputs& in) { return in.num_dense; }

// Adds one example's gradients (TdSample: six outcomes; SideTdSample: one
// output per side), weighted by `scale`.
template <typename Sample>
void Accumulate(const Net& net, const Sample& s, float scale, Gradients& grads) {
  const auto& in = s.inputs;
  const int dense = NumDense(net, in);
  const int dense_from = static_cast<int>(net.w1().cols()) - dense;
  const int outputs = static_cast<int>(net.w2().rows());
  const size_t mids = net.mid_w().size();
  auto& g = grads.g;
  Net::Vector a = net.b1();
  for (int i = 0; i < in.num_active; ++i) a += net.w1().col(in.active[i]);
  for (int j = 0; j < dense; ++j) a += net.w1().col(dense_from + j) * in.dense[j];
  // Pre-activations and activations of every layer but the output.
  std::vector<Net::Vector> pre = {a}, act;
  if (net.deep()) {
    act.push_back(a.cwiseMax(0.f).cwiseMin(1.f));
    for (size_t l = 0; l < mids; ++l) {
      pre.push_back(net.mid_w()[l] * act.back() + net.mid_b()[l]);
      act.push_back(pre.back().cwiseMax(0.f).cwiseMin(1.f));
    }
  } else {
    act.push_back(a.array().tanh().matrix());
  }
  const Net::Vector& h = act.back();
  Net::Vector z = net.w2() * h + net.b2();
  Net::Vector p = (z.array() - z.maxCoeff()).exp().matrix();
  p /= p.sum();
  Net::Vector dz(outputs);
  for (int k = 0; k < outputs; ++k) {
    dz[k] = (p[k] - s.target[k]) * scale;
    if (s.target[k] > 0) grads.loss -= s.target[k] * std::log(std::max(p[k], 1e-12f)) * scale;
  }
  const size_t out_w = g.size() - 2;
  g[out_w].noalias() += dz * h.transpose();
  g[out_w + 1] += dz;
  Net::Vector dh = net.w2().transpose() * dz;
  auto clipped = [](const Net::Vector& x) {
    return ((x.array() > 0.f) && (x.array() < 1.f)).cast<float>().matrix();
  };
  for (size_t l = mids; l-- > 0;) {
    Net::Vector da = dh.cwiseProduct(clipped(pre[l + 1]));
    g[2 + 2 * l].noalias() += da * act[l].transpose();
    g[3 + 2 * l] += da;
    dh = net.mid_w()[l].transpose() * da;
  }
  Net::Vector da = net.deep() ? Net::Vector(dh.cwiseProduct(clipped(pre[0])))
                              : Net::Vector((dh.array() * (1 - h.array().square())).matrix());
  g[1] += da;
  for (int i = 0; i < in.num_active; ++i) g[0].col(in.active[i]) += da;
  for (int j = 0; j < dense; ++j) g[0].col(dense_from + j) += da * in.dense[j];
}

// One Adam step over a minibatch; returns its mean cross-entropy.
template <typename Sample>
double AdamStep(TrainState& st, const std::vector<const Sample*>& batch, double lr) {
  Net& net = st.net;
  Gradients g{ZerosLike(net), 0};
  float scale = 1.f / batch.size();
  for (const Sample* s : batch) Accumulate(std::as_const(net), *s, scale, g);
  ++st.steps;
  double c1 = 1 - std::pow(kBeta1, st.steps), c2 = 1 - std::pow(kBeta2, st.steps);
  float step = static_cast<float>(lr * std::sqrt(c2) / c1);
  std::vector<ParamRef> params = Params(net);
  for (size_t i = 0; i < params.size(); ++i) {
    st.m[i] = kBeta1 * st.m[i] + (1 - kBeta1) * g.g[i];
    st.v[i] = kBeta2 * st.v[i] + (1 - kBeta2) * g.g[i].cwiseProduct(g.g[i]);
    params[i].map() -= (step * st.m[i].array() / (st.v[i].array().sqrt() + kAdamEps)).matrix();
  }
  return g.loss;
}

TrainState NewState(Net net) {
  net.DropQuantised();  // training evaluates in float
  TrainState st{std::move(net), 0, 0, {}, {}, {}};
  st.m = ZerosLike(st.net);
  st.v = st.m;
  return st;
}

// A strength check: net vs classic at depth 1 over `pairs` duplicate pairs,
// the Elo of the mean score with a 95 % interval from the pairs' spread.
void StrengthCheck(const Net& net, int pairs, CurvePoint* point) {
  std::vector<double> scores;
  for (int i = 0; i < pairs; ++i) scores.push_back(NetVersusClassicPair(net, PairSeed(i)) / 2);
  double mean = std::accumulate(scores.begin(), scores.end(), 0.0) / pairs, var = 0;
  for (double s : scores) var += (s - mean) * (s - mean);
  double se = std::sqrt(var / std::max(1, pairs - 1) / pairs);
  auto elo = [](double s) {
    s = std::clamp(s, 1e-3, 1 - 1e-3);
    return -400 * std::log10(1 / s - 1);
  };
  point->elo = elo(mean);
  point->elo_lo = elo(mean - 1.96 * se);
  point->elo_hi = elo(mean + 1.96 * se);
}

// The same for a net per side: the share of the games its side won against
// the classic evaluation on every other side, with a 95 % interval from the
// sets' spread (the fair share is 1/k).
void SideStrengthCheck(const Net& net, int sets, double* share, double* lo, double* hi) {
  const int k = net.rules().layout().num_sides;
  std::vector<double> scores;
  for (int i = 0; i < sets; ++i) scores.push_back(SideNetVersusClassicSet(net, PairSeed(i)) / k);
  double mean = std::accumulate(scores.begin(), scores.end(), 0.0) / sets, var = 0;
  for (double x : scores) var += (x - mean) * (x - mean);
  double se = std::sqrt(var / std::max(1, sets - 1) / sets);
  *share = mean;
  *lo = mean - 1.96 * se;
  *hi = mean + 1.96 * se;
}

template <typename Sample>
struct BatchResult {
  std::vector<Sample> samples;
  double held_out_loss = 0;
  int held_out_positions = 0;
  int unfinished = 0;
  int64_t trained = 0, exact = 0;  // training positions, those the table valued
};

// Plays games [first, first + n): every tenth held out for the log loss.
template <typename Sample>
BatchResult<Sample> PlayBatch(const Net& net, const TrainConfig& c, int64_t first, int n,
                              const Net* teacher, const EndgameTable* table) {
  BatchResult<Sample> b;
  for (int64_t i = first; i < first + n; ++i) {
    auto game = [&] {
      if constexpr (std::is_same_v<Sample, TdSample>) {
        return PlaySelfPlayGame(net, GameSeed(c.seed, i), c.lambda, c.lookahead, teacher,
                                c.teacher_depth, table, i % 10 == 9 ? 0.0 : c.explore,
                                c.random_opponent ? static_cast<int>(i % 2) : -1);
      } else {
        return PlaySideSelfPlayGame(net, GameSeed(c.seed, i), c.lambda,
                                    i % 10 == 9 ? 0.0 : c.lookahead);
      }
    }();
    if (!game.finished) {
      ++b.unfinished;
      continue;
    }
    if (i % 10 == 9) {
      for (size_t t = 0; t < game.win.size(); ++t) {
        double q = std::clamp<double>(game.win[t], 1e-6, 1 - 1e-6);
        b.held_out_loss -= game.won[t] ? std::log(q) : std::log(1 - q);
        ++b.held_out_positions;
      }
      continue;
    }
    if constexpr (std::is_same_v<Sample, TdSample>) b.exact += game.exact;
    b.trained += static_cast<int64_t>(game.samples.size());
    std::move(game.samples.begin(), game.samples.end(), std::back_inserter(b.samples));
  }
  return b;
}

// One pass over `samples` in an order shuffled from the seed and st.games,
// an Adam step a minibatch; returns the mean cross-entropy of the steps.
template <typename Sample>
double TrainOnBatch(TrainState& st, const TrainConfig& c, const std::vector<Sample>& samples) {
  std::vector<const Sample*> order;
  for (const Sample& s : samples) order.push_back(&s);
  std::mt19937_64 rng(Mix(c.seed ^ Mix(st.games)));
  std::shuffle(order.begin(), order.end(), rng);
  double loss = 0;
  int steps = 0;
  for (size_t i = 0; i < order.size(); i += c.minibatch) {
    size_t end = std::min(order.size(), i + c.minibatch);
    std::vector<const Sample*> mb(order.begin() + i, order.begin() + end);
    loss += AdamStep(st, mb, c.learning_rate);
    ++steps;
  }
  return steps ? loss / steps : 0;
}

// The rules a net or a run is of, as errors name them.
std::string AnyRulesName(const Rules& layout) {
  return layout.layout().IsFourSidedTeams() ? "any" : absl::StrCat("any:", layout.ToString());
}
std::string RulesName(const Net& net) {
  return net.any_rules() ? AnyRulesName(net.rules()) : net.rules().ToString();
}
std::string RulesName(const TrainConfig& c) {
  return c.any_rules ? AnyRulesName(c.rules) : c.rules.ToString();
}

// Resumes from the checkpoint `ckpt`, which must be of the run's rules.
absl::StatusOr<TrainState> Resume(const TrainConfig& c, const std::string& ckpt,
                                  std::ostream& log) {
  absl::StatusOr<TrainState> st = LoadCheckpoint(ckpt);
  if (!st.ok()) return st.status();
  if (!(st->net.rules() == c.rules) || st->net.any_rules() != c.any_rules) {
    return absl::FailedPreconditionError(absl::StrCat("checkpoint ", ckpt, " is for rules ",
                                                      RulesName(st->net), ", not ", RulesName(c)));
  }
  log << "resuming from " << ckpt << " at game " << st->games << "\n";
  return st;
}

// Makes `net` (--init), a net of other rules than the run's, one of the
// run's rules: with --init_other_rules, when its shape fits them.
absl::Status AdoptOtherRules(const TrainConfig& c, Net* net) {
  // A net of another layout starts another ruleset of its layout as it
  // would value that ruleset's boards (Net::AdaptedTo: the inputs it
  // never saw start at zero weight, mixie_stack's among them).
  const bool adapts = net->per_side() && net->rules().layout_id() == c.rules.layout_id();
  if (!adapts && !net->FitsShapeOf(c.rules)) {
    return absl::FailedPreconditionError(
        absl::StrCat(c.init, " is a net of another board or sides than rules ", c.rules.ToString(),
                     " (its inputs and outputs differ)"));
  }
  if (!c.init_other_rules) {
    return absl::FailedPreconditionError(
        absl::StrCat(c.init, " is for rules ", RulesName(*net), ", not ", RulesName(c),
                     " (--init_other_rules starts from it anyway)"));
  }
  if (adapts) {
    absl::StatusOr<Net> adapted = net->AdaptedTo(c.rules);
    if (!adapted.ok()) return adapted.status();
    *net = *std::move(adapted);
    net->set_adapted_from(std::nullopt);  // trained on, it is a net of these rules
  }
  net->set_rules(c.rules);
  net->set_any_rules(c.any_rules);
  net->set_games_trained(0);
  return absl::OkStatus();
}

// Widens the deep net `net` (--init) to --layers, when they differ.
absl::Status WidenToLayers(const TrainConfig& c, Net* net, std::ostream& log) {
  if (c.layers.empty() || c.layers == net->LayerSizes()) return absl::OkStatus();
  const std::vector<int> has = net->LayerSizes();
  bool widens = net->deep() && c.layers.size() == has.size();
  for (size_t i = 0; widens && i < has.size(); ++i) widens = c.layers[i] >= has[i];
  if (!widens) {
    return absl::InvalidArgumentError(absl::StrCat(
        "layers ", absl::StrJoin(c.layers, ","), ": ", c.init, " has layers ",
        absl::StrJoin(has, ","), "; with --init, --layers may only widen a deep net's layers"));
  }
  log << "widening " << c.init << " from layers " << absl::StrJoin(has, ",") << " to "
      << absl::StrJoin(c.layers, ",") << "\n";
  *net = net->Widened(c.layers, c.seed);
  return absl::OkStatus();
}

// --hit_inputs or --block_inputs: an encoding that extends encoding 4's
// inputs, the new ones at zero weight.
absl::Status AddInputs(const TrainConfig& c, Net* net, std::ostream& log) {
  const char* added = c.hit_inputs ? "hit" : c.block_inputs ? "block" : nullptr;
  const uint32_t wider = c.hit_inputs ? kHitNetEncodingVersion : kBlockNetEncodingVersion;
  if (added == nullptr || net->encoding() == wider) return absl::OkStatus();
  if (net->encoding() != kContactNetEncodingVersion) {
    return absl::InvalidArgumentError(absl::StrCat(
        added, "_inputs: ", c.init, " is not a deep net with contact inputs (encoding ",
        kContactNetEncodingVersion, ")"));
  }
  log << "adding the " << added << " inputs (encoding " << wider << ") to " << c.init << "\n";
  *net = net->WithEncoding(wider);
  return absl::OkStatus();
}

// Starts from the net of --init, made a net of the run's rules, layers and
// inputs.
absl::StatusOr<TrainState> StartFromInit(const TrainConfig& c, std::ostream& log) {
  absl::StatusOr<Net> net = Net::Load(c.init);
  if (!net.ok()) return net.status();
  if (c.any_rules && c.rules.layout().IsFourSidedTeams() && !net->deep()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rules any: ", c.init,
        " is not a deep net (of the four-sided game of two teams only a deep net is of any "
        "rules)"));
  }
  if (!(net->rules() == c.rules) || net->any_rules() != c.any_rules) {
    if (absl::Status s = AdoptOtherRules(c, &*net); !s.ok()) return s;
  }
  if (absl::Status s = WidenToLayers(c, &*net, log); !s.ok()) return s;
  if (absl::Status s = AddInputs(c, &*net, log); !s.ok()) return s;
  return NewState(*std::move(net));
}

// Starts from a new net of random weights, deep with --layers.
absl::StatusOr<TrainState> StartNew(const TrainConfig& c) {
  if (!c.layers.empty()) {
    Net net = Net::RandomDeep(c.rules, c.layers, c.seed);
    net.set_any_rules(c.any_rules);
    if (c.hit_inputs) net = net.WithEncoding(kHitNetEncodingVersion);
    if (c.block_inputs) net = net.WithEncoding(kBlockNetEncodingVersion);
    return NewState(std::move(net));
  }
  if (c.any_rules && c.rules.layout().IsFourSidedTeams()) {
    return absl::InvalidArgumentError(
        "rules any: a deep net only (give --layers or --init with a deep net)");
  }
  Net net = Net::Random(c.rules, c.hidden, c.seed);
  net.set_any_rules(c.any_rules);
  return NewState(std::move(net));
}

absl::StatusOr<TrainState> StartOrResume(const TrainConfig& c, const std::string& ckpt,
                                         std::ostream& log) {
  if (std::ifstream(ckpt).good()) return Resume(c, ckpt, log);
  if (!c.init.empty()) return StartFromInit(c, log);
  return StartNew(c);
}

absl::Status Persist(const TrainState& st, const TrainConfig& c, const std::string& ckpt) {
  if (absl::Status s = SaveCheckpoint(st, ckpt); !s.ok()) return s;
  if (absl::Status s = st.net.Save(c.out); !s.ok()) return s;
  if (!c.curve_svg.empty() && !st.curve.empty()) {
    std::ofstream svg(c.curve_svg, std::ios::trunc);
    svg << CurveSvg(st.curve,
                    absl::StrCat("net vs classic evaluation, depth 1, rules ", c.rules.ToString()));
    if (!svg) return absl::DataLossError(absl::StrCat("cannot write ", c.curve_svg));
  }
  return absl::OkStatus();
}

// Steps of Train once the state is ready: batches of self-play games and
// their updates, strength checks and checkpoints, until `c.games`.
template <typename Sample>
absl::Status TrainLoop(TrainState& st, const TrainConfig& c, const std::string& ckpt,
                       std::ostream& log, const Net* teacher, const EndgameTable* table) {
  double loss_sum = 0, held_sum = 0;
  int64_t held_n = 0, batches = 0, trained = 0, exact = 0;
  while (st.games < c.games) {
    int n = static_cast<int>(std::min<int64_t>(c.batch_games, c.games - st.games));
    // A deep net plays in integers, as the engine plays it (about twice as
    // fast; the update below drops the integer copy, made again here).
    if (st.net.deep()) st.net.Quantise();
    if (c.any_rules) st.net.set_rules(BatchRules(c.seed, st.games, c.rules));
    BatchResult<Sample> b = PlayBatch<Sample>(st.net, c, st.games, n, teacher, table);
    if (c.any_rules) st.net.set_rules(c.rules);
    st.games += n;
    st.net.set_games_trained(st.games);
    loss_sum += TrainOnBatch(st, c, b.samples);
    held_sum += b.held_out_loss;
    held_n += b.held_out_positions;
    trained += b.trained;
    exact += b.exact;
    ++batches;
    bool checkpoint = st.games % c.checkpoint_every < n || st.games >= c.games;
    bool check = c.eval_every > 0 && st.games % c.eval_every < n;
    if (check && st.net.per_side()) {
      // A share of the wins, not an Elo: the curve holds the two-team runs.
      double share = 0, lo = 0, hi = 0;
      SideStrengthCheck(st.net, c.eval_pairs, &share, &lo, &hi);
      log << absl::StrFormat(
          "games %d: net vs classic at depth 1, share of the wins %.2f %% [%.2f, %.2f] "
          "(fair share %.2f %%)\n",
          st.games, 100 * share, 100 * lo, 100 * hi, 100.0 / st.net.rules().layout().num_sides);
    } else if (check) {
      CurvePoint p{st.games};
      StrengthCheck(st.net, c.eval_pairs, &p);
      p.held_out_log_loss = held_n ? held_sum / held_n : 0;
      st.curve.push_back(p);
      log << absl::StrFormat("games %d: net vs classic at depth 1 %+.1f Elo [%+.1f, %+.1f]\n",
                             st.games, p.elo, p.elo_lo, p.elo_hi);
    }
    if (checkpoint) {
      log << absl::StrFormat(
          "games %d: train cross-entropy %.4f, held-out win log loss %.4f "
          "(%d positions)%s%s\n",
          st.games, loss_sum / std::max<int64_t>(1, batches), held_n ? held_sum / held_n : 0.0,
          held_n,
          table ? absl::StrFormat(", %.2f %% of the training positions valued by the table",
                                  100.0 * exact / std::max<int64_t>(1, trained))
                : "",
          b.unfinished ? " (a game hit the throw cap)" : "");
      log.flush();
      loss_sum = held_sum = 0;
      held_n = batches = trained = exact = 0;
      if (absl::Status s = Persist(st, c, ckpt); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

// The checkpoint's path, once the weights file and it are known to be
// writable (found now, not after the first thousand games).
absl::StatusOr<std::string> WritableOutputs(const TrainConfig& c) {
  if (c.out.empty()) return absl::InvalidArgumentError("no weights file given (out)");
  std::string ckpt = c.checkpoint.empty() ? c.out + ".ckpt" : c.checkpoint;
  if (ckpt == c.out || (!c.curve_svg.empty() && (c.curve_svg == c.out || c.curve_svg == ckpt))) {
    return absl::InvalidArgumentError(
        absl::StrCat("the weights file, the checkpoint and the curve must be three files (", c.out,
                     ", ", ckpt, c.curve_svg.empty() ? "" : ", ", c.curve_svg, ")"));
  }
  std::vector<std::string> paths = {c.out, ckpt};
  if (!c.curve_svg.empty()) paths.push_back(c.curve_svg);
  for (const std::string& path : paths) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      return absl::PermissionDeniedError(absl::StrCat("cannot write ", path, ": a directory"));
    }
    std::string probe = path + ".tmp";
    if (!std::ofstream(probe, std::ios::app)) {
      return absl::PermissionDeniedError(absl::StrCat("cannot write ", probe));
    }
    std::remove(probe.c_str());
  }
  return ckpt;
}

struct LabelledSet {
  std::vector<TdSample> train, held_out;
};

// Reads the labels of `path` for `rules`: every line's position encoded, its
// six outcomes the target; an error names the line.
absl::StatusOr<LabelledSet> ReadLabels(const std::string& path, const Net& net) {
  const Rules& rules = net.rules();
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open labels ", path));
  LabelledSet set;
  std::string line;
  for (int64_t n = 1; std::getline(in, line); ++n) {
    auto bad = [&](absl::string_view what) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": line ", n, ": ", what));
    };
    absl::StatusOr<LabelRead> read = ReadLabelLine(line, rules);
    if (!read.ok()) return bad(read.status().message());
    TdSample s;
    s.target = read->outcomes;
    s.inputs = net.Encode(read->position);
    (read->index % 10 == 0 ? set.held_out : set.train).push_back(s);
  }
  if (set.train.empty() || set.held_out.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": too few labels to train on and hold out (at least 10)"));
  }
  return set;
}

// Over `set`: the mean divergence of the net's outcomes from the targets
// (cross-entropy less the targets' own entropy: 0 for a net that gives every
// label exactly) and the mean absolute error of its win probability.
void HeldOut(const Net& net, const std::vector<TdSample>& set, double* kl, double* win_mae) {
  *kl = *win_mae = 0;
  for (const TdSample& s : set) {
    Evaluation e = net.Evaluate(s.inputs);
    double target_win = 0;
    for (int k = 0; k < kNumOutcomes; ++k) {
      if (s.target[k] > 0) *kl += s.target[k] * std::log(s.target[k] / std::max(e.p[k], 1e-12));
      if (k < 3) target_win += s.target[k];
    }
    *win_mae += std::abs(e.Win() - target_win);
  }
  *kl /= set.size();
  *win_mae /= set.size();
}

absl::Status CheckLayers(const TrainConfig& c) {
  if (c.layers.empty()) return absl::OkStatus();
  if (!c.rules.layout().IsFourSidedTeams()) {
    return absl::InvalidArgumentError(
        "a deep net (layers) is for the four-sided game of two teams only");
  }
  if (c.layers.size() < 2 || c.layers.size() > 1 + Net::kMaxMidLayers) {
    return absl::InvalidArgumentError(absl::StrCat("layers: a deep net has a first layer and 1..",
                                                   Net::kMaxMidLayers, " further ones"));
  }
  for (size_t i = 0; i < c.layers.size(); ++i) {
    int most = i == 0 ? Net::kMaxHidden : Net::kMaxMidUnits;
    if (c.layers[i] < 1 || c.layers[i] > most) {
      return absl::InvalidArgumentError(
          absl::StrCat("layers: layer ", i + 1, " has ", c.layers[i], " units (1..", most, ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status TrainOnLabels(const TrainConfig& c, std::ostream& log) {
  if (absl::Status s = CheckLayers(c); !s.ok()) return s;
  if (absl::Status s = c.rules.RequireFourSidedTeams("training on labels"); !s.ok()) {
    return absl::InvalidArgumentError(s.message());
  }
  if (c.epochs < 1 || c.minibatch < 1 || !(c.learning_rate > 0 && c.learning_rate < 1) ||
      c.hidden < 1 || c.hidden > Net::kMaxHidden) {
    return absl::InvalidArgumentError(
        absl::StrCat("epochs and minibatch must be at least 1, the learning rate in (0, 1) and "
                     "hidden units 1..",
                     Net::kMaxHidden));
  }
  if (c.any_rules) {
    return absl::InvalidArgumentError(
        "rules any: a net of any rules learns from self-play, not from labels");
  }
  absl::StatusOr<std::string> ckpt = WritableOutputs(c);
  if (!ckpt.ok()) return ckpt.status();
  absl::StatusOr<TrainState> started = StartOrResume(c, *ckpt, log);
  if (!started.ok()) return started.status();
  TrainState st = *std::move(started);
  if (st.net.per_side()) return absl::InvalidArgumentError("a net per side: not trained on labels");
  absl::StatusOr<LabelledSet> set = ReadLabels(c.labels, st.net);
  if (!set.ok()) return set.status();
  double kl = 0, mae = 0;
  HeldOut(st.net, set->held_out, &kl, &mae);
  log << absl::StrFormat(
      "%d labels to train on, %d held out; before: held-out divergence %.5f, win error %.4f\n",
      set->train.size(), set->held_out.size(), kl, mae);
  while (st.games < c.epochs) {
    // Each pass's order from the seed and the pass alone, so that a resumed
    // run takes the passes a run never stopped takes.
    const double loss = TrainOnBatch(st, c, set->train);
    ++st.games;
    HeldOut(st.net, set->held_out, &kl, &mae);
    log << absl::StrFormat(
        "pass %d: train cross-entropy %.4f, held-out divergence %.5f, win error %.4f\n", st.games,
        loss, kl, mae);
    log.flush();
    if (absl::Status s = Persist(st, c, *ckpt); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<Net> AverageNets(const std::vector<Net>& nets,
                                const std::vector<std::string>& names) {
  if (nets.empty()) return absl::InvalidArgumentError("no nets to average");
  const Net& first = nets[0];
  for (size_t i = 1; i < nets.size(); ++i) {
    const Net& n = nets[i];
    if (!(n.rules() == first.rules()) || n.any_rules() != first.any_rules() ||
        n.encoding() != first.encoding() || n.deep() != first.deep() ||
        n.per_side() != first.per_side() || n.w1().cols() != first.w1().cols() ||
        n.LayerSizes() != first.LayerSizes() || n.w2().rows() != first.w2().rows()) {
      return absl::InvalidArgumentError(absl::StrCat(names[i], " is a ", n.Describe(), "; ",
                                                     names[0], " a ", first.Describe(),
                                                     ": only nets of one rules and shape average"));
    }
  }
  Net mean = first;
  const float k = 1.f / static_cast<float>(nets.size());
  uint64_t games = first.games_trained();
  mean.w1() *= k;
  mean.b1() *= k;
  mean.w2() *= k;
  mean.b2() *= k;
  for (size_t l = 0; l < mean.mid_w().size(); ++l) {
    mean.mid_w()[l] *= k;
    mean.mid_b()[l] *= k;
  }
  for (size_t i = 1; i < nets.size(); ++i) {
    const Net& n = nets[i];
    mean.w1() += k * n.w1();
    mean.b1() += k * n.b1();
    mean.w2() += k * n.w2();
    mean.b2() += k * n.b2();
    for (size_t l = 0; l < mean.mid_w().size(); ++l) {
      mean.mid_w()[l] += k * n.mid_w()[l];
      mean.mid_b()[l] += k * n.mid_b()[l];
    }
    games = std::max(games, n.games_trained());
  }
  mean.set_games_trained(games);
  mean.Quantise();
  return mean;
}

Rules BatchRules(uint64_t seed, int64_t games, const Rules& layout) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull +
                      static_cast<uint64_t>(games) * 0xBF58476D1CE4E5B9ull + 0x5A17E5ull);
  if (!layout.layout().IsFourSidedTeams()) {
    Rules rules = layout.LayoutOnly();
    if (rng() % 2 == 0) return rules;
    for (int s = 0; s < kNumSwitches; ++s) {
      Switch sw = static_cast<Switch>(s);
      if (IsLayoutSwitch(sw) || sw == Switch::kMixieStack) continue;
      rules.set(sw, rng() % 4 == 0);
    }
    return rules;
  }
  Rules rules;
  if (rng() % 2 == 0) {
    // The four-sided presets of RULES.md §10.
    static constexpr const char* kPresets[] = {"navy", "wafu", "mess", "selsey"};
    absl::StatusOr<Rules> preset = Rules::Preset(kPresets[rng() % 4]);
    return preset.ok() ? *preset : rules;
  }
  // The switches of RULES.md §9, but not §11's, which change the board.
  for (int s = 0; s < kNumSwitches; ++s) {
    Switch sw = static_cast<Switch>(s);
    if (IsLayoutSwitch(sw)) continue;
    rules.set(sw, rng() % 4 == 0);
  }
  return rules;
}

namespace {

// The checks of a self-play run's settings, before any file is touched.
absl::Status CheckSelfPlayConfig(const TrainConfig& c) {
  if (absl::Status s = CheckLayers(c); !s.ok()) return s;
  if (c.any_rules && (!c.endgames.empty() || !c.teacher.empty() || !c.labels.empty())) {
    return absl::InvalidArgumentError(
        "rules any: self-play without --endgames or --teacher (a table and a teacher are of "
        "one ruleset)");
  }
  if (c.any_rules && !(c.rules == c.rules.LayoutOnly())) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules ", RulesName(c),
                     ": a net of any rules names a layout (navy+solo, six, "
                     "six+teams_of_three, six+solo), not switches of RULES.md §9"));
  }
  if (c.hidden < 1 || c.hidden > Net::kMaxHidden) {
    return absl::InvalidArgumentError(
        absl::StrCat("hidden units ", c.hidden, " must be 1..", Net::kMaxHidden));
  }
  if (c.games < 1 || c.batch_games < 1 || c.minibatch < 1 || c.checkpoint_every < 1 ||
      c.eval_every < 0 || c.eval_pairs < 1 || !(c.lambda >= 0 && c.lambda <= 1) ||
      !(c.lookahead >= 0 && c.lookahead <= 1) || !(c.learning_rate > 0 && c.learning_rate < 1) ||
      !(c.explore >= 0 && c.explore < 1)) {
    return absl::InvalidArgumentError(
        "games, batch_games, minibatch, checkpoint_every and eval_pairs must be at least 1, "
        "eval_every at least 0, lambda and lookahead in [0, 1], the learning rate in (0, 1) and "
        "explore in [0, 1)");
  }
  if (c.random_opponent && (c.explore > 0 || c.lookahead > 0 || !c.endgames.empty())) {
    return absl::InvalidArgumentError(
        "opponent random: the net learns the game against random from its games alone (give no "
        "--explore, --lookahead or --endgames: they value the replies as the best ones)");
  }
  return absl::OkStatus();
}

// What a net per side cannot learn from: anything but its own play.
absl::Status CheckPerSideNet(const TrainConfig& c, const TrainState& st) {
  if (!st.net.per_side()) return absl::OkStatus();
  if (c.explore > 0) {
    return absl::InvalidArgumentError(
        "explore: a net per side learns from its own play only (give no --explore)");
  }
  if (c.random_opponent) {
    return absl::InvalidArgumentError(
        "opponent random: of the four-sided game of two teams only (a net per side learns from "
        "its own play)");
  }
  return absl::OkStatus();
}

// The net of --teacher (none without), checked against the run.
absl::StatusOr<std::optional<Net>> LoadTeacher(const TrainConfig& c, const TrainState& st) {
  if (c.teacher.empty()) return std::nullopt;
  absl::StatusOr<Net> loaded = Net::Load(c.teacher);
  if (!loaded.ok()) return loaded.status();
  if (!(loaded->rules() == c.rules) || loaded->per_side() || st.net.per_side()) {
    return absl::InvalidArgumentError(
        absl::StrCat("teacher ", c.teacher, " is a net of rules ", loaded->rules().ToString(),
                     "; a teacher must be of the rules trained, ", c.rules.ToString(),
                     ", and of the four-sided game of two teams"));
  }
  if (c.teacher_depth != 0 && c.teacher_depth != 1) {
    return absl::InvalidArgumentError("teacher_depth: 0 (its evaluation) or 1 (one throw)");
  }
  if (c.lookahead <= 0) {
    return absl::InvalidArgumentError("a teacher gives the lookahead target: set lookahead > 0");
  }
  return std::optional<Net>(*std::move(loaded));
}

// The endgame table of --endgames (none without).
absl::StatusOr<std::optional<EndgameTable>> LoadEndgames(const TrainConfig& c,
                                                         const TrainState& st) {
  if (c.endgames.empty()) return std::nullopt;
  if (st.net.per_side()) {
    return absl::InvalidArgumentError(
        "endgames: the tables are of the four-sided game of two teams");
  }
  absl::StatusOr<EndgameTable> loaded = EndgameTable::Load(c.endgames, c.rules);
  if (!loaded.ok()) return loaded.status();
  return std::optional<EndgameTable>(*std::move(loaded));
}

}  // namespace

absl::Status Train(const TrainConfig& c, std::ostream& log) {
  if (absl::Status s = CheckSelfPlayConfig(c); !s.ok()) return s;
  absl::StatusOr<std::string> ckpt = WritableOutputs(c);
  if (!ckpt.ok()) return ckpt.status();
  absl::StatusOr<TrainState> started = StartOrResume(c, *ckpt, log);
  if (!started.ok()) return started.status();
  TrainState st = *std::move(started);
  if (absl::Status s = CheckPerSideNet(c, st); !s.ok()) return s;
  // A new run against random starts the input that marks the random
  // thrower at no weight: the net starts from its own judgment.
  if (c.random_opponent && st.games == 0) st.net.w1().col(kRandomThrowerInput).setZero();
  absl::StatusOr<std::optional<Net>> teacher = LoadTeacher(c, st);
  if (!teacher.ok()) return teacher.status();
  absl::StatusOr<std::optional<EndgameTable>> table = LoadEndgames(c, st);
  if (!table.ok()) return table.status();
  if (st.net.per_side()) return TrainLoop<SideTdSample>(st, c, *ckpt, log, nullptr, nullptr);
  return TrainLoop<TdSample>(st, c, *ckpt, log, *teacher ? &**teacher : nullptr,
                             *table ? &**table : nullptr);
}

}  // namespace uckers
