#pragma once
/// @file qr_update.hpp
/// Internal to kernels::qr and kernels::qr_multiply: one step's block reflector applied to
/// the tile rows from k down, A := (I − V·T·Vᴴ)ᴴ·A (kernels::qr's trailing update, and
/// Qᴴ·C) or A := (I − V·T·Vᴴ)·A (Q·C), on a range of tile columns, in three parts per call
/// (kernels::qr calls for tile column k+1 alone, then for the rest, for the lookahead):
/// - every owner of trailing tiles (i >= k, j) of a column j computes its partial
///   W_j = Σ_i V_ikᴴ·A_ij (one GEMM on a Cartesian local array, whose rows from tile row k
///   follow the panel's stacked V rows and whose columns follow W's; tile by tile otherwise);
/// - the partials of W_j are summed on the owner of tile (k, j), the column's root, which
///   applies W_j := op(T)·W_j and sends W_j back: one message per contributor and root and
///   call, with every column the two share (on a Cartesian grid the root of all of a grid
///   column's columns is the same rank, so this is one reduction per grid column);
/// - A_ij −= V_ik·W_j on every trailing tile (GEMMs).
/// Tiles are reached through DistributedMatrix::at, so that an in-place storage's tiles are
/// found in whichever of its two buffers (the caller's array, the overflow) holds them.
/// V is given tile row by tile row (StepReflectors; kernels::qr passes the panel's stacked
/// tile rows, factorization_panel.hpp) with the diagonal tile explicitly unit lower, so the
/// GEMMs need no triangular special case. On a Cartesian local array the tile rows this rank
/// holds from k down must follow one another in V's storage, as in the panel's stack. The
/// sums of the partials, like an MPI_Reduce's, are not counted as flops.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/contiguous_messages.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/factorization_panel.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/tile_blocks.hpp"
#include "layout/local_storage.hpp"
#include "mpi/message_tags.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

/// One step's block reflector I − V·T·Vᴴ as QrUpdate applies it.
template <typename T>
struct StepReflectors {
  std::int64_t step = 0;   ///< k: V's first row is tile row k's first
  std::int64_t count = 0;  ///< r: the reflectors (V's columns, T's order)
  const T* t = nullptr;    ///< r×r upper triangular (xLARFT's), leading dimension r
  /// W := op(T)·W: ConjTrans applies (I − V·T·Vᴴ)ᴴ (the factorisation, Qᴴ), NoTrans
  /// I − V·T·Vᴴ (Q).
  Op t_op = Op::ConjTrans;
  /// Per tile row i (all of A's): V's rows of tile row i (i >= step) as this rank holds them
  /// and their leading dimension, or `at` null.
  std::vector<BlockPartner<const T>> v_tiles;
  /// When set, V's tile row `step` (explicitly unit lower), leading dimension diagonal_ld, in
  /// place of v_tiles[step]: a copy, where the panel's own is still being sent. Not on a
  /// Cartesian local array (whose V rows must follow one another).
  const T* diagonal = nullptr;
  std::int64_t diagonal_ld = 1;
};

template <typename T>
class QrUpdate {
 public:
  /// Sizes the buffers for `steps` steps (without communicating): step k applies
  /// reflectors(k) reflectors to the tile columns from first_column(k) on, at most `window`
  /// consecutive tile columns per apply() (W and the partials are sized for the widest window
  /// of this rank's columns, not for all of them: kernels::qr applies a step in windows to
  /// bound its memory).
  template <typename Reflectors, typename FirstColumn>
  void allocate(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                std::int64_t steps, Reflectors&& reflectors, FirstColumn&& first_column,
                std::int64_t window);

  /// What allocate() sizes, in elements of T: W (one window of this rank's columns) and the
  /// partials a root receives; and how many (rank, column) partials it roots at most.
  struct Sizes {
    std::int64_t w = 0, incoming = 0;
    /// W's columns this rank contributes partials to (rooted elsewhere): sent as partials,
    /// received back reduced.
    std::int64_t contributed = 0;
    std::size_t rooted_pairs = 0;
    /// Bytes of the buffers of scalars: W, the partials, and both ways' staging (the
    /// partials sent and the reduced columns sent back; the reduced columns received).
    std::int64_t bytes() const {
      return static_cast<std::int64_t>(sizeof(T)) * (w + incoming + (contributed + incoming) + contributed);
    }
  };
  /// The same arguments as allocate's, `a` apart. Local.
  template <typename Reflectors, typename FirstColumn>
  static Sizes sizes(const FactorizationTiles& tiles, std::int64_t steps, Reflectors&& reflectors,
                     FirstColumn&& first_column, std::int64_t window);

