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

#include <algorithm>
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
/// allocates (panels, requests, the groups of the communicators), prepare() builds the group
/// communicators (collective, allocating nothing of hetscal's), run() scales C and multiplies.
/// Nothing is written before run().
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
        b_index_(c.cols(), [&](std::int64_t j) { return c.col_group(j); }, me),
        blocks_(blocks()),
        groups_(c) {
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
    groups_.create(comm);
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
    const mpi::GroupCommunicators& groups = groups_;
    const std::int64_t rows = c_.rows().count(), cols = c_.cols().count();
    const auto a_tile = [&](std::int64_t i) { return line_tile(a_, i, k); };
    const auto b_tile = [&](std::int64_t j) { return line_tile(b_, k, j); };
    const auto a_group = [&](std::int64_t i) -> const mpi::GroupCommunicator& { return groups.row(i); };
    const auto b_group = [&](std::int64_t j) -> const mpi::GroupCommunicator& { return groups.col(j); };
    const bool a_stacked = a_.op == Op::NoTrans, b_stacked = false;
    forward(a_, rows, a_tile, a_group, a_panel_[slot], a_index_, a_stacked, k, slot);
    forward(b_, cols, b_tile, b_group, b_panel_[slot], b_index_, b_stacked, k, slot);
    wait(forwards_[slot]);
    broadcast(a_, a_tile, a_group, a_panel_[slot], a_index_, a_stacked, k, slot);
    broadcast(b_, b_tile, b_group, b_panel_[slot], b_index_, b_stacked, k, slot);
  }

  // Where line's tile lands in a panel. Stacked (op(A) untransposed): the tiles one under
  // the other in one column-major panel whose leading dimension is its extent, so that tile
  // rows that follow each other are one block for the GEMM. Otherwise each tile by itself,
  // its rows as leading dimension: op(A)ᵀ's kb×rows tiles side by side, and op(B)'s kb×cols
  // tiles, already form one block.
  struct PanelSpot {
    T* data;
    std::int64_t ld;
  };
  static PanelSpot spot(ScalarBuffer<T>& panel, const PanelIndex& index, bool stacked, std::int64_t line,
                        std::int64_t kb, std::int64_t tile_rows) {
    const std::int64_t start = index.start[static_cast<std::size_t>(line)];
    return stacked ? PanelSpot{panel.data() + start, index.extent} : PanelSpot{panel.data() + start * kb, tile_rows};
  }

  // A rows×cols tile at `where`: one contiguous run, or `cols` strided runs of `rows`.
  // Freed at once: MPI keeps it while an operation posted with it is pending.
  struct TileType {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int count = 0;
    TileType(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
      if (ld == rows || cols == 1) {
        type = mpi::mpi_type<T>();
        count = static_cast<int>(rows * cols);
        return;
      }
      mpi::check_mpi(MPI_Type_vector(static_cast<int>(cols), static_cast<int>(rows), static_cast<int>(ld),
                                     mpi::mpi_type<T>(), &type),
                     "MPI_Type_vector");
      mpi::check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
      count = 1;
      owned_ = true;
    }
    ~TileType() {
      if (owned_) (void)MPI_Type_free(&type);  // freed once the operations using it complete
    }
    TileType(const TileType&) = delete;
    TileType& operator=(const TileType&) = delete;

   private:
    bool owned_ = false;
  };

  // The tiles of lines [0, lines) whose owner is not in the line's group: the owner sends
  // from its array (a strided datatype: nothing copied), the group's first rank receives
  // into its panel.
  template <typename TileOf, typename GroupOf>
  void forward(const CallerOperandView<T>& x, std::int64_t lines, const TileOf& tile_of, const GroupOf& group_of,
               ScalarBuffer<T>& panel, const PanelIndex& index, bool stacked, std::int64_t k, int slot) {
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
        const PanelSpot target = spot(panel, index, stacked, line, k_split().size(k), tile.rows);
        const TileType type(tile.rows, tile.cols, target.ld);
        forwards_[slot].emplace_back(MPI_REQUEST_NULL);
        mpi::check_mpi(MPI_Irecv(target.data, type.count, type.type, tile.owner, tag, comm_, &forwards_[slot].back()),
                       "MPI_Irecv");
      }
    }
  }

  // The broadcasts of the lines this rank needs, from the tile's owner or, when it is not in
  // the group, from the group's first rank (which received it above).
  template <typename TileOf, typename GroupOf>
  void broadcast(const CallerOperandView<T>& x, const TileOf& tile_of, const GroupOf& group_of, ScalarBuffer<T>& panel,
                 const PanelIndex& index, bool stacked, std::int64_t k, int slot) {
    const std::int64_t kb = k_split().size(k);
    for (const std::int64_t line : index.lines) {
      const mpi::GroupCommunicator& group = group_of(line);
      const LineTile tile = tile_of(line);
      const bool owner_in_group = in_group(group.members, tile.owner);
      const int root = owner_in_group ? tile.owner : group.members.front();
      const PanelSpot target = spot(panel, index, stacked, line, kb, tile.rows);
      if (owner_in_group && tile.owner == me_) {
        const layout::TileLocation where = x.storage->tile_location(tile.source);
        copy_matrix(x.data + where.offset, where.ld, target.data, target.ld, tile.rows, tile.cols);
      }
      const TileType type(tile.rows, tile.cols, target.ld);
      requests_[slot].emplace_back(MPI_REQUEST_NULL);
      mpi::check_mpi(MPI_Ibcast(target.data, type.count, type.type, group.rank_of(root), group.comm,
                                &requests_[slot].back()),
                     "MPI_Ibcast");
    }
  }

  // C tiles that form one block of memory (in a ScaLAPACK local array, the tiles of
  // consecutive local rows and columns), updated by one GEMM: rows×cols from tile `first`.
  struct Block {
    std::size_t first;
    std::int64_t rows, cols;
  };

  // Whether C tile `next` extends `block` to the right: the same tile row, next in memory
  // (same leading dimension), with its op(B) panel tile right after the block's. op(B)'s
  // untransposed panel tiles (kb×cols, leading dimension kb) are then one kb×Σcols block;
  // transposed ones are not, and such a block stays one tile wide.
  bool extends_right(const Block& block, std::size_t next) const {
    const layout::GlobalTile first = c_tiles_.tiles[block.first], t = c_tiles_.tiles[next];
    const std::int64_t ld = c_tiles_.ld[block.first];
    return b_.op == Op::NoTrans && t.row == first.row && c_tiles_.ld[next] == ld &&
           c_tiles_.data[next] == c_tiles_.data[block.first] + block.cols * ld &&
           line_start(b_index_, t.col) == line_start(b_index_, first.col) + block.cols;
  }

  // Whether `below` (a block of the tile row under `block`'s last) extends `block` down: the
  // same columns, next in memory, and its op(A) panel rows right after the block's (stacked
  // or transposed, op(A)'s tiles of consecutive panel rows are one block).
  bool extends_down(const Block& block, const Block& below) const {
    const layout::GlobalTile first = c_tiles_.tiles[block.first], t = c_tiles_.tiles[below.first];
    const std::int64_t ld = c_tiles_.ld[block.first];
    return t.col == first.col && below.cols == block.cols && c_tiles_.ld[below.first] == ld &&
           c_tiles_.data[below.first] == c_tiles_.data[block.first] + block.rows &&
           line_start(a_index_, t.row) == line_start(a_index_, first.row) + block.rows;
  }

  static std::int64_t line_start(const PanelIndex& index, std::int64_t line) {
    return index.start[static_cast<std::size_t>(line)];
  }

  // C's tiles in blocks, so that a step is a few large GEMMs (a caller's local array is one
  // block) instead of one per tile: with the caller's 128-wide tiles, an 8,000-order PDGEMM
  // on two ranks was some 180,000 GEMMs of 128³, and its compute stage ran 1.5x the copy
  // route's. Tiles in rows first (tile row, then column), then those rows stacked.
  std::vector<Block> blocks() const {
    std::vector<std::size_t> order(c_tiles_.tiles.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    const auto by = [&](bool row_first) {
      return [&, row_first](std::size_t x, std::size_t y) {
        const layout::GlobalTile a = c_tiles_.tiles[x], b = c_tiles_.tiles[y];
        if (row_first) return a.row != b.row ? a.row < b.row : a.col < b.col;
        return a.col != b.col ? a.col < b.col : a.row < b.row;
      };
    };
    std::sort(order.begin(), order.end(), by(true));
    std::vector<Block> rows;
    for (const std::size_t tile : order) {
      const layout::GlobalTile t = c_tiles_.tiles[tile];
      if (!rows.empty() && extends_right(rows.back(), tile)) {
        rows.back().cols += c_.cols().size(t.col);
      } else {
        rows.push_back({tile, c_.rows().size(t.row), c_.cols().size(t.col)});
      }
    }
    const auto first_tile_order = by(false);
    std::sort(rows.begin(), rows.end(), [&](const Block& x, const Block& y) { return first_tile_order(x.first, y.first); });
    std::vector<Block> merged;
    for (const Block& row : rows) {
      if (!merged.empty() && extends_down(merged.back(), row)) {
        merged.back().rows += row.rows;
      } else {
        merged.push_back(row);
      }
    }
    return merged;
  }

  void multiply(T alpha, std::int64_t k, int slot) {
    const std::int64_t kb = k_split().size(k);
    for (const Block& block : blocks_) {
      const layout::GlobalTile t = c_tiles_.tiles[block.first];
      // op(A)'s panel stacked (rows×kb tiles, leading dimension the panel's extent) or its
      // tiles as the caller stores them (kb×rows transposed); op(B)'s tiles kb×cols, or
      // cols×kb transposed (one tile per block then).
      const bool a_stacked = a_.op == Op::NoTrans;
      const T* a = a_panel_[slot].data() + line_start(a_index_, t.row) * (a_stacked ? 1 : kb);
      const T* b = b_panel_[slot].data() + line_start(b_index_, t.col) * kb;
      gemm<T>(a_.op, b_.op, block.rows, block.cols, kb, alpha, a, a_stacked ? a_index_.extent : kb, b,
              b_.op == Op::NoTrans ? kb : block.cols, T(1), c_tiles_.data[block.first], c_tiles_.ld[block.first]);
    }
  }

  CallerOperandView<T> a_, b_;
  const layout::Distribution& c_;
  TileBlocks<T> c_tiles_;
  int me_;
  PanelIndex a_index_, b_index_;
  std::vector<Block> blocks_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  mpi::GroupCommunicators groups_;  // its communicators built by prepare()
  std::array<ScalarBuffer<T>, 2> a_panel_, b_panel_;
  std::array<std::vector<MPI_Request>, 2> requests_, forwards_;
};

}  // namespace hetscal::kernels::detail
