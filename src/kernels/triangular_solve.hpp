#pragma once
/// @file triangular_solve.hpp
/// Distributed triangular solve with many right-hand sides, B := op(A)⁻¹·B, on any
/// Distribution with square tiles: the solve of PxPOTRS (and of PxTRTRS's left side) after
/// a distributed Cholesky factorisation.
#include <mpi.h>

#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"

namespace hetscal::kernels {

/// B := op(A)⁻¹·B, A an N×N triangular matrix, B N×NRHS. Collective over `comm`.
///
/// Only the `uplo` triangle of A is read (the other triangle may hold anything, such as the
/// matrix a Cholesky factorisation overwrote); with Diag::Unit the diagonal is not read
/// either. Substitution tile row by tile row: at each step one MPI_Allgatherv brings every
/// rank the next column panel of op(A) and the tile row of B solved at the step before, so
/// that one collective per step serves every Distribution (Cartesian grids, patterns); the
/// owners of a tile of B then update it with one GEMM and solve it with one TRSM (through
/// kernels/local_blas.hpp, which counts the flops). Whole panels are gathered because the
/// solve does O(N²·NRHS) flops against the factorisation's O(N³): its messages are N²/2 +
/// N·NRHS elements per rank.
///
/// All or nothing: every buffer of the solve (two panels used in turn, the pack buffer and
/// the message counts) is allocated before the first message and the ranks agree on it
/// (stage "compute"), so a rank that cannot allocate makes every rank throw at once with B
/// untouched.
/// @param uplo which triangle of A holds it.
/// @param op op(A): Op::NoTrans, Op::Trans or Op::ConjTrans (Aᴴ; Aᵀ on real data).
/// @param diag Diag::Unit when A's diagonal is taken as ones.
/// @param a A; its row and column tile splits must be equal (square tiles).
/// @param b B; its row tile split must be A's, its columns may be split and owned in any way.
/// @throws InvalidArgument (on every rank, before any message) when a view lacks its
///         distribution or storage, is distributed over another number of ranks than `comm`
///         has, its storage is another rank's, A is not square with square tiles, or B's tile
///         rows are not A's; or when a step's message exceeds MPI's int count.
/// @throws mpi::StageFailed on every rank when some rank's workspace allocation failed.
template <typename T>
void triangular_solve(Uplo uplo, Op op, Diag diag, DistributedMatrix<const T> a,
                      DistributedMatrix<T> b, MPI_Comm comm);

}  // namespace hetscal::kernels
