#include "eval/net.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "eval/net_simd.h"

namespace uckers {
namespace {

constexpr char kMagic[8] = {'U', 'C', 'K', 'R', 'N', 'E', 'T', '1'};
constexpr uint64_t kFnvOffset = 1469598103934665603ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

uint64_t Fnv1a(absl::string_view bytes) {
  uint64_t h = kFnvOffset;
  for (unsigned char c : bytes) h = (h ^ c) * kFnvPrime;
  return h;
}

template <typename T>
void Put(std::string* out, T value) {
  char buf[sizeof(T)];
  std::memcpy(buf, &value, sizeof(T));  // little-endian hosts only (x86, arm)
  out->append(buf, sizeof(T));
}

void PutFloats(std::string* out, const float* data, size_t n) {
  out->append(reinterpret_cast<const char*>(data), n * sizeof(float));
}

// Reads fixed-size fields from a weights file, remembering the first error.
class Reader {
 public:
  Reader(absl::string_view bytes, absl::string_view source) : bytes_(bytes), source_(source) {}
  template <typename T>
  bool Get(T* value, const char* what) {
    if (!Take(sizeof(T), what)) return false;
    std::memcpy(value, bytes_.data() + pos_ - sizeof(T), sizeof(T));
    return true;
  }
  bool GetFloats(float* data, size_t n, const char* what) {
    if (!Take(n * sizeof(float), what)) return false;
    std::memcpy(data, bytes_.data() + pos_ - n * sizeof(float), n * sizeof(float));
    return true;
  }
  bool GetString(std::string* s, const char* what) {
    uint32_t len = 0;
    if (!Get(&len, what) || !Take(len, what)) return false;
    s->assign(bytes_.data() + pos_ - len, len);
    return true;
  }
  size_t pos() const { return pos_; }
  absl::Status Fail(absl::string_view why) const {
    return absl::InvalidArgumentError(absl::StrCat("net file ", source_, ": ", why));
  }
  const absl::Status& status() const { return status_; }

