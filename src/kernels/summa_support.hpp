#pragma once
/// @file summa_support.hpp
/// Internal to the SUMMA loops: message sizes and panel copies.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernels/flop_counter.hpp"
#include "layout/distribution.hpp"

namespace hetscal::kernels::detail {

/// Copies a rows×cols column-major block (leading dimensions ld_src, ld_dst), unless
/// elements are not copied (elements_are_copied).
template <typename T>
void copy_matrix(const T* src, std::int64_t ld_src, T* dst, std::int64_t ld_dst,
                 std::int64_t rows, std::int64_t cols) {
  if (rows <= 0 || !elements_are_copied()) return;
  for (std::int64_t j = 0; j < cols; ++j)
    std::memcpy(dst + j * ld_dst, src + j * ld_src, static_cast<std::size_t>(rows) * sizeof(T));
}

/// Largest tile of a split (0 when empty): the first or the second (the others are no larger).
inline std::int64_t largest_tile(const layout::TileSplit& split) {
  std::int64_t largest = 0;
  for (std::int64_t t = 0; t < std::min<std::int64_t>(split.count(), 2); ++t)
    largest = std::max(largest, split.size(t));
  return largest;
}

}  // namespace hetscal::kernels::detail
