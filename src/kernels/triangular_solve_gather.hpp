#pragma once
/// @file triangular_solve_gather.hpp
/// The gathered-panels algorithm of triangular_solve (triangular_solve.hpp), for many
/// right-hand sides. Step s handles tile row k(s) of B. One MPI_Allgatherv per step carries
/// two things at once: the tile row k(s−1) of B solved at the step before, and the panel of
/// op(A) of step s (its tile column k(s) from the diagonal on, stored as A(i, k) or,
/// transposed, A(k, i)). After it every rank updates its tiles of B with row k(s−1) and the
/// previous panel, then the owners of row k(s) solve it with the diagonal tile. Two gathered
/// buffers are used in turn, since a panel is used one step after it arrives. Every rank
/// receives N²/2 + N·NRHS elements: the price of one collective per step on any
/// Distribution, paid where NRHS is large enough for the updates to dominate.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/allocate_agreed.hpp"
#include "kernels/gather_layout.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/triangular_solve_order.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

using layout::GlobalTile;

/// One tile of a step's gather: a tile of B's solved row (of_b) or of op(A)'s panel.
struct StepTile {
  bool of_b = false;
  std::int64_t index = 0;  ///< B's tile column j, or the panel's tile row i of op(A)
  GlobalTile tile;         ///< where it is stored (in B or in A)
  int owner = 0;
  std::int64_t rows = 0, cols = 0;  ///< as stored
};

template <typename T>
class GatherPanelsSolve {
 public:
  explicit GatherPanelsSolve(const SolveCall<T>& call)
      : call_(call),
        steps_(call.a.distribution->rows().count()),
        b_cols_(call.b.distribution->cols().count()),
        order_(call.order()),
        layouts_{GatherLayout(call.a.distribution->num_ranks()),
                 GatherLayout(call.a.distribution->num_ranks())} {}

  void run() {
    allocate_workspace();
    for (std::int64_t s = 0; s < steps_; ++s) {
      const int now = static_cast<int>(s % 2);
      gather(s, now);
      if (s > 0) update_with_row(s - 1, 1 - now, now);
      solve_row(s, now);
    }
  }

 private:
  std::int64_t row_of_step(std::int64_t s) const { return order_.row_of_step(s); }
  std::int64_t tile_size(std::int64_t t) const { return call_.a.distribution->rows().size(t); }

  /// Calls f(StepTile) for each tile gathered at step s, in the gather's order: B's row
  /// k(s−1) (none at step 0), then op(A)'s panel of k(s), diagonal tile first.
  template <typename F>
  void for_each_step_tile(std::int64_t s, F&& f) const {
    if (s > 0) {
      const std::int64_t k = row_of_step(s - 1);
      for (std::int64_t j = 0; j < b_cols_; ++j) {
        const GlobalTile t{k, j};
        f(StepTile{true, j, t, call_.b.distribution->owner(t), tile_size(k),
                   call_.b.distribution->cols().size(j)});
      }
    }
    const std::int64_t k = row_of_step(s);
    for (std::int64_t r = s; r < steps_; ++r) {
      const std::int64_t i = row_of_step(r);
      const GlobalTile t = order_.stored_tile(i, k);
      f(StepTile{false, i, t, call_.a.distribution->owner(t), tile_size(t.row), tile_size(t.col)});
    }
  }

  void lay_out(std::int64_t s, GatherLayout& layout) const {
    layout.lay_out([&](auto&& add) {
      for_each_step_tile(s, [&](const StepTile& x) { add(x.owner, x.rows * x.cols); });
    });
  }

  /// Every buffer of the solve, sized for its largest step, before any message.
  void allocate_workspace() {
    allocate_agreed(call_.comm, [&] {
      std::int64_t gathered = 0, packed = 0;
      for (std::int64_t s = 0; s < steps_; ++s) {
        lay_out(s, layouts_[0]);
        gathered = std::max(gathered, layouts_[0].total());
        packed = std::max(packed, layouts_[0].elements_of(call_.me));
      }
      for (ScalarBuffer<T>& buffer : gathered_) buffer.resize(static_cast<std::size_t>(gathered));
      pack_.resize(static_cast<std::size_t>(packed));
      row_position_.resize(static_cast<std::size_t>(b_cols_));
    });
  }