 private:
  bool Take(size_t n, const char* what) {
    if (bytes_.size() - pos_ < n) {
      if (status_.ok()) status_ = Fail(absl::StrCat("ends inside ", what));
      return false;
    }
    pos_ += n;
    return true;
  }
  absl::string_view bytes_;
  absl::string_view source_;
  size_t pos_ = 0;
  absl::Status status_;
};

}  // namespace

std::string SwitchList(const Rules& rules) {
  std::string out;
  for (int s = 0; s < kNumSwitches; ++s) {
    if (rules.has(static_cast<Switch>(s))) {
      absl::StrAppend(&out, "+", SwitchName(static_cast<Switch>(s)));
    }
  }
  return out;
}

absl::StatusOr<Rules> RulesFromSwitchList(absl::string_view list) {
  return Rules::Parse(absl::StrCat("navy", list));
}

namespace {

// The inputs of a deep net's encoding (3, 4 or 5).
int DeepInputs(uint32_t encoding) {
  switch (encoding) {
    case kHitNetEncodingVersion:
      return kHitNetInputs;
    case kBlockNetEncodingVersion:
      return kBlockNetInputs;
    case kContactNetEncodingVersion:
      return kContactNetInputs;
    default:
      return kDeepNetInputs;
  }
}

// The encoding, inputs and outputs a net of `rules` has.
struct Shape {
  uint32_t encoding, inputs, outputs;
};
Shape ShapeOf(const Rules& rules) {
  if (rules.layout().IsFourSidedTeams()) return {kNetEncodingVersion, kNetInputs, kNumOutcomes};
  SideNetShape side = SideNetShapeFor(rules);
  return {kSideNetEncodingVersion, static_cast<uint32_t>(side.inputs),
          static_cast<uint32_t>(side.sides)};
}

}  // namespace

bool Net::FitsShapeOf(const Rules& rules) const {
  if (deep()) {
    return rules.layout().IsFourSidedTeams() && w1_.cols() == DeepInputs(encoding_) &&
           w2_.rows() == kNumOutcomes;
  }
  Shape shape = ShapeOf(rules);
  return shape.encoding == encoding_ && shape.inputs == w1_.cols() && shape.outputs == w2_.rows();
}

Net Net::Random(const Rules& rules, int hidden, uint64_t seed) {
  Net net;
  net.rules_ = rules;
  Shape shape = ShapeOf(rules);
  net.encoding_ = shape.encoding;
  const int inputs = static_cast<int>(shape.inputs), outputs = static_cast<int>(shape.outputs);
  std::mt19937_64 rng(seed);
  // About 30 inputs are on at once: weights of 1/sqrt(30) keep the hidden
  // units out of saturation at the start.
  std::normal_distribution<float> w1(0.f, 0.18f), w2(0.f, 0.1f);
  net.w1_ = Matrix(hidden, inputs);
  for (int j = 0; j < inputs; ++j) {
    for (int i = 0; i < hidden; ++i) net.w1_(i, j) = w1(rng);
  }
  net.b1_ = Vector::Zero(hidden);
  net.w2_ = Matrix(outputs, hidden);
  for (int j = 0; j < hidden; ++j) {
    for (int i = 0; i < outputs; ++i) net.w2_(i, j) = w2(rng);
  }
  net.b2_ = Vector::Zero(outputs);
  return net;
}

Net Net::RandomDeep(const Rules& rules, const std::vector<int>& layers, uint64_t seed,
                    bool contact) {
  Net net;
  net.rules_ = rules;
  net.encoding_ = contact ? kContactNetEncodingVersion : kDeepNetEncodingVersion;
  std::mt19937_64 rng(seed);
  // About 40 inputs are on at once: first-layer weights of 0.08 and biases
  // of 0.5 start most units inside the clipped ReLU's linear range; the
  // further layers start at 1 / sqrt(fan-in).
  auto fill = [&](Matrix& m, int rows, int cols, float sd) {
    std::normal_distribution<float> d(0.f, sd);
    m = Matrix(rows, cols);
    for (int j = 0; j < cols; ++j) {
      for (int i = 0; i < rows; ++i) m(i, j) = d(rng);
    }
  };
  fill(net.w1_, layers[0], DeepInputs(net.encoding_), 0.08f);
  net.b1_ = Vector::Constant(layers[0], 0.5f);
  for (size_t l = 1; l < layers.size(); ++l) {
    net.mid_w_.emplace_back();
    fill(net.mid_w_.back(), layers[l], layers[l - 1], 1.f / std::sqrt(float(layers[l - 1])));
    net.mid_b_.push_back(Vector::Zero(layers[l]));
  }
  fill(net.w2_, kNumOutcomes, layers.back(), 1.f / std::sqrt(float(layers.back())));
  net.b2_ = Vector::Zero(kNumOutcomes);
  return net;
}

Net Net::Widened(const std::vector<int>& layers, uint64_t seed) const {
  const std::vector<int> has = LayerSizes();
  Net wide = RandomDeep(rules_, layers, seed, encoding_ != kDeepNetEncodingVersion);
  if (encoding_ == kHitNetEncodingVersion || encoding_ == kBlockNetEncodingVersion) {
    wide = wide.WithEncoding(encoding_);
  }
  // Every old unit keeps its incoming weights and bias; a new unit keeps
  // the random ones drawn above but sends nothing on: the columns of the
  // next layer (or the outputs) for new units are zero.
  wide.w1_.topRows(has[0]) = w1_;
  wide.b1_.head(has[0]) = b1_;
  for (size_t l = 0; l < mid_w_.size(); ++l) {
    Matrix& w = wide.mid_w_[l];
    w.rightCols(layers[l] - has[l]).setZero();
    w.topLeftCorner(has[l + 1], has[l]) = mid_w_[l];
    wide.mid_b_[l].head(has[l + 1]) = mid_b_[l];
  }
  wide.w2_.setZero();
  wide.w2_.leftCols(has.back()) = w2_;
  wide.b2_ = b2_;
  wide.games_trained_ = games_trained_;
  return wide;
}

Net Net::WithEncoding(uint32_t encoding) const {
  Net net = *this;
  if (encoding == encoding_) return net;
  const int inputs = DeepInputs(encoding);
  net.w1_ = Matrix::Zero(hidden(), inputs);
  net.w1_.leftCols(w1_.cols()) = w1_;
  net.encoding_ = encoding;
  net.quant_.reset();
  return net;
}

std::vector<int> Net::LayerSizes() const {
  std::vector<int> sizes = {hidden()};
  for (const Vector& b : mid_b_) sizes.push_back(static_cast<int>(b.size()));
  return sizes;
}

std::string Net::ToBytes() const {
  std::string out(kMagic, sizeof(kMagic));
  Put<uint32_t>(&out, deep() ? kDeepFormatVersion : kFormatVersion);
  Put<uint32_t>(&out, encoding_);
  Put<uint32_t>(&out, static_cast<uint32_t>(w1_.cols()));
  Put<uint32_t>(&out, static_cast<uint32_t>(hidden()));
  Put<uint32_t>(&out, static_cast<uint32_t>(w2_.rows()));
  if (deep()) {
    Put<uint32_t>(&out, static_cast<uint32_t>(mid_b_.size()));
    for (const Vector& b : mid_b_) Put<uint32_t>(&out, static_cast<uint32_t>(b.size()));
  }
  Put<uint64_t>(&out, games_trained_);
  // A net of any rules: its layout's switch list, then kAnyRules ("*" for
  // the four-sided game of two teams, "+solo*" for navy+solo's layout).
  std::string switches =
      any_rules_ ? absl::StrCat(SwitchList(rules_), kAnyRules) : SwitchList(rules_);
  Put<uint32_t>(&out, static_cast<uint32_t>(switches.size()));
  out += switches;
  PutFloats(&out, w1_.data(), w1_.size());
  PutFloats(&out, b1_.data(), b1_.size());
  for (size_t i = 0; i < mid_w_.size(); ++i) {
    PutFloats(&out, mid_w_[i].data(), mid_w_[i].size());
    PutFloats(&out, mid_b_[i].data(), mid_b_[i].size());
  }
  PutFloats(&out, w2_.data(), w2_.size());
  PutFloats(&out, b2_.data(), b2_.size());
  Put<uint64_t>(&out, Fnv1a(out));
  return out;
}

namespace {

// A net file's header, as read.
struct NetHeader {
  uint32_t format = 0, encoding = 0, inputs = 0, hidden = 0, outputs = 0;
  std::vector<uint32_t> mids;  // the units of a deep net's further layers
  uint64_t games_trained = 0;
  std::string switches;  // the switch list, kAnyRules at its end for a net of any rules
};

// A deep net's further layers (format 2), and its input encoding checked.
absl::Status ReadLayers(Reader& r, NetHeader* h) {
  uint32_t num_mid = 0;
  if (!r.Get(&num_mid, "the header")) return r.status();
  if (num_mid < 1 || num_mid > Net::kMaxMidLayers) {
    return r.Fail(absl::StrFormat("%d further layers (1..%d)", num_mid, Net::kMaxMidLayers));
  }
  h->mids.resize(num_mid);
  for (uint32_t& m : h->mids) {
    if (!r.Get(&m, "the header")) return r.status();
    if (m < 1 || m > Net::kMaxMidUnits) {
      return r.Fail(absl::StrFormat("a layer of %d units (1..%d)", m, Net::kMaxMidUnits));
    }
  }
  uint32_t encoding = h->encoding;
  if (encoding != kDeepNetEncodingVersion && encoding != kContactNetEncodingVersion &&
      encoding != kHitNetEncodingVersion && encoding != kBlockNetEncodingVersion) {
    return r.Fail(
        absl::StrFormat("format 2 with input encoding %d (a deep net reads %d, %d, %d or %d)",
                        encoding, kDeepNetEncodingVersion, kContactNetEncodingVersion,
                        kHitNetEncodingVersion, kBlockNetEncodingVersion));
  }
  return absl::OkStatus();
}

// The header of the net file `bytes`, read by `r` up to the weights.
absl::StatusOr<NetHeader> ReadHeader(Reader& r, absl::string_view bytes) {
  char magic[sizeof(kMagic)];
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic))) {
    return r.Fail("not an Uckers net (bad magic)");
  }
  r.Get(&magic, "the magic");
  NetHeader h;
  if (!r.Get(&h.format, "the header")) return r.status();
  if (h.format != Net::kFormatVersion && h.format != Net::kDeepFormatVersion) {
    return r.Fail(absl::StrFormat("format version %d, this engine reads %d and %d", h.format,
                                  Net::kFormatVersion, Net::kDeepFormatVersion));
  }
  r.Get(&h.encoding, "the header");
  r.Get(&h.inputs, "the header");
  r.Get(&h.hidden, "the header");
  r.Get(&h.outputs, "the header");
  if (h.format == Net::kDeepFormatVersion) {
    if (absl::Status s = ReadLayers(r, &h); !s.ok()) return s;
  }
  r.Get(&h.games_trained, "the header");
  if (!r.GetString(&h.switches, "the switch list")) return r.status();
  if (h.hidden == 0 || h.hidden > Net::kMaxHidden) {
    return r.Fail(absl::StrFormat("%d hidden units (1..%d)", h.hidden, Net::kMaxHidden));
  }
  return h;
}

