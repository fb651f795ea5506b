#pragma once
/// @file cholesky_update.hpp
/// Internal to kernels::cholesky: the trailing update of step k, A_ij −= L_ik·L_jkᴴ on the
/// tiles of the trailing triangle this rank owns (HERK on diagonal tiles, GEMM elsewhere).
/// Two forms of the same update:
/// - tile by tile, on any distribution and storage (update_column);
/// - on a Cartesian grid's column-major local array (LocalArrayUpdate): the local tile columns
///   in groups kGroupColumns wide or more (the last may be narrower), each group one GEMM for the rows of the triangle
///   common to all its columns, against the panel tiles of those rows stacked once per step,
///   plus per column one HERK for its diagonal tile and one GEMM for its rows between its
///   diagonal and the group's last; the lookahead's column is one HERK and one GEMM.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/cholesky_panel.hpp"
#include "kernels/cholesky_tiles.hpp"
#include "kernels/cholesky_tile_ops.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/scalar_buffer.hpp"
#include "layout/local_storage.hpp"

namespace hetscal::kernels::detail {

/// Columns the trailing update of a local array multiplies by in one GEMM. OpenBLAS's DGEMM
/// on 6,000×64 blocks of rank 64 runs at 55 GFLOP/s here, on 6,000×256 blocks of rank 64 at
/// 62, close to its peak (64): so tiles of 64 are updated four at a time, and tiles of 256 one
/// by one as before. A planner choosing small tiles for balance then no longer pays for them
/// in the update.
inline constexpr std::int64_t kGroupColumns = 256;

/// Which tiles of a logical column an update touches: the lookahead updates the diagonal
/// tile first, so that its owner factorises it before updating the tiles below.
enum class ColumnPart { Whole, DiagonalTile, BelowDiagonal };

/// Updates this rank's tiles (i, j), i >= j, of logical column j (those of `part`) with `panel`.
template <typename T>
void update_column(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                   const DistributedMatrix<T>& a, const StepPanel<T>& panel, std::int64_t j,
                   ColumnPart part = ColumnPart::Whole) {
  const std::vector<std::int64_t>& rows = tiles.my_rows_in_column(j);
  if (rows.empty()) return;
  const PanelBlock<T> column_line = panel.line(tiles, ops, j);
  const FlopBatch batch;  // one simulated computation for the column
  for (const std::int64_t i : rows) {
    if ((part == ColumnPart::DiagonalTile && i != j) ||
        (part == ColumnPart::BelowDiagonal && i == j))
      continue;
    const layout::TileLocation where = a.storage->tile_location(tiles.physical(i, j));
    T* tile = a.at(where);
    if (i == j) {
      ops.update_diagonal(column_line, panel.width(), tile, where.ld);
    } else {
      ops.update_off_diagonal(panel.line(tiles, ops, i), column_line, panel.width(), tile,
                              where.ld);
    }
  }
}

/// The update grouped over a Cartesian grid's local array (see the file comment). Per step:
/// stack() once, then update_next_column() (the lookahead) and update_trailing().
template <typename T>
class LocalArrayUpdate {
 public:
  /// Allocates the stacked panels for the widest step (without communicating).
  LocalArrayUpdate(const layout::CartesianLocalLayout& storage, const CholeskyTiles& tiles,
                   Uplo uplo)
      : storage_(&storage) {
    std::int64_t widest = 0;
    for (std::int64_t t = 0; t < tiles.count(); ++t) {
      if (storage.local_row_of_tile(t)) my_tile_rows_.push_back(t);
      if (storage.local_col_of_tile(t)) my_tile_cols_.push_back(t);
      widest = std::max(widest, tiles.size(t));
    }
    row_stack_.resize(static_cast<std::size_t>(storage.local_rows() * widest));
    group_lines_.resize(static_cast<std::size_t>((kGroupColumns + widest) * widest));
    if (uplo == Uplo::Upper)
      column_stack_.resize(static_cast<std::size_t>(storage.local_cols() * widest));
  }

