#pragma once
/// @file lu_tiles.hpp
/// Internal to kernels::lu: who owns and who needs which tile, read from the Distribution
/// alone (identical on every rank).
///
/// Step k factorises tile column k from tile row k down on its panel rank. The factored
/// tile L_ik (i > k) is needed by the owners of the trailing tiles of tile row i, (i, j),
/// j > k; L_kk by the owners of the U row block (k, j), j > k, which solve with it; U_kj by
/// the owners of the trailing tiles of tile column j, (i, j), i > k. Each goes to exactly
/// those ranks.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "kernels/lu.hpp"
#include "layout/distribution.hpp"

namespace hetscal::kernels::detail {

/// The tile structure of the factorisation on one rank.
class LuTiles {
 public:
  /// @pre the tiles are square where steps meet (checked by lu's argument checks);
  ///      options.rank_speeds is empty or has one speed per rank.
  LuTiles(const layout::Distribution& d, int my_rank, const LuOptions& options);

  const layout::TileSplit& rows() const { return d_->rows(); }
  const layout::TileSplit& cols() const { return d_->cols(); }
  /// Number of steps: tile columns that meet a tile row of the diagonal.
  std::int64_t steps() const { return steps_; }
  int my_rank() const { return me_; }
  int num_ranks() const { return d_->num_ranks(); }
  int owner(std::int64_t i, std::int64_t j) const { return d_->owner({i, j}); }

  /// Width of step k's panel (tile column k).
  std::int64_t width(std::int64_t k) const { return cols().size(k); }
  /// Rows of step k's panel: from tile row k to the bottom of A.
  std::int64_t panel_rows(std::int64_t k) const { return rows().extent() - rows().offset(k); }
  /// Pivots step k chooses: min(panel rows, width).
  std::int64_t pivot_count(std::int64_t k) const;
  /// The rank that factorises step k's panel (LuOptions::panel_rank).
  int panel_rank(std::int64_t k) const { return panel_rank_[static_cast<std::size_t>(k)]; }

  /// Tile rows of column j this rank owns, increasing.
  const std::vector<std::int64_t>& my_rows_in_column(std::int64_t j) const {
    return my_rows_in_column_[static_cast<std::size_t>(j)];
  }
  /// Tile columns of row i this rank owns, increasing.
  const std::vector<std::int64_t>& my_cols_in_row(std::int64_t i) const {
    return my_cols_in_row_[static_cast<std::size_t>(i)];
  }

  /// True when `rank` receives tile row i of step k's factored panel (i >= k): it owns
  /// tile (i, k), or needs L_ik for a U solve (i = k) or a trailing update (i > k).
  bool receives_panel_row(int rank, std::int64_t i, std::int64_t k) const {
    return owner(i, k) == rank || row_reach(rank, i) > k;
  }
  /// True when `rank` needs U_kj (j > k) for its trailing tiles of column j.
  bool receives_u_column(int rank, std::int64_t j, std::int64_t k) const {
    return column_reach(rank, j) > k;
  }

 private:
  /// Largest j with owner(i, j) = rank, or -1.
  std::int64_t row_reach(int rank, std::int64_t i) const {
    return row_reach_[static_cast<std::size_t>(i * num_ranks() + rank)];
  }
  /// Largest i with owner(i, j) = rank, or -1.
  std::int64_t column_reach(int rank, std::int64_t j) const {
    return column_reach_[static_cast<std::size_t>(j * num_ranks() + rank)];
  }
  int choose_panel_rank(std::int64_t k, const LuOptions& options) const;

  const layout::Distribution* d_;
  int me_;
  std::int64_t steps_;
  std::vector<int> panel_rank_;
  std::vector<std::vector<std::int64_t>> my_rows_in_column_, my_cols_in_row_;
  std::vector<std::int64_t> row_reach_, column_reach_;
};

/// Consecutive rows [first, first + count) of a column-major block.
struct RowRun {
  std::int64_t first = 0, count = 0;
};

/// Appends rows [first, first + count) to `runs`, merged with the last run when adjacent.
void append_rows(std::vector<RowRun>& runs, std::int64_t first, std::int64_t count);

/// An MPI datatype of T elements selecting `runs` in each of `columns` columns of a
/// column-major block of leading dimension `ld`, column by column: received into a
/// contiguous buffer, it is the selected rows as one column-major block. Freed with the
/// object (MPI keeps it alive for the transfers already posted).
class RowRunsType {
 public:
  RowRunsType(const std::vector<RowRun>& runs, std::int64_t ld, std::int64_t columns,
              MPI_Datatype element, std::vector<int>& lengths_scratch,
              std::vector<int>& offsets_scratch);
  ~RowRunsType() { MPI_Type_free(&type_); }
  RowRunsType(const RowRunsType&) = delete;
  RowRunsType& operator=(const RowRunsType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

}  // namespace hetscal::kernels::detail
