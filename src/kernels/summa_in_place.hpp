#pragma once
/// @file summa_in_place.hpp
/// The C-stationary SUMMA loop of an in-place take-over (issue 28, item 3): A and B are read
/// in the caller's own block-cyclic arrays, never copied whole, and C's tiles live wherever
/// the take-over keeps them (the caller's array, or an overflow buffer for the tiles a rank
/// receives): a base pointer and a leading dimension per tile (TileBlocks).
///
/// Step k: op(A)'s tile (I, k) goes to every rank of C's row group of tile row I, op(B)'s
/// tile (k, J) to C's column group of J, then each rank updates its C tiles. A tile whose
/// owner is in the group is broadcast from it over the group's communicator; one whose owner
/// is not (the tile line moved to another grid row) is first sent by its owner to the group's
/// first rank, which then broadcasts it. Panels hold the tiles as the caller stores them
/// (transposed or not): the local GEMM applies op. The next step travels while the current
/// one is multiplied (double buffering).
///
/// Requirements (in_place_gemm_aligned): op(A)'s tile rows are C's tile rows, op(B)'s tile
/// columns C's tile columns, and op(A)'s tile columns op(B)'s tile rows (one K split), so that
/// every panel tile is one tile of a caller's array with a single owner.
///
/// Deadlock freedom: as summa_tiled.hpp for the broadcasts. The sends to a group's first rank
/// are posted by every owner, and received, before any rank posts a broadcast of that step;
/// they are point-to-point, posted in line order on both sides (so messages between two ranks
/// match in that order under one tag), and all complete before the next step posts any.
#include <mpi.h>

#include <array>
#include <cstdint>
#include <vector>

#include "kernels/blas_enums.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/summa_support.hpp"
#include "kernels/summa_tiled.hpp"
#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/group_communicators.hpp"
#include "mpi/message_tags.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

/// This rank's tiles of a matrix wherever they live: tile i starts at data[i] with leading
/// dimension ld[i].
template <typename T>
struct TileBlocks {
  std::vector<layout::GlobalTile> tiles;
  std::vector<T*> data;
  std::vector<std::int64_t> ld;
};

/// A caller's operand read in place, with the op the product applies to it.
template <typename T>
struct CallerOperandView {
  const layout::Distribution* distribution = nullptr;
  const layout::LocalLayout* storage = nullptr;
  const T* data = nullptr;
  Op op = Op::NoTrans;

  /// The caller's tile holding op(X)'s tile (row, col).
  layout::GlobalTile source_tile(std::int64_t row, std::int64_t col) const {
    return op == Op::NoTrans ? layout::GlobalTile{row, col} : layout::GlobalTile{col, row};
  }
};

/// Whether op(A) (M×K), op(B) (K×N) and C's splits meet the requirement above.
inline bool in_place_gemm_aligned(const layout::Distribution& a, Op op_a, const layout::Distribution& b, Op op_b,
                                  const layout::Distribution& c) {
  const layout::TileSplit& a_rows = op_a == Op::NoTrans ? a.rows() : a.cols();
  const layout::TileSplit& a_cols = op_a == Op::NoTrans ? a.cols() : a.rows();
  const layout::TileSplit& b_rows = op_b == Op::NoTrans ? b.rows() : b.cols();
  const layout::TileSplit& b_cols = op_b == Op::NoTrans ? b.cols() : b.rows();
  return a_rows == c.rows() && b_cols == c.cols() && a_cols == b_rows;
}

/// C = alpha·op(A)·op(B) + beta·C on the tiles above, in three parts: the constructor
/// allocates (panels, requests), prepare() builds the group communicators (collective), run()
/// scales C and multiplies. Nothing is written before run().
template <typename T>
class InPlaceSumma {
 public:
  /// @pre in_place_gemm_aligned; c_tiles are this rank's tiles of `c`.
  /// @throws InvalidArgument when a panel exceeds MPI's int count; std::bad_alloc.
  InPlaceSumma(const CallerOperandView<T>& a, const CallerOperandView<T>& b, const layout::Distribution& c,
               TileBlocks<T> c_tiles, int me)
      : a_(a),
        b_(b),
        c_(c),
        c_tiles_(std::move(c_tiles)),
        me_(me),
        a_index_(c.rows(), [&](std::int64_t i) { return c.row_group(i); }, me),
        b_index_(c.cols(), [&](std::int64_t j) { return c.col_group(j); }, me) {
    const std::int64_t widest = largest_tile(k_split());
    mpi::mpi_count(largest_tile(c.rows()) * widest, "gemm: panel");
    mpi::mpi_count(largest_tile(c.cols()) * widest, "gemm: panel");
    const std::size_t lines = static_cast<std::size_t>(c.rows().count() + c.cols().count());
    for (int slot = 0; slot < 2; ++slot) {
      a_panel_[slot].resize(static_cast<std::size_t>(a_index_.extent * widest));
      b_panel_[slot].resize(static_cast<std::size_t>(b_index_.extent * widest));
      requests_[slot].reserve(a_index_.lines.size() + b_index_.lines.size());
      forwards_[slot].reserve(2 * lines);
    }
  }

