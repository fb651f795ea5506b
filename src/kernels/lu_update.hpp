#pragma once
/// @file lu_update.hpp
/// Internal to kernels::lu: step k's U row block and trailing update.
/// - The owners of tiles (k, j), j > k, solve them with the unit lower L_kk (U_kj :=
///   L_kk⁻¹·A_kj; one TRSM on a Cartesian local array) and send each U_kj to the ranks with
///   trailing tiles in column j, one message per destination; every rank keeps the U tiles
///   it needs stacked side by side in increasing column order.
/// - The trailing update A_ij −= L_ik·U_kj: on a Cartesian grid's local array one GEMM per
///   range of columns, on the L tiles stacked by the panel (lu_panel.hpp) and the U tiles
///   stacked here, which follow the local array's rows and columns; tile by tile otherwise.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/distributed_matrix.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/lu_panel.hpp"
#include "kernels/lu_tiles.hpp"
#include "kernels/summa_support.hpp"
#include "layout/local_storage.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

inline constexpr int kLuRowBlockTag = 15;

template <typename T>
class LuUpdate {
 public:
  /// Sizes the buffers for the largest step (without communicating).
  void allocate(const LuTiles& tiles, const DistributedMatrix<T>& a);

  /// Step k's U row block: solved by its owners, then shared. @pre finish(k) of `panel`.
  void solve_row_block(const LuTiles& tiles, const LuPanel<T>& panel,
                       const DistributedMatrix<T>& a, std::int64_t k, MPI_Comm comm);

  /// A_ij −= L_ik·U_kj on this rank's tiles i > k, j in [first, last), first > k.
  /// @pre solve_row_block(k).
  void update(const LuTiles& tiles, const LuPanel<T>& panel, const DistributedMatrix<T>& a,
              std::int64_t k, std::int64_t first, std::int64_t last) const;

  /// Waits until the U tiles this rank sent have left its buffer.
  void wait_sends() { wait_all(sends_); }

 private:
  /// Sets u_start_ for step k; returns the columns of the stacked U tiles.
  std::int64_t plan_columns(const LuTiles& tiles, std::int64_t k, int rank,
                            std::vector<std::int64_t>* start) const;
  void solve_own(const LuTiles& tiles, const LuPanel<T>& panel, const DistributedMatrix<T>& a,
                 std::int64_t k) const;
  void post_receives(const LuTiles& tiles, std::int64_t k, MPI_Comm comm);
  void send_own(const LuTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
                MPI_Comm comm);
  void update_array(const LuTiles& tiles, const LuPanel<T>& panel, const DistributedMatrix<T>& a,
                    std::int64_t k, std::int64_t first, std::int64_t last) const;
  void update_tiles(const LuTiles& tiles, const LuPanel<T>& panel, const DistributedMatrix<T>& a,
                    std::int64_t k, std::int64_t first, std::int64_t last) const;
  /// This rank's tiles (k, j), j > k.
  std::vector<std::int64_t>::const_iterator first_own_column(const LuTiles& tiles,
                                                             std::int64_t k) const {
    const std::vector<std::int64_t>& mine = tiles.my_cols_in_row(k);
    return std::upper_bound(mine.begin(), mine.end(), k);
  }
  /// Local row (column) of this rank's first tile row (column) >= t; the end when none.
  std::int64_t local_row_from(std::int64_t t) const;
  std::int64_t local_col_from(std::int64_t t) const;

  const layout::CartesianLocalLayout* array_ = nullptr;  ///< null: update tile by tile
  std::vector<std::int64_t> my_tile_rows_, my_tile_cols_;  ///< of the local array
  std::vector<T> stacked_, outgoing_;  ///< the U tiles this rank uses / sends
  std::vector<std::int64_t> u_start_, outgoing_start_;  ///< per tile column, or -1
  std::vector<int> lengths_, offsets_;
  std::vector<MPI_Request> receives_, sends_;
};

template <typename T>
std::int64_t LuUpdate<T>::plan_columns(const LuTiles& tiles, std::int64_t k, int rank,
                                       std::vector<std::int64_t>* start) const {
  std::int64_t columns = 0;
  for (std::int64_t j = k + 1; j < tiles.cols().count(); ++j) {
    const bool needed = tiles.receives_u_column(rank, j, k);
    if (start != nullptr) (*start)[static_cast<std::size_t>(j)] = needed ? columns : -1;
    if (needed) columns += tiles.cols().size(j);
  }
  return columns;
}

