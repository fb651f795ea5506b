#pragma once
/// @file factorization_tiles.hpp
/// Internal to kernels::lu and kernels::qr: who owns and who needs which tile, read from
/// the Distribution alone (identical on every rank).
///
/// Step k factorises tile column k from tile row k down on its panel rank. The factored
/// tile row i > k (the LU's L_ik, the QR's V_ik) is needed by the owners of the trailing
/// tiles of tile row i, (i, j), j > k; tile row k by the owners of the row block (k, j),
/// j > k (the LU solves with L_kk, the QR's W needs V_kk); the LU's U_kj by the owners of the
/// trailing tiles of tile column j, (i, j), i > k. Each goes to exactly those ranks.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/lu.hpp"
#include "kernels/rank_groups.hpp"
#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"
#include "layout/owner_reach.hpp"

namespace hetscal::kernels::detail {

/// The tile structure of the factorisation on one rank.
class FactorizationTiles {
 public:
  /// @param panel_rank which rank factorises each panel (the QR's QrPanelRank is the same).
  /// @param rank_speeds per rank, read by LuPanelRank::Fastest; empty: all equal.
  /// @pre the tiles are square where steps meet (check_factorization_arguments);
  ///      rank_speeds is empty or has one speed per rank.
  FactorizationTiles(const layout::Distribution& d, int my_rank, LuPanelRank panel_rank,
                     const std::vector<double>& rank_speeds);

  /// Bytes of this object's own tables (per tile line, cell of the owner table and rank, and
  /// this rank's tiles), for a workspace's budget.
  std::int64_t table_bytes() const;
  /// At most the bytes of a factorisation's index vectors besides these tables: a message's
  /// blocks (at most one per tile row and panel column, in four vectors), per tile line a few
  /// offsets, per rank a few counts and requests. For a workspace's budget.
  std::int64_t index_bytes_bound() const;

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
  /// Pivots step k chooses (the QR: reflectors it makes): min(panel rows, width).
  std::int64_t pivot_count(std::int64_t k) const;
  /// The rank that factorises step k's panel.
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
  /// True when `rank` owns a tile (i, j) with i >= k: a trailing tile of column j at step k
  /// of the QR, whose update needs the column's reduction.
  bool owns_tile_from_row(int rank, std::int64_t j, std::int64_t k) const {
    return column_reach(rank, j) >= k;
  }

  /// Calls f(rank, i) once for each rank other than this one and tile row i >= k with
  /// receives_panel_row(rank, i, k): tile rows increasing, the ranks of one row in no set
  /// order. Asks the owners of each tile row (OwnerReach::for_each_row_owner), not every rank:
  /// O(owners of tile rows k and below) per step instead of O(P · tile rows) (issue 32).
  /// `met` has room for every rank; it tells apart a rank named twice for one row.
  template <typename F>
  void for_each_panel_row_recipient(std::int64_t k, RanksMet& met, F&& f) const {
    for (std::int64_t i = k; i < rows().count(); ++i) {
      met.next_round();
      reach_.for_each_row_owner(i, [&](int rank) {
        if (met.first_meeting(rank) && rank != me_ && receives_panel_row(rank, i, k)) f(rank, i);
      });
    }
  }

  /// Calls f(rank) for every rank that owns a tile (i, j) with i >= row (so
  /// receives_u_column(rank, j, row − 1) and owns_tile_from_row(rank, j, row) hold), in
  /// decreasing order of its lowest tile of column j, not in rank order. Costs the ranks
  /// visited, not P: a step's messages are listed without a pass over every rank per column.
  template <typename F>
  void for_each_rank_from_row(std::int64_t j, std::int64_t row, F&& f) const {
    const auto holders = reach_.column_holders(j);
    for (auto at = holders.first; at != holders.second && at->reach >= row; ++at) f(at->rank);
  }

 private:
  /// Largest j with owner(i, j) = rank, or -1.
  std::int64_t row_reach(int rank, std::int64_t i) const { return reach_.row_reach(rank, i); }
  /// Largest i with owner(i, j) = rank, or -1.
  std::int64_t column_reach(int rank, std::int64_t j) const { return reach_.column_reach(rank, j); }
  int choose_panel_rank(std::int64_t k, LuPanelRank rank,
                        const std::vector<double>& rank_speeds) const;

  const layout::Distribution* d_;
  int me_;
  std::int64_t steps_;
  std::vector<int> panel_rank_;
  std::vector<std::vector<std::int64_t>> my_rows_in_column_, my_cols_in_row_;
  layout::OwnerReach reach_;
};

/// Which way a copy between A and a buffer goes.
enum class Copy {
  FromA,  ///< A's elements into the buffer (packing what is sent)
  IntoA,  ///< the buffer's elements into A (unpacking what arrived)
};

/// Consecutive rows [first, first + count) of a column-major block.
struct RowRun {
  std::int64_t first = 0, count = 0;
};

/// Appends rows [first, first + count) to `runs`, merged with the last run when adjacent.
void append_rows(std::vector<RowRun>& runs, std::int64_t first, std::int64_t count);

/// Sets `lengths` and `offsets` to the blocks selecting `runs` in each of `columns` columns
/// of a column-major block of leading dimension `ld`, column by column: moved as one message
/// (contiguous_messages.hpp), they are the selected rows as one column-major block.
void select_row_runs(const std::vector<RowRun>& runs, std::int64_t ld, std::int64_t columns,
                     std::vector<int>& lengths, std::vector<int>& offsets);

/// Where a Cartesian grid's local array holds this rank's tile rows and columns.
class LocalArrayIndex {
 public:
  LocalArrayIndex(const layout::CartesianLocalLayout& array, const FactorizationTiles& tiles);

  const layout::CartesianLocalLayout& array() const { return *array_; }
  /// This rank's tile rows (columns) of the array, increasing.
  const std::vector<std::int64_t>& tile_rows() const { return tile_rows_; }
  const std::vector<std::int64_t>& tile_cols() const { return tile_cols_; }
  /// Local row (column) of this rank's first tile row (column) >= t; the end when none.
  layout::LocalRow local_row_from(std::int64_t t) const;
  layout::LocalCol local_col_from(std::int64_t t) const;
  /// Local row of global row `row`, or nothing when another grid row holds it.
  std::optional<layout::LocalRow> local_row(std::int64_t row) const;

 private:
  const layout::CartesianLocalLayout* array_;
  const FactorizationTiles* tiles_;
  std::vector<std::int64_t> tile_rows_, tile_cols_;
};

}  // namespace hetscal::kernels::detail
