#pragma once
/// @file triangular_solve_fan_in.hpp
/// The fan-in algorithm of triangular_solve (triangular_solve.hpp), for few right-hand
/// sides: A never moves. Every rank keeps W, the sum of op(A)(i, k)·X(k, :) over the tiles
/// of op(A) it owns, for every tile row i not solved yet. At step s, row k = k(s): the
/// residual B(k, :) − ΣW(k, :) is reduced (MPI_Reduce, NB_k × NRHS elements) to the owner of
/// the diagonal tile A(k, k), which solves it and broadcasts X(k, :); the owners of B(k, :)
/// store it and every owner of a tile of op(A)'s column k adds its product to W. Messages
/// are 2·N·NRHS elements per rank in all, and the update flops follow A's distribution (its
/// balance is the factorisation's).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/allocate_agreed.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/triangular_solve_order.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

template <typename T>
class FanInSolve {
 public:
  explicit FanInSolve(const SolveCall<T>& call)
      : call_(call), order_(call.order()), n_(call.a.rows()), nrhs_(call.b.cols()) {}

  void run() {
    allocate_agreed(call_.comm, [&] {
      std::int64_t largest = 0;
      for (std::int64_t t = 0; t < order_.steps; ++t) largest = std::max(largest, tile_size(t));
      sums_.assign(static_cast<std::size_t>(n_ * nrhs_), T(0));
      row_.resize(static_cast<std::size_t>(largest * nrhs_));
    });
    for (std::int64_t s = 0; s < order_.steps; ++s) {
      const std::int64_t k = order_.row_of_step(s);
      solve_row(k);
      add_products(s, k);
    }
  }

 private:
  std::int64_t tile_size(std::int64_t t) const { return call_.a.distribution->rows().size(t); }
  std::int64_t row_offset(std::int64_t t) const { return call_.a.distribution->rows().offset(t); }

  /// X(k, :) into row_ on every rank, and into B's tiles of row k where they live.
  void solve_row(std::int64_t k) {
    const std::int64_t rows = tile_size(k);
    const int root = call_.a.distribution->owner({k, k});
    // This rank's share of the residual: its tiles of B(k, :) minus its sums (ld = rows).
    for (std::int64_t c = 0; c < nrhs_; ++c)
      for (std::int64_t r = 0; r < rows; ++r)
        row_[static_cast<std::size_t>(r + c * rows)] =
            -sums_[static_cast<std::size_t>(row_offset(k) + r + c * n_)];
    for_each_b_tile(k, [&](const T* tile, std::int64_t ld, std::int64_t col0, std::int64_t cols) {
      for (std::int64_t c = 0; c < cols; ++c)
        for (std::int64_t r = 0; r < rows; ++r)
          row_[static_cast<std::size_t>(r + (col0 + c) * rows)] += tile[r + c * ld];
    });
    const int count = mpi::mpi_count(rows * nrhs_, "triangular_solve: right-hand side row");
    mpi::check_mpi(MPI_Reduce(call_.me == root ? MPI_IN_PLACE : row_.data(), row_.data(), count,
                              mpi::mpi_type<T>(), MPI_SUM, root, call_.comm),
                   "MPI_Reduce (triangular_solve)");
    if (call_.me == root) {
      const layout::TileLocation diagonal = call_.a.storage->tile_location({k, k});
      trsm<T>(Side::Left, call_.uplo, call_.op, call_.diag, rows, nrhs_, T(1),
              call_.a.data + diagonal.offset, diagonal.ld, row_.data(), rows);
    }
    mpi::check_mpi(MPI_Bcast(row_.data(), count, mpi::mpi_type<T>(), root, call_.comm),
                   "MPI_Bcast (triangular_solve)");
    for_each_b_tile(k, [&](T* tile, std::int64_t ld, std::int64_t col0, std::int64_t cols) {
      for (std::int64_t c = 0; c < cols; ++c)
        std::copy_n(row_.data() + (col0 + c) * rows, rows, tile + c * ld);
    });
  }

  /// W(i, :) += op(A)(i, k)·X(k, :) for this rank's tiles of op(A)'s column k below
  /// (in the solve's direction) the diagonal.
  void add_products(std::int64_t s, std::int64_t k) {
    for (std::int64_t r = s + 1; r < order_.steps; ++r) {
      const std::int64_t i = order_.row_of_step(r);
      const layout::GlobalTile stored = order_.stored_tile(i, k);
      if (!call_.a.storage->owns(stored)) continue;
      const layout::TileLocation where = call_.a.storage->tile_location(stored);
      gemm<T>(call_.op, Op::NoTrans, tile_size(i), nrhs_, tile_size(k), T(1),
              call_.a.data + where.offset, where.ld, row_.data(), tile_size(k), T(1),
              sums_.data() + row_offset(i), n_);
    }
  }

  /// Calls f(tile data, ld, first column, columns) for each tile of B's row k held here.
  template <typename F>
  void for_each_b_tile(std::int64_t k, F&& f) {
    const layout::TileSplit& cols = call_.b.distribution->cols();
    for (std::int64_t j = 0; j < cols.count(); ++j) {
      if (!call_.b.storage->owns({k, j})) continue;
      const layout::TileLocation where = call_.b.storage->tile_location({k, j});
      f(call_.b.data + where.offset, where.ld, cols.offset(j), cols.size(j));
    }
  }

  const SolveCall<T> call_;
  const SolveOrder order_;
  const std::int64_t n_, nrhs_;
  ScalarBuffer<T> sums_;  ///< W: N×NRHS, column-major, ld = N
  ScalarBuffer<T> row_;   ///< the residual, then X, of the step's row: NB_k×NRHS, ld = NB_k
};

}  // namespace hetscal::kernels::detail
