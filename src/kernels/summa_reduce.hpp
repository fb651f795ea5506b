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
/// Deadlock freedom as in summa_tiled.hpp: per step every rank posts the broadcasts in
/// increasing k, then the reductions in increasing output line, on whatever communicators.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <vector>

#include "kernels/gemm.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/summa_support.hpp"
#include "kernels/summa_tiled.hpp"
#include "mpi/group_communicators.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

/// partial := sums over the stationary operand's owners of alpha·op(A)·op(B), in the
/// partial-product layout (see gemm_operands.hpp: ReduceOperands). Collective over `comm`.
/// @pre keep is A or B; x and p laid out by align_for_reduce; p's storage is tiled
///      (each tile contiguous).
template <typename T>
void summa_reduce(Stationary keep, T alpha, const TiledOperand<const T>& s,
                  const TiledOperand<const T>& x, const TiledOperand<T>& p, MPI_Comm comm) {
  using layout::GlobalTile;
  const bool keep_b = keep == Stationary::B;
  const mpi::GroupCommunicators groups(comm, *s.distribution);
  const int me = p.storage->rank();
  const layout::TileSplit& k_split = keep_b ? s.distribution->rows() : s.distribution->cols();
  const layout::TileSplit& out_split = keep_b ? s.distribution->cols() : s.distribution->rows();
  const layout::TileSplit& step_split = keep_b ? x.distribution->rows() : x.distribution->cols();
  const auto k_group = [&](std::int64_t k) -> const mpi::GroupCommunicator& {
    return keep_b ? groups.row(k) : groups.col(k);
  };
  const auto out_group = [&](std::int64_t o) -> const mpi::GroupCommunicator& {
    return keep_b ? groups.col(o) : groups.row(o);
  };
  // Tiles in each matrix's own coordinates, from (step, k), (k, out line), (step, out line).
  const auto x_tile = [&](std::int64_t step, std::int64_t k) { return keep_b ? GlobalTile{step, k} : GlobalTile{k, step}; };
  const auto s_tile = [&](std::int64_t k, std::int64_t o) { return keep_b ? GlobalTile{k, o} : GlobalTile{o, k}; };
  const auto p_tile = [&](std::int64_t step, std::int64_t o) { return keep_b ? GlobalTile{step, o} : GlobalTile{o, step}; };

  const PanelIndex x_index(k_split, k_group);
  const PanelIndex p_index(out_split, out_group);
  std::vector<std::vector<std::int64_t>> my_k(static_cast<std::size_t>(out_split.count()));
  for (const std::int64_t o : p_index.lines)
    for (std::int64_t k = 0; k < k_split.count(); ++k)
      if (s.distribution->owner(s_tile(k, o)) == me) my_k[static_cast<std::size_t>(o)].push_back(k);

  const std::int64_t widest = largest_tile(step_split);
  mpi::mpi_count(widest * largest_tile(k_split), "gemm: panel");
  mpi::mpi_count(widest * largest_tile(out_split), "gemm: panel");
  std::array<std::vector<T>, 2> x_panel, p_panel;
  std::array<std::vector<MPI_Request>, 2> broadcasts, reductions;
  for (int slot = 0; slot < 2; ++slot) {
    x_panel[slot].resize(static_cast<std::size_t>(x_index.extent * widest));
    p_panel[slot].resize(static_cast<std::size_t>(p_index.extent * widest));
  }

  const auto post = [&](std::int64_t step, int slot) {
    const std::int64_t w = step_split.size(step);
    broadcasts[slot].clear();
    broadcasts[slot].reserve(x_index.lines.size());
    for (const std::int64_t k : x_index.lines) {
      const std::int64_t kb = k_split.size(k);
      broadcast_tile(x, x_tile(step, k), keep_b ? w : kb, keep_b ? kb : w, k_group(k), me,
                     x_panel[slot].data() + x_index.start[static_cast<std::size_t>(k)] * w,
                     broadcasts[slot]);
    }
  };
  const auto multiply_and_sum = [&](std::int64_t step, int slot) {
    const std::int64_t w = step_split.size(step);
    reductions[slot].assign(p_index.lines.size(), MPI_REQUEST_NULL);
    for (std::size_t line = 0; line < p_index.lines.size(); ++line) {
      const std::int64_t o = p_index.lines[line], size = out_split.size(o);
      const std::int64_t rows = keep_b ? w : size, cols = keep_b ? size : w;
      T* partial = p_panel[slot].data() + p_index.start[static_cast<std::size_t>(o)] * w;
      std::fill(partial, partial + rows * cols, T(0));
      for (const std::int64_t k : my_k[static_cast<std::size_t>(o)]) {
        const std::int64_t kb = k_split.size(k);
        const layout::TileLocation where = s.storage->tile_location(s_tile(k, o));
        const T* moving = x_panel[slot].data() + x_index.start[static_cast<std::size_t>(k)] * w;
        if (keep_b) {
          gemm<T>(Op::NoTrans, Op::NoTrans, rows, cols, kb, alpha, moving, w, s.data + where.offset,
                  where.ld, T(1), partial, rows);
        } else {
          gemm<T>(Op::NoTrans, Op::NoTrans, rows, cols, kb, alpha, s.data + where.offset, where.ld,
                  moving, kb, T(1), partial, rows);
        }
      }
      const GlobalTile target = p_tile(step, o);
      const int root = p.distribution->owner(target);
      T* result = root == me ? p.data + p.storage->tile_location(target).offset : nullptr;
      const mpi::GroupCommunicator& group = out_group(o);
      MPI_Ireduce(partial, result, static_cast<int>(rows * cols), mpi::mpi_type<T>(), MPI_SUM,
                  group.rank_of(root), group.comm, &reductions[slot][line]);
    }
  };

  const std::int64_t steps = step_split.count();
  if (steps > 0) post(0, 0);
  for (std::int64_t step = 0; step < steps; ++step) {
    const int slot = static_cast<int>(step % 2);
    if (step + 1 < steps) post(step + 1, 1 - slot);  // travels while this step is multiplied
    MPI_Waitall(static_cast<int>(broadcasts[slot].size()), broadcasts[slot].data(), MPI_STATUSES_IGNORE);
    // The partial buffer of this slot is reused: its sums of two steps ago must be done.
    MPI_Waitall(static_cast<int>(reductions[slot].size()), reductions[slot].data(), MPI_STATUSES_IGNORE);
    multiply_and_sum(step, slot);
  }
  for (auto& pending : reductions)
    MPI_Waitall(static_cast<int>(pending.size()), pending.data(), MPI_STATUSES_IGNORE);
}

}  // namespace hetscal::kernels::detail
