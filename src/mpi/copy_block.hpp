#pragma once
/// @file copy_block.hpp
/// The one copy kernel of the redistribution: a rows x cols block between two strided
/// arrays, optionally conjugated. Packing, unpacking (with or without a transpose) and
/// local copies are all this kernel with different strides.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>

namespace hetscal::mpi::detail {

template <class T>
T conjugated(const T& value) {
  return value;
}
template <class R>
std::complex<R> conjugated(const std::complex<R>& value) {
  return std::conj(value);
}

/// Whether a copy conjugates its elements (ConjugateTranspose of complex data).
enum class Conjugate { No, Yes };

/// dst[i*dst_row + j*dst_col] = src[i*src_row + j*src_col] for i < rows, j < cols.
template <class T>
void copy_block(const T* src, std::int64_t src_row, std::int64_t src_col, T* dst,
                std::int64_t dst_row, std::int64_t dst_col, std::int64_t rows, std::int64_t cols,
                Conjugate conjugate) {
  if (rows <= 0 || cols <= 0) return;
  const bool plain = conjugate == Conjugate::No;
  if (plain && src_row == 1 && dst_row == 1) {
    if (src_col == rows && dst_col == rows) {
      std::memcpy(dst, src, static_cast<std::size_t>(rows * cols) * sizeof(T));
      return;
    }
    for (std::int64_t j = 0; j < cols; ++j) {
      std::memcpy(dst + j * dst_col, src + j * src_col, static_cast<std::size_t>(rows) * sizeof(T));
    }
    return;
  }
  // A transpose: one side is strided whatever the loop order. Small square tiles keep the
  // strided side's cache lines alive across the tile (a leading dimension that is a large
  // power of two maps them to one cache set, so larger tiles evict themselves); the inner
  // loop runs along j, the unit-stride side of the transposed targets the plan produces.
  constexpr std::int64_t kTile = 16;
  for (std::int64_t jb = 0; jb < cols; jb += kTile) {
    const std::int64_t je = std::min(cols, jb + kTile);
    for (std::int64_t ib = 0; ib < rows; ib += kTile) {
      const std::int64_t ie = std::min(rows, ib + kTile);
      for (std::int64_t i = ib; i < ie; ++i) {
        for (std::int64_t j = jb; j < je; ++j) {
          const T& value = src[i * src_row + j * src_col];
          dst[i * dst_row + j * dst_col] = plain ? value : conjugated(value);
        }
      }
    }
  }
}

}  // namespace hetscal::mpi::detail
