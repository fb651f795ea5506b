#pragma once
/// @file lu_update.hpp
/// Internal to kernels::lu: step k's U row block and trailing update.
/// - The owners of tiles (k, j), j > k, solve them with the unit lower L_kk (U_kj :=
///   L_kk⁻¹·A_kj; one TRSM on a Cartesian local array) and send each U_kj to the ranks with
///   trailing tiles in column j, one message per destination and call (the driver calls for
///   column k+1 alone, then for the rest); every rank keeps the U tiles it needs stacked side
///   by side in increasing column order, and the tiles it sends in the same buffer after them
///   (a rank that both receives and sends at a step is rare; on a P×1 grid none does).
/// - The trailing update A_ij −= L_ik·U_kj: on a Cartesian grid's local array one GEMM per
///   range of columns, on the L tiles stacked by the panel (factorization_panel.hpp) and the U tiles
///   stacked here, which follow the local array's rows and columns; tile by tile otherwise.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/contiguous_messages.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/lu_panel.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/summa_support.hpp"
#include "kernels/tile_blocks.hpp"
#include "layout/local_storage.hpp"
#include "mpi/message_tags.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

template <typename T>
class LuUpdate {
 public:
  /// The elements of T each buffer holds on this rank, for the largest step.
  struct Sizes {
    std::int64_t stacked = 0;  ///< the U tiles this rank uses, stacked (and their receives' staging)
    /// Those and this rank's own U tiles that other ranks need, side by side (row_block_), at
    /// the step where they are most: a rank mostly either receives U tiles or sends them at a
    /// step, so this is less than the largest of each summed (on a P×1 grid, their larger one).
    std::int64_t row_block = 0;
    std::int64_t sent = 0;  ///< the staging of its sends (each tile to each rank)
    std::int64_t bytes() const { return static_cast<std::int64_t>(sizeof(T)) * (row_block + stacked + sent); }
  };
  /// What allocate() sizes for `a` on this rank. Local.
  static Sizes sizes(const FactorizationTiles& tiles, const DistributedMatrix<T>& a);

  /// Sizes the buffers for the largest step (sizes(); without communicating).
  void allocate(const FactorizationTiles& tiles, const DistributedMatrix<T>& a);

  /// Starts step k's U row block: where its tiles go in this rank's buffers.
  /// @pre the previous step's U tiles have left (this waits for them).
  void plan_row_block(const FactorizationTiles& tiles, std::int64_t k);

  /// The U row block's tiles (k, j), j in [first, last), first > k: solved by their owners,
  /// then shared (collective over their owners and the ranks that need them). The driver
  /// solves column k+1 alone first, for the lookahead. @pre finish(k) of `panel`,
  /// plan_row_block(k).
  void solve_row_block(const FactorizationTiles& tiles, const LuPanel<T>& panel,
                       const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                       std::int64_t last, MPI_Comm comm);

  /// A_ij −= L_ik·U_kj on this rank's tiles i > k, j in [first, last), first > k.
  /// @pre solve_row_block(k).
  void update(const FactorizationTiles& tiles, const LuPanel<T>& panel,
              const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
              std::int64_t last) const;

  /// Waits until the U tiles this rank sent have left its buffer.
  void wait_sends() { wait_all(sends_); }

 private:
  /// Sets `start` for step k; returns the columns of the stacked U tiles. @param stacks_own
  /// whether this rank's own U tiles are stacked too (a local array's grouped update).
  static std::int64_t plan_columns(const FactorizationTiles& tiles, std::int64_t k, int rank, bool stacks_own,
                                   std::vector<std::int64_t>* start);
  /// Whether other ranks need this rank's U tile (k, j).
  static bool sent_on(const FactorizationTiles& tiles, std::int64_t k, std::int64_t j) {
    bool sent = false;
    tiles.for_each_rank_from_row(j, k + 1, [&](int rank) { sent = sent || rank != tiles.my_rank(); });
    return sent;
  }
  void solve_own(const FactorizationTiles& tiles, const LuPanel<T>& panel,
                 const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                 std::int64_t last) const;
  void post_receives(const FactorizationTiles& tiles, std::int64_t k, std::int64_t first,
                     std::int64_t last, MPI_Comm comm);
  void send_own(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
                std::int64_t first, std::int64_t last, MPI_Comm comm);
  void update_array(const FactorizationTiles& tiles, const LuPanel<T>& panel,
                    const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                    std::int64_t last) const;
  void update_tiles(const FactorizationTiles& tiles, const LuPanel<T>& panel,
                    const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                    std::int64_t last) const;
  /// This rank's tile columns j of tile row k with j >= first.
  static std::vector<std::int64_t>::const_iterator own_from(const FactorizationTiles& tiles,
                                                            std::int64_t k, std::int64_t first) {
    const std::vector<std::int64_t>& mine = tiles.my_cols_in_row(k);
    return std::lower_bound(mine.begin(), mine.end(), first);
  }