// The rules a net file is of, and whether of any rules of their layout.
struct NetRules {
  Rules rules;
  bool any = false;
};

// The rules of the header's switch list, checked against its format and
// shape.
absl::StatusOr<NetRules> ReadRules(const Reader& r, const NetHeader& h) {
  const std::string& switches = h.switches;
  // A net of any rules reads as its layout's shape: the switch list before
  // the "*" names the layout, and nothing else.
  const bool any = absl::EndsWith(switches, Net::kAnyRules);
  absl::StatusOr<Rules> rules =
      RulesFromSwitchList(any ? absl::string_view(switches).substr(0, switches.size() - 1)
                              : absl::string_view(switches));
  if (!rules.ok()) {
    return r.Fail(absl::StrCat("switches '", switches, "': ", rules.status().message()));
  }
  if (absl::Status s = rules->CheckLayout(); !s.ok()) {
    return r.Fail(absl::StrCat("switches '", switches, "': ", s.message()));
  }
  if (any && !(*rules == rules->LayoutOnly())) {
    return r.Fail(absl::StrCat("switches '", switches,
                               "': a net of any rules names only its layout's switches "
                               "(RULES.md §11), not those of §9"));
  }
  if (any && rules->layout().IsFourSidedTeams() && h.format != Net::kDeepFormatVersion) {
    return r.Fail(
        absl::StrFormat("switches '%s' (any rules) in format %d: of the four-sided game of two "
                        "teams only a deep net (format %d) is of any rules",
                        switches, h.format, Net::kDeepFormatVersion));
  }
  // The encoding and shape follow from the rules' layout: encoding 1 (or 3,
  // a deep net) for the four-sided game of two teams, encoding 2 for every
  // other one.
  Shape shape = ShapeOf(*rules);
  if (h.format == Net::kDeepFormatVersion && shape.encoding == kNetEncodingVersion) {
    shape.encoding = h.encoding;
    shape.inputs = DeepInputs(h.encoding);
  }
  if (h.encoding != shape.encoding || h.inputs != shape.inputs || h.outputs != shape.outputs) {
    return r.Fail(absl::StrFormat(
        "input encoding %d with %d inputs and %d outputs; for rules %s this engine uses "
        "encoding %d with %d inputs and %d outputs",
        h.encoding, h.inputs, h.outputs, rules->ToString(), shape.encoding, shape.inputs,
        shape.outputs));
  }
  return NetRules{*rules, any};
}