  /// Step s's collective: this rank's tiles packed, every rank's tiles into gathered_[buffer].
  void gather(std::int64_t s, int buffer) {
    GatherLayout& layout = layouts_[buffer];
    lay_out(s, layout);
    std::int64_t packed = 0;
    for_each_step_tile(s, [&](const StepTile& x) {
      if (x.owner != call_.me) return;
      const T* from = x.of_b ? call_.b.data : call_.a.data;
      const layout::TileLocation where =
          (x.of_b ? call_.b.storage : call_.a.storage)->tile_location(x.tile);
      for (std::int64_t c = 0; c < x.cols; ++c)
        std::copy_n(from + where.offset + c * where.ld, x.rows, pack_.data() + packed + c * x.rows);
      packed += x.rows * x.cols;
    });
    mpi::check_mpi(MPI_Allgatherv(pack_.data(), static_cast<int>(packed), mpi::mpi_type<T>(),
                                  gathered_[buffer].data(), layout.counts(), layout.displs(),
                                  mpi::mpi_type<T>(), call_.comm),
                   "MPI_Allgatherv (triangular_solve)");
  }

  /// B(i, :) −= op(A)(i, k)·B(k, :) for every tile row i after k = k(s) (in the solve's
  /// direction), with s's panel in gathered_[panel_buffer] and row k in gathered_[row_buffer].
  void update_with_row(std::int64_t s, int panel_buffer, int row_buffer) {
    const std::int64_t k = row_of_step(s);
    GatherLayout& rows = layouts_[row_buffer];
    rows.rewind();
    for_each_step_tile(s + 1, [&](const StepTile& x) {
      const std::int64_t position = rows.place(x.owner, x.rows * x.cols);
      if (x.of_b) row_position_[static_cast<std::size_t>(x.index)] = position;
    });
    GatherLayout& panel = layouts_[panel_buffer];
    panel.rewind();
    for_each_step_tile(s, [&](const StepTile& x) {
      const std::int64_t position = panel.place(x.owner, x.rows * x.cols);
      if (x.of_b || x.index == k) return;  // B's row of the step before; the diagonal tile
      for (std::int64_t j = 0; j < b_cols_; ++j) {
        const GlobalTile target{x.index, j};
        if (!call_.b.storage->owns(target)) continue;
        const layout::TileLocation where = call_.b.storage->tile_location(target);
        gemm<T>(call_.op, Op::NoTrans, tile_size(x.index), call_.b.distribution->cols().size(j),
                tile_size(k), T(-1), gathered_[panel_buffer].data() + position, x.rows,
                gathered_[row_buffer].data() + row_position_[static_cast<std::size_t>(j)],
                tile_size(k), T(1), call_.b.data + where.offset, where.ld);
      }
    });
  }

  /// B(k, :) := op(A(k, k))⁻¹·B(k, :) on the owners of row k = k(s).
  void solve_row(std::int64_t s, int buffer) {
    const std::int64_t k = row_of_step(s);
    GatherLayout& layout = layouts_[buffer];
    layout.rewind();
    std::int64_t diagonal = -1;
    for_each_step_tile(s, [&](const StepTile& x) {
      const std::int64_t position = layout.place(x.owner, x.rows * x.cols);
      if (!x.of_b && x.index == k) diagonal = position;
    });
    for (std::int64_t j = 0; j < b_cols_; ++j) {
      const GlobalTile target{k, j};
      if (!call_.b.storage->owns(target)) continue;
      const layout::TileLocation where = call_.b.storage->tile_location(target);
      trsm<T>(Side::Left, call_.uplo, call_.op, call_.diag, tile_size(k),
              call_.b.distribution->cols().size(j), T(1), gathered_[buffer].data() + diagonal,
              tile_size(k), call_.b.data + where.offset, where.ld);
    }
  }

  const SolveCall<T> call_;
  const std::int64_t steps_, b_cols_;
  const SolveOrder order_;
  GatherLayout layouts_[2];
  ScalarBuffer<T> gathered_[2], pack_;
  std::vector<std::int64_t> row_position_;  ///< where B's gathered row tile j starts
};

}  // namespace hetscal::kernels::detail
