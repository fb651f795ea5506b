#pragma once
/// @file in_place_geqrf.hpp
/// The in-place route of a PxGEQRF (issue 28, items 1, 2, 4, 5): computed in the caller's
/// array, only the surplus moved (in_place_operand.hpp: the layout keeps the caller's tiles
/// and grid, every tile of sub(A) stored).
///
/// Sequence, all or nothing (in_place_sequence.hpp): allocate (the overflow, the surplus's
/// requests and τ; then the kernel's panels, buffers and communicator: kernels::PreparedQr;
/// each agreed), move the surplus in, agree on the move back, then factorize in place, move
/// the surplus back and write TAU as PDGEQRF writes it (runtime/scalapack_tau.hpp). Nothing
/// is written into the caller's array or TAU before every rank passed every stage; after that
/// only MPI can fail (then FailedAfterWrite, heard as from ScaLAPACK).
///
/// The layout has the caller's tiles, which are ScaLAPACK's blocks, and the kernel makes each
/// step's reflectors with LAPACK's xGEQRF on the block column, as PDGEQRF does: R, the
/// reflectors and TAU are ScaLAPACK's, to rounding. Each panel is factorised by its fastest
/// owner (kernels::LuPanelRank::Fastest).
#include <vector>

#include "kernels/qr.hpp"
#include "mpi/blacs_context.hpp"
#include "runtime/in_place_factorization.hpp"
#include "runtime/planned_geqrf.hpp"
#include "runtime/take_over.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::runtime {

template <typename T>
class InPlaceGeqrf : public InPlaceFactorization<T, GeqrfCall<T>> {
 public:
  /// Local: as InPlaceFactorization's. @pre the call passed PxGEQRF's checks, M, N >= 1.
  InPlaceGeqrf(const mpi::ContextInfo& context, const GeqrfCall<T>& call,
               const std::vector<double>& speeds);

  /// Bytes of new memory the route takes on this rank: what the workspace's overflow must
  /// grow by, τ and the kernel's workspace on this rank (kernels::qr_workspace_bytes).
  double new_bytes(const Workspace& workspace) const;

  /// The take-over. Collective over context.comm. @pre problem() is empty.
  /// @return Computed (INFO 0, TAU written); Forward (nothing written: call ScaLAPACK) when a
  ///         stage before the first write failed on any rank; FailedAfterWrite when MPI
  ///         failed later (TAU untouched).
  TakeOverOutcome run(Workspace& workspace) const;

 private:
  struct Steps;

  kernels::QrOptions options_;  ///< each panel factored by its fastest owner
};

}  // namespace hetscal::runtime