// The end of the net file `bytes` after its weights: the checksum of all
// before it, and nothing after.
absl::Status CheckTrailer(Reader& r, absl::string_view bytes) {
  // A read past the end stops the reader where it was, and a later,
  // shorter read could still fit: the first failure decides.
  if (!r.status().ok()) return r.status();
  size_t body = r.pos();
  uint64_t checksum = 0;
  if (!r.Get(&checksum, "the checksum")) return r.status();
  if (r.pos() != bytes.size()) return r.Fail("has bytes after the checksum");
  if (checksum != Fnv1a(bytes.substr(0, body))) return r.Fail("checksum mismatch (damaged file)");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Net> Net::FromBytes(absl::string_view bytes, absl::string_view source) {
  Reader r(bytes, source);
  absl::StatusOr<NetHeader> header = ReadHeader(r, bytes);
  if (!header.ok()) return header.status();
  absl::StatusOr<NetRules> rules = ReadRules(r, *header);
  if (!rules.ok()) return rules.status();
  const uint32_t hidden = header->hidden, inputs = header->inputs, outputs = header->outputs;
  Net net;
  net.games_trained_ = header->games_trained;
  net.rules_ = rules->rules;
  net.any_rules_ = rules->any;
  net.encoding_ = header->encoding;
  net.w1_ = Matrix(hidden, inputs);
  net.b1_ = Vector(hidden);
  net.b2_ = Vector(outputs);
  r.GetFloats(net.w1_.data(), net.w1_.size(), "the weights");
  r.GetFloats(net.b1_.data(), net.b1_.size(), "the weights");
  int previous = static_cast<int>(hidden);
  for (uint32_t m : header->mids) {
    net.mid_w_.push_back(Matrix(m, previous));
    net.mid_b_.push_back(Vector(m));
    r.GetFloats(net.mid_w_.back().data(), net.mid_w_.back().size(), "the weights");
    r.GetFloats(net.mid_b_.back().data(), net.mid_b_.back().size(), "the weights");
    previous = static_cast<int>(m);
  }
  net.w2_ = Matrix(outputs, previous);
  r.GetFloats(net.w2_.data(), net.w2_.size(), "the weights");
  r.GetFloats(net.b2_.data(), net.b2_.size(), "the weights");
  if (absl::Status s = CheckTrailer(r, bytes); !s.ok()) return s;
  net.Quantise();
  return net;
}

absl::StatusOr<Net> Net::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open net file ", path));
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read net file ", path));
  return FromBytes(buf.str(), path);
}

