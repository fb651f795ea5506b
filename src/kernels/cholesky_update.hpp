#pragma once
/// @file cholesky_update.hpp
/// Internal to kernels::cholesky: the trailing update of step k, A_ij −= L_ik·L_jkᴴ on the
/// tiles of the trailing triangle this rank owns (SYRK on diagonal tiles, GEMM elsewhere).
/// Two forms of the same update:
/// - tile by tile, on any distribution and storage (update_column);
/// - on a Cartesian grid's column-major local array (LocalArrayUpdate): per local tile column,
///   one SYRK for the diagonal tile and ONE GEMM for all the local rows of that column inside
///   the triangle, against the panel tiles of those rows stacked once per step.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cholesky_panel.hpp"
#include "kernels/cholesky_plan.hpp"
#include "kernels/cholesky_tile_ops.hpp"
#include "kernels/distributed_matrix.hpp"
#include "layout/local_storage.hpp"

namespace hetscal::kernels::detail {

/// Updates this rank's tiles (i, j), i >= j, of logical column j with `panel`.
template <typename T>
void update_column(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                   const DistributedMatrix<T>& a, const StepPanel<T>& panel, std::int64_t j) {
  const std::vector<std::int64_t>& rows = tiles.my_rows_in_column(j);
  if (rows.empty()) return;
  const PanelBlock<T> column_line = panel.line(tiles, ops, j);
  for (const std::int64_t i : rows) {
    const layout::TileLocation where = a.storage->tile_location(tiles.physical(i, j));
    T* tile = a.data + where.offset;
    if (i == j) {
      ops.update_diagonal(column_line, panel.width(), tile, where.ld);
    } else {
      ops.update_off_diagonal(panel.line(tiles, ops, i), column_line, panel.width(), tile, where.ld);
    }
  }
}

/// The update grouped over a Cartesian grid's local array (see the file comment).
template <typename T>
class LocalArrayUpdate {
 public:
  /// Allocates the stacked panel for the widest step (without communicating).
  LocalArrayUpdate(const layout::CartesianLocalLayout& storage, const CholeskyTiles& tiles)
      : storage_(&storage) {
    for (std::int64_t t = 0; t < tiles.count(); ++t) {
      if (storage.local_row_of_tile(t) >= 0) my_tile_rows_.push_back(t);
      if (storage.local_col_of_tile(t) >= 0) my_tile_cols_.push_back(t);
    }
    std::int64_t widest = 0;
    for (std::int64_t t = 0; t < tiles.count(); ++t) widest = std::max(widest, tiles.size(t));
    stack_.resize(static_cast<std::size_t>(storage.local_rows() * widest));
  }

  /// Updates this rank's tiles (r, c) with min(r, c) >= first of the stored triangle.
  void apply(const CholeskyTiles& tiles, const TriangleOps<T>& ops, const DistributedMatrix<T>& a,
             const StepPanel<T>& panel, std::int64_t first) {
    const std::int64_t origin = row_start(first), extent = row_end() - origin;
    if (extent == 0) return;
    const std::int64_t kb = panel.width(), stack_ld = ops.panel_ld(extent, kb);
    stack_panel(tiles, ops, panel, first, origin, stack_ld);
    const auto stacked = [&](std::int64_t from, std::int64_t to) {
      return PanelBlock<T>{stack_.data() + ops.line_offset(from - origin, stack_ld), stack_ld, to - from};
    };
    const auto column = std::lower_bound(my_tile_cols_.begin(), my_tile_cols_.end(), first);
    for (auto j = column; j != my_tile_cols_.end(); ++j) {
      // Local rows inside the stored triangle in tile column *j, below or above its diagonal.
      const bool lower = ops.uplo() == Uplo::Lower;
      const std::int64_t from = lower ? row_start(*j + 1) : origin;
      const std::int64_t to = lower ? row_end() : row_start(*j);
      const bool has_diagonal = storage_->owns({*j, *j});
      if (from == to && !has_diagonal) continue;
      const PanelBlock<T> column_line = panel.line(tiles, ops, *j);
      T* column_data = a.data + storage_->local_col_of_tile(*j) * storage_->ld();
      if (has_diagonal) {
        ops.update_diagonal(column_line, kb, column_data + storage_->local_row_of_tile(*j), storage_->ld());
      }
      if (from == to) continue;
      if (lower) {
        ops.update_off_diagonal(stacked(from, to), column_line, kb, column_data + from, storage_->ld());
      } else {
        ops.update_off_diagonal(column_line, stacked(from, to), kb, column_data + from, storage_->ld());
      }
    }
  }

 private:
  /// Local row of this rank's first tile row >= t (row_end() when there is none).
  std::int64_t row_start(std::int64_t t) const {
    const auto it = std::lower_bound(my_tile_rows_.begin(), my_tile_rows_.end(), t);
    return it == my_tile_rows_.end() ? row_end() : storage_->local_row_of_tile(*it);
  }
  std::int64_t row_end() const { return storage_->row_base() + storage_->local_rows(); }

  /// The panel tiles of this rank's tile rows >= first, one block in local row order. Tiles
  /// this rank does not need are absent from the panel and stay zero here; no GEMM reaches
  /// them (a Cartesian rank needs every line of its trailing tile rows that it updates).
  void stack_panel(const CholeskyTiles& tiles, const TriangleOps<T>& ops, const StepPanel<T>& panel,
                   std::int64_t first, std::int64_t origin, std::int64_t stack_ld) {
    const std::int64_t kb = panel.width();
    std::fill_n(stack_.begin(), (row_end() - origin) * kb, T(0));
    const auto row = std::lower_bound(my_tile_rows_.begin(), my_tile_rows_.end(), first);
    for (auto i = row; i != my_tile_rows_.end(); ++i) {
      if (!panel.has_line(*i)) continue;
      const PanelBlock<T> line = panel.line(tiles, ops, *i);
      T* target = stack_.data() + ops.line_offset(storage_->local_row_of_tile(*i) - origin, stack_ld);
      ops.copy_lines(line.data, line.ld, target, stack_ld, line.lines, kb);
    }
  }

  const layout::CartesianLocalLayout* storage_;
  std::vector<std::int64_t> my_tile_rows_, my_tile_cols_;
  std::vector<T> stack_;
};

}  // namespace hetscal::kernels::detail
