/// @file triangular_solve.cpp
/// B := op(A)⁻¹·B by tile substitution (triangular_solve.hpp). Step s handles tile row
/// k(s) of B; the steps go down (forward substitution: op(A) lower) or up (backward). One
/// MPI_Allgatherv per step carries two things at once: the tile row k(s−1) of B solved at
/// the step before, and the panel of op(A) of step s (its tile column k(s) from the diagonal
/// on, stored as A(i, k) or, transposed, A(k, i)). After it every rank updates its tiles of
/// B with row k(s−1) and the previous panel, then the owners of row k(s) solve it with the
/// diagonal tile. Two gathered buffers are used in turn, since a panel is used one step
/// after it arrives. Scalar types are instantiated here only.
#include "kernels/triangular_solve.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "kernels/allocate_agreed.hpp"
#include "kernels/gather_layout.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/view_checks.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::kernels {
namespace {

using layout::GlobalTile;

/// One tile of a step's gather: a tile of B's solved row (of_b) or of op(A)'s panel.
struct StepTile {
  bool of_b = false;
  std::int64_t index = 0;  ///< B's tile column j, or the panel's tile row i of op(A)
  GlobalTile tile;         ///< where it is stored (in B or in A)
  int owner = 0;
  std::int64_t rows = 0, cols = 0;  ///< as stored
};

/// Checks every argument; returns this rank's rank in `comm`. @throws InvalidArgument
template <typename T>
int check_arguments(const DistributedMatrix<const T>& a, const DistributedMatrix<T>& b, MPI_Comm comm) {
  int size = 0, rank = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  mpi::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_view(a, "triangular_solve: A", size, rank);
  check_view(b, "triangular_solve: B", size, rank);
  if (a.distribution->rows() != a.distribution->cols())
    throw InvalidArgument("triangular_solve: A (" + std::to_string(a.rows()) + "x" +
                          std::to_string(a.cols()) + ") is not square with square tiles");
  if (b.distribution->rows() != a.distribution->rows())
    throw InvalidArgument("triangular_solve: B's " + std::to_string(b.rows()) +
                          " rows are not split into A's tile rows");
  return rank;
}

template <typename T>
class TriangularSolve {
 public:
  TriangularSolve(Uplo uplo, Op op, Diag diag, DistributedMatrix<const T> a, DistributedMatrix<T> b,
                  MPI_Comm comm, int my_rank)
      : uplo_(uplo), op_(op), diag_(diag), a_(a), b_(b), comm_(comm), me_(my_rank),
        steps_(a.distribution->rows().count()), b_cols_(b.distribution->cols().count()),
        forward_((uplo == Uplo::Lower) == (op == Op::NoTrans)),
        layouts_{detail::GatherLayout(a.distribution->num_ranks()),
                 detail::GatherLayout(a.distribution->num_ranks())} {}

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
  /// Tile row of B (and of op(A)) that step s solves.
  std::int64_t row_of_step(std::int64_t s) const { return forward_ ? s : steps_ - 1 - s; }
  std::int64_t tile_size(std::int64_t t) const { return a_.distribution->rows().size(t); }

  /// Calls f(StepTile) for each tile gathered at step s, in the gather's order: B's row
  /// k(s−1) (none at step 0), then op(A)'s panel of k(s), diagonal tile first.
  template <typename F>
  void for_each_step_tile(std::int64_t s, F&& f) const {
    if (s > 0) {
      const std::int64_t k = row_of_step(s - 1);
      for (std::int64_t j = 0; j < b_cols_; ++j) {
        const GlobalTile t{k, j};
        f(StepTile{true, j, t, b_.distribution->owner(t), tile_size(k), b_.distribution->cols().size(j)});
      }
    }
    const std::int64_t k = row_of_step(s);
    for (std::int64_t r = s; r < steps_; ++r) {
      const std::int64_t i = row_of_step(r);
      const GlobalTile t = op_ == Op::NoTrans ? GlobalTile{i, k} : GlobalTile{k, i};
      f(StepTile{false, i, t, a_.distribution->owner(t), tile_size(t.row), tile_size(t.col)});
    }
  }

  void lay_out(std::int64_t s, detail::GatherLayout& layout) const {
    layout.lay_out([&](auto&& add) {
      for_each_step_tile(s, [&](const StepTile& x) { add(x.owner, x.rows * x.cols); });
    });
  }

  /// Every buffer of the solve, sized for its largest step, before any message.
  void allocate_workspace() {
    detail::allocate_agreed(comm_, [&] {
      std::int64_t gathered = 0, packed = 0;
      for (std::int64_t s = 0; s < steps_; ++s) {
        lay_out(s, layouts_[0]);
        gathered = std::max(gathered, layouts_[0].total());
        packed = std::max(packed, layouts_[0].elements_of(me_));
      }
      for (std::vector<T>& buffer : gathered_) buffer.resize(static_cast<std::size_t>(gathered));
      pack_.resize(static_cast<std::size_t>(packed));
      row_position_.resize(static_cast<std::size_t>(b_cols_));
    });
  }