absl::Status Net::Save(const std::string& path) const {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return absl::PermissionDeniedError(absl::StrCat("cannot write ", tmp));
    std::string bytes = ToBytes();
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return absl::DataLossError(absl::StrCat("cannot write ", tmp, " (disk full?)"));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return absl::PermissionDeniedError(absl::StrCat("cannot rename ", tmp, " to ", path));
  }
  return absl::OkStatus();
}

SideValues Net::EvaluateSides(const Position& pos) const {
  SideValues v;
  v.sides = pos.num_sides();
  if (pos.IsGameOver()) {
    v.win[pos.WinningSide()] = 1;
    return v;
  }
  std::array<float, kMaxColours> chances{};
  EvaluateSides(EncodeSideNetInputs(pos, rules_), chances.data());
  int our_side = pos.SideOf(pos.to_throw());
  for (int j = 0; j < v.sides; ++j) v.win[(our_side + j) % v.sides] = chances[j];
  return v;
}

void Net::EvaluateSides(const SideNetInputs& in, float* chances) const {
  using Hidden = Eigen::Matrix<float, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxHidden, 1>;
  using Outputs = Eigen::Matrix<float, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxColours, 1>;
  Hidden acc = b1_;
  for (int i = 0; i < in.num_active; ++i) acc += w1_.col(in.active[i]);
  const int dense_from = static_cast<int>(w1_.cols()) - in.num_dense;
  for (int j = 0; j < in.num_dense; ++j) acc += w1_.col(dense_from + j) * in.dense[j];
  Hidden h = acc.array().tanh().matrix();
  Outputs logits = w2_ * h + b2_;
  float top = logits.maxCoeff();
  Outputs ex = (logits.array() - top).exp().matrix();
  float sum = ex.sum();
  for (int j = 0; j < logits.size(); ++j) chances[j] = ex[j] / sum;
}

// The integer copy of a deep net's first two layers (Net::Quantise).
struct Net::Quantised {
  uint64_t generation = 0;  // names this copy in the per-thread accumulators
  int l1 = 0, l2 = 0;       // units, padded to multiples of 16 and 8
  std::vector<int16_t> w1;  // input i's column at i * l1, scaled by kQuantA
  std::vector<int16_t> b1;
  std::vector<int16_t> w2;  // l2 rows of l1, scaled by scale2, packed (net_simd.h)
  std::vector<int32_t> b2;  // scaled by kQuantA * scale2
  float unscale2 = 0;       // 1 / (kQuantA * scale2)
};