  /// Applies a step's reflectors to this rank's tiles from tile row step.step down in the
  /// tile columns [first, last). Collective over the owners of those tiles.
  /// @pre step.v_tiles holds every tile row from step.step down this rank owns tiles in
  ///      among those columns, the diagonal tile unit lower.
  void apply(const FactorizationTiles& tiles, const StepReflectors<T>& step,
             const DistributedMatrix<T>& a, std::int64_t first, std::int64_t last, MPI_Comm comm);

 private:
  /// Stacks this rank's columns of [first, last) with tiles from row k in w_ (w_start_);
  /// returns their total width.
  std::int64_t plan_columns(const FactorizationTiles& tiles, std::int64_t k, std::int64_t first,
                            std::int64_t last, int rank, std::vector<std::int64_t>* start) const;
  /// Lists a call's W columns by peer: rooted_ the (contributor, column) pairs of the columns
  /// this rank roots and others add to, contributed_ the (root, column) pairs of the columns
  /// others root and this rank adds to. @pre plan_columns(k, first, last) set w_start_.
  void list_peers(const FactorizationTiles& tiles, std::int64_t k, std::int64_t first,
                  std::int64_t last);
  /// Calls block(V rows, their ld, A block, its ld, rows, columns, W columns, first of its
  /// tile column) for this rank's trailing blocks of columns [first, last): its whole local
  /// array part at once on a Cartesian grid, tile by tile otherwise.
  template <typename Block>
  void for_each_block(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                      const DistributedMatrix<T>& a, std::int64_t first, std::int64_t last,
                      Block&& block);
  void compute_partials(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                        const DistributedMatrix<T>& a, std::int64_t first, std::int64_t last);
  /// Posts the transfer of `peer`'s W columns [from, to) (one of rooted_'s or contributed_'s
  /// groups), from or into w_ (Isend to `peer` when sending, Irecv from it otherwise).
  void post_columns(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                    RankGroups::Iterator from, RankGroups::Iterator to, int peer, bool sending,
                    int tag, MPI_Comm comm, std::vector<MPI_Request>& requests);
  /// Adds the received partials into w_ and applies op(T) to the columns this rank roots.
  void reduce_rooted(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                     std::int64_t first, std::int64_t last);
  void apply_reflectors(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                        const DistributedMatrix<T>& a, std::int64_t first, std::int64_t last);

  std::optional<LocalArrayIndex> array_;  ///< empty: A is stored as tiles
  ScalarBuffer<T> w_;                     ///< this rank's W columns, r×width each, side by side
  ScalarBuffer<T> incoming_;              ///< partials received by a root, by contributor
  std::vector<std::int64_t> w_start_;     ///< per tile column: first column in w_, or -1
  std::vector<int> lengths_, offsets_;
  std::vector<MPI_Request> receives_, partial_sends_, sends_;
  ContiguousSends<T> w_sends_;        ///< one call's partials and reduced columns sent
  ContiguousReceives<T> w_receives_;  ///< one call's reduced columns received
  RankGroups rooted_, contributed_;   ///< one call's W columns by peer (list_peers)
};

template <typename T>
std::int64_t QrUpdate<T>::plan_columns(const FactorizationTiles& tiles, std::int64_t k,
                                       std::int64_t first, std::int64_t last, int rank,
                                       std::vector<std::int64_t>* start) const {
  std::int64_t columns = 0;
  for (std::int64_t j = first; j < last; ++j) {
    const bool mine = tiles.owns_tile_from_row(rank, j, k);
    if (start != nullptr) (*start)[static_cast<std::size_t>(j)] = mine ? columns : -1;
    if (mine) columns += tiles.cols().size(j);
  }
  return columns;
}

template <typename T>
void QrUpdate<T>::list_peers(const FactorizationTiles& tiles, std::int64_t k, std::int64_t first,
                             std::int64_t last) {
  const int me = tiles.my_rank();
  rooted_.clear();
  contributed_.clear();
  const std::vector<std::int64_t>& rooted = tiles.my_cols_in_row(k);
  for (auto j = std::lower_bound(rooted.begin(), rooted.end(), first);
       j != rooted.end() && *j < last; ++j)
    tiles.for_each_rank_from_row(*j, k, [&](int rank) {
      if (rank != me) rooted_.add(rank, *j);
    });
  for (std::int64_t j = first; j < last; ++j) {
    if (w_start_[static_cast<std::size_t>(j)] < 0) continue;
    const int root = tiles.owner(k, j);
    if (root != me) contributed_.add(root, j);
  }
}