  /// Builds C's row and column group communicators. Collective over `comm`.
  void prepare(MPI_Comm comm) {
    comm_ = comm;
    groups_.emplace_back(comm, c_);
  }

  /// C = alpha·op(A)·op(B) + beta·C. Collective over the communicator of prepare().
  void run(T alpha, T beta) {
    scale(beta);
    const std::int64_t steps = k_split().count();
    if (steps > 0) post(0, 0);
    for (std::int64_t k = 0; k < steps; ++k) {
      const int slot = static_cast<int>(k % 2);
      if (k + 1 < steps) post(k + 1, 1 - slot);  // travels while step k is multiplied
      wait(requests_[slot]);
      multiply(alpha, k, slot);
    }
  }

 private:
  const layout::TileSplit& k_split() const { return a_.op == Op::NoTrans ? a_.distribution->cols() : a_.distribution->rows(); }

  // C := beta·C; beta = 0 writes zeros without reading C (it may hold NaN, as PBLAS allows).
  void scale(T beta) {
    if (beta == T(1)) return;
    for (std::size_t i = 0; i < c_tiles_.tiles.size(); ++i) {
      const layout::GlobalTile t = c_tiles_.tiles[i];
      const std::int64_t rows = c_.rows().size(t.row), cols = c_.cols().size(t.col);
      for (std::int64_t j = 0; j < cols; ++j) {
        T* column = c_tiles_.data[i] + j * c_tiles_.ld[i];
        for (std::int64_t r = 0; r < rows; ++r) column[r] = beta == T(0) ? T(0) : column[r] * beta;
      }
    }
  }