namespace {

std::atomic<uint64_t> next_generation{1};

int16_t Round16(float x) {
  return static_cast<int16_t>(std::clamp(std::lround(x), -32767l, 32767l));
}

// A thread's first-layer accumulator for one colour to throw: the inputs it
// sums and their sum, for the quantised net of `generation`.
struct AccumulatorSlot {
  uint64_t generation = 0;  // 0: empty
  int num_active = 0;
  std::array<uint16_t, kNetMaxActive> active{};
  alignas(64) std::array<int16_t, Net::kMaxHidden> acc{};
};
// One slot per colour to throw, and one for inputs of no known colour
// (always summed afresh).
thread_local std::array<AccumulatorSlot, kNumColours + 1> accumulators;

}  // namespace

void Net::Quantise() {
  quant_.reset();
  if (!deep()) return;
  auto q = std::make_shared<Quantised>();
  q->generation = next_generation.fetch_add(1);
  const int l1 = hidden(), l2 = static_cast<int>(mid_w_[0].rows());
  q->l1 = (l1 + 15) / 16 * 16;
  q->l2 = (l2 + 7) / 8 * 8;
  q->w1.assign(static_cast<size_t>(w1_.cols()) * q->l1, 0);
  for (int i = 0; i < w1_.cols(); ++i) {
    for (int j = 0; j < l1; ++j) q->w1[size_t(i) * q->l1 + j] = Round16(w1_(j, i) * kQuantA);
  }
  q->b1.assign(q->l1, 0);
  for (int j = 0; j < l1; ++j) q->b1[j] = Round16(b1_[j] * kQuantA);
  const Matrix& m2 = mid_w_[0];
  float top = std::max(m2.cwiseAbs().maxCoeff(), 1e-6f);
  float scale2 = static_cast<float>(QuantWeightBoundFor(q->l1)) / top;
  q->w2.assign(simd::PackedSize(q->l2, q->l1), 0);
  for (int r = 0; r < l2; ++r) {
    for (int j = 0; j < l1; ++j) {
      q->w2[simd::PackedIndex(r, j, q->l2)] = Round16(m2(r, j) * scale2);
    }
  }
  q->b2.assign(q->l2, 0);
  for (int r = 0; r < l2; ++r) {
    q->b2[r] = static_cast<int32_t>(std::lround(double(mid_b_[0][r]) * kQuantA * scale2));
  }
  q->unscale2 = 1.f / (kQuantA * scale2);
  quant_ = std::move(q);
}

NetInputs Net::Encode(const Position& pos) const {
  if (encoding_ == kHitNetEncodingVersion) return EncodeHitNetInputs(pos, rules_);
  if (encoding_ == kBlockNetEncodingVersion) return EncodeBlockNetInputs(pos, rules_);
  if (encoding_ == kContactNetEncodingVersion) return EncodeContactNetInputs(pos, rules_);
  return deep() ? EncodeDeepNetInputs(pos, rules_) : EncodeNetInputs(pos, rules_);
}

Evaluation Net::Evaluate(const Position& pos) const {
  if (pos.IsGameOver()) return uckers::Evaluate(pos, rules_);
  NetInputs in = Encode(pos);
  return quant_ ? EvaluateQuantised(in, pos.to_throw()) : EvaluateFloat(in);
}

Evaluation Net::Evaluate(const NetInputs& in) const {
  return quant_ ? EvaluateQuantised(in, -1) : EvaluateFloat(in);
}

Evaluation Net::Evaluate(const NetInputs& in, int colour) const {
  return quant_ ? EvaluateQuantised(in, colour) : EvaluateFloat(in);
}

