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
#include "runtime/in_place_operand.hpp"
#include "runtime/planned_getrf.hpp"
#include "runtime/take_over.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::runtime {

template <typename T>
class InPlaceGetrf {
 public:
  /// Local (no communication): the caller's view, the in-place layout, this rank's storage.
  /// @param speeds the context's agreed relative speeds, one per rank of context.comm.
  /// @pre the call passed PxGETRF's checks, M, N >= 1.
  InPlaceGetrf(const mpi::ContextInfo& context, const GetrfCall<T>& call, const std::vector<double>& speeds);

  /// "" or why the in-place route cannot compute the call (the same on every rank).
  const std::string& problem() const { return a_.problem(); }
  /// Bytes of new memory the route takes on this rank: what the workspace's overflow must
  /// grow by, the pivots and the kernel's workspace (kernels::lu_workspace_bound).
  double new_bytes(const Workspace& workspace) const;
  /// sub(A)'s elements per rank, for pricing the surplus's moves. Global. @pre problem() is empty.
  SurplusElements surplus() const { return a_.surplus(context_.num_ranks()); }
  /// The in-place layout as the time model's candidate. Global. @pre problem() is empty.
  core::Candidate candidate() const { return a_.candidate(); }

  /// The take-over. Collective over context.comm. @pre problem() is empty.
  /// @return Computed (with INFO, IPIV written); Forward (nothing written: call ScaLAPACK)
  ///         when a stage before the first write failed on any rank; FailedAfterWrite when
  ///         MPI failed later (IPIV untouched).
  TakeOverOutcome run(Workspace& workspace) const;

 private:
  struct Steps;

  const mpi::ContextInfo& context_;
  const GetrfCall<T>& call_;
  InPlaceOperand<T> a_;
  kernels::LuOptions options_;  ///< each panel factored by its fastest owner
};

}  // namespace hetscal::runtime
