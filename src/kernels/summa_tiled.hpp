#pragma once
/// @file summa_tiled.hpp
/// Internal to kernels::gemm: the C-stationary SUMMA loop on any Distribution (patterns,
/// tiled storage). Step k: for every tile row I of C, the owner of op(A)'s tile (I, k)
/// broadcasts it to C's row group of I; for every tile column J, the owner of op(B)'s tile
/// (k, J) to C's column group of J; then each rank updates each C tile it owns. The next
/// step's broadcasts are posted before the current step is computed (double buffering).
/// All panels are allocated before the first message (kernels/gemm.cpp: all or nothing).
///
/// Deadlock freedom: a group communicator may serve several tile rows and columns (one per
/// distinct rank set). Every member posts, per step, the row broadcasts in increasing I and
/// then the column broadcasts in increasing J; a member of a set belongs to exactly the rows
/// and columns with that set, so all members post the same sequence on each communicator,
/// and non-blocking collectives on different communicators cannot block one another.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <vector>

#include "kernels/local_blas.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/summa_support.hpp"
#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/group_communicators.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::kernels::detail {

/// One matrix of the tiled loop on this rank.
template <typename T>
struct TiledOperand {
  const layout::Distribution* distribution = nullptr;
  const layout::LocalLayout* storage = nullptr;
  T* data = nullptr;
};

/// Whether `rank` is one of `group` (a row_group or col_group of a distribution, that is
/// a member of the group communicator built for it).
inline bool in_group(const std::vector<int>& group, int rank) {
  return std::find(group.begin(), group.end(), rank) != group.end();
}

/// Where this rank's panel tiles sit in a panel buffer: tile line L (a tile row of C for
/// op(A), a tile column for op(B)) starts at start[L]·kb, -1 when this rank needs no tile
/// of that line; `lines` lists the needed lines in increasing order. Built from the
/// distribution alone (no communicator needed), so that panels are sized before any message.
struct PanelIndex {
  std::vector<std::int64_t> lines;
  std::vector<std::int64_t> start;
  std::int64_t extent = 0;  ///< rows (op(A)) or columns (op(B)) of the panel

  /// @param group_of the ranks of line L (row_group or col_group). @param me this rank.
  template <typename GroupOf>
  PanelIndex(const layout::TileSplit& split, GroupOf group_of, int me) {
    start.assign(static_cast<std::size_t>(split.count()), -1);
    for (std::int64_t line = 0; line < split.count(); ++line) {
      if (!in_group(group_of(line), me)) continue;
      lines.push_back(line);
      start[static_cast<std::size_t>(line)] = extent;
      extent += split.size(line);
    }
  }
};

/// Posts the broadcast of tile `t` of `x` (tile_rows×tile_cols) from its owner over `group`
/// into `panel` (contiguous, leading dimension tile_rows); the request joins `pending`,
/// whose capacity must already hold it (requests must not move once posted).
template <typename T>
void broadcast_tile(const TiledOperand<const T>& x, layout::GlobalTile t, std::int64_t tile_rows,
                    std::int64_t tile_cols, const mpi::GroupCommunicator& group, int me, T* panel,
                    std::vector<MPI_Request>& pending) {
  const int owner = x.distribution->owner(t);
  if (owner == me) {
    const layout::TileLocation where = x.storage->tile_location(t);
    copy_matrix(x.data + where.offset, where.ld, panel, tile_rows, tile_rows, tile_cols);
  }
  pending.emplace_back(MPI_REQUEST_NULL);
  mpi::check_mpi(MPI_Ibcast(panel, static_cast<int>(tile_rows * tile_cols), mpi::mpi_type<T>(), group.rank_of(owner),
                            group.comm, &pending.back()), "MPI_Ibcast");
}