template <typename T>
void LuUpdate<T>::allocate(const LuTiles& tiles, const DistributedMatrix<T>& a) {
  array_ = dynamic_cast<const layout::CartesianLocalLayout*>(a.storage);
  if (array_ != nullptr) {
    for (std::int64_t t = 0; t < tiles.rows().count(); ++t)
      if (array_->local_row_of_tile(t) >= 0) my_tile_rows_.push_back(t);
    for (std::int64_t t = 0; t < tiles.cols().count(); ++t)
      if (array_->local_col_of_tile(t) >= 0) my_tile_cols_.push_back(t);
  }
  std::int64_t stacked = 0, outgoing = 0;
  for (std::int64_t k = 0; k < tiles.steps(); ++k) {
    const std::int64_t rows = tiles.rows().size(k);
    stacked = std::max(stacked, plan_columns(tiles, k, tiles.my_rank(), nullptr) * rows);
    std::int64_t own = 0;
    for (auto j = first_own_column(tiles, k); j != tiles.my_cols_in_row(k).end(); ++j)
      own += tiles.cols().size(*j);
    outgoing = std::max(outgoing, own * rows);
  }
  stacked_.resize(static_cast<std::size_t>(stacked));
  outgoing_.resize(static_cast<std::size_t>(outgoing));
  u_start_.assign(static_cast<std::size_t>(tiles.cols().count()), -1);
  outgoing_start_.assign(u_start_.size(), -1);
  receives_.reserve(static_cast<std::size_t>(tiles.num_ranks()));
  sends_.reserve(static_cast<std::size_t>(tiles.num_ranks()));
}

template <typename T>
void LuUpdate<T>::solve_row_block(const LuTiles& tiles, const LuPanel<T>& panel,
                                  const DistributedMatrix<T>& a, std::int64_t k, MPI_Comm comm) {
  plan_columns(tiles, k, tiles.my_rank(), &u_start_);
  post_receives(tiles, k, comm);
  solve_own(tiles, panel, a, k);
  send_own(tiles, a, k, comm);
  wait_all(receives_);
}

template <typename T>
void LuUpdate<T>::post_receives(const LuTiles& tiles, std::int64_t k, MPI_Comm comm) {
  const std::int64_t rows = tiles.rows().size(k);
  for (int rank = 0; rank < tiles.num_ranks(); ++rank) {
    if (rank == tiles.my_rank()) continue;
    lengths_.clear();
    offsets_.clear();
    for (std::int64_t j = k + 1; j < tiles.cols().count(); ++j) {
      const std::int64_t at = u_start_[static_cast<std::size_t>(j)];
      if (at < 0 || tiles.owner(k, j) != rank) continue;
      lengths_.push_back(mpi::mpi_count(tiles.cols().size(j) * rows, "lu: U tile"));
      offsets_.push_back(mpi::mpi_count(at * rows, "lu: U offset"));
    }
    if (lengths_.empty()) continue;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    mpi::check_mpi(MPI_Type_indexed(static_cast<int>(lengths_.size()), lengths_.data(),
                                    offsets_.data(), mpi::mpi_type<T>(), &type),
                   "MPI_Type_indexed");
    MPI_Type_commit(&type);
    receives_.emplace_back(MPI_REQUEST_NULL);
    MPI_Irecv(stacked_.data(), 1, type, rank, kLuRowBlockTag, comm, &receives_.back());
    MPI_Type_free(&type);  // released by MPI once the receive completes
  }
}

template <typename T>
void LuUpdate<T>::solve_own(const LuTiles& tiles, const LuPanel<T>& panel,
                            const DistributedMatrix<T>& a, std::int64_t k) const {
  const auto own = first_own_column(tiles, k);
  if (own == tiles.my_cols_in_row(k).end()) return;
  const std::int64_t rows = tiles.rows().size(k);
  const T* diagonal = panel.l_tile(k, k);  // unit lower L_kk: its first `rows` columns
  if (array_ != nullptr) {
    // The tiles (k, j > k) of a local array follow one another: one TRSM for them all.
    const std::int64_t from = array_->local_col_of_tile(*own);
    const std::int64_t columns = array_->col_base() + array_->local_cols() - from;
    T* block = a.data + array_->local_row_of_tile(k) + from * array_->ld();
    trsm<T>(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, rows, columns, T(1), diagonal,
            panel.l_ld(k), block, array_->ld());
    return;
  }
  for (auto j = own; j != tiles.my_cols_in_row(k).end(); ++j) {
    const layout::TileLocation where = a.storage->tile_location({k, *j});
    trsm<T>(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, rows, tiles.cols().size(*j), T(1),
            diagonal, panel.l_ld(k), a.data + where.offset, where.ld);
  }
}

