#pragma once
/// @file in_place_getrf.hpp
/// The in-place route of a PxGETRF (issue 28, items 1, 2, 4, 5): computed in the caller's
/// array, only the surplus moved (in_place_operand.hpp: the layout keeps the caller's tiles
/// and grid, every tile of sub(A) stored).
///
/// Sequence, all or nothing (in_place_sequence.hpp): allocate (the overflow, the surplus's
/// requests and the pivots; then the kernel's panels, buffers and communicator:
/// kernels::PreparedLu; each agreed), move the surplus in, agree on the move back, then
/// factorize in place, move the surplus back and write IPIV as PDGETRF writes it
/// (runtime/scalapack_pivots.hpp). Nothing is written into the caller's array or IPIV before
/// every rank passed every stage; after that only MPI can fail (then FailedAfterWrite, heard
/// as from ScaLAPACK).
///
/// A singular matrix: as ScaLAPACK, the factorization is completed and INFO is the first
/// exactly zero U(i,i). The layout has the caller's tiles, which are ScaLAPACK's blocks, and
/// the kernel pivots as PDGETF2 does on each block column: sub(A) and IPIV are ScaLAPACK's,
/// to rounding.
#include <string>
#include <vector>

#include "kernels/lu.hpp"
#include "mpi/blacs_context.hpp"
#include "runtime/in_place_factorization.hpp"
#include "runtime/planned_getrf.hpp"
#include "runtime/take_over.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::runtime {

template <typename T>
class InPlaceGetrf : public InPlaceFactorization<T, GetrfCall<T>> {
 public:
  /// Local: as InPlaceFactorization's. @pre the call passed PxGETRF's checks, M, N >= 1.
  InPlaceGetrf(const mpi::ContextInfo& context, const GetrfCall<T>& call, const std::vector<double>& speeds);

  /// Bytes of new memory the route takes on this rank: what the workspace's overflow must
  /// grow by, the pivots and the kernel's workspace on this rank (kernels::lu_workspace_bytes).
  double new_bytes(const Workspace& workspace) const;

  /// The take-over. Collective over context.comm. @pre problem() is empty.
  /// @return Computed (with INFO, IPIV written); Forward (nothing written: call ScaLAPACK)
  ///         when a stage before the first write failed on any rank; FailedAfterWrite when
  ///         MPI failed later (IPIV untouched).
  TakeOverOutcome run(Workspace& workspace) const;

 private:
  struct Steps;

  kernels::LuOptions options_;  ///< each panel factored by its fastest owner
};

}  // namespace hetscal::runtime
