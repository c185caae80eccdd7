// The integer and float kernels of the deep net (eval/net_simd.h): every
// instruction set this processor has gives the same numbers, bit for bit, as
// a plain reference computed here.
#include "eval/net_simd.h"

#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace uckers::simd {
namespace {

std::vector<Isa> IsasHere() {
  std::vector<Isa> isas = {Isa::kBaseline};
  if (BestIsa() >= Isa::kAvx2) isas.push_back(Isa::kAvx2);
  return isas;
}

const char* Name(Isa isa) {
  switch (isa) {
    case Isa::kBaseline:
      return "baseline";
    case Isa::kAvx2:
      return "avx2";
  }
  return "?";
}

TEST(NetSimd, EveryKernelUpdatesTheAccumulatorAsAPlainSum) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> weight(-600, 600), input(0, 99);
  for (int n : {16, 48, 256, 512}) {
    const int inputs = 100;
    std::vector<int16_t> w(size_t(inputs) * n), start(n);
    for (auto& x : w) x = static_cast<int16_t>(weight(rng));
    for (auto& x : start) x = static_cast<int16_t>(weight(rng) * 50);  // some sums wrap
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint16_t> removed(trial % 5), added(trial % 7 + 1);
      for (auto& i : removed) i = static_cast<uint16_t>(input(rng));
      for (auto& i : added) i = static_cast<uint16_t>(input(rng));
      const int16_t hi = 255;
      std::vector<int16_t> want_acc(n), want_h(n);
      for (int j = 0; j < n; ++j) {
        int16_t v = start[j];
        for (uint16_t i : removed) v = static_cast<int16_t>(v - w[size_t(i) * n + j]);
        for (uint16_t i : added) v = static_cast<int16_t>(v + w[size_t(i) * n + j]);
        want_acc[j] = v;
        want_h[j] = std::min<int16_t>(std::max<int16_t>(v, 0), hi);
      }
      for (Isa isa : IsasHere()) {
        SCOPED_TRACE(testing::Message() << Name(isa) << " n " << n << " trial " << trial);
        std::vector<int16_t> acc(n), h(n);
        UpdateAccumulatorWith(isa, start.data(), acc.data(), h.data(), n, hi, w.data(), n,
                              removed.data(), int(removed.size()), added.data(), int(added.size()));
        EXPECT_EQ(acc, want_acc);
        EXPECT_EQ(h, want_h);
        std::vector<int16_t> in_place = start;  // from == acc
        UpdateAccumulatorWith(isa, in_place.data(), in_place.data(), h.data(), n, hi, w.data(), n,
                              removed.data(), int(removed.size()), added.data(), int(added.size()));
        EXPECT_EQ(in_place, want_acc);
      }
    }
  }
}

TEST(NetSimd, EveryKernelMultipliesRowsAsAPlainSumSkippingNoNonzeroInput) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> weight(-16383, 16383), act(0, 255), coin(0, 2);
  for (int rows : {8, 16, 32, 64, 128}) {
    for (int n : {16, 48, 128, 512}) {
      std::vector<int16_t> dense(size_t(rows) * n), packed(PackedSize(rows, n));
      for (int r = 0; r < rows; ++r) {
        for (int j = 0; j < n; ++j) {
          dense[size_t(r) * n + j] = static_cast<int16_t>(weight(rng));
          packed[PackedIndex(r, j, rows)] = dense[size_t(r) * n + j];
        }
      }
      std::vector<int32_t> bias(rows);
      for (auto& b : bias) b = weight(rng) * 100;
      // Zeros in runs, alone and in pairs, as a clipped layer leaves them.
      std::vector<int16_t> x(n);
      for (auto& v : x) v = coin(rng) == 0 ? static_cast<int16_t>(act(rng)) : int16_t{0};
      x[n - 1] = 255;
      std::vector<int32_t> want(rows);
      for (int r = 0; r < rows; ++r) {
        int32_t sum = bias[r];
        for (int j = 0; j < n; ++j) sum += int32_t{dense[size_t(r) * n + j]} * x[j];
        want[r] = sum;
      }
      for (Isa isa : IsasHere()) {
        SCOPED_TRACE(testing::Message() << Name(isa) << " rows " << rows << " n " << n);
        std::vector<int32_t> out(rows);
        MultiplyRowsWith(isa, packed.data(), x.data(), bias.data(), n, rows, out.data());
        EXPECT_EQ(out, want);
      }
    }
  }
}

TEST(NetSimd, EveryKernelComputesTheFloatLayerBitForBit) {
  std::mt19937 rng(13);
  std::normal_distribution<float> value(0.f, 0.5f);
  for (int rows : {6, 8, 13, 32, 64, 128}) {
    for (int n : {6, 32, 512}) {
      std::vector<float> w(size_t(rows) * n), b(rows), x(n);
      for (auto& v : w) v = value(rng);
      for (auto& v : b) v = value(rng);
      for (auto& v : x) v = std::max(0.f, value(rng));
      for (bool clip : {false, true}) {
        std::vector<float> want(rows);
        for (int r = 0; r < rows; ++r) {
          float sum = b[r];
          for (int j = 0; j < n; ++j) {
            volatile float product = w[size_t(j) * rows + r] * x[j];  // rounded, then added
            sum += product;
          }
          want[r] = clip ? std::clamp(sum, 0.f, 1.f) : sum;
        }
        for (Isa isa : IsasHere()) {
          SCOPED_TRACE(testing::Message()
                       << Name(isa) << " rows " << rows << " n " << n << (clip ? " clipped" : ""));
          std::vector<float> out(rows + 8, -7.f);  // the lanes past `rows` stay as they were
          AffineFloatWith(isa, w.data(), b.data(), x.data(), n, rows, out.data(), clip);
          EXPECT_EQ(std::memcmp(out.data(), want.data(), sizeof(float) * rows), 0);
          for (int r = rows; r < rows + 8; ++r) EXPECT_EQ(out[r], -7.f);
        }
      }
    }
  }
}

}  // namespace
}  // namespace uckers::simd