template <typename T>
template <typename Reflectors, typename FirstColumn>
typename QrUpdate<T>::Sizes QrUpdate<T>::sizes(const FactorizationTiles& tiles, std::int64_t steps,
                                               Reflectors&& reflectors, FirstColumn&& first_column,
                                               std::int64_t window) {
  const std::int64_t columns = tiles.cols().count();
  window = std::max<std::int64_t>(window, 1);
  Sizes sizes;
  // Per tile column of a step: this rank's W columns, the partials it receives as the root
  // and from how many ranks; then their largest sums over `window` consecutive columns.
  std::vector<std::int64_t> mine(static_cast<std::size_t>(columns)), received(mine.size()), pairs(mine.size()),
      contributed(mine.size());
  for (std::int64_t k = 0; k < steps; ++k) {
    const std::int64_t r = reflectors(k), first = first_column(k);
    for (std::int64_t j = first; j < columns; ++j) {
      const std::size_t at = static_cast<std::size_t>(j);
      mine[at] = tiles.owns_tile_from_row(tiles.my_rank(), j, k) ? tiles.cols().size(j) : 0;
      received[at] = pairs[at] = 0;
      const bool rooted_here = tiles.owner(k, j) == tiles.my_rank();
      contributed[at] = rooted_here ? 0 : mine[at];
      if (!rooted_here) continue;
      // The partials of a column this rank roots, one per other rank with a tile in it.
      tiles.for_each_rank_from_row(j, k, [&](int rank) {
        if (rank == tiles.my_rank()) return;
        received[at] += tiles.cols().size(j);
        ++pairs[at];
      });
    }
    std::int64_t in_mine = 0, in_received = 0, in_pairs = 0, in_contributed = 0;
    for (std::int64_t j = first; j < columns; ++j) {
      const std::size_t at = static_cast<std::size_t>(j);
      in_mine += mine[at];
      in_received += received[at];
      in_pairs += pairs[at];
      in_contributed += contributed[at];
      if (j - window >= first) {
        const std::size_t out = static_cast<std::size_t>(j - window);
        in_mine -= mine[out];
        in_received -= received[out];
        in_pairs -= pairs[out];
        in_contributed -= contributed[out];
      }
      sizes.w = std::max(sizes.w, r * in_mine);
      sizes.incoming = std::max(sizes.incoming, r * in_received);
      sizes.contributed = std::max(sizes.contributed, r * in_contributed);
      sizes.rooted_pairs = std::max(sizes.rooted_pairs, static_cast<std::size_t>(in_pairs));
    }
  }
  return sizes;
}

template <typename T>
template <typename Reflectors, typename FirstColumn>
void QrUpdate<T>::allocate(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                           std::int64_t steps, Reflectors&& reflectors,
                           FirstColumn&& first_column, std::int64_t window) {
  if (const auto* array = dynamic_cast<const layout::CartesianLocalLayout*>(a.storage))
    array_.emplace(*array, tiles);
  const std::int64_t columns = tiles.cols().count();
  const Sizes sized = sizes(tiles, steps, reflectors, first_column, window);
  const std::int64_t w = sized.w, incoming = sized.incoming;
  rooted_.reserve(sized.rooted_pairs);
  contributed_.reserve(static_cast<std::size_t>(columns));
  w_.resize(static_cast<std::size_t>(w));
  // A call sends the partials of the columns it contributes to and, as a root, the reduced
  // columns once to each contributor (what it receives as partials); it receives the reduced
  // columns it contributed to.
  w_sends_.reserve(sized.contributed + incoming);
  w_receives_.reserve(sized.contributed);
  // A message's blocks are W columns of one peer (at most every column), one message per
  // root: nothing grows once the steps run (an in-place take-over has written into the
  // caller's array by then, where a rank short of memory could no longer forward the call).
  w_receives_.reserve_blocks(static_cast<std::size_t>(columns), static_cast<std::size_t>(tiles.num_ranks()));
  lengths_.reserve(static_cast<std::size_t>(columns));
  offsets_.reserve(static_cast<std::size_t>(columns));
  incoming_.resize(static_cast<std::size_t>(incoming));
  w_start_.assign(static_cast<std::size_t>(columns), -1);
  receives_.reserve(static_cast<std::size_t>(tiles.num_ranks()));
  partial_sends_.reserve(static_cast<std::size_t>(tiles.num_ranks()));
  sends_.reserve(static_cast<std::size_t>(tiles.num_ranks()));
}

