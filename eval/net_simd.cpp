#include "eval/net_simd.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define UCKERS_X86 1
#define UCKERS_AVX2 __attribute__((target("avx2")))
#endif

namespace uckers::simd {
namespace {

// The baseline kernels: plain loops the compiler vectorises for the
// baseline instruction set.
void AddPlain(int16_t* __restrict acc, const int16_t* __restrict col, int n) {
  for (int j = 0; j < n; ++j) acc[j] = static_cast<int16_t>(acc[j] + col[j]);
}
void SubtractPlain(int16_t* __restrict acc, const int16_t* __restrict col, int n) {
  for (int j = 0; j < n; ++j) acc[j] = static_cast<int16_t>(acc[j] - col[j]);
}
void ReluPlain(const int16_t* __restrict acc, int16_t* __restrict out, int n, int16_t hi) {
  for (int j = 0; j < n; ++j) {
    int16_t v = acc[j] < 0 ? int16_t{0} : acc[j];
    out[j] = v > hi ? hi : v;
  }
}
void UpdatePlain(const int16_t* from, int16_t* acc, int16_t* h, int n, int16_t hi, const int16_t* w,
                 int stride, const uint16_t* removed, int num_removed, const uint16_t* added,
                 int num_added) {
  if (from != acc) std::memcpy(acc, from, sizeof(int16_t) * n);
  for (int i = 0; i < num_removed; ++i) SubtractPlain(acc, w + long(removed[i]) * stride, n);
  for (int i = 0; i < num_added; ++i) AddPlain(acc, w + long(added[i]) * stride, n);
  ReluPlain(acc, h, n, hi);
}
// A fixed row count lets the compiler keep the sums in registers.
template <int kRows>
void AffineFixedPlain(const float* w, const float* b, const float* x, int n, float* out,
                      bool clip) {
  float sum[kRows];
  for (int r = 0; r < kRows; ++r) sum[r] = b[r];
  for (int j = 0; j < n; ++j) {
    const float* col = w + static_cast<long>(j) * kRows;
    for (int r = 0; r < kRows; ++r) sum[r] += col[r] * x[j];
  }
  for (int r = 0; r < kRows; ++r) out[r] = clip ? std::clamp(sum[r], 0.f, 1.f) : sum[r];
}

void AffinePlain(const float* w, const float* b, const float* x, int n, int rows, float* out,
                 bool clip) {
  switch (rows) {
    case 8:
      return AffineFixedPlain<8>(w, b, x, n, out, clip);
    case 16:
      return AffineFixedPlain<16>(w, b, x, n, out, clip);
    case 32:
      return AffineFixedPlain<32>(w, b, x, n, out, clip);
    case 64:
      return AffineFixedPlain<64>(w, b, x, n, out, clip);
    default:
      break;
  }
  std::copy(b, b + rows, out);
  for (int j = 0; j < n; ++j) {
    const float* col = w + static_cast<long>(j) * rows;
    for (int r = 0; r < rows; ++r) out[r] += col[r] * x[j];
  }
  if (clip) {
    for (int r = 0; r < rows; ++r) out[r] = std::clamp(out[r], 0.f, 1.f);
  }
}

void MultiplyPlain(const int16_t* __restrict w, const int16_t* __restrict x,
                   const int32_t* __restrict bias, int n, int rows, int32_t* __restrict out) {
  for (int r = 0; r < rows; ++r) out[r] = bias[r];
  for (int j = 0; j < n; ++j) {
    if (x[j] == 0) continue;
    for (int r = 0; r < rows; ++r) out[r] += int32_t{w[PackedIndex(r, j, rows)]} * x[j];
  }
}

#ifdef UCKERS_X86
// The accumulator's update in stretches of kRegs registers of 16 sums: each
// stretch is loaded once, every changed column applied, then stored with its
// clipped activations.
template <int kRegs>
UCKERS_AVX2 void UpdateStretchAvx2(const int16_t* from, int16_t* acc, int16_t* h, int16_t hi,
                                   const int16_t* w, int stride, const uint16_t* removed,
                                   int num_removed, const uint16_t* added, int num_added) {
  __m256i v[kRegs];
  for (int k = 0; k < kRegs; ++k) {
    v[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + 16 * k));
  }
  for (int i = 0; i < num_removed; ++i) {
    const int16_t* col = w + long(removed[i]) * stride;
    for (int k = 0; k < kRegs; ++k) {
      v[k] = _mm256_sub_epi16(v[k],
                              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col + 16 * k)));
    }
  }
  for (int i = 0; i < num_added; ++i) {
    const int16_t* col = w + long(added[i]) * stride;
    for (int k = 0; k < kRegs; ++k) {
      v[k] = _mm256_add_epi16(v[k],
                              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col + 16 * k)));
    }
  }
  const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(hi);
  for (int k = 0; k < kRegs; ++k) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + 16 * k), v[k]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + 16 * k),
                        _mm256_min_epi16(_mm256_max_epi16(v[k], zero), top));
  }
}

