#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "learn/td.h"

namespace uckers {
namespace {

constexpr char kMagic[8] = {'U', 'C', 'K', 'R', 'C', 'K', 'P', '1'};

template <typename T>
void Put(std::string* out, const T& v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

void PutMatrix(std::string* out, const Net::Matrix& m) {
  Put<int64_t>(out, m.rows());
  Put<int64_t>(out, m.cols());
  out->append(reinterpret_cast<const char*>(m.data()), m.size() * sizeof(float));
}

class In {
 public:
  explicit In(const std::string& bytes) : b_(bytes) {}
  template <typename T>
  bool Get(T* v) {
    if (b_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(v, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool GetBytes(std::string* s) {
    uint64_t n = 0;
    if (!Get(&n) || b_.size() - pos_ < n) return false;
    s->assign(b_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  bool GetMatrix(Net::Matrix* m) {
    int64_t rows = 0, cols = 0;
    if (!Get(&rows) || !Get(&cols) || rows < 0 || cols < 0 || rows * cols > (1 << 26)) return false;
    size_t n = static_cast<size_t>(rows * cols) * sizeof(float);
    if (b_.size() - pos_ < n) return false;
    m->resize(rows, cols);
    std::memcpy(m->data(), b_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  bool AtEnd() const { return pos_ == b_.size(); }

 private:
  const std::string& b_;
  size_t pos_ = 0;
};

}  // namespace

absl::Status SaveCheckpoint(const TrainState& st, const std::string& path) {
  std::string out(kMagic, sizeof(kMagic));
  Put<int64_t>(&out, st.games);
  Put<int64_t>(&out, st.steps);
  std::string net = st.net.ToBytes();
  Put<uint64_t>(&out, net.size());
  out += net;
  Put<uint64_t>(&out, st.m.size());
  for (size_t i = 0; i < st.m.size(); ++i) {
    PutMatrix(&out, st.m[i]);
    PutMatrix(&out, st.v[i]);
  }
  Put<uint64_t>(&out, st.curve.size());
  for (const CurvePoint& p : st.curve) Put(&out, p);
  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      return absl::DataLossError(absl::StrCat("cannot write checkpoint ", tmp));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return absl::PermissionDeniedError(absl::StrCat("cannot rename ", tmp, " to ", path));
  }
  return absl::OkStatus();
}

absl::StatusOr<TrainState> LoadCheckpoint(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return absl::NotFoundError(absl::StrCat("cannot open checkpoint ", path));
  std::ostringstream buf;
  buf << f.rdbuf();
  std::string bytes = buf.str();
  auto bad = [&](const char* why) {
    return absl::DataLossError(absl::StrCat("checkpoint ", path, ": ", why));
  };
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic))) {
    return bad("not an Uckers training checkpoint");
  }
  In in(bytes);
  char magic[sizeof(kMagic)];
  in.Get(&magic);
  int64_t games = 0, steps = 0;
  std::string net_bytes;
  if (!in.Get(&games) || !in.Get(&steps) || !in.GetBytes(&net_bytes))
    return bad("truncated header");
  absl::StatusOr<Net> net = Net::FromBytes(net_bytes, path);
  if (!net.ok()) return net.status();
  TrainState st{*std::move(net), games, steps, {}, {}, {}};
  // Training runs in float: the integer copy is for play.
  st.net.DropQuantised();
  // Adam's moments: a pair of arrays for each weight array (w1, b1, two for
  // each further layer of a deep net, w2, b2), each of its shape.
  const uint64_t expected = 4 + 2 * st.net.mid_w().size();
  uint64_t arrays = 0;
  if (!in.Get(&arrays) || arrays != expected) return bad("wrong optimiser state");
  st.m.resize(arrays);
  st.v.resize(arrays);
  for (size_t i = 0; i < arrays; ++i) {
    if (!in.GetMatrix(&st.m[i]) || !in.GetMatrix(&st.v[i])) return bad("truncated optimiser state");
    if (st.m[i].rows() != st.v[i].rows() || st.m[i].cols() != st.v[i].cols()) {
      return bad("wrong optimiser state");
    }
  }
  uint64_t points = 0;
  if (!in.Get(&points) || points > 1000000) return bad("truncated curve");
  st.curve.resize(points);
  for (CurvePoint& p : st.curve) {
    if (!in.Get(&p)) return bad("truncated curve");
  }
  if (!in.AtEnd()) return bad("bytes after the end");
  return st;
}

}  // namespace uckers
