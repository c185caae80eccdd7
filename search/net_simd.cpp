#include "search/net_simd.h"

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
void MultiplyPlain(const int16_t* __restrict w, const int16_t* __restrict x,
                   const int32_t* __restrict bias, int n, int rows, int32_t* __restrict out) {
  for (int r = 0; r < rows; ++r) out[r] = bias[r];
  for (int j = 0; j < n; ++j) {
    if (x[j] == 0) continue;
    for (int r = 0; r < rows; ++r) out[r] += int32_t{w[PackedIndex(r, j, rows)]} * x[j];
  }
}

#ifdef UCKERS_X86
// The same loops built for AVX2: the compiler vectorises them 16 lanes wide.
UCKERS_AVX2 void AddAvx2(int16_t* __restrict acc, const int16_t* __restrict col, int n) {
  for (int j = 0; j < n; ++j) acc[j] = static_cast<int16_t>(acc[j] + col[j]);
}
UCKERS_AVX2 void SubtractAvx2(int16_t* __restrict acc, const int16_t* __restrict col, int n) {
  for (int j = 0; j < n; ++j) acc[j] = static_cast<int16_t>(acc[j] - col[j]);
}
UCKERS_AVX2 void ReluAvx2(const int16_t* __restrict acc, int16_t* __restrict out, int n,
                          int16_t hi) {
  for (int j = 0; j < n; ++j) {
    int16_t v = acc[j] < 0 ? int16_t{0} : acc[j];
    out[j] = v > hi ? hi : v;
  }
}
// For each pair of inputs, their two values broadcast against each block of
// 8 rows' weight pairs: vpmaddwd gives each row's two products summed. The
// block count is a template argument so that the sums stay in registers;
// no pair is skipped (a branch on zero inputs was mispredicted too often to
// pay, measured).
template <int kBlocks>
UCKERS_AVX2 void MultiplyBlocksAvx2(const int16_t* __restrict w, const int16_t* __restrict x,
                                    const int32_t* __restrict bias, int n,
                                    int32_t* __restrict out) {
  __m256i acc[kBlocks];
  for (int b = 0; b < kBlocks; ++b) {
    acc[b] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + 8 * b));
  }
  const int32_t* x32 = reinterpret_cast<const int32_t*>(x);
  for (int p = 0; p < n / 2; ++p) {
    const __m256i xs = _mm256_set1_epi32(x32[p]);
    const int16_t* wp = w + static_cast<long>(p) * kBlocks * 16;
    for (int b = 0; b < kBlocks; ++b) {
      __m256i ws = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp + 16 * b));
      acc[b] = _mm256_add_epi32(acc[b], _mm256_madd_epi16(ws, xs));
    }
  }
  for (int b = 0; b < kBlocks; ++b) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * b), acc[b]);
  }
}

// Whether the AVX2 kernel takes `rows`, and runs it.
bool MultiplyAvx2(const int16_t* w, const int16_t* x, const int32_t* bias, int n, int rows,
                  int32_t* out) {
  switch (rows / 8) {
    case 1:
      MultiplyBlocksAvx2<1>(w, x, bias, n, out);
      return true;
    case 2:
      MultiplyBlocksAvx2<2>(w, x, bias, n, out);
      return true;
    case 4:
      MultiplyBlocksAvx2<4>(w, x, bias, n, out);
      return true;
    case 8:
      MultiplyBlocksAvx2<8>(w, x, bias, n, out);
      return true;
    default:
      return false;
  }
}
#endif

}  // namespace

bool HasAvx2() {
#ifdef UCKERS_X86
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}

void AddColumn(int16_t* acc, const int16_t* col, int n) {
#ifdef UCKERS_X86
  if (HasAvx2()) return AddAvx2(acc, col, n);
#endif
  AddPlain(acc, col, n);
}

void SubtractColumn(int16_t* acc, const int16_t* col, int n) {
#ifdef UCKERS_X86
  if (HasAvx2()) return SubtractAvx2(acc, col, n);
#endif
  SubtractPlain(acc, col, n);
}

void ClippedRelu(const int16_t* acc, int16_t* out, int n, int16_t hi) {
#ifdef UCKERS_X86
  if (HasAvx2()) return ReluAvx2(acc, out, n, hi);
#endif
  ReluPlain(acc, out, n, hi);
}

void MultiplyRows(const int16_t* packed, const int16_t* x, const int32_t* bias, int n, int rows,
                  int32_t* out) {
#ifdef UCKERS_X86
  if (HasAvx2() && MultiplyAvx2(packed, x, bias, n, rows, out)) return;
#endif
  MultiplyPlain(packed, x, bias, n, rows, out);
}

}  // namespace uckers::simd