UCKERS_AVX2 void UpdateAvx2(const int16_t* from, int16_t* acc, int16_t* h, int n, int16_t hi,
                            const int16_t* w, int stride, const uint16_t* removed, int num_removed,
                            const uint16_t* added, int num_added) {
  int j = 0;
  for (; j + 64 <= n; j += 64) {
    UpdateStretchAvx2<4>(from + j, acc + j, h + j, hi, w + j, stride, removed, num_removed, added,
                         num_added);
  }
  for (; j < n; j += 16) {
    UpdateStretchAvx2<1>(from + j, acc + j, h + j, hi, w + j, stride, removed, num_removed, added,
                         num_added);
  }
}

// AffineFloat for rows in (8 (kRegs - 1), 8 kRegs], 8 rows a register, the
// last register masked; multiply then add (no fused multiply-add), so each
// sum rounds as the plain loop's. max(0, v) then min(1, v) keep a NaN and
// -0 as std::clamp does.
template <int kRegs>
UCKERS_AVX2 void AffineAvx2(const float* w, const float* b, const float* x, int n, int rows,
                            float* out, bool clip) {
  constexpr int kLast = kRegs - 1;
  const int tail = rows - 8 * kLast;
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(tail), lanes);
  __m256 sum[kRegs];
  for (int k = 0; k < kLast; ++k) sum[k] = _mm256_loadu_ps(b + 8 * k);
  sum[kLast] = _mm256_maskload_ps(b + 8 * kLast, mask);
  for (int j = 0; j < n; ++j) {
    const __m256 xs = _mm256_set1_ps(x[j]);
    const float* col = w + static_cast<long>(j) * rows;
    for (int k = 0; k < kLast; ++k) {
      sum[k] = _mm256_add_ps(sum[k], _mm256_mul_ps(_mm256_loadu_ps(col + 8 * k), xs));
    }
    sum[kLast] =
        _mm256_add_ps(sum[kLast], _mm256_mul_ps(_mm256_maskload_ps(col + 8 * kLast, mask), xs));
  }
  if (clip) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f);
    for (int k = 0; k < kRegs; ++k) sum[k] = _mm256_min_ps(one, _mm256_max_ps(zero, sum[k]));
  }
  for (int k = 0; k < kLast; ++k) _mm256_storeu_ps(out + 8 * k, sum[k]);
  _mm256_maskstore_ps(out + 8 * kLast, mask, sum[kLast]);
}

bool AffineFloatAvx2(const float* w, const float* b, const float* x, int n, int rows, float* out,
                     bool clip) {
  switch ((rows + 7) / 8) {
    case 1:
      AffineAvx2<1>(w, b, x, n, rows, out, clip);
      return true;
    case 2:
      AffineAvx2<2>(w, b, x, n, rows, out, clip);
      return true;
    case 4:
      AffineAvx2<4>(w, b, x, n, rows, out, clip);
      return true;
    case 8:
      AffineAvx2<8>(w, b, x, n, rows, out, clip);
      return true;
    default:
      return false;
  }
}

// For each 8-bit mask, the indices of its set bits in ascending order (the
// sparse multiply's table).
struct NonzeroIndexTable {
  alignas(64) std::array<std::array<uint16_t, 8>, 256> at{};
  NonzeroIndexTable() {
    for (int m = 0; m < 256; ++m) {
      int k = 0;
      for (int b = 0; b < 8; ++b) {
        if (m & (1 << b)) at[m][k++] = static_cast<uint16_t>(b);
      }
    }
  }
};
const NonzeroIndexTable kNonzeroIndex;

// MultiplyRows over the input pairs not both zero only: their indices
// gathered 8 pairs at a time through the table (no branch: a branch on each
// pair was mispredicted too often to pay, measured), then each one's two
// values broadcast against its weight pairs for 8 rows a register: vpmaddwd
// gives each row's two products summed.
template <int kBlocks>
UCKERS_AVX2 void MultiplySparseAvx2(const int16_t* __restrict w, const int16_t* __restrict x,
                                    const int32_t* __restrict bias, int n,
                                    int32_t* __restrict out) {
  constexpr int kMaxPairs = 512;  // a first layer of up to 1024 units
  alignas(16) std::array<uint16_t, kMaxPairs + 8> nonzero;
  // Pair p's two int16 values read as one int32 (through memcpy, which
  // compiles to a load, not through a cast pointer).
  auto pair = [x](int p) {
    int32_t v;
    std::memcpy(&v, x + 2 * p, sizeof(v));
    return v;
  };
  const int pairs = n / 2;
  int count = 0;
  __m128i base = _mm_setzero_si128();
  const __m128i eight = _mm_set1_epi16(8);
  int p = 0;
  for (; p + 8 <= pairs; p += 8) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + 2 * p));
    const __m256i zero = _mm256_cmpeq_epi32(v, _mm256_setzero_si256());
    const unsigned on =
        ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(zero))) & 0xFF;
    const __m128i idx =
        _mm_load_si128(reinterpret_cast<const __m128i*>(kNonzeroIndex.at[on].data()));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(nonzero.data() + count), _mm_add_epi16(idx, base));
    count += std::popcount(on);
    base = _mm_add_epi16(base, eight);
  }
  for (; p < pairs; ++p) {
    nonzero[count] = static_cast<uint16_t>(p);
    count += pair(p) != 0;
  }
  // At most 8 blocks of rows a pass, so that the sums stay in registers
  // (16 would spill); wider layers take a pass per 8 blocks.
  constexpr int kPass = kBlocks < 8 ? kBlocks : 8;
  static_assert(kBlocks % kPass == 0);
  for (int first = 0; first < kBlocks; first += kPass) {
    __m256i acc[kPass];
    for (int b = 0; b < kPass; ++b) {
      acc[b] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + 8 * (first + b)));
    }
    for (int i = 0; i < count; ++i) {
      const int q = nonzero[i];
      const __m256i xs = _mm256_set1_epi32(pair(q));
      const int16_t* wp = w + static_cast<long>(q) * kBlocks * 16 + 16 * first;
      for (int b = 0; b < kPass; ++b) {
        __m256i ws = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp + 16 * b));
        acc[b] = _mm256_add_epi32(acc[b], _mm256_madd_epi16(ws, xs));
      }
    }
    for (int b = 0; b < kPass; ++b) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * (first + b)), acc[b]);
    }
  }
}

