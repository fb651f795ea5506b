#pragma once
/// @file in_place_potrf.hpp
/// The in-place route of a PxPOTRF (issue 28, items 1, 2, 4, 5): computed in the caller's array.
///
/// Layout: sub(A) keeps the caller's tiles and grid; its tile rows and columns change grid
/// row or column only where the speeds' planned counts require it, the lines a grid line
/// gives away spread over those it holds (core::KeptLines::Spread), so that every trailing
/// matrix of the factorization holds each rank's share. The tiles of the UPLO triangle the
/// layout leaves with their caller owner stay where they are in the caller's array; a rank's
/// other tiles of the triangle (its surplus) live in one overflow buffer
/// (layout/in_place_storage.hpp). The other triangle is never moved, read or written.
///
/// Sequence, all or nothing: allocate (the overflow, then the kernel's panels and its
/// communicator: kernels::PreparedCholesky; each agreed), move the surplus in (the caller's
/// array only read), agree on the move back (it allocates nothing: derived datatypes from
/// where the tiles are), then factorize in place and move the surplus back. Nothing is written
/// into the caller's array before every rank passed every stage; after that only MPI can fail
/// (then FailedAfterWrite, heard as from ScaLAPACK).
///
/// A matrix that is not positive definite: the layout has the caller's tiles, which are
/// ScaLAPACK's blocks, and the kernel stops where ScaLAPACK stops (every earlier step's
/// update applied, the failing diagonal block factored column by column up to the failing
/// minor): sub(A) is ScaLAPACK's partial factor, to rounding, and INFO its INFO.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layout/cartesian_distribution.hpp"
#include "layout/in_place_storage.hpp"
#include "mpi/blacs_context.hpp"
#include "mpi/caller_matrix.hpp"
#include "runtime/in_place_moves.hpp"
#include "runtime/planned_potrf.hpp"
#include "runtime/take_over.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::runtime {

template <typename T>
class InPlacePotrf {
 public:
  /// Local (no communication): the caller's view, the in-place layout, this rank's storage.
  /// @param speeds the context's agreed relative speeds, one per rank of context.comm.
  /// @pre the call passed PxPOTRF's checks, N >= 1.
  InPlacePotrf(const mpi::ContextInfo& context, const PotrfCall<T>& call, const std::vector<double>& speeds);

  /// "" or why the in-place route cannot compute the call (the same on every rank).
  const std::string& problem() const { return problem_; }
  /// Bytes of new memory the route takes on this rank: what the workspace's overflow must
  /// grow by, and the kernel's workspace (kernels::cholesky_workspace_bound).
  double new_bytes(const Workspace& workspace) const;
  /// sub(A)'s elements per rank, for pricing the surplus's moves. Global. @pre problem() is empty.
  SurplusElements surplus() const { return surplus_elements(*a_.distribution, *layout_, context_.num_ranks()); }
  /// The in-place layout as the time model's candidate, for pricing the factorization's steps
  /// on it. Global. @pre problem() is empty.
  core::Candidate candidate() const { return in_place_candidate(*layout_); }

  /// The take-over. Collective over context.comm. @pre problem() is empty.
  /// @return Computed (with INFO); Forward (nothing written: call ScaLAPACK) when a stage
  ///         before the first write failed on any rank; FailedAfterWrite when MPI failed later.
  TakeOverOutcome run(Workspace& workspace) const;

 private:
  /// Posts and completes the surplus's messages: into the overflow (`in`) or back.
  /// @param requests room for one request per surplus tile, reserved (nothing allocated here).
  void move_surplus(bool in, T* overflow, std::vector<MPI_Request>& requests) const;

  const mpi::ContextInfo& context_;
  const PotrfCall<T>& call_;
  mpi::CallerMatrix a_;
  std::string problem_;
  std::unique_ptr<layout::CartesianDistribution> layout_;  ///< sub(A) in place
  std::unique_ptr<layout::InPlaceLocalLayout> storage_;     ///< this rank's part of layout_
};

}  // namespace hetscal::runtime
