#pragma once
/// @file cholesky_column_runs.hpp
/// Internal to kernels::cholesky: the trailing update of step k on a storage whose tiles lie
/// in two buffers (an in-place take-over's: the caller's array and an overflow,
/// layout/in_place_storage.hpp), grouped wherever tiles are contiguous, so that a step stays
/// a few large BLAS calls: per physical tile column, each run of this rank's tiles that
/// follow one another in memory (one buffer, one leading dimension, and their panel lines
/// consecutive) is one GEMM against the step's panel lines, stacked in line order a band of
/// rows at a time (kStackBands). Where a rank keeps whole tile columns (a 1xQ grid) or
/// receives them (the overflow stacks a column's tiles), a column is one HERK and one GEMM
/// per band.
///
/// Physical column c is logical column c for Lower (rows i >= c: A_ic −= L_i·L_cᴴ) and
/// logical row c for Upper (rows r <= c, the logical columns: A_rc −= U_rᴴ·U_c); so one loop
/// serves both triangles. The lookahead's logical column k+1 is physical column k+1 for
/// Lower (runs again) and physical row k+1 for Upper (tile by tile: update_column).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cholesky_panel.hpp"
#include "kernels/cholesky_tiles.hpp"
#include "kernels/cholesky_tile_ops.hpp"
#include "kernels/cholesky_update.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/scalar_buffer.hpp"

namespace hetscal::kernels::detail {

/// Bands the stacked panel is cut into at most: a stack of a quarter of the lines, while each
/// GEMM still has up to a quarter of the rows (1,500×128×128 at N = 6,000, NB = 128). A whole
/// N×NB stack is 0.04 of a slow rank's operands there, on top of its two step panels: its peak
/// RSS growth in PDPOTRF's in-place route was 0.17-0.18 of its operands with it, 0.14 with
/// four bands (issue 28 asks for at most 0.15).
inline constexpr std::int64_t kStackBands = 4;

template <typename T>
class ColumnRunUpdate {
 public:
  /// Allocates the stacked panel (a band of the lines) and lists this rank's physical rows of
  /// each physical tile column (without communicating).
  ColumnRunUpdate(const CholeskyTiles& tiles, const DistributedMatrix<T>& a, Uplo uplo)
      : position_(static_cast<std::size_t>(tiles.count()), -1),
        rows_of_column_(static_cast<std::size_t>(tiles.count())) {
    std::int64_t widest = 0, extent = 0;
    for (std::int64_t t = 0; t < tiles.count(); ++t) {
      widest = std::max(widest, tiles.size(t));
      extent += tiles.size(t);
    }
    for (std::int64_t c = 0; c < tiles.count(); ++c) {
      const std::int64_t first = uplo == Uplo::Lower ? c : 0, last = uplo == Uplo::Lower ? tiles.count() - 1 : c;
      for (std::int64_t r = first; r <= last; ++r)
        if (a.distribution->owner({r, c}) == tiles.my_rank()) rows_of_column_[static_cast<std::size_t>(c)].push_back(r);
    }
    capacity_ = std::max(widest, (extent + kStackBands - 1) / kStackBands);
    stack_.resize(static_cast<std::size_t>(capacity_ * widest));
  }

  /// Starts step k (its panel is stacked band by band where it is used).
  void begin_step(const StepPanel<T>& panel) {
    step_ = panel.step();
    kb_ = panel.width();
  }

  /// The lookahead: the tiles of `part` of logical column k+1.
  void update_next_column(const CholeskyTiles& tiles, const TriangleOps<T>& ops, const DistributedMatrix<T>& a,
                          const StepPanel<T>& panel, ColumnPart part) {
    if (ops.uplo() == Uplo::Upper || part == ColumnPart::DiagonalTile) {
      update_column(tiles, ops, a, panel, step_ + 1, part);
      return;
    }
    for_each_band(tiles, ops, panel, [&](std::int64_t from, std::int64_t to) {
      update_physical_column(tiles, ops, a, panel, step_ + 1, from, to);
    });
  }

