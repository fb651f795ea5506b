#pragma once
/// @file summa_reduce.hpp
/// Internal to kernels::gemm: the A- and B-stationary loops, for K much larger than M or N
/// (PBLAS's PB_CpgemmBC and PB_CpgemmAC play these roles). The stationary operand S never
/// moves; the other operand X travels to it and partial products of C are summed.
///
/// Stationary::B (S = op(B), K×N; X = op(A), M×K), step over tile rows I of C: the owner of
/// X(I, k) broadcasts it to S's row group of k; each rank multiplies it with its S tiles
/// (k, J) into a partial C(I, J); the partials of C(I, J) are summed (MPI_Ireduce) over S's
/// column group of J onto the owner of tile (I, J) of the partial-product layout.
/// Stationary::A (S = op(A), M×K; X = op(B), K×N) is the mirror image: step over tile
/// columns J, X(k, J) to S's column group of k, sums over S's row group of I.
///
/// All buffers are allocated before the first message (kernels/gemm.cpp: all or nothing).
/// Deadlock freedom as in summa_tiled.hpp: per step every rank posts the broadcasts in
/// increasing k, then the reductions in increasing output line, on whatever communicators.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <vector>

#include "kernels/gemm.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/summa_support.hpp"
#include "kernels/summa_tiled.hpp"
#include "mpi/group_communicators.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::kernels::detail {

/// partial := sums over the stationary operand's owners of alpha·op(A)·op(B), in the
/// partial-product layout (see gemm_operands.hpp: ReduceOperands), in two parts: the
/// constructor allocates, run() communicates.
/// @pre keep is A or B; x and p laid out by align_for_reduce; p's storage is tiled
///      (each tile contiguous).
template <typename T>
class ReduceSumma {
 public:
  /// Sizes and allocates the double-buffered panels of X and of partial products and the
  /// request lists. Local: no communication; the data are read by run() only.
  /// @throws InvalidArgument when a panel exceeds MPI's int count; std::bad_alloc.
  ReduceSumma(Stationary keep, const TiledOperand<const T>& s, const TiledOperand<const T>& x,
              const TiledOperand<T>& p)
      : keep_b_(keep == Stationary::B),
        s_(s),
        x_(x),
        p_(p),
        me_(p.storage->rank()),
        x_index_(k_split(), [&](std::int64_t k) { return keep_b_ ? s.distribution->row_group(k) : s.distribution->col_group(k); }, me_),
        p_index_(out_split(), [&](std::int64_t o) { return keep_b_ ? s.distribution->col_group(o) : s.distribution->row_group(o); }, me_),
        my_k_(static_cast<std::size_t>(out_split().count())) {
    for (const std::int64_t o : p_index_.lines)
      for (std::int64_t k = 0; k < k_split().count(); ++k)
        if (s.distribution->owner(s_tile(k, o)) == me_) my_k_[static_cast<std::size_t>(o)].push_back(k);
    const std::int64_t widest = largest_tile(step_split());
    mpi::mpi_count(widest * largest_tile(k_split()), "gemm: panel");
    mpi::mpi_count(widest * largest_tile(out_split()), "gemm: panel");
    for (int slot = 0; slot < 2; ++slot) {
      x_panel_[slot].resize(static_cast<std::size_t>(x_index_.extent * widest));
      p_panel_[slot].resize(static_cast<std::size_t>(p_index_.extent * widest));
      broadcasts_[slot].reserve(x_index_.lines.size());
      reductions_[slot].assign(p_index_.lines.size(), MPI_REQUEST_NULL);
    }
  }