  std::optional<LocalArrayIndex> array_;                ///< empty: A is stored as tiles
  /// The step's U tiles this rank uses (stacked_), then those it sends (outgoing_).
  WrittenFirstBuffer<T> row_block_;
  T* stacked_ = nullptr;   ///< in row_block_, for the current step
  T* outgoing_ = nullptr;  ///< in row_block_, after stacked_
  ContiguousSends<T> u_sends_;        ///< one step's U tiles sent (contiguous_messages.hpp)
  ContiguousReceives<T> u_receives_;  ///< one call's U tiles received
  std::vector<std::int64_t> u_start_, outgoing_start_;  ///< per tile column, or -1
  std::vector<int> lengths_, offsets_;
  std::vector<MPI_Request> receives_, sends_;
  RankGroups peers_;  ///< one call's (rank, tile column) pairs: its U tiles received or sent
};

template <typename T>
std::int64_t LuUpdate<T>::plan_columns(const FactorizationTiles& tiles, std::int64_t k, int rank,
                                       bool stacks_own, std::vector<std::int64_t>* start) {
  std::int64_t columns = 0;
  for (std::int64_t j = k + 1; j < tiles.cols().count(); ++j) {
    // The tile path reads the rank's own U tiles where they are in A (update_tiles).
    const bool needed = tiles.receives_u_column(rank, j, k) && (stacks_own || tiles.owner(k, j) != rank);
    if (start != nullptr) (*start)[static_cast<std::size_t>(j)] = needed ? columns : -1;
    if (needed) columns += tiles.cols().size(j);
  }
  return columns;
}

template <typename T>
typename LuUpdate<T>::Sizes LuUpdate<T>::sizes(const FactorizationTiles& tiles, const DistributedMatrix<T>& a) {
  const bool stacks_own = dynamic_cast<const layout::CartesianLocalLayout*>(a.storage) != nullptr;
  Sizes sizes;
  for (std::int64_t k = 0; k < tiles.steps(); ++k) {
    const std::int64_t rows = tiles.rows().size(k);
    const std::int64_t stacked = plan_columns(tiles, k, tiles.my_rank(), stacks_own, nullptr) * rows;
    sizes.stacked = std::max(sizes.stacked, stacked);
    std::int64_t outgoing = 0, to_others = 0;
    for (auto j = own_from(tiles, k, k + 1); j != tiles.my_cols_in_row(k).end(); ++j) {
      tiles.for_each_rank_from_row(*j, k + 1, [&](int rank) {
        if (rank != tiles.my_rank()) to_others += tiles.cols().size(*j);
      });
      if (sent_on(tiles, k, *j)) outgoing += tiles.cols().size(*j);
    }
    sizes.row_block = std::max(sizes.row_block, stacked + outgoing * rows);
    sizes.sent = std::max(sizes.sent, to_others * rows);
  }
  return sizes;
}

template <typename T>
void LuUpdate<T>::allocate(const FactorizationTiles& tiles, const DistributedMatrix<T>& a) {
  if (const auto* array = dynamic_cast<const layout::CartesianLocalLayout*>(a.storage))
    array_.emplace(*array, tiles);
  const Sizes sized = sizes(tiles, a);
  std::size_t pairs = static_cast<std::size_t>(tiles.cols().count());  // a call's receives
  for (std::int64_t k = 0; k < tiles.steps(); ++k) {
    std::size_t destinations = 0;
    for (auto j = own_from(tiles, k, k + 1); j != tiles.my_cols_in_row(k).end(); ++j)
      tiles.for_each_rank_from_row(*j, k + 1, [&](int rank) { destinations += rank != tiles.my_rank(); });
    pairs = std::max(pairs, destinations);
  }
  peers_.reserve(pairs);
  row_block_.resize(static_cast<std::size_t>(sized.row_block));
  u_receives_.reserve(sized.stacked);
  u_sends_.reserve(sized.sent);
  // A message's blocks are U tiles of one call, one per tile column: nothing grows once the
  // steps run.
  const std::size_t tile_cols = static_cast<std::size_t>(tiles.cols().count());
  u_receives_.reserve_blocks(tile_cols, static_cast<std::size_t>(tiles.num_ranks()));
  lengths_.reserve(tile_cols);
  offsets_.reserve(tile_cols);
  u_start_.assign(static_cast<std::size_t>(tiles.cols().count()), -1);
  outgoing_start_.assign(u_start_.size(), -1);
  receives_.reserve(static_cast<std::size_t>(tiles.num_ranks()));
  sends_.reserve(static_cast<std::size_t>(tiles.num_ranks()));
}

