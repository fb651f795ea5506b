#pragma once
/// @file cholesky.hpp
/// Distributed Cholesky factorisation on any Distribution with square tiles.
#include <mpi.h>

#include <cstdint>
#include <memory>

#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::kernels {

/// Factorises the Hermitian (real: symmetric) positive definite N×N matrix A in place, as
/// ScaLAPACK's PxPOTRF: A = L·Lᴴ (Uplo::Lower, L written over A's lower triangle) or
/// A = Uᴴ·U (Uplo::Upper). Only the `uplo` triangle is read or written: tiles strictly inside
/// the other triangle are never touched, nor the other triangle of diagonal tiles. As
/// LAPACK's xPOTRF, the imaginary parts of the diagonal are not read and the factor's
/// diagonal is real. Right-looking with a lookahead of one step; each panel tile goes only to
/// the ranks whose trailing tiles need it. Collective over `comm`. Every local operation
/// goes through kernels/local_blas.hpp (flop accounting: potrf_flops<T>(N) in all).
/// All or nothing: every rank allocates its whole workspace before the first message and the
/// ranks agree on it (stage "compute"), so a rank that cannot allocate makes every rank
/// throw, with A untouched.
/// @param uplo which triangle holds A and receives the factor.
/// @param a the matrix; its row and column tile splits must be equal.
/// @param comm the ranks of a's distribution (duplicated internally for the messages).
/// @return INFO as ScaLAPACK: 0 on success, or j > 0 when the leading minor of order j
///         (global, 1-based) is not positive definite; the factorisation then stops at the
///         tile holding j, after the updates of every earlier step. The same on every rank.
/// @throws InvalidArgument when a lacks a distribution or storage, is distributed over
///         another number of ranks than comm has, its storage belongs to another rank, or its
///         tiles are not square: on every rank, when any rank finds one of these, before any
///         message of the factorisation.
/// @throws mpi::StageFailed on every rank when some rank's workspace allocation failed.
template <typename T>
std::int64_t cholesky(Uplo uplo, DistributedMatrix<T> a, MPI_Comm comm);

/// At most the elements kernels::cholesky allocates on a rank for an N×N matrix in tiles of at
/// most `nb` stored in two buffers (layout::StorageKind::KeptAndOverflow): its two step panels,
/// the band of stacked panel lines of its update (cholesky_column_runs.hpp) and the diagonal
/// tile. For a take-over's memory budget.
std::int64_t cholesky_workspace_bound(std::int64_t n, std::int64_t nb);

/// kernels::cholesky in two parts, for a take-over that must have every allocation made and
/// agreed before it moves anything (runtime/in_place_potrf.hpp): the constructor checks the
/// arguments and allocates the whole workspace (both agreed, nothing written, the same
/// exceptions as cholesky before its first message), run() factorises.
template <typename T>
class PreparedCholesky {
 public:
  /// Collective over `comm`. @param a,uplo,comm as cholesky's; `a` must outlive run().
  PreparedCholesky(Uplo uplo, DistributedMatrix<T> a, MPI_Comm comm);
  ~PreparedCholesky();
  PreparedCholesky(const PreparedCholesky&) = delete;
  PreparedCholesky& operator=(const PreparedCholesky&) = delete;

  /// The factorisation; collective over the constructor's `comm`. Once only.
  /// @return INFO as cholesky's.
  std::int64_t run();

 private:
  class Steps;
  std::unique_ptr<Steps> steps_;
};

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in cholesky.cpp.
#define HETSCAL_CHOLESKY_INSTANCES(PREFIX, T)                                     \
  PREFIX template std::int64_t cholesky<T>(Uplo, DistributedMatrix<T>, MPI_Comm); \
  PREFIX template class PreparedCholesky<T>;
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_CHOLESKY_INSTANCES)

}  // namespace hetscal::kernels
