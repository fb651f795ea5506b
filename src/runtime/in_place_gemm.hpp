#pragma once
/// @file in_place_gemm.hpp
/// The in-place route of a PxGEMM (issue 28, items 2-5): computed in the caller's arrays.
///
/// Layout: sub(C) keeps the caller's tiles and grid; its tile rows and columns change grid
/// row or column only where the speeds' planned counts require it (core/rebalancing/
/// kept_lines.hpp), so every tile the layout leaves with its caller owner stays where it is
/// in the caller's array, and a rank's other tiles (the surplus it takes on) live in one
/// overflow buffer. A and B are never copied: the SUMMA loop reads their panels in the
/// caller's arrays (kernels/summa_in_place.hpp).
///
/// Sequence, all or nothing: allocate (overflow, panels, group communicators; agreed), move
/// the surplus tiles of C in (only when beta ≠ 0; the caller's arrays are only read), agree,
/// then compute in place and move the surplus back. Nothing is written into a caller's array
/// before every allocation is made and agreed; after that only MPI can fail (then the caller
/// hears it as from ScaLAPACK: FailedAfterWrite).
///
/// Requirements: op(A)'s tile rows are sub(C)'s, op(B)'s tile columns sub(C)'s, and op(A)'s
/// tile columns op(B)'s tile rows (same block sizes and offsets along each shared dimension);
/// otherwise problem() says why and the call takes the copy route or is forwarded.
#include <memory>
#include <string>
#include <vector>

#include "layout/cartesian_distribution.hpp"
#include "mpi/blacs_context.hpp"
#include "mpi/caller_matrix.hpp"
#include "runtime/in_place_moves.hpp"
#include "runtime/planned_gemm.hpp"
#include "runtime/take_over.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::runtime {

template <typename T>
class InPlaceGemm {
 public:
  /// Local (no communication): the caller's views, C's in-place layout, this rank's surplus.
  /// @param speeds the context's agreed relative speeds, one per rank of context.comm.
  /// @pre the call passed PBLAS's checks, no replicated operand, M, N, K >= 1.
  InPlaceGemm(const mpi::ContextInfo& context, const GemmCall<T>& call, const std::vector<double>& speeds);

  /// "" or why the in-place route cannot compute the call (the same on every rank).
  const std::string& problem() const { return problem_; }
  /// Bytes of new memory the route takes on this rank: what the workspace's overflow must
  /// grow by, and the panels.
  double new_bytes(const Workspace& workspace) const;
  /// Elements of C this rank holds outside the caller's array, and of all its C tiles.
  std::int64_t overflow_elements() const { return overflow_elements_; }
  /// C's elements per rank, for pricing the surplus's moves. Global (the same on every
  /// rank): O(tile lines + ranks), both layouts being Cartesian on the caller's grid.
  /// @pre problem() is empty.
  SurplusElements surplus() const { return surplus_elements(*c_.distribution, *layout_, context_.num_ranks()); }
  /// C's rows and columns per line of the caller's grid in the in-place layout, with each
  /// rank's speed (the flop balance it gives). @pre problem() is empty.
  GridLoad load(const std::vector<double>& speeds) const { return grid_load(*layout_, speeds); }
  /// The widest block of the caller's K dimension: the inner dimension of the SUMMA's updates.
  std::int64_t k_block() const;
  /// The surplus tiles this rank sends or receives in one move (in or out). @pre problem() is empty.
  std::size_t surplus_tiles() const;

  /// The take-over. Collective over context.comm. @pre problem() is empty.
  /// @return Computed; Forward (nothing written: call ScaLAPACK) when a stage before the
  ///         first write failed on any rank; FailedAfterWrite when MPI failed later.
  TakeOverOutcome run(Workspace& workspace) const;

 private:
  const mpi::ContextInfo& context_;
  const GemmCall<T>& call_;
  mpi::CallerMatrix a_, b_, c_;
  std::string problem_;
  std::unique_ptr<layout::CartesianDistribution> layout_;  ///< sub(C) in place
  std::vector<layout::GlobalTile> my_tiles_;               ///< this rank's tiles of layout_
  std::vector<std::int64_t> overflow_offset_;              ///< per my_tiles_: -1 kept, else offset
  std::vector<std::int64_t> overflow_ld_;                  ///< per my_tiles_: its leading dimension
  std::int64_t overflow_elements_ = 0;
};

}  // namespace hetscal::runtime