  /// The rest of the trailing triangle (tiles of logical rows and columns >= k+2), band of
  /// rows by band, physical column by physical column, calling poll() before each column
  /// this rank has tiles of in the band.
  template <typename Poll>
  void update_trailing(const CholeskyTiles& tiles, const TriangleOps<T>& ops, const DistributedMatrix<T>& a,
                       const StepPanel<T>& panel, Poll&& poll) {
    for_each_band(tiles, ops, panel, [&](std::int64_t from, std::int64_t to) {
      for (std::int64_t c = step_ + 2; c < tiles.count(); ++c) {
        if (!has_rows(c, from, to)) continue;
        poll();
        update_physical_column(tiles, ops, a, panel, c, from, to);
      }
    });
  }

 private:
  std::int64_t position(std::int64_t line) const { return position_[static_cast<std::size_t>(line)]; }

  bool has_rows(std::int64_t c, std::int64_t from, std::int64_t to) const {
    const std::vector<std::int64_t>& rows = rows_of_column_[static_cast<std::size_t>(c)];
    const auto r = std::lower_bound(rows.begin(), rows.end(), from);
    return r != rows.end() && *r < to;
  }

  /// Cuts the lines >= k+2 into bands whose held panel lines fit the stack; for each, stacks
  /// them in line order and calls band(from, to) with its lines [from, to).
  template <typename Band>
  void for_each_band(const CholeskyTiles& tiles, const TriangleOps<T>& ops, const StepPanel<T>& panel, Band&& band) {
    for (std::int64_t from = step_ + 2; from < tiles.count();) {
      std::int64_t lines = 0, to = from;
      for (; to < tiles.count(); ++to) {
        const std::int64_t size = panel.has_line(to) ? tiles.size(to) : 0;
        if (lines + size > capacity_) break;
        position_[static_cast<std::size_t>(to)] = panel.has_line(to) ? lines : -1;
        lines += size;
      }
      ld_ = ops.panel_ld(lines, kb_);
      for (std::int64_t i = from; i < to; ++i) {
        if (!panel.has_line(i)) continue;
        const PanelBlock<T> line = panel.line(tiles, ops, i);
        ops.copy_lines(line.data, line.ld, stack_.data() + ops.line_offset(position(i), ld_), ld_, line.lines, kb_);
      }
      band(from, to);
      from = to;
    }
  }

  /// This rank's tiles of physical column c in rows [from, to) (the diagonal one by HERK);
  /// each run one GEMM. @pre the band [from, to) is stacked.
  void update_physical_column(const CholeskyTiles& tiles, const TriangleOps<T>& ops, const DistributedMatrix<T>& a,
                              const StepPanel<T>& panel, std::int64_t c, std::int64_t from, std::int64_t to) {
    const std::vector<std::int64_t>& rows = rows_of_column_[static_cast<std::size_t>(c)];
    const PanelBlock<T> line = panel.line(tiles, ops, c);
    const FlopBatch batch;  // one simulated computation for the column
    for (auto r = std::lower_bound(rows.begin(), rows.end(), from); r != rows.end() && *r < to;) {
      const layout::TileLocation first = a.storage->tile_location({*r, c});
      if (*r == c) {
        ops.update_diagonal(line, kb_, a.at(first), first.ld);
        ++r;
        continue;
      }
      // The run: rows that follow in the buffer and in the stack.
      std::int64_t run = tiles.size(*r);
      auto next = r + 1;
      for (; next != rows.end() && *next < to && *next != c; ++next) {
        const layout::TileLocation there = a.storage->tile_location({*next, c});
        if (there.base != first.base || there.ld != first.ld || there.offset != first.offset + run ||
            run + tiles.size(*next) > first.ld || position(*next) != position(*r) + run)
          break;
        run += tiles.size(*next);
      }
      const PanelBlock<T> stacked{stack_.data() + ops.line_offset(position(*r), ld_), ld_, run};
      if (ops.uplo() == Uplo::Lower) {
        ops.update_off_diagonal(stacked, line, kb_, a.at(first), first.ld);
      } else {
        ops.update_off_diagonal(line, stacked, kb_, a.at(first), first.ld);
      }
      r = next;
    }
  }

  std::vector<std::int64_t> position_;                    ///< per line of the band: its first line in the stack, or -1
  std::vector<std::vector<std::int64_t>> rows_of_column_;  ///< per physical column: this rank's rows there
  ScalarBuffer<T> stack_;
  std::int64_t capacity_ = 1;  ///< lines the stack holds
  std::int64_t step_ = 0, kb_ = 0, ld_ = 1;
};

}  // namespace hetscal::kernels::detail
