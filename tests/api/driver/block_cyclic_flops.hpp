#pragma once
// The flops a right-looking blocked factorisation gives each process of a block-cyclic
// layout, tile by tile as ScaLAPACK assigns the work: the drivers' balance of ScaLAPACK's
// run (hetscal's own is counted by its kernels).
#include <algorithm>
#include <cstdint>

#include "driver_matrices.hpp"

namespace hetscal::driver {

/// This process's flops of a right-looking blocked factorisation of an M×N matrix on the
/// block-cyclic layout of `grid` (block nb, first block on process (0, 0)): at each step k
/// the panel (column block k from row block k down, panel(rows, width) flops) is shared by
/// the owners of its tiles in proportion to their rows, and each trailing tile (i, j),
/// i ≥ k, j > k, costs its owner update(i, k, rows, cols, width) flops.
template <typename Panel, typename Update>
double block_cyclic_flops(int m, int n, int nb, const Grid& grid, Panel panel, Update update) {
  const int row_tiles = (m + nb - 1) / nb, col_tiles = (n + nb - 1) / nb;
  const auto mine = [&](int i, int j) {
    return i % grid.nprow == grid.myrow && j % grid.npcol == grid.mycol;
  };
  const auto extent = [nb](int tile, int total) {
    return static_cast<std::int64_t>(std::min(nb, total - tile * nb));
  };
  double flops = 0.0;
  for (int k = 0; k < std::min(row_tiles, col_tiles); ++k) {
    const std::int64_t width = extent(k, n), panel_rows = m - static_cast<std::int64_t>(k) * nb;
    const double panel_flops = panel(panel_rows, width);
    for (int i = k; i < row_tiles; ++i) {
      if (mine(i, k))
        flops += panel_flops * static_cast<double>(extent(i, m)) / static_cast<double>(panel_rows);
      for (int j = k + 1; j < col_tiles; ++j)
        if (mine(i, j)) flops += update(i, k, extent(i, m), extent(j, n), width);
    }
  }
  return flops;
}

}  // namespace hetscal::driver
