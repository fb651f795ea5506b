#pragma once
/// @file in_place_potrf.hpp
/// The in-place route of a PxPOTRF (issue 28, items 1, 2, 4, 5): computed in the caller's array.
///
/// Layout (in_place_operand.hpp): sub(A) keeps the caller's tiles and grid, only the tiles of
/// the UPLO triangle stored; the other triangle is never moved, read or written.
///
/// Sequence, all or nothing (in_place_sequence.hpp): allocate (the overflow and the surplus's
/// requests, then the kernel's panels and its communicator: kernels::PreparedCholesky; each
/// agreed), move the surplus in (the caller's array only read), agree on the move back (it
/// allocates nothing: derived datatypes from where the tiles are), then factorize in place
/// and move the surplus back. Nothing is written into the caller's array before every rank
/// passed every stage; after that only MPI can fail (then FailedAfterWrite, heard as from
/// ScaLAPACK).
///
/// A matrix that is not positive definite: the layout has the caller's tiles, which are
/// ScaLAPACK's blocks, and the kernel stops where ScaLAPACK stops (every earlier step's
/// update applied, the failing diagonal block factored column by column up to the failing
/// minor): sub(A) is ScaLAPACK's partial factor, to rounding, and INFO its INFO.
#include <string>
#include <vector>

#include "mpi/blacs_context.hpp"
#include "runtime/in_place_factorization.hpp"
#include "runtime/planned_potrf.hpp"
#include "runtime/take_over.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::runtime {

template <typename T>
class InPlacePotrf : public InPlaceFactorization<T, PotrfCall<T>> {
 public:
  /// Local: as InPlaceFactorization's. @pre the call passed PxPOTRF's checks, N >= 1.
  InPlacePotrf(const mpi::ContextInfo& context, const PotrfCall<T>& call, const std::vector<double>& speeds);

  /// Bytes of new memory the route takes on this rank: what the workspace's overflow must
  /// grow by, and the kernel's workspace (kernels::cholesky_workspace_bound).
  double new_bytes(const Workspace& workspace) const;

  /// The take-over. Collective over context.comm. @pre problem() is empty.
  /// @return Computed (with INFO); Forward (nothing written: call ScaLAPACK) when a stage
  ///         before the first write failed on any rank; FailedAfterWrite when MPI failed later.
  TakeOverOutcome run(Workspace& workspace) const;

 private:
  struct Steps;
};

}  // namespace hetscal::runtime