Evaluation Net::EvaluateQuantised(const NetInputs& in, int colour) const {
  const Quantised& q = *quant_;
  AccumulatorSlot& slot = accumulators[colour >= 0 ? colour : kNumColours];
  int16_t* acc = slot.acc.data();
  // The inputs that changed since the slot's last position, from the two
  // ascending lists: when they are fewer than the inputs on, the
  // accumulator is updated by them, else summed afresh.
  std::array<uint16_t, kNetMaxActive> removed, added;
  int num_removed = 0, num_added = 0;
  bool refresh = slot.generation != q.generation || colour < 0;
  if (!refresh) {
    int i = 0, j = 0;
    while (i < slot.num_active || j < in.num_active) {
      if (j == in.num_active || (i < slot.num_active && slot.active[i] < in.active[j])) {
        removed[num_removed++] = slot.active[i++];
      } else if (i == slot.num_active || in.active[j] < slot.active[i]) {
        added[num_added++] = in.active[j++];
      } else {
        ++i;
        ++j;
      }
      if (num_removed + num_added >= in.num_active) {
        refresh = true;
        break;
      }
    }
  }
  alignas(64) std::array<int16_t, kMaxHidden> h1;
  const int16_t hi = static_cast<int16_t>(kQuantA);
  if (refresh) {
    simd::UpdateAccumulator(q.b1.data(), acc, h1.data(), q.l1, hi, q.w1.data(), q.l1, nullptr, 0,
                            in.active.data(), in.num_active);
  } else {
    simd::UpdateAccumulator(acc, acc, h1.data(), q.l1, hi, q.w1.data(), q.l1, removed.data(),
                            num_removed, added.data(), num_added);
  }
  slot.generation = q.generation;
  slot.num_active = in.num_active;
  std::copy(in.active.begin(), in.active.begin() + in.num_active, slot.active.begin());

  alignas(32) std::array<int32_t, kMaxMidUnits> z2;
  simd::MultiplyRows(q.w2.data(), h1.data(), q.b2.data(), q.l1, q.l2, z2.data());
  const int l2 = static_cast<int>(mid_b_[0].size());
  std::array<float, kMaxMidUnits> h2;
  for (int r = 0; r < l2; ++r) h2[r] = std::clamp(z2[r] * q.unscale2, 0.f, 1.f);
  return Tail(h2.data(), l2, 1);
}

Evaluation Net::Tail(const float* h, int size, int from) const {
  // Small layers a column at a time (the weights are column-major), the
  // rows in SIMD lanes (net_simd.h).
  std::array<float, kMaxHidden> a, b;
  const float* cur = h;
  for (size_t l = from; l < mid_w_.size(); ++l) {
    const Matrix& w = mid_w_[l];
    const int rows = static_cast<int>(w.rows());
    float* next = cur == a.data() ? b.data() : a.data();
    simd::AffineFloat(w.data(), mid_b_[l].data(), cur, size, rows, next, /*clip=*/true);
    cur = next;
    size = rows;
  }
  std::array<float, kNumOutcomes> logits;
  simd::AffineFloat(w2_.data(), b2_.data(), cur, size, kNumOutcomes, logits.data(),
                    /*clip=*/false);
  float top = *std::max_element(logits.begin(), logits.end());
  float sum = 0;
  for (float& z : logits) sum += (z = std::exp(z - top));
  Evaluation e;
  for (int i = 0; i < kNumOutcomes; ++i) e.p[i] = logits[i] / sum;
  return e;
}

Evaluation Net::EvaluateFloat(const NetInputs& in) const {
  // The first layer sums the columns of the inputs that are on, as NNUE's
  // accumulator does, instead of multiplying a mostly-zero vector. The
  // hidden vector lives on the stack: a search evaluates millions of leaves.
  using Hidden = Eigen::Matrix<float, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxHidden, 1>;
  Hidden acc = b1_;
  for (int i = 0; i < in.num_active; ++i) acc += w1_.col(in.active[i]);
  if (deep()) {
    Hidden h = acc.cwiseMax(0.f).cwiseMin(1.f);
    return Tail(h.data(), hidden(), 0);
  }
  for (int j = 0; j < kNetDenseInputs; ++j) {
    acc += w1_.col(kNetSparseInputs + j) * in.dense[j];
  }
  Hidden h = acc.array().tanh().matrix();
  Eigen::Matrix<float, kNumOutcomes, 1> logits = w2_ * h + b2_;
  float top = logits.maxCoeff();
  Eigen::Matrix<float, kNumOutcomes, 1> ex = (logits.array() - top).exp();
  float sum = ex.sum();
  Evaluation e;
  for (int i = 0; i < kNumOutcomes; ++i) e.p[i] = ex[i] / sum;
  return e;
}

Evaluation ValueAgainstRandom(const Net& net, const Position& pos, int random_team, NetInputs* in) {
  if (pos.IsGameOver()) return Evaluate(pos, net.rules());
  *in = net.Encode(pos);
  if (TeamOf(pos.to_throw()) == random_team) MarkRandomThrower(in);
  return net.Evaluate(*in, pos.to_throw());
}

