#pragma once
/// @file row_permutation.hpp
/// Row interchanges on a distributed matrix: the distributed form of LAPACK's xLASWP, which
/// PxGETRS applies to the right-hand sides before (TRANS = N) or after (T, C) its solves.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "kernels/distributed_matrix.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::kernels {

/// In which order xLASWP applies a list of interchanges.
enum class SwapOrder {
  Forward,   ///< row i with pivots[i] for i = 0, 1, …: P·X after A = P·L·U
  Backward,  ///< the same interchanges from the last to the first: Pᵀ·X
};

/// The permutation a list of LAPACK-style interchanges amounts to: entry r is the row of
/// the original matrix that ends up at row r.
/// @param rows the matrix's rows.
/// @param pivots 0-based, row i is interchanged with row pivots[i] (i < pivots.size()).
/// @throws InvalidArgument when there are more pivots than rows or one is outside [0, rows).
std::vector<std::int64_t> interchange_permutation(std::int64_t rows,
                                                  const std::vector<std::int64_t>& pivots,
                                                  SwapOrder order);

/// X := the rows of X rearranged: row r of the result is row source[r] of X. Only the rows
/// that move are sent, one Alltoallv; the pieces of a row are exchanged tile column by tile
/// column between the owners of the two tile rows, so every Distribution works. Collective.
/// All or nothing: the buffers are allocated and agreed on (stage "compute") before the
/// message, so X is untouched when a rank cannot allocate.
/// @param source a permutation of 0..rows-1, the same on every rank.
/// @throws InvalidArgument (every rank, before any message) when the view is malformed
///         (kernels/view_checks.hpp) or source is not a permutation of X's rows.
/// @throws mpi::StageFailed on every rank when some rank's allocation failed.
template <typename T>
void permute_rows(DistributedMatrix<T> x, const std::vector<std::int64_t>& source, MPI_Comm comm);

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in row_permutation.cpp.
#define HETSCAL_PERMUTE_ROWS_INSTANCES(PREFIX, T)                                              \
  PREFIX template void permute_rows<T>(DistributedMatrix<T>, const std::vector<std::int64_t>&, \
                                       MPI_Comm);
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_PERMUTE_ROWS_INSTANCES)

}  // namespace hetscal::kernels