// Whether the AVX2 kernel takes `rows`, and runs it.
bool MultiplyAvx2(const int16_t* w, const int16_t* x, const int32_t* bias, int n, int rows,
                  int32_t* out) {
  if (n > 1024 || rows % 8 != 0) return false;
  switch (rows / 8) {
    case 1:
      MultiplySparseAvx2<1>(w, x, bias, n, out);
      return true;
    case 2:
      MultiplySparseAvx2<2>(w, x, bias, n, out);
      return true;
    case 4:
      MultiplySparseAvx2<4>(w, x, bias, n, out);
      return true;
    case 8:
      MultiplySparseAvx2<8>(w, x, bias, n, out);
      return true;
    case 16:
      MultiplySparseAvx2<16>(w, x, bias, n, out);
      return true;
    default:
      return false;
  }
}
#endif

}  // namespace

Isa BestIsa() {
  static const Isa best = [] {
    Isa has = Isa::kBaseline;
#ifdef UCKERS_X86
    if (__builtin_cpu_supports("avx2")) has = Isa::kAvx2;
#endif
    // UCKERS_SIMD=baseline keeps to the plain loops (to measure them); the
    // numbers are the same whichever runs.
    const char* cap = std::getenv("UCKERS_SIMD");
    if (cap != nullptr && std::strcmp(cap, "baseline") == 0) return Isa::kBaseline;
    return has;
  }();
  return best;
}

void UpdateAccumulatorWith(Isa isa, const int16_t* from, int16_t* acc, int16_t* h, int n,
                           int16_t hi, const int16_t* w, int stride, const uint16_t* removed,
                           int num_removed, const uint16_t* added, int num_added) {
#ifdef UCKERS_X86
  if (isa == Isa::kAvx2) {
    return UpdateAvx2(from, acc, h, n, hi, w, stride, removed, num_removed, added, num_added);
  }
#endif
  UpdatePlain(from, acc, h, n, hi, w, stride, removed, num_removed, added, num_added);
}

void UpdateAccumulator(const int16_t* from, int16_t* acc, int16_t* h, int n, int16_t hi,
                       const int16_t* w, int stride, const uint16_t* removed, int num_removed,
                       const uint16_t* added, int num_added) {
  UpdateAccumulatorWith(BestIsa(), from, acc, h, n, hi, w, stride, removed, num_removed, added,
                        num_added);
}

void MultiplyRowsWith(Isa isa, const int16_t* packed, const int16_t* x, const int32_t* bias, int n,
                      int rows, int32_t* out) {
#ifdef UCKERS_X86
  if (isa != Isa::kBaseline && MultiplyAvx2(packed, x, bias, n, rows, out)) return;
#endif
  MultiplyPlain(packed, x, bias, n, rows, out);
}

void AffineFloatWith(Isa isa, const float* w, const float* b, const float* x, int n, int rows,
                     float* out, bool clip) {
#ifdef UCKERS_X86
  if (isa != Isa::kBaseline && rows > 0 && AffineFloatAvx2(w, b, x, n, rows, out, clip)) return;
#endif
  AffinePlain(w, b, x, n, rows, out, clip);
}

void AffineFloat(const float* w, const float* b, const float* x, int n, int rows, float* out,
                 bool clip) {
  AffineFloatWith(BestIsa(), w, b, x, n, rows, out, clip);
}

void MultiplyRows(const int16_t* packed, const int16_t* x, const int32_t* bias, int n, int rows,
                  int32_t* out) {
  MultiplyRowsWith(BestIsa(), packed, x, bias, n, rows, out);
}

}  // namespace uckers::simd