template <typename T>
void LuUpdate<T>::send_own(const LuTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
                           MPI_Comm comm) {
  const auto own = first_own_column(tiles, k);
  const auto end = tiles.my_cols_in_row(k).end();
  if (own == end) return;
  wait_all(sends_);  // the previous step's tiles have left outgoing_
  const std::int64_t rows = tiles.rows().size(k);
  std::int64_t packed = 0;
  for (auto j = own; j != end; ++j) {
    const layout::TileLocation where = a.storage->tile_location({k, *j});
    const std::int64_t width = tiles.cols().size(*j);
    outgoing_start_[static_cast<std::size_t>(*j)] = packed;
    copy_matrix(a.data + where.offset, where.ld, outgoing_.data() + packed * rows, rows, rows,
                width);
    const std::int64_t mine = u_start_[static_cast<std::size_t>(*j)];
    if (mine >= 0)
      copy_matrix(a.data + where.offset, where.ld, stacked_.data() + mine * rows, rows, rows,
                  width);
    packed += width;
  }
  for (int rank = 0; rank < tiles.num_ranks(); ++rank) {
    if (rank == tiles.my_rank()) continue;
    lengths_.clear();
    offsets_.clear();
    for (auto j = own; j != end; ++j) {
      if (!tiles.receives_u_column(rank, *j, k)) continue;
      lengths_.push_back(static_cast<int>(tiles.cols().size(*j) * rows));
      offsets_.push_back(static_cast<int>(outgoing_start_[static_cast<std::size_t>(*j)] * rows));
    }
    if (lengths_.empty()) continue;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    mpi::check_mpi(MPI_Type_indexed(static_cast<int>(lengths_.size()), lengths_.data(),
                                    offsets_.data(), mpi::mpi_type<T>(), &type),
                   "MPI_Type_indexed");
    MPI_Type_commit(&type);
    sends_.emplace_back(MPI_REQUEST_NULL);
    MPI_Isend(outgoing_.data(), 1, type, rank, kLuRowBlockTag, comm, &sends_.back());
    MPI_Type_free(&type);
  }
}

template <typename T>
void LuUpdate<T>::update(const LuTiles& tiles, const LuPanel<T>& panel,
                         const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                         std::int64_t last) const {
  last = std::min(last, tiles.cols().count());
  if (first >= last) return;
  if (array_ != nullptr) {
    update_array(tiles, panel, a, k, first, last);
  } else {
    update_tiles(tiles, panel, a, k, first, last);
  }
}

template <typename T>
std::int64_t LuUpdate<T>::local_row_from(std::int64_t t) const {
  const auto it = std::lower_bound(my_tile_rows_.begin(), my_tile_rows_.end(), t);
  return it == my_tile_rows_.end() ? array_->row_base() + array_->local_rows()
                                   : array_->local_row_of_tile(*it);
}

template <typename T>
std::int64_t LuUpdate<T>::local_col_from(std::int64_t t) const {
  const auto it = std::lower_bound(my_tile_cols_.begin(), my_tile_cols_.end(), t);
  return it == my_tile_cols_.end() ? array_->col_base() + array_->local_cols()
                                   : array_->local_col_of_tile(*it);
}

template <typename T>
void LuUpdate<T>::update_array(const LuTiles& tiles, const LuPanel<T>& panel,
                               const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                               std::int64_t last) const {
  const auto first_row = std::upper_bound(my_tile_rows_.begin(), my_tile_rows_.end(), k);
  const auto first_col = std::lower_bound(my_tile_cols_.begin(), my_tile_cols_.end(), first);
  if (first_row == my_tile_rows_.end() || first_col == my_tile_cols_.end() || *first_col >= last)
    return;
  // This rank's rows below k and columns in [first, last) are consecutive in the local
  // array, and so are their L tiles in the panel's stack and their U tiles in stacked_.
  const std::int64_t row = array_->local_row_of_tile(*first_row);
  const std::int64_t col = array_->local_col_of_tile(*first_col);
  const std::int64_t rows = array_->row_base() + array_->local_rows() - row;
  const std::int64_t cols = local_col_from(last) - col;
  const std::int64_t kb = tiles.width(k), u_ld = tiles.rows().size(k);
  gemm<T>(Op::NoTrans, Op::NoTrans, rows, cols, kb, T(-1), panel.l_tile(k, *first_row),
          panel.l_ld(k), stacked_.data() + u_start_[static_cast<std::size_t>(*first_col)] * u_ld,
          u_ld, T(1), a.data + row + col * array_->ld(), array_->ld());
}

template <typename T>
void LuUpdate<T>::update_tiles(const LuTiles& tiles, const LuPanel<T>& panel,
                               const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                               std::int64_t last) const {
  const std::int64_t kb = tiles.width(k), u_ld = tiles.rows().size(k);
  for (std::int64_t j = first; j < last; ++j) {
    const std::vector<std::int64_t>& mine = tiles.my_rows_in_column(j);
    const auto below = std::upper_bound(mine.begin(), mine.end(), k);
    if (below == mine.end()) continue;  // no trailing tile of column j here
    const T* u = stacked_.data() + u_start_[static_cast<std::size_t>(j)] * u_ld;
    for (auto i = below; i != mine.end(); ++i) {
      const layout::TileLocation where = a.storage->tile_location({*i, j});
      gemm<T>(Op::NoTrans, Op::NoTrans, tiles.rows().size(*i), tiles.cols().size(j), kb, T(-1),
              panel.l_tile(k, *i), panel.l_ld(k), u, u_ld, T(1), a.data + where.offset, where.ld);
    }
  }
}

}  // namespace hetscal::kernels::detail