/// C += alpha·A·B with A M×K following C's tile rows and B K×N following C's tile columns
/// (every panel tile owned by a member of the C group it is sent to; A's and B's K splits
/// equal), in two parts: the constructor allocates, run() communicates.
template <typename T>
class TiledSumma {
 public:
  /// Sizes and allocates the double-buffered panels and request lists. Local: no
  /// communication; the operands' data are read by run() only.
  /// @throws InvalidArgument when a panel exceeds MPI's int count; std::bad_alloc.
  TiledSumma(const TiledOperand<const T>& a, const TiledOperand<const T>& b, const TiledOperand<T>& c)
      : a_(a),
        b_(b),
        c_(c),
        me_(c.storage->rank()),
        a_index_(c.distribution->rows(), [&](std::int64_t i) { return c.distribution->row_group(i); }, me_),
        b_index_(c.distribution->cols(), [&](std::int64_t j) { return c.distribution->col_group(j); }, me_),
        owned_(c.storage->owned_tiles()) {
    const std::int64_t widest = largest_tile(a.distribution->cols());
    mpi::mpi_count(largest_tile(c.distribution->rows()) * widest, "gemm: panel");
    mpi::mpi_count(largest_tile(c.distribution->cols()) * widest, "gemm: panel");
    for (int slot = 0; slot < 2; ++slot) {
      a_panel_[slot].resize(static_cast<std::size_t>(a_index_.extent * widest));
      b_panel_[slot].resize(static_cast<std::size_t>(b_index_.extent * widest));
      requests_[slot].reserve(a_index_.lines.size() + b_index_.lines.size());
    }
  }

  /// C += alpha·A·B. Collective over `comm` (it builds C's row and column group
  /// communicators, then broadcasts panels into the buffers allocated above).
  void run(T alpha, MPI_Comm comm) {
    const mpi::GroupCommunicators groups(comm, *c_.distribution);
    const layout::TileSplit& row_split = c_.distribution->rows();
    const layout::TileSplit& col_split = c_.distribution->cols();
    const layout::TileSplit& k_split = a_.distribution->cols();
    const auto post = [&](std::int64_t k, int slot) {
      const std::int64_t kb = k_split.size(k);
      requests_[slot].clear();  // keeps the capacity reserved above
      for (const std::int64_t i : a_index_.lines)
        broadcast_tile(a_, {i, k}, row_split.size(i), kb, groups.row(i), me_,
                       a_panel_[slot].data() + a_index_.start[static_cast<std::size_t>(i)] * kb, requests_[slot]);
      for (const std::int64_t j : b_index_.lines)
        broadcast_tile(b_, {k, j}, kb, col_split.size(j), groups.col(j), me_,
                       b_panel_[slot].data() + b_index_.start[static_cast<std::size_t>(j)] * kb, requests_[slot]);
    };

    const std::int64_t steps = k_split.count();
    if (steps > 0) post(0, 0);
    for (std::int64_t k = 0; k < steps; ++k) {
      const int slot = static_cast<int>(k % 2);
      if (k + 1 < steps) post(k + 1, 1 - slot);  // travels while step k is multiplied
      mpi::check_mpi(MPI_Waitall(static_cast<int>(requests_[slot].size()), requests_[slot].data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
      const std::int64_t kb = k_split.size(k);
      for (const layout::GlobalTile& t : owned_) {
        const std::int64_t tile_rows = row_split.size(t.row), tile_cols = col_split.size(t.col);
        const layout::TileLocation where = c_.storage->tile_location(t);
        gemm<T>(Op::NoTrans, Op::NoTrans, tile_rows, tile_cols, kb, alpha,
                a_panel_[slot].data() + a_index_.start[static_cast<std::size_t>(t.row)] * kb, tile_rows,
                b_panel_[slot].data() + b_index_.start[static_cast<std::size_t>(t.col)] * kb, kb, T(1),
                c_.data + where.offset, where.ld);
      }
    }
  }

 private:
  TiledOperand<const T> a_, b_;
  TiledOperand<T> c_;
  int me_;
  PanelIndex a_index_, b_index_;
  std::vector<layout::GlobalTile> owned_;
  std::array<ScalarBuffer<T>, 2> a_panel_, b_panel_;
  std::array<std::vector<MPI_Request>, 2> requests_;
};

}  // namespace hetscal::kernels::detail