  /// Step s's collective: this rank's tiles packed, every rank's tiles into gathered_[buffer].
  void gather(std::int64_t s, int buffer) {
    detail::GatherLayout& layout = layouts_[buffer];
    lay_out(s, layout);
    std::int64_t packed = 0;
    for_each_step_tile(s, [&](const StepTile& x) {
      if (x.owner != me_) return;
      const T* from = x.of_b ? b_.data : a_.data;
      const layout::TileLocation where =
          (x.of_b ? b_.storage : a_.storage)->tile_location(x.tile);
      for (std::int64_t c = 0; c < x.cols; ++c)
        std::copy_n(from + where.offset + c * where.ld, x.rows, pack_.data() + packed + c * x.rows);
      packed += x.rows * x.cols;
    });
    mpi::check_mpi(MPI_Allgatherv(pack_.data(), static_cast<int>(packed), mpi::mpi_type<T>(),
                                  gathered_[buffer].data(), layout.counts(), layout.displs(),
                                  mpi::mpi_type<T>(), comm_),
                   "MPI_Allgatherv (triangular_solve)");
  }

  /// B(i, :) −= op(A)(i, k)·B(k, :) for every tile row i after k = k(s) (in the solve's
  /// direction), with s's panel in gathered_[panel_buffer] and row k in gathered_[row_buffer].
  void update_with_row(std::int64_t s, int panel_buffer, int row_buffer) {
    const std::int64_t k = row_of_step(s);
    detail::GatherLayout& rows = layouts_[row_buffer];
    rows.rewind();
    for_each_step_tile(s + 1, [&](const StepTile& x) {
      const std::int64_t position = rows.place(x.owner, x.rows * x.cols);
      if (x.of_b) row_position_[static_cast<std::size_t>(x.index)] = position;
    });
    detail::GatherLayout& panel = layouts_[panel_buffer];
    panel.rewind();
    for_each_step_tile(s, [&](const StepTile& x) {
      const std::int64_t position = panel.place(x.owner, x.rows * x.cols);
      if (x.of_b || x.index == k) return;  // B's row of the step before; the diagonal tile
      for (std::int64_t j = 0; j < b_cols_; ++j) {
        const GlobalTile target{x.index, j};
        if (!b_.storage->owns(target)) continue;
        const layout::TileLocation where = b_.storage->tile_location(target);
        gemm<T>(op_, Op::NoTrans, tile_size(x.index), b_.distribution->cols().size(j), tile_size(k),
                T(-1), gathered_[panel_buffer].data() + position, x.rows,
                gathered_[row_buffer].data() + row_position_[static_cast<std::size_t>(j)],
                tile_size(k), T(1), b_.data + where.offset, where.ld);
      }
    });
  }

  /// B(k, :) := op(A(k, k))⁻¹·B(k, :) on the owners of row k = k(s).
  void solve_row(std::int64_t s, int buffer) {
    const std::int64_t k = row_of_step(s);
    detail::GatherLayout& layout = layouts_[buffer];
    layout.rewind();
    std::int64_t diagonal = -1;
    for_each_step_tile(s, [&](const StepTile& x) {
      const std::int64_t position = layout.place(x.owner, x.rows * x.cols);
      if (!x.of_b && x.index == k) diagonal = position;
    });
    for (std::int64_t j = 0; j < b_cols_; ++j) {
      const GlobalTile target{k, j};
      if (!b_.storage->owns(target)) continue;
      const layout::TileLocation where = b_.storage->tile_location(target);
      trsm<T>(Side::Left, uplo_, op_, diag_, tile_size(k), b_.distribution->cols().size(j), T(1),
              gathered_[buffer].data() + diagonal, tile_size(k), b_.data + where.offset, where.ld);
    }
  }

  const Uplo uplo_;
  const Op op_;
  const Diag diag_;
  const DistributedMatrix<const T> a_;
  const DistributedMatrix<T> b_;
  const MPI_Comm comm_;
  const int me_;
  const std::int64_t steps_, b_cols_;
  const bool forward_;  ///< op(A) is lower triangular: tile rows top to bottom
  detail::GatherLayout layouts_[2];
  std::vector<T> gathered_[2], pack_;
  std::vector<std::int64_t> row_position_;  ///< where B's gathered row tile j starts
};

}  // namespace

template <typename T>
void triangular_solve(Uplo uplo, Op op, Diag diag, DistributedMatrix<const T> a,
                      DistributedMatrix<T> b, MPI_Comm comm) {
  const int my_rank = check_arguments(a, b, comm);
  if (a.rows() == 0 || b.cols() == 0) return;  // global sizes: every rank returns here
  TriangularSolve<T>(uplo, op, diag, a, b, comm, my_rank).run();
}

// The one place where scalar types are instantiated.
#define HETSCAL_INSTANTIATE_TRIANGULAR_SOLVE(T)                                          \
  template void triangular_solve<T>(Uplo, Op, Diag, DistributedMatrix<const T>,          \
                                    DistributedMatrix<T>, MPI_Comm);
HETSCAL_INSTANTIATE_TRIANGULAR_SOLVE(float)
HETSCAL_INSTANTIATE_TRIANGULAR_SOLVE(double)
HETSCAL_INSTANTIATE_TRIANGULAR_SOLVE(std::complex<float>)
HETSCAL_INSTANTIATE_TRIANGULAR_SOLVE(std::complex<double>)
#undef HETSCAL_INSTANTIATE_TRIANGULAR_SOLVE

}  // namespace hetscal::kernels