std::string Net::Describe() const {
  std::string rules = rules_.ToString();
  if (any_rules_) {
    rules = rules_.layout().IsFourSidedTeams()
                ? absl::StrCat("any (playing ", rules_.ToString(), ")")
                : absl::StrCat("any of its layout (playing ", rules_.ToString(), ")");
  }
  if (adapted_from_) {
    absl::StrAppend(&rules, " (the net of ", adapted_from_->ToString(),
                    ", without the inputs it was not trained on)");
  }
  return absl::StrFormat("net %d-%s-%d, %d self-play games, rules %s", w1_.cols(),
                         absl::StrJoin(LayerSizes(), "-"), w2_.rows(), games_trained_, rules);
}

bool Net::Serves(const Rules& rules) const {
  if (!any_rules_) return rules == rules_;
  if (deep()) return rules.layout().IsFourSidedTeams();
  // A net per side of any rules: its layout's rulesets of its shape (the
  // stack tops of mixie_stack are inputs it does not have).
  return rules.layout_id() == rules_.layout_id() && !rules.has(Switch::kMixieStack);
}

absl::StatusOr<Net> Net::AdaptedTo(const Rules& rules) const {
  if (!per_side() || rules.layout_id() != rules_.layout_id()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the net of rules ", rules_.ToString(), " cannot be adapted to rules ", rules.ToString(),
        ": only a net per side, to rules of its own layout (RULES.md §11)"));
  }
  const SideNetShape from = SideNetShapeFor(rules_), to = SideNetShapeFor(rules);
  Net net = *this;
  net.rules_ = rules;
  net.any_rules_ = false;  // a net of `rules` now
  net.views_.reset();
  net.quant_.reset();
  net.adapted_from_ = adapted_from_ ? adapted_from_ : std::optional<Rules>(rules_);
  net.w1_ = Matrix::Zero(w1_.rows(), to.inputs);
  // Each colour's block: the same inputs in the same order, the stack tops
  // (under mixie_stack) last, so the common prefix is every other input.
  const int colours = rules.board().colours;
  const int common = std::min(from.colour_stride, to.colour_stride);
  for (int k = 0; k < colours; ++k) {
    net.w1_.middleCols(k * to.colour_stride, common) =
        w1_.middleCols(k * from.colour_stride, common);
  }
  const int global_from = colours * from.colour_stride, global_to = colours * to.colour_stride;
  net.w1_.middleCols(global_to, 3) = w1_.middleCols(global_from, 3);
  for (int s = 0; s < kNumSwitches; ++s) {
    const Switch sw = static_cast<Switch>(s);
    const bool had = rules_.has(sw), has = rules.has(sw);
    // A net of any rules saw every switch of §9 but mixie_stack on and off.
    const bool seen = had || (any_rules_ && sw != Switch::kMixieStack);
    const int col_from = global_from + 3 + s, col_to = global_to + 3 + s;
    // On in every game it was trained on: its weight goes to the bias, or
    // stays where the switch is on now. Seen on and off: kept. Never on in
    // its training: no weight (a net trained on from here starts that
    // switch at zero).
    if (had && !has) {
      net.b1_ += w1_.col(col_from);
    } else if (seen) {
      net.w1_.col(col_to) = w1_.col(col_from);
    }
  }
  net.w1_.middleCols(to.sparse, to.dense) = w1_.middleCols(from.sparse, from.dense);
  return net;
}

struct Net::Views {
  std::mutex mu;
  std::map<std::string, std::unique_ptr<Net>> nets;  // by rules string
};

const Net* Net::ForRules(const Rules& rules) const {
  if (!any_rules_ || !Serves(rules)) return nullptr;
  if (rules == rules_) return this;
  static std::mutex views_mutex;  // guards views_ itself, made on first use
  std::shared_ptr<Views> views;
  {
    std::lock_guard<std::mutex> lock(views_mutex);
    if (!views_) views_ = std::make_shared<Views>();
    views = views_;
  }
  std::lock_guard<std::mutex> lock(views->mu);
  std::unique_ptr<Net>& view = views->nets[rules.ToString()];
  if (!view) {
    view = std::make_unique<Net>(*this);
    view->rules_ = rules;
    view->views_.reset();  // the cache owns the view: no cycle
  }
  return view.get();
}

}  // namespace uckers
