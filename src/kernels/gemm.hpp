#pragma once
/// @file gemm.hpp
/// Distributed matrix multiply on any Distribution: C = alpha·op(A)·op(B) + beta·C.
#include <mpi.h>

#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/scalar.hpp"
#include "mpi/grid_communicators.hpp"

namespace hetscal::kernels {

/// Which operand stays in place while the others move (PBLAS chooses the same way): C for
/// the usual outer-product SUMMA, A or B when K is much larger than the other dimensions
/// (partial products of C are then reduced instead of broadcasting panels of A and B).
enum class Stationary { Automatic, C, A, B };

/// C = alpha·op(A)·op(B) + beta·C on the ranks of `comm` (collective).
/// op(A) is M×K, op(B) is K×N, C is M×N; the three distributions may differ (any
/// Distribution), the kernel is fastest when op(A)'s tile rows follow C's tile rows and
/// op(B)'s tile columns follow C's tile columns, as the planner lays them out.
/// op = Op::ConjTrans is the conjugate transpose on complex data and the transpose on real
/// data; a transposed operand is moved in with the transpose (and conjugation) fused.
/// Semantics as PBLAS: beta = 0 never reads C (it may hold NaN); alpha = 0 or K = 0 only
/// scales C. Every local operation goes through kernels/local_blas.hpp (flop accounting).
/// When C sits on a Cartesian grid in one local array, the grid's row and column
/// communicators are built for this call (two MPI_Comm_split); the overload below reuses them.
/// All or nothing: every rank allocates its whole workspace before the first message and
/// the ranks then agree (mpi::agree_on_stage, stage "compute"), so a rank that cannot
/// allocate makes every rank throw at once, with C untouched, instead of leaving them waiting.
/// @throws InvalidArgument when the shapes do not conform (on every rank, before any message).
/// @throws mpi::StageFailed on every rank when some rank's workspace allocation failed.
template <typename T>
void gemm(Op op_a, Op op_b, T alpha, DistributedMatrix<const T> a, DistributedMatrix<const T> b,
          T beta, DistributedMatrix<T> c, MPI_Comm comm, Stationary stationary = Stationary::Automatic);

/// The same, reusing the row and column communicators of C's grid: a caller that multiplies
/// on one grid many times (a factorization's trailing updates) builds `grid_comms` once, and
/// the call then creates no communicator. Paths that do not broadcast along grid rows and
/// columns (C stored as tiles, A- or B-stationary loops) do not use them.
/// @param grid_comms built over `comm` with the grid of C's distribution.
/// @throws InvalidArgument when the shapes do not conform, or when C is not on a Cartesian
///         grid or grid_comms are not that grid's over `comm`.
/// @throws mpi::StageFailed as above.
template <typename T>
void gemm(Op op_a, Op op_b, T alpha, DistributedMatrix<const T> a, DistributedMatrix<const T> b,
          T beta, DistributedMatrix<T> c, MPI_Comm comm, const mpi::GridCommunicators& grid_comms,
          Stationary stationary = Stationary::Automatic);

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in gemm.cpp.
#define HETSCAL_GEMM_INSTANCES(PREFIX, T)                                                         \
  PREFIX template void gemm<T>(Op, Op, T, DistributedMatrix<const T>, DistributedMatrix<const T>, \
                               T, DistributedMatrix<T>, MPI_Comm, Stationary);                    \
  PREFIX template void gemm<T>(Op, Op, T, DistributedMatrix<const T>, DistributedMatrix<const T>, \
                               T, DistributedMatrix<T>, MPI_Comm, const mpi::GridCommunicators&,  \
                               Stationary);
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_GEMM_INSTANCES)

}  // namespace hetscal::kernels
