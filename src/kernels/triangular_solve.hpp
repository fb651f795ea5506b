#pragma once
/// @file triangular_solve.hpp
/// Distributed triangular solve with many right-hand sides, B := op(A)⁻¹·B, on any
/// Distribution with square tiles: the solve of PxPOTRS (and of PxTRTRS's left side) after
/// a distributed Cholesky factorisation.
#include <mpi.h>

#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::kernels {

/// How triangular_solve moves data; both substitute tile row by tile row with collectives
/// only, so they serve every Distribution (Cartesian grids, patterns).
enum class SolveAlgorithm {
  Automatic,     ///< FanIn when NRHS <= A's tile size, else GatherPanels
  FanIn,         ///< A stays; partial sums of op(A)·X are reduced, X broadcast, NB×NRHS
                 ///< per step (triangular_solve_fan_in.hpp); N×NRHS workspace per rank
  GatherPanels,  ///< op(A)'s panels and B's solved rows gathered to every rank, one
                 ///< Allgatherv per step (triangular_solve_gather.hpp); N²/2 + N·NRHS
                 ///< elements received per rank, 2·N·NB workspace
};

/// B := op(A)⁻¹·B, A an N×N triangular matrix, B N×NRHS. Collective over `comm`.
///
/// Only the `uplo` triangle of A is read (the other triangle may hold anything, such as the
/// matrix a Cholesky factorisation overwrote); with Diag::Unit the diagonal is not read
/// either. Local work is one TRSM per tile row and one GEMM per tile of op(A) or of B,
/// through kernels/local_blas.hpp (which counts the flops).
///
/// All or nothing: every buffer of the solve is allocated before the first message and the
/// ranks agree on it (stage "compute"), so a rank that cannot allocate makes every rank
/// throw at once with B untouched.
/// @param uplo which triangle of A holds it.
/// @param op op(A): Op::NoTrans, Op::Trans or Op::ConjTrans (Aᴴ; Aᵀ on real data).
/// @param diag Diag::Unit when A's diagonal is taken as ones.
/// @param a A; its row and column tile splits must be equal (square tiles).
/// @param b B; its row tile split must be A's, its columns may be split and owned in any way.
/// @param algorithm how the data move (the same on every rank).
/// @throws InvalidArgument (on every rank, before any message) when a view lacks its
///         distribution or storage, is distributed over another number of ranks than `comm`
///         has, its storage is another rank's, A is not square with square tiles, or B's tile
///         rows are not A's; or when a step's message exceeds MPI's int count.
/// @throws mpi::StageFailed on every rank when some rank's workspace allocation failed.
template <typename T>
void triangular_solve(Uplo uplo, Op op, Diag diag, DistributedMatrix<const T> a,
                      DistributedMatrix<T> b, MPI_Comm comm,
                      SolveAlgorithm algorithm = SolveAlgorithm::Automatic);

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in triangular_solve.cpp.
#define HETSCAL_TRIANGULAR_SOLVE_INSTANCES(PREFIX, T)                                  \
  PREFIX template void triangular_solve<T>(Uplo, Op, Diag, DistributedMatrix<const T>, \
                                           DistributedMatrix<T>, MPI_Comm, SolveAlgorithm);
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_TRIANGULAR_SOLVE_INSTANCES)

}  // namespace hetscal::kernels