  /// Stacks step k's panel lines: those of this rank's tile rows > k in local row order and,
  /// for Upper when this rank holds tile row k+1, those of its tile columns > k+1 side by side.
  /// Lines this rank does not need are absent from the panel and stay zero; no update reads
  /// them (a Cartesian rank needs the line of every tile row and column it updates). Nothing
  /// is zeroed when no element is read (elements_are_copied).
  void stack(const CholeskyTiles& tiles, const TriangleOps<T>& ops, const StepPanel<T>& panel) {
    step_ = panel.step();
    kb_ = panel.width();
    row_origin_ = row_start(step_ + 1);
    row_ld_ = ops.panel_ld(row_end() - row_origin_, kb_);
    if (elements_are_copied()) std::fill_n(row_stack_.begin(), (row_end() - row_origin_) * kb_, T(0));
    for (auto i = first_at_least(my_tile_rows_, step_ + 1); i != my_tile_rows_.end(); ++i) {
      const std::int64_t at =
          ops.line_offset(*storage_->local_row_of_tile(*i) - row_origin_, row_ld_);
      copy_line(tiles, ops, panel, *i, row_stack_.data() + at, row_ld_);
    }
    column_origin_ = column_end();  // empty unless filled below
    if (ops.uplo() == Uplo::Lower || !storage_->local_row_of_tile(step_ + 1)) return;
    column_origin_ = column_start(step_ + 2);
    if (elements_are_copied())
      std::fill_n(column_stack_.begin(), (column_end() - column_origin_) * kb_, T(0));
    for (auto c = first_at_least(my_tile_cols_, step_ + 2); c != my_tile_cols_.end(); ++c) {
      const std::int64_t at = (*storage_->local_col_of_tile(*c) - column_origin_) * kb_;
      copy_line(tiles, ops, panel, *c, column_stack_.data() + at, kb_);
    }
  }

  /// The lookahead: logical column k+1 (the tiles of `part`), which is tile column k+1 of
  /// the local array for Lower (one HERK, one GEMM for the rows below) and tile row k+1 for
  /// Upper (one HERK, one GEMM for the columns to its right).
  void update_next_column(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                          const DistributedMatrix<T>& a, const StepPanel<T>& panel,
                          ColumnPart part) {
    const std::int64_t j = step_ + 1;
    const std::optional<layout::LocalRow> row = storage_->local_row_of_tile(j);
    const std::optional<layout::LocalCol> col = storage_->local_col_of_tile(j);
    const bool lower = ops.uplo() == Uplo::Lower;
    const layout::LocalRow below = row_start(j + 1);
    const bool diagonal = part != ColumnPart::BelowDiagonal && row && col;
    const bool off_diagonal =
        part != ColumnPart::DiagonalTile &&
        (lower ? col && below < row_end() : row && column_origin_ < column_end());
    if (!diagonal && !off_diagonal) return;  // this rank holds no tile of the column
    const PanelBlock<T> line = panel.line(tiles, ops, j);
    if (diagonal) ops.update_diagonal(line, kb_, at(a, *row, *col), storage_->ld());
    if (!off_diagonal) return;
    if (lower) {
      ops.update_off_diagonal(stacked_rows(ops, below, row_end()), line, kb_, at(a, below, *col),
                              storage_->ld());
    } else {
      const PanelBlock<T> right{column_stack_.data(), kb_, column_end() - column_origin_};
      ops.update_off_diagonal(right, line, kb_, at(a, *row, column_origin_), storage_->ld());
    }
  }

  /// The rest of the trailing triangle: this rank's tiles (r, c) with min(r, c) >= k+2, by
  /// groups of local tile columns (see the file comment); `before_each_column()` is called
  /// before each group (the driver's lookahead polls there).
  template <typename Poll>
  void update_trailing(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                       const DistributedMatrix<T>& a, const StepPanel<T>& panel,
                       Poll&& before_each_column) {
    const std::int64_t first = step_ + 2;
    const auto end = my_tile_cols_.end();
    for (auto group = first_at_least(my_tile_cols_, first); group != end;) {
      before_each_column();
      auto group_end = group;
      std::int64_t width = 0;
      while (group_end != end && width < kGroupColumns) width += tiles.size(*group_end++);
      update_group(tiles, ops, a, panel, group, group_end, width);
      group = group_end;
    }
  }

 private:
  using TileIterator = std::vector<std::int64_t>::const_iterator;

  /// Local tile columns [group, group_end) (side by side in the local array, `width` columns)
  /// of the trailing triangle. Lower: column c's rows lie below its diagonal; those below the
  /// group's last diagonal tile are common to the group. Upper (rows above the diagonal): those
  /// above the group's first diagonal tile are common.
  void update_group(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                    const DistributedMatrix<T>& a, const StepPanel<T>& panel, TileIterator group,
                    TileIterator group_end, std::int64_t width) {
    const bool lower = ops.uplo() == Uplo::Lower;
    const std::int64_t last = *(group_end - 1);
    for (auto c = group; c != group_end; ++c) {
      const layout::LocalCol col = *storage_->local_col_of_tile(*c);  // a tile column of mine
      const std::optional<layout::LocalRow> row = storage_->local_row_of_tile(*c);
      const layout::LocalRow from = lower ? row_start(*c + 1) : row_start(*group);
      const layout::LocalRow to = lower ? row_start(last + 1) : row_start(*c);
      if (!row && from == to) continue;  // no tile of this column here, nor its line
      const PanelBlock<T> line = panel.line(tiles, ops, *c);
      if (row) ops.update_diagonal(line, kb_, at(a, *row, col), storage_->ld());
      if (from < to) update_rows(ops, line, from, to, at(a, from, col));
    }
    const layout::LocalRow from = lower ? row_start(last + 1) : row_start(step_ + 2);
    const layout::LocalRow to = lower ? row_end() : row_start(*group);
    if (from < to)
      update_rows(ops, gather_lines(tiles, ops, panel, group, group_end, width), from, to,
                  at(a, from, *storage_->local_col_of_tile(*group)));
  }