template <typename T>
void LuUpdate<T>::plan_row_block(const FactorizationTiles& tiles, std::int64_t k) {
  wait_all(sends_);  // the previous step's tiles have left outgoing_ (and u_sends_'s staging)
  u_sends_.end_round();
  // The previous step's U tiles were all received and used (its update is done).
  const std::int64_t stacked = plan_columns(tiles, k, tiles.my_rank(), array_.has_value(), &u_start_);
  stacked_ = row_block_.data();
  outgoing_ = stacked_ + stacked * tiles.rows().size(k);
  std::int64_t packed = 0;  // this rank's tiles (k, j > k) that others need, side by side in outgoing_
  for (auto j = own_from(tiles, k, k + 1); j != tiles.my_cols_in_row(k).end(); ++j) {
    if (!sent_on(tiles, k, *j)) continue;
    outgoing_start_[static_cast<std::size_t>(*j)] = packed;
    packed += tiles.cols().size(*j);
  }
}

template <typename T>
void LuUpdate<T>::solve_row_block(const FactorizationTiles& tiles, const LuPanel<T>& panel,
                                  const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                                  std::int64_t last, MPI_Comm comm) {
  last = std::min(last, tiles.cols().count());
  if (first >= last) return;
  post_receives(tiles, k, first, last, comm);
  solve_own(tiles, panel, a, k, first, last);
  send_own(tiles, a, k, first, last, comm);
  wait_all(receives_);
  u_receives_.unpack();
}

template <typename T>
void LuUpdate<T>::post_receives(const FactorizationTiles& tiles, std::int64_t k, std::int64_t first,
                                std::int64_t last, MPI_Comm comm) {
  const std::int64_t rows = tiles.rows().size(k);
  // The U tiles this rank needs from others, grouped by owner: one message per owner.
  peers_.clear();
  for (std::int64_t j = first; j < last; ++j) {
    if (u_start_[static_cast<std::size_t>(j)] < 0) continue;
    const int owner = tiles.owner(k, j);
    if (owner != tiles.my_rank()) peers_.add(owner, j);
  }
  peers_.for_each([&](int rank, RankGroups::Iterator from, RankGroups::Iterator to) {
    lengths_.clear();
    offsets_.clear();
    for (auto p = from; p != to; ++p) {
      const std::int64_t at = u_start_[static_cast<std::size_t>(p->index)];
      lengths_.push_back(mpi::mpi_count(tiles.cols().size(p->index) * rows, "lu: U tile"));
      offsets_.push_back(mpi::mpi_count(at * rows, "lu: U offset"));
    }
    receives_.emplace_back(MPI_REQUEST_NULL);
    u_receives_.post(stacked_, lengths_, offsets_, rank, mpi::tag::kLuRowBlock, comm,
                     &receives_.back());
  });
}

template <typename T>
void LuUpdate<T>::solve_own(const FactorizationTiles& tiles, const LuPanel<T>& panel,
                            const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                            std::int64_t last) const {
  const auto own = own_from(tiles, k, first), end = own_from(tiles, k, last);
  if (own == end) return;
  const std::int64_t rows = tiles.rows().size(k);
  if (array_) {
    const T* diagonal = panel.l_tile(k, k);  // unit lower L_kk: its first `rows` columns
    // The tiles (k, j) of a local array follow one another: one TRSM for them all.
    const layout::CartesianLocalLayout& array = array_->array();
    const layout::LocalCol from = *array.local_col_of_tile(*own);
    const std::int64_t columns = array_->local_col_from(last) - from;
    T* block = a.data + array.offset(*array.local_row_of_tile(k), from);
    trsm<T>(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, rows, columns, T(1), diagonal,
            panel.l_ld(k), block, array.ld());
    return;
  }
  const BlockPartner<const T> diagonal = panel.l_rows(k, k);  // as above, in A on the panel rank
  const FlopBatch batch;  // one simulated computation for the whole loop
  for (auto j = own; j != end; ++j) {
    const layout::TileLocation where = a.storage->tile_location({k, *j});
    trsm<T>(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, rows, tiles.cols().size(*j), T(1),
            diagonal.at, diagonal.ld, a.at(where), where.ld);
  }
}