template <typename T>
void QrUpdate<T>::apply(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                        const DistributedMatrix<T>& a, std::int64_t first, std::int64_t last,
                        MPI_Comm comm) {
  last = std::min(last, tiles.cols().count());
  if (first >= last) return;
  const int me = tiles.my_rank();
  const std::int64_t k = step.step;
  if (plan_columns(tiles, k, first, last, me, &w_start_) == 0) return;
  list_peers(tiles, k, first, last);
  // Partials from every contributor to the columns this rank roots, at consecutive places.
  std::int64_t received = 0;
  rooted_.for_each([&](int rank, RankGroups::Iterator from, RankGroups::Iterator to) {
    std::int64_t width = 0;
    for (auto p = from; p != to; ++p) width += tiles.cols().size(p->index);
    const std::int64_t count = step.count * width;
    if (count == 0) return;
    receives_.emplace_back(MPI_REQUEST_NULL);
    mpi::check_mpi(MPI_Irecv(incoming_.data() + received, mpi::mpi_count(count, "qr: W partial"),
                             mpi::mpi_type<T>(), rank, mpi::tag::kQrPartial, comm, &receives_.back()), "MPI_Irecv");
    received += count;
  });
  compute_partials(tiles, step, a, first, last);
  contributed_.for_each([&](int root, RankGroups::Iterator from, RankGroups::Iterator to) {
    post_columns(tiles, step, from, to, root, true, mpi::tag::kQrPartial, comm, partial_sends_);
  });
  wait_all(receives_);
  reduce_rooted(tiles, step, first, last);
  rooted_.for_each([&](int rank, RankGroups::Iterator from, RankGroups::Iterator to) {
    post_columns(tiles, step, from, to, rank, true, mpi::tag::kQrReduced, comm, sends_);
  });
  // The partials leave w_ once their roots have posted the receives (first thing in their
  // call); only then may w_ receive the reduced columns in their place. The reduced columns
  // this rank sends are waited for last: a wait for them before posting this rank's own
  // receives could wait on a rank that waits the same way on this one.
  wait_all(partial_sends_);
  contributed_.for_each([&](int root, RankGroups::Iterator from, RankGroups::Iterator to) {
    post_columns(tiles, step, from, to, root, false, mpi::tag::kQrReduced, comm, receives_);
  });
  wait_all(receives_);
  w_receives_.unpack();
  apply_reflectors(tiles, step, a, first, last);
  wait_all(sends_);
  w_sends_.end_round();  // the partials were waited for before the reduced columns came
}

template <typename T>
void QrUpdate<T>::post_columns(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                               RankGroups::Iterator from, RankGroups::Iterator to, int peer,
                               bool sending, int tag, MPI_Comm comm,
                               std::vector<MPI_Request>& requests) {
  const std::int64_t r = step.count;
  lengths_.clear();
  offsets_.clear();
  for (auto p = from; p != to; ++p) {
    lengths_.push_back(mpi::mpi_count(r * tiles.cols().size(p->index), "qr: W columns"));
    offsets_.push_back(mpi::mpi_count(r * w_start_[static_cast<std::size_t>(p->index)], "qr: W offset"));
  }
  requests.emplace_back(MPI_REQUEST_NULL);
  if (sending) {
    w_sends_.post(w_.data(), lengths_, offsets_, peer, tag, comm, &requests.back());
  } else {
    w_receives_.post(w_.data(), lengths_, offsets_, peer, tag, comm, &requests.back());
  }
}