  /// The block of local rows [from, to) and the logical columns of `lines`, at `block`.
  void update_rows(const TriangleOps<T>& ops, const PanelBlock<T>& lines, layout::LocalRow from,
                   layout::LocalRow to, T* block) const {
    if (ops.uplo() == Uplo::Lower) {
      ops.update_off_diagonal(stacked_rows(ops, from, to), lines, kb_, block, storage_->ld());
    } else {
      ops.update_off_diagonal(lines, stacked_rows(ops, from, to), kb_, block, storage_->ld());
    }
  }

  /// The panel lines of tile columns [group, group_end), `width` lines, side by side in
  /// group_lines_ (one GEMM then reads them as one block).
  PanelBlock<T> gather_lines(const CholeskyTiles& tiles, const TriangleOps<T>& ops,
                             const StepPanel<T>& panel, TileIterator group, TileIterator group_end,
                             std::int64_t width) {
    if (group_end - group == 1) return panel.line(tiles, ops, *group);
    const std::int64_t ld = ops.panel_ld(width, kb_);
    std::int64_t line = 0;
    for (auto c = group; c != group_end; ++c) {
      copy_line(tiles, ops, panel, *c, group_lines_.data() + ops.line_offset(line, ld), ld);
      line += tiles.size(*c);
    }
    return {group_lines_.data(), ld, width};
  }

  static std::vector<std::int64_t>::const_iterator first_at_least(
      const std::vector<std::int64_t>& tiles, std::int64_t t) {
    return std::lower_bound(tiles.begin(), tiles.end(), t);
  }
  /// Local row of this rank's first tile row >= t (row_end() when there is none).
  layout::LocalRow row_start(std::int64_t t) const {
    const auto it = first_at_least(my_tile_rows_, t);
    return it == my_tile_rows_.end() ? row_end() : *storage_->local_row_of_tile(*it);
  }
  layout::LocalRow row_end() const { return storage_->row_end(); }
  /// Local column of this rank's first tile column >= t (column_end() when there is none).
  layout::LocalCol column_start(std::int64_t t) const {
    const auto it = first_at_least(my_tile_cols_, t);
    return it == my_tile_cols_.end() ? column_end() : *storage_->local_col_of_tile(*it);
  }
  layout::LocalCol column_end() const { return storage_->col_end(); }

  T* at(const DistributedMatrix<T>& a, layout::LocalRow row, layout::LocalCol col) const {
    return a.data + storage_->offset(row, col);
  }
  /// The stacked lines of local rows [from, to).
  PanelBlock<T> stacked_rows(const TriangleOps<T>& ops, layout::LocalRow from,
                             layout::LocalRow to) const {
    return {row_stack_.data() + ops.line_offset(from - row_origin_, row_ld_), row_ld_, to - from};
  }
  void copy_line(const CholeskyTiles& tiles, const TriangleOps<T>& ops, const StepPanel<T>& panel,
                 std::int64_t line, T* target, std::int64_t target_ld) const {
    if (!panel.has_line(line)) return;
    const PanelBlock<T> block = panel.line(tiles, ops, line);
    ops.copy_lines(block.data, block.ld, target, target_ld, block.lines, kb_);
  }

  const layout::CartesianLocalLayout* storage_;
  std::vector<std::int64_t> my_tile_rows_, my_tile_cols_;
  ScalarBuffer<T> row_stack_, column_stack_;
  ScalarBuffer<T> group_lines_;  ///< one group's panel lines side by side (gather_lines)
  std::int64_t step_ = 0, kb_ = 0;
  layout::LocalRow row_origin_;   ///< local row of row_stack_'s first line
  std::int64_t row_ld_ = 1;       ///< row_stack_'s leading dimension
  layout::LocalCol column_origin_;  ///< local column of column_stack_'s first line
};

}  // namespace hetscal::kernels::detail
