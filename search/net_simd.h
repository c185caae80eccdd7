#pragma once

#include <cstdint>

// The integer kernels of a quantised deep net (search/net.h). Each is built
// for AVX2 and for the baseline; the AVX2 one runs where the processor has
// it (checked once).
namespace uckers::simd {

// Whether the AVX2 kernels run.
bool HasAvx2();

// acc[j] += col[j], j < n (int16, wrapping: a sum of adds and subtracts
// that ends in range is exact).
void AddColumn(int16_t* acc, const int16_t* col, int n);
// acc[j] -= col[j], j < n.
void SubtractColumn(int16_t* acc, const int16_t* col, int n);
// out[j] = min(max(acc[j], 0), hi), j < n.
void ClippedRelu(const int16_t* acc, int16_t* out, int n, int16_t hi);

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

}  // namespace uckers::simd