template <typename T>
template <typename Block>
void QrUpdate<T>::for_each_block(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                                 const DistributedMatrix<T>& a, std::int64_t first,
                                 std::int64_t last, Block&& block) {
  const std::int64_t k = step.step, r = step.count;
  const auto v_tile = [&](std::int64_t i) { return step.v_tiles[static_cast<std::size_t>(i)]; };
  if (array_) {
    // This rank's rows from tile row k are consecutive in the local array and in V's stack,
    // its columns of [first, last) in the local array and in w_: one block.
    const layout::CartesianLocalLayout& array = array_->array();
    const std::vector<std::int64_t>& tile_rows = array_->tile_rows();
    const layout::LocalRow row = array_->local_row_from(k);
    const layout::LocalCol col = array_->local_col_from(first);
    const BlockPartner<const T> v = v_tile(*std::lower_bound(tile_rows.begin(), tile_rows.end(), k));
    block(v.at, v.ld, a.data + array.offset(row, col), array.ld(), array.row_end() - row,
          array_->local_col_from(last) - col, w_.data(), true);
    return;
  }
  // Elsewhere in blocks of memory (tile_blocks.hpp): V's diagonal tile, where it is a copy,
  // has a leading dimension of its own and starts a block apart.
  const auto v_rows = [&](std::int64_t i) {
    if (i == k && step.diagonal != nullptr) return BlockPartner<const T>{step.diagonal, step.diagonal_ld};
    return v_tile(i);
  };
  const auto w_columns = [&](std::int64_t j) {
    const std::int64_t at = w_start_[static_cast<std::size_t>(j)];
    return BlockPartner<T>{at < 0 ? nullptr : w_.data() + at * r, r};
  };
  const FlopBatch batch;  // one simulated computation for the whole loop
  for_each_tile_block(tiles, a, k, first, last, v_rows, w_columns,
                      [&](const TileBlock<T>& b, const BlockPartner<T>& w) {
                        block(b.panel, b.panel_ld, b.a, b.ld, b.rows, b.cols, w.at, b.first_of_column);
                      });
}

template <typename T>
void QrUpdate<T>::compute_partials(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                                   const DistributedMatrix<T>& a, std::int64_t first,
                                   std::int64_t last) {
  const std::int64_t r = step.count;
  for_each_block(tiles, step, a, first, last,
                 [&](const T* v, std::int64_t v_ld, const T* block, std::int64_t ld,
                     std::int64_t rows, std::int64_t cols, T* w, bool first_of_column) {
                   gemm<T>(Op::ConjTrans, Op::NoTrans, r, cols, rows, T(1), v, v_ld, block, ld,
                           first_of_column ? T(0) : T(1), w, r);
                 });
}

template <typename T>
void QrUpdate<T>::reduce_rooted(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                                std::int64_t first, std::int64_t last) {
  const int me = tiles.my_rank();
  const std::int64_t k = step.step, r = step.count;
  // The partials arrived contributor by contributor, each in increasing column order. Their
  // sums read elements: none when no flop is computed (elements_are_copied).
  const T* partial = incoming_.data();
  if (elements_are_copied())
    rooted_.for_each([&](int, RankGroups::Iterator from, RankGroups::Iterator to) {
      for (auto p = from; p != to; ++p) {
        T* w = w_.data() + r * w_start_[static_cast<std::size_t>(p->index)];
        const std::int64_t count = r * tiles.cols().size(p->index);
        for (std::int64_t e = 0; e < count; ++e) w[e] += partial[e];
        partial += count;
      }
    });
  // W_j := op(T)·W_j, one TRMM per run of adjacent rooted columns.
  std::int64_t run_start = -1, run_width = 0;
  const auto flush = [&] {
    if (run_width > 0)
      trmm<T>(Side::Left, Uplo::Upper, step.t_op, Diag::NonUnit, r, run_width, T(1), step.t, r,
              w_.data() + r * run_start, r);
    run_width = 0;
  };
  for (std::int64_t j = first; j < last; ++j) {
    if (tiles.owner(k, j) != me) {
      flush();
      continue;
    }
    if (run_width == 0) run_start = w_start_[static_cast<std::size_t>(j)];
    run_width += tiles.cols().size(j);
  }
  flush();
}

template <typename T>
void QrUpdate<T>::apply_reflectors(const FactorizationTiles& tiles, const StepReflectors<T>& step,
                                   const DistributedMatrix<T>& a, std::int64_t first,
                                   std::int64_t last) {
  const std::int64_t r = step.count;
  for_each_block(tiles, step, a, first, last,
                 [&](const T* v, std::int64_t v_ld, T* block, std::int64_t ld, std::int64_t rows,
                     std::int64_t cols, const T* w, bool) {
                   gemm<T>(Op::NoTrans, Op::NoTrans, rows, cols, r, T(-1), v, v_ld, w, r, T(1),
                           block, ld);
                 });
}

}  // namespace hetscal::kernels::detail
