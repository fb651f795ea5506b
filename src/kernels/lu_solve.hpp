#pragma once
/// @file lu_solve.hpp
/// op(A)·X = B with the LU factors kernels::lu left in A: the solve of PxGETRS, as the
/// interchanges and two triangular solves LAPACK's xGETRS makes, on any Distribution.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::kernels {

/// B := op(A)⁻¹·B where A = P·L·U is the N×N factorisation kernels::lu wrote over A (L unit
/// lower triangular below the diagonal, U upper triangular on and above it) with `pivots`.
/// NoTrans: B := P·B (rows interchanged forward), L·Y = B, U·X = Y. Trans and ConjTrans:
/// Uᵀ·Y = B, Lᵀ·Z = Y, then the interchanges backward (LAPACK's order). Collective.
/// All or nothing as permute_rows and triangular_solve: B is untouched when a workspace
/// allocation fails before the first step; a failure in a later step leaves B partly solved.
/// @param a the factors; square tiles (triangular_solve's requirements).
/// @param pivots N entries, 0-based, as kernels::lu returns them (row i was interchanged
///        with row pivots[i] >= i), the same on every rank.
/// @param b N×NRHS; its tile rows A's.
/// @throws InvalidArgument (every rank, before any message) when pivots has another size
///         than N or holds a row outside A, or a view is malformed.
/// @throws mpi::StageFailed on every rank when some rank's allocation failed.
template <typename T>
void lu_solve(Op op, DistributedMatrix<const T> a, const std::vector<std::int64_t>& pivots,
              DistributedMatrix<T> b, MPI_Comm comm);

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in lu_solve.cpp.
#define HETSCAL_LU_SOLVE_INSTANCES(PREFIX, T)                                              \
  PREFIX template void lu_solve<T>(Op, DistributedMatrix<const T>,                         \
                                   const std::vector<std::int64_t>&, DistributedMatrix<T>, \
                                   MPI_Comm);
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_LU_SOLVE_INSTANCES)

}  // namespace hetscal::kernels
