#include "search/net.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

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

std::string Net::ToBytes() const {
  std::string out(kMagic, sizeof(kMagic));
  Put<uint32_t>(&out, kFormatVersion);
  Put<uint32_t>(&out, encoding_);
  Put<uint32_t>(&out, static_cast<uint32_t>(w1_.cols()));
  Put<uint32_t>(&out, static_cast<uint32_t>(hidden()));
  Put<uint32_t>(&out, static_cast<uint32_t>(w2_.rows()));
  Put<uint64_t>(&out, games_trained_);
  std::string switches = SwitchList(rules_);
  Put<uint32_t>(&out, static_cast<uint32_t>(switches.size()));
  out += switches;
  PutFloats(&out, w1_.data(), w1_.size());
  PutFloats(&out, b1_.data(), b1_.size());
  PutFloats(&out, w2_.data(), w2_.size());
  PutFloats(&out, b2_.data(), b2_.size());
  Put<uint64_t>(&out, Fnv1a(out));
  return out;
}

absl::StatusOr<Net> Net::FromBytes(absl::string_view bytes, absl::string_view source) {
  Reader r(bytes, source);
  char magic[sizeof(kMagic)];
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic))) {
    return r.Fail("not an Uckers net (bad magic)");
  }
  r.Get(&magic, "the magic");
  uint32_t format = 0, encoding = 0, inputs = 0, hidden = 0, outputs = 0;
  Net net;
  std::string switches;
  if (!r.Get(&format, "the header")) return r.status();
  if (format != kFormatVersion) {
    return r.Fail(
        absl::StrFormat("format version %d, this engine reads %d", format, kFormatVersion));
  }
  r.Get(&encoding, "the header");
  r.Get(&inputs, "the header");
  r.Get(&hidden, "the header");
  r.Get(&outputs, "the header");
  r.Get(&net.games_trained_, "the header");
  if (!r.GetString(&switches, "the switch list")) return r.status();
  if (hidden == 0 || hidden > kMaxHidden) {
    return r.Fail(absl::StrFormat("%d hidden units (1..%d)", hidden, kMaxHidden));
  }
  absl::StatusOr<Rules> rules = RulesFromSwitchList(switches);
  if (!rules.ok())
    return r.Fail(absl::StrCat("switches '", switches, "': ", rules.status().message()));
  if (absl::Status s = rules->CheckLayout(); !s.ok()) {
    return r.Fail(absl::StrCat("switches '", switches, "': ", s.message()));
  }
  // The encoding and shape follow from the rules' layout: encoding 1 for
  // the four-sided game of two teams, encoding 2 for every other one.
  Shape shape = ShapeOf(*rules);
  if (encoding != shape.encoding || inputs != shape.inputs || outputs != shape.outputs) {
    return r.Fail(absl::StrFormat(
        "input encoding %d with %d inputs and %d outputs; for rules %s this engine uses "
        "encoding %d with %d inputs and %d outputs",
        encoding, inputs, outputs, rules->ToString(), shape.encoding, shape.inputs, shape.outputs));
  }
  net.rules_ = *rules;
  net.encoding_ = encoding;
  net.w1_ = Matrix(hidden, inputs);
  net.b1_ = Vector(hidden);
  net.w2_ = Matrix(outputs, hidden);
  net.b2_ = Vector(outputs);
  r.GetFloats(net.w1_.data(), net.w1_.size(), "the weights");
  r.GetFloats(net.b1_.data(), net.b1_.size(), "the weights");
  r.GetFloats(net.w2_.data(), net.w2_.size(), "the weights");
  r.GetFloats(net.b2_.data(), net.b2_.size(), "the weights");
  size_t body = r.pos();
  uint64_t checksum = 0;
  if (!r.Get(&checksum, "the checksum")) return r.status();
  if (r.pos() != bytes.size()) return r.Fail("has bytes after the checksum");
  if (checksum != Fnv1a(bytes.substr(0, body))) return r.Fail("checksum mismatch (damaged file)");
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

Evaluation Net::Evaluate(const Position& pos) const {
  if (pos.IsGameOver()) return uckers::Evaluate(pos, rules_);
  return Evaluate(EncodeNetInputs(pos, rules_));
}

Evaluation Net::Evaluate(const NetInputs& in) const {
  // The first layer sums the columns of the inputs that are on, as NNUE's
  // accumulator does, instead of multiplying a mostly-zero vector. The
  // hidden vector lives on the stack: a search evaluates millions of leaves.
  using Hidden = Eigen::Matrix<float, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxHidden, 1>;
  Hidden acc = b1_;
  for (int i = 0; i < in.num_active; ++i) acc += w1_.col(in.active[i]);
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

std::string Net::Describe() const {
  return absl::StrFormat("net %d-%d-%d, %d self-play games, rules %s", w1_.cols(), hidden(),
                         w2_.rows(), games_trained_, rules_.ToString());
}

}  // namespace uckers