template <typename T>
void LuUpdate<T>::send_own(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                           std::int64_t k, std::int64_t first, std::int64_t last, MPI_Comm comm) {
  const auto own = own_from(tiles, k, first), end = own_from(tiles, k, last);
  if (own == end) return;
  const std::int64_t rows = tiles.rows().size(k);
  // Each of this rank's tiles to the ranks with trailing tiles below it, grouped by
  // destination: one message per destination. A tile goes into outgoing_ only when it is
  // sent, and into stacked_ only for a local array's grouped update (update_array): the tile
  // path reads this rank's own U tiles where they are in A (plan_columns gives them no place).
  peers_.clear();
  for (auto j = own; j != end; ++j) {
    bool sent = false;
    tiles.for_each_rank_from_row(*j, k + 1, [&](int rank) {
      if (rank == tiles.my_rank()) return;
      peers_.add(rank, *j);
      sent = true;
    });
    const layout::TileLocation where = a.storage->tile_location({k, *j});
    const std::int64_t width = tiles.cols().size(*j);
    if (sent)
      copy_matrix(a.at(where), where.ld, outgoing_ + outgoing_start_[static_cast<std::size_t>(*j)] * rows,
                  rows, rows, width);
    const std::int64_t mine = u_start_[static_cast<std::size_t>(*j)];
    if (mine >= 0) copy_matrix(a.at(where), where.ld, stacked_ + mine * rows, rows, rows, width);
  }
  peers_.for_each([&](int rank, RankGroups::Iterator from, RankGroups::Iterator to) {
    lengths_.clear();
    offsets_.clear();
    for (auto p = from; p != to; ++p) {
      lengths_.push_back(static_cast<int>(tiles.cols().size(p->index) * rows));
      offsets_.push_back(static_cast<int>(outgoing_start_[static_cast<std::size_t>(p->index)] * rows));
    }
    sends_.emplace_back(MPI_REQUEST_NULL);
    u_sends_.post(outgoing_, lengths_, offsets_, rank, mpi::tag::kLuRowBlock, comm,
                  &sends_.back());
  });
}

template <typename T>
void LuUpdate<T>::update(const FactorizationTiles& tiles, const LuPanel<T>& panel,
                         const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                         std::int64_t last) const {
  last = std::min(last, tiles.cols().count());
  if (first >= last) return;
  if (array_) {
    update_array(tiles, panel, a, k, first, last);
  } else {
    update_tiles(tiles, panel, a, k, first, last);
  }
}

template <typename T>
void LuUpdate<T>::update_array(const FactorizationTiles& tiles, const LuPanel<T>& panel,
                               const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                               std::int64_t last) const {
  const std::vector<std::int64_t>&tile_rows = array_->tile_rows(), &tile_cols = array_->tile_cols();
  const auto first_row = std::upper_bound(tile_rows.begin(), tile_rows.end(), k);
  const auto first_col = std::lower_bound(tile_cols.begin(), tile_cols.end(), first);
  if (first_row == tile_rows.end() || first_col == tile_cols.end() || *first_col >= last) return;
  // This rank's rows below k and columns in [first, last) are consecutive in the local
  // array, and so are their L tiles in the panel's stack and their U tiles in stacked_.
  const layout::CartesianLocalLayout& array = array_->array();
  const layout::LocalRow row = *array.local_row_of_tile(*first_row);
  const layout::LocalCol col = *array.local_col_of_tile(*first_col);
  const std::int64_t rows = array.row_end() - row;
  const std::int64_t cols = array_->local_col_from(last) - col;
  const std::int64_t kb = tiles.width(k), u_ld = tiles.rows().size(k);
  gemm<T>(Op::NoTrans, Op::NoTrans, rows, cols, kb, T(-1), panel.l_tile(k, *first_row),
          panel.l_ld(k), stacked_ + u_start_[static_cast<std::size_t>(*first_col)] * u_ld,
          u_ld, T(1), a.data + array.offset(row, col), array.ld());
}

template <typename T>
void LuUpdate<T>::update_tiles(const FactorizationTiles& tiles, const LuPanel<T>& panel,
                               const DistributedMatrix<T>& a, std::int64_t k, std::int64_t first,
                               std::int64_t last) const {
  const std::int64_t kb = tiles.width(k), rows = tiles.rows().size(k);
  // U_kj: this rank's own tile where it is in A (final once solved: later interchanges move
  // rows below tile row k only), or the copy received into stacked_.
  const auto u_tile = [&](std::int64_t j) {
    if (tiles.owner(k, j) != tiles.my_rank())
      return BlockPartner<const T>{stacked_ + u_start_[static_cast<std::size_t>(j)] * rows, rows};
    const layout::TileLocation where = a.storage->tile_location({k, j});
    return BlockPartner<const T>{a.at(where), where.ld};
  };
  const FlopBatch batch;  // one simulated computation for the whole loop
  for_each_tile_block(
      tiles, a, k + 1, first, last,
      [&](std::int64_t i) { return panel.l_rows(k, i); }, u_tile,
      [&](const TileBlock<T>& block, const BlockPartner<const T>& u) {
        gemm<T>(Op::NoTrans, Op::NoTrans, block.rows, block.cols, kb, T(-1), block.panel, block.panel_ld, u.at,
                u.ld, T(1), block.a, block.ld);
      });
}

}  // namespace hetscal::kernels::detail