  static void wait(std::vector<MPI_Request>& requests) {
    mpi::check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

  // One line's tile of op(X) at step k: its caller tile, owner and where it lands.
  struct LineTile {
    layout::GlobalTile source;
    int owner;
    std::int64_t rows, cols;  // as the caller stores it
  };

  LineTile line_tile(const CallerOperandView<T>& x, std::int64_t row, std::int64_t col) const {
    const layout::GlobalTile source = x.source_tile(row, col);
    return {source, x.distribution->owner(source), x.distribution->rows().size(source.row),
            x.distribution->cols().size(source.col)};
  }

  // Posts step k of one operand: the sends to groups their owner is not in, then (after the
  // receives) the broadcasts of the lines this rank needs.
  void post(std::int64_t k, int slot) {
    requests_[slot].clear();  // keeps the capacity reserved above
    forwards_[slot].clear();
    const mpi::GroupCommunicators& groups = groups_.front();
    const std::int64_t rows = c_.rows().count(), cols = c_.cols().count();
    const auto a_tile = [&](std::int64_t i) { return line_tile(a_, i, k); };
    const auto b_tile = [&](std::int64_t j) { return line_tile(b_, k, j); };
    const auto a_group = [&](std::int64_t i) -> const mpi::GroupCommunicator& { return groups.row(i); };
    const auto b_group = [&](std::int64_t j) -> const mpi::GroupCommunicator& { return groups.col(j); };
    forward(a_, rows, a_tile, a_group, a_panel_[slot], a_index_, k, slot);
    forward(b_, cols, b_tile, b_group, b_panel_[slot], b_index_, k, slot);
    wait(forwards_[slot]);
    broadcast(a_, a_tile, a_group, a_panel_[slot], a_index_, k, slot);
    broadcast(b_, b_tile, b_group, b_panel_[slot], b_index_, k, slot);
  }

  // The tiles of lines [0, lines) whose owner is not in the line's group: the owner sends
  // from its array (a strided datatype: nothing copied), the group's first rank receives
  // into its panel.
  template <typename TileOf, typename GroupOf>
  void forward(const CallerOperandView<T>& x, std::int64_t lines, const TileOf& tile_of, const GroupOf& group_of,
               ScalarBuffer<T>& panel, const PanelIndex& index, std::int64_t k, int slot) {
    const int tag = mpi::tag::kInPlacePanel;
    for (std::int64_t line = 0; line < lines; ++line) {
      const mpi::GroupCommunicator& group = group_of(line);
      const LineTile tile = tile_of(line);
      if (in_group(group.members, tile.owner)) continue;
      const int root = group.members.front();
      if (tile.owner == me_) {
        const layout::TileLocation where = x.storage->tile_location(tile.source);
        MPI_Datatype strided;
        mpi::check_mpi(MPI_Type_vector(static_cast<int>(tile.cols), static_cast<int>(tile.rows),
                                       static_cast<int>(where.ld), mpi::mpi_type<T>(), &strided), "MPI_Type_vector");
        mpi::check_mpi(MPI_Type_commit(&strided), "MPI_Type_commit");
        forwards_[slot].emplace_back(MPI_REQUEST_NULL);
        const int sent = MPI_Isend(x.data + where.offset, 1, strided, root, tag, comm_, &forwards_[slot].back());
        (void)MPI_Type_free(&strided);  // freed once the send completes
        mpi::check_mpi(sent, "MPI_Isend");
      }
      if (root == me_) {
        const std::int64_t kb = k_split().size(k);
        forwards_[slot].emplace_back(MPI_REQUEST_NULL);
        mpi::check_mpi(MPI_Irecv(panel.data() + index.start[static_cast<std::size_t>(line)] * kb,
                                 static_cast<int>(tile.rows * tile.cols), mpi::mpi_type<T>(), tile.owner, tag, comm_,
                                 &forwards_[slot].back()),
                       "MPI_Irecv");
      }
    }
  }

  // The broadcasts of the lines this rank needs, from the tile's owner or, when it is not in
  // the group, from the group's first rank (which received it above).
  template <typename TileOf, typename GroupOf>
  void broadcast(const CallerOperandView<T>& x, const TileOf& tile_of, const GroupOf& group_of, ScalarBuffer<T>& panel,
                 const PanelIndex& index, std::int64_t k, int slot) {
    const std::int64_t kb = k_split().size(k);
    for (const std::int64_t line : index.lines) {
      const mpi::GroupCommunicator& group = group_of(line);
      const LineTile tile = tile_of(line);
      const bool owner_in_group = in_group(group.members, tile.owner);
      const int root = owner_in_group ? tile.owner : group.members.front();
      T* target = panel.data() + index.start[static_cast<std::size_t>(line)] * kb;
      if (owner_in_group && tile.owner == me_) {
        const layout::TileLocation where = x.storage->tile_location(tile.source);
        copy_matrix(x.data + where.offset, where.ld, target, tile.rows, tile.rows, tile.cols);
      }
      requests_[slot].emplace_back(MPI_REQUEST_NULL);
      mpi::check_mpi(MPI_Ibcast(target, static_cast<int>(tile.rows * tile.cols), mpi::mpi_type<T>(),
                                group.rank_of(root), group.comm, &requests_[slot].back()),
                     "MPI_Ibcast");
    }
  }

  void multiply(T alpha, std::int64_t k, int slot) {
    const std::int64_t kb = k_split().size(k);
    for (std::size_t i = 0; i < c_tiles_.tiles.size(); ++i) {
      const layout::GlobalTile t = c_tiles_.tiles[i];
      const std::int64_t rows = c_.rows().size(t.row), cols = c_.cols().size(t.col);
      // Panel tiles as the caller stores them: op(A)'s tile is rows×kb, or kb×rows transposed.
      const T* a = a_panel_[slot].data() + a_index_.start[static_cast<std::size_t>(t.row)] * kb;
      const T* b = b_panel_[slot].data() + b_index_.start[static_cast<std::size_t>(t.col)] * kb;
      gemm<T>(a_.op, b_.op, rows, cols, kb, alpha, a, a_.op == Op::NoTrans ? rows : kb, b,
              b_.op == Op::NoTrans ? kb : cols, T(1), c_tiles_.data[i], c_tiles_.ld[i]);
    }
  }

  CallerOperandView<T> a_, b_;
  const layout::Distribution& c_;
  TileBlocks<T> c_tiles_;
  int me_;
  PanelIndex a_index_, b_index_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<mpi::GroupCommunicators> groups_;  // one, after prepare()
  std::array<ScalarBuffer<T>, 2> a_panel_, b_panel_;
  std::array<std::vector<MPI_Request>, 2> requests_, forwards_;
};

}  // namespace hetscal::kernels::detail
