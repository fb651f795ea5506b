#pragma once
/// @file panel_plan.hpp
/// A block panel laid over the grid: integer counts, the order of the block rows and block
/// columns inside the panel, and the periodic maps that give every tile its owner
/// (Boudet, Petitet, Rastello & Robert 1999, §3.1.2 and §3.2.2).
///
/// Tile (I, J) of the matrix belongs to grid position
/// (row_of_panel_row[I mod B_p], col_of_panel_col[J mod B_q]).
///
/// Order inside the panel (§3.2.2): LU and QR shrink the trailing matrix from the top-left,
/// so every suffix of the panel should stay balanced. A grid column j holding r_i block rows
/// on processors of cycle-times t_ij acts as one processor of cycle-time
/// 1 / Σ_i (r_i / t_ij); the block columns are then ordered by the 1D LU order with those
/// counts (lu_order_with_counts of allocation_1d.hpp), and the block rows likewise with
/// 1 / Σ_j (c_j / t_ij). For GEMM the order does not matter, so the same maps serve it.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/grids/grid_shares.hpp"
#include "core/grids/integer_plan.hpp"

namespace hetscal::core {

/// Equivalent cycle-time of each grid column holding r_i block rows: 1 / Σ_i (r_i / t_ij).
std::vector<double> column_equivalent_cycle_times(const Arrangement& a,
                                                  const std::vector<std::int64_t>& r);

/// Equivalent cycle-time of each grid row holding c_j block columns: 1 / Σ_j (c_j / t_ij).
std::vector<double> row_equivalent_cycle_times(const Arrangement& a,
                                               const std::vector<std::int64_t>& c);

/// A complete panel plan.
struct PanelPlan {
  std::int64_t panel_rows = 0;  ///< B_p
  std::int64_t panel_cols = 0;  ///< B_q
  PanelCounts counts;
  IntegerSearch search = IntegerSearch::Alternating;
  double work_per_time = 0.0;           ///< W of the integer counts
  double rational_work_per_time = 0.0;  ///< W of the rational shares it came from
  std::vector<std::size_t> row_of_panel_row;  ///< B_p entries: grid row of each block row
  std::vector<std::size_t> col_of_panel_col;  ///< B_q entries: grid column of each block column

  /// Grid position (row, column) owning tile (I, J).
  std::pair<std::size_t, std::size_t> owner_of_tile(std::size_t tile_row, std::size_t tile_col) const {
    return {row_of_panel_row[tile_row % row_of_panel_row.size()],
            col_of_panel_col[tile_col % col_of_panel_col.size()]};
  }
};

/// Integer counts (plan_panel_counts) and the LU orders for a B_p×B_q panel.
/// @throws InvalidArgument as plan_panel_counts.
PanelPlan make_panel_plan(const Arrangement& a, const Shares& rational, std::int64_t panel_rows,
                          std::int64_t panel_cols, const IntegerPlanOptions& options = {});

/// How to choose the panel size when the caller gives none.
struct PanelSizeOptions {
  std::int64_t max_panel = 64;     ///< largest B tried
  std::int64_t tile_rows = 0;      ///< tile rows of the matrix, 0 if unknown
  std::int64_t tile_cols = 0;      ///< tile columns of the matrix, 0 if unknown
  double target_fraction = 0.99;   ///< integer W wanted, as a fraction of the rational W
  IntegerPlanOptions search;
};

/// The default panel: square panels B×B for B = max(p, q), max(p, q)+1, …, max_panel, each
/// side capped by the matrix's tile count when known (B_p <= tile_rows, B_q <= tile_cols),
/// and a side of 1 where the grid has a single line (p = 1 or q = 1: that line owns every
/// block of the dimension, the panel size there changes nothing but the period);
/// the first whose integer W reaches target_fraction of the rational W. Small panels keep
/// the pattern short (fewer distinct block rows/columns per processor, better LU
/// ordering of the tail); 99% keeps the rounding loss below the precision of measured
/// speeds. If no B reaches the target, the B with the best integer W (smallest among equals).
/// @throws InvalidArgument if the matrix has fewer tile rows than p or tile columns than q,
///         max_panel < max(p, q), or target_fraction is not in (0, 1].
PanelPlan default_panel_plan(const Arrangement& a, const Shares& rational,
                             const PanelSizeOptions& options = {});

}  // namespace hetscal::core
