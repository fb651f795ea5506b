#pragma once
/// @file tile_updates.hpp
/// Internal to the kernels: element-wise updates of the tiles a rank owns (not BLAS, so no
/// flops are counted: PBLAS counts none for them either).
#include <algorithm>

#include "kernels/distributed_matrix.hpp"

namespace hetscal::kernels::detail {

/// Calls f(column pointer, rows) for every column of every tile this rank owns of `x`.
template <typename T, typename F>
void for_each_owned_column(const DistributedMatrix<T>& x, F&& f) {
  // Tile by tile without a list of them: this runs inside a kernel, after its allocations
  // were agreed, where a rank short of memory would leave the others waiting.
  const layout::Distribution& d = *x.distribution;
  const layout::LocalLayout& storage = *x.storage;
  for (std::int64_t tj = 0; tj < storage.cols().count(); ++tj) {
    for (std::int64_t ti = 0; ti < storage.rows().count(); ++ti) {
      const layout::GlobalTile t{ti, tj};
      if (!storage.owns(t)) continue;
      const layout::TileLocation where = storage.tile_location(t);
      for (std::int64_t j = 0; j < d.cols().size(t.col); ++j)
        f(where.offset + j * where.ld, d.rows().size(t.row));
    }
  }
}

/// x := beta·x on this rank's tiles; beta = 0 writes zeros without reading x (which may
/// hold NaN, as PBLAS allows).
template <typename T>
void scale_owned(T beta, const DistributedMatrix<T>& x) {
  if (beta == T(1)) return;
  for_each_owned_column(x, [&](std::int64_t offset, std::int64_t rows) {
    T* column = x.data + offset;
    if (beta == T(0)) {
      std::fill(column, column + rows, T(0));
    } else {
      for (std::int64_t i = 0; i < rows; ++i) column[i] *= beta;
    }
  });
}

/// x += y on this rank's tiles, y being an array with x's local layout.
template <typename T>
void add_owned(const DistributedMatrix<T>& x, const T* y) {
  for_each_owned_column(x, [&](std::int64_t offset, std::int64_t rows) {
    for (std::int64_t i = 0; i < rows; ++i) x.data[offset + i] += y[offset + i];
  });
}

}  // namespace hetscal::kernels::detail