  /// The sums into p. Collective over `comm` (it builds the stationary operand's group
  /// communicators, then broadcasts and reduces in the buffers allocated above).
  void run(T alpha, MPI_Comm comm) {
    const mpi::GroupCommunicators groups(comm, *s_.distribution);
    const auto k_group = [&](std::int64_t k) -> const mpi::GroupCommunicator& {
      return keep_b_ ? groups.row(k) : groups.col(k);
    };
    const auto out_group = [&](std::int64_t o) -> const mpi::GroupCommunicator& {
      return keep_b_ ? groups.col(o) : groups.row(o);
    };
    const auto post = [&](std::int64_t step, int slot) {
      const std::int64_t w = step_split().size(step);
      broadcasts_[slot].clear();  // keeps the capacity reserved above
      for (const std::int64_t k : x_index_.lines) {
        const std::int64_t kb = k_split().size(k);
        broadcast_tile(x_, x_tile(step, k), keep_b_ ? w : kb, keep_b_ ? kb : w, k_group(k), me_,
                       x_panel_[slot].data() + x_index_.start[static_cast<std::size_t>(k)] * w,
                       broadcasts_[slot]);
      }
    };
    const auto multiply_and_sum = [&](std::int64_t step, int slot) {
      const std::int64_t w = step_split().size(step);
      for (std::size_t line = 0; line < p_index_.lines.size(); ++line) {
        const std::int64_t o = p_index_.lines[line], size = out_split().size(o);
        const std::int64_t rows = keep_b_ ? w : size, cols = keep_b_ ? size : w;
        T* partial = p_panel_[slot].data() + p_index_.start[static_cast<std::size_t>(o)] * w;
        multiply_partial(alpha, step, o, rows, cols, slot, partial);
        const layout::GlobalTile target = p_tile(step, o);
        const int root = p_.distribution->owner(target);
        T* result = root == me_ ? p_.data + p_.storage->tile_location(target).offset : nullptr;
        const mpi::GroupCommunicator& group = out_group(o);
        mpi::check_mpi(MPI_Ireduce(partial, result, static_cast<int>(rows * cols), mpi::mpi_type<T>(), MPI_SUM,
                                   group.rank_of(root), group.comm, &reductions_[slot][line]), "MPI_Ireduce");
      }
    };

    const std::int64_t steps = step_split().count();
    if (steps > 0) post(0, 0);
    for (std::int64_t step = 0; step < steps; ++step) {
      const int slot = static_cast<int>(step % 2);
      if (step + 1 < steps) post(step + 1, 1 - slot);  // travels while this step is multiplied
      mpi::check_mpi(MPI_Waitall(static_cast<int>(broadcasts_[slot].size()), broadcasts_[slot].data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
      // The partial buffer of this slot is reused: its sums of two steps ago must be done.
      mpi::check_mpi(MPI_Waitall(static_cast<int>(reductions_[slot].size()), reductions_[slot].data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
      multiply_and_sum(step, slot);
    }
    for (auto& pending : reductions_)
      mpi::check_mpi(MPI_Waitall(static_cast<int>(pending.size()), pending.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

 private:
  // The splits, in the roles of the loop: over K, over the output line, over the steps.
  const layout::TileSplit& k_split() const { return keep_b_ ? s_.distribution->rows() : s_.distribution->cols(); }
  const layout::TileSplit& out_split() const { return keep_b_ ? s_.distribution->cols() : s_.distribution->rows(); }
  const layout::TileSplit& step_split() const { return keep_b_ ? x_.distribution->rows() : x_.distribution->cols(); }
  // Tiles in each matrix's own coordinates, from (step, k), (k, out line), (step, out line).
  layout::GlobalTile x_tile(std::int64_t step, std::int64_t k) const { return keep_b_ ? layout::GlobalTile{step, k} : layout::GlobalTile{k, step}; }
  layout::GlobalTile s_tile(std::int64_t k, std::int64_t o) const { return keep_b_ ? layout::GlobalTile{k, o} : layout::GlobalTile{o, k}; }
  layout::GlobalTile p_tile(std::int64_t step, std::int64_t o) const { return keep_b_ ? layout::GlobalTile{step, o} : layout::GlobalTile{o, step}; }

  /// partial (rows×cols) := this rank's share of alpha·X(step, :)·S(:, o) (mirrored for A).
  void multiply_partial(T alpha, std::int64_t step, std::int64_t o, std::int64_t rows,
                        std::int64_t cols, int slot, T* partial) const {
    const std::int64_t w = step_split().size(step);
    std::fill(partial, partial + rows * cols, T(0));
    for (const std::int64_t k : my_k_[static_cast<std::size_t>(o)]) {
      const std::int64_t kb = k_split().size(k);
      const layout::TileLocation where = s_.storage->tile_location(s_tile(k, o));
      const T* moving = x_panel_[slot].data() + x_index_.start[static_cast<std::size_t>(k)] * w;
      if (keep_b_) {
        gemm<T>(Op::NoTrans, Op::NoTrans, rows, cols, kb, alpha, moving, w, s_.data + where.offset,
                where.ld, T(1), partial, rows);
      } else {
        gemm<T>(Op::NoTrans, Op::NoTrans, rows, cols, kb, alpha, s_.data + where.offset, where.ld,
                moving, kb, T(1), partial, rows);
      }
    }
  }

  bool keep_b_;
  TiledOperand<const T> s_, x_;
  TiledOperand<T> p_;
  int me_;
  PanelIndex x_index_, p_index_;
  std::vector<std::vector<std::int64_t>> my_k_;  ///< per output line: my K tiles of S there
  std::array<ScalarBuffer<T>, 2> x_panel_, p_panel_;
  std::array<std::vector<MPI_Request>, 2> broadcasts_, reductions_;
};

}  // namespace hetscal::kernels::detail
