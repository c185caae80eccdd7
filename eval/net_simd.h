#pragma once

#include <cstdint>

// The kernels of a quantised deep net (eval/net.h). Each is built for the
// baseline and for AVX2; the AVX2 one runs where the processor has it
// (checked once; UCKERS_SIMD=baseline in the environment keeps to the
// baseline). Both give the same numbers bit for bit. (AVX-512 kernels with
// VNNI were measured no faster than these, so there are none.)
namespace uckers::simd {

// The instruction sets a kernel may use, widest last.
enum class Isa { kBaseline, kAvx2 };

// The widest instruction set of this processor that the kernels use.
Isa BestIsa();

// The first layer's accumulator moved to a new position and its clipped
// activations, in one pass that keeps each stretch of the sums in registers:
// acc[j] = from[j] - sum over r in removed of w[r * stride + j]
//                  + sum over a in added of w[a * stride + j],
// h[j] = min(max(acc[j], 0), hi), j < n (n a multiple of 16; `from` may be
// `acc`). The sums wrap as int16: a sum of adds and subtracts that ends in
// range is exact.
void UpdateAccumulator(const int16_t* from, int16_t* acc, int16_t* h, int n, int16_t hi,
                       const int16_t* w, int stride, const uint16_t* removed, int num_removed,
                       const uint16_t* added, int num_added);

// The layout MultiplyRows reads a matrix of `rows` x `n` int16 weights in
// (n even, rows a multiple of 8): for each pair of inputs (2p, 2p + 1), for
// each block of 8 rows, each row's two weights side by side. PackedIndex
// gives where weight (r, j) goes; PackedSize the array's length.
inline int PackedIndex(int r, int j, int rows) {
  return ((j / 2) * (rows / 8) + r / 8) * 16 + (r % 8) * 2 + j % 2;
}
inline int PackedSize(int rows, int n) { return rows * n; }

// out[r] = bias[r] + sum_j W(r, j) * x[j], r < rows, with W packed as
// above (int32 sums of int16 products).
void MultiplyRows(const int16_t* packed, const int16_t* x, const int32_t* bias, int n, int rows,
                  int32_t* out);

// out[r] = b[r] + sum_j w[j * rows + r] * x[j], r < rows (w column-major,
// float), clamped to [0, 1] when `clip`; each sum in the order of j, a
// product rounded before it is added, whichever kernel runs.
void AffineFloat(const float* w, const float* b, const float* x, int n, int rows, float* out,
                 bool clip);

// The kernels of one instruction set, whatever the processor has (for tests
// that compare them; `isa` must be at most BestIsa()).
void UpdateAccumulatorWith(Isa isa, const int16_t* from, int16_t* acc, int16_t* h, int n,
                           int16_t hi, const int16_t* w, int stride, const uint16_t* removed,
                           int num_removed, const uint16_t* added, int num_added);
void MultiplyRowsWith(Isa isa, const int16_t* packed, const int16_t* x, const int32_t* bias, int n,
                      int rows, int32_t* out);
void AffineFloatWith(Isa isa, const float* w, const float* b, const float* x, int n, int rows,
                     float* out, bool clip);

}  // namespace uckers::simd
