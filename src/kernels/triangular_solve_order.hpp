#pragma once
/// @file triangular_solve_order.hpp
/// What triangular_solve's algorithms share: the call's arguments, the order in which they
/// visit the tile rows, and where a tile of op(A) is stored.
#include <mpi.h>

#include <cstdint>

#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"
#include "layout/distribution.hpp"

namespace hetscal::kernels::detail {

struct SolveOrder {
  SolveOrder(Uplo uplo, Op op_a, std::int64_t tile_rows)
      : op(op_a), steps(tile_rows), forward((uplo == Uplo::Lower) == (op_a == Op::NoTrans)) {}

  /// Tile row of B (and of op(A)) that step s solves: top down when op(A) is lower
  /// triangular (forward substitution), bottom up otherwise.
  std::int64_t row_of_step(std::int64_t s) const { return forward ? s : steps - 1 - s; }
  /// The stored tile holding op(A)'s tile (i, k): A(i, k), or A(k, i) under a transpose.
  layout::GlobalTile stored_tile(std::int64_t i, std::int64_t k) const {
    return op == Op::NoTrans ? layout::GlobalTile{i, k} : layout::GlobalTile{k, i};
  }

  Op op;
  std::int64_t steps;  ///< tile rows of A
  bool forward;        ///< op(A) is lower triangular
};

/// One call's checked arguments.
template <typename T>
struct SolveCall {
  Uplo uplo;
  Op op;
  Diag diag;
  DistributedMatrix<const T> a;
  DistributedMatrix<T> b;
  MPI_Comm comm;
  int me;  ///< this rank in comm

  SolveOrder order() const { return {uplo, op, a.distribution->rows().count()}; }
};

}  // namespace hetscal::kernels::detail
