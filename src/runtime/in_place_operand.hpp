#pragma once
/// @file in_place_operand.hpp
/// sub(A) of an in-place factorization (in_place_potrf.hpp, in_place_getrf.hpp; issue 28,
/// items 1, 2 and 4): the caller's view, its minimal-move layout and this rank's storage of
/// it, and the surplus's messages between the caller's array and the overflow.
///
/// Layout: sub(A) keeps the caller's tiles and grid; its tile rows and columns change grid
/// row or column only where the speeds' planned counts require it, the lines a grid line
/// gives away spread over those it holds (core::KeptLines::Spread), so that every trailing
/// matrix of the factorization holds each rank's share. The stored tiles the layout leaves
/// with their caller owner stay where they are in the caller's array; a rank's other stored
/// tiles (its surplus) live in one overflow buffer (layout/in_place_storage.hpp).
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/distributed_matrix.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/in_place_storage.hpp"
#include "mpi/blacs_context.hpp"
#include "mpi/caller_matrix.hpp"
#include "runtime/caller_operand.hpp"
#include "runtime/in_place_moves.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::runtime {

/// What one in-place call allocates for its surplus (in the agreed stage "allocate").
template <typename T>
struct SurplusBuffers {
  T* overflow = nullptr;              ///< the workspace's slot 0
  std::vector<MPI_Request> requests;  ///< room for every surplus message
  SurplusMessages messages;           ///< their listing's room
};

template <typename T>
class InPlaceOperand {
 public:
  /// Local (no communication). @param rows,cols sub(A)'s; @param speeds the context's agreed
  /// relative speeds, one per rank of context.comm; @param stored the tiles the factorization
  /// reads and writes (the others are never moved). @pre `a` passed its routine's checks.
  InPlaceOperand(const mpi::ContextInfo& context, const CallerOperand<T>& a, std::int64_t rows, std::int64_t cols,
                 const std::vector<double>& speeds, layout::StoredTiles stored);

  /// "" or why the in-place route cannot compute the call (the same on every rank).
  const std::string& problem() const { return problem_; }
  /// The largest tile's order (for the kernels' workspace bounds). @pre problem() is empty.
  std::int64_t largest_tile() const;
  /// Bytes the workspace's overflow must grow by. @pre problem() is empty.
  double overflow_growth(const Workspace& workspace) const;
  /// sub(A)'s elements per rank, for pricing the surplus's moves over `ranks` ranks. Global.
  /// @pre problem() is empty.
  SurplusElements surplus(int ranks) const { return surplus_elements(*caller_.distribution, *layout_, ranks); }
  /// The in-place layout as the time model's candidate, for pricing the factorization's steps
  /// on it. Global. @pre problem() is empty.
  core::Candidate candidate() const { return in_place_candidate(*layout_); }

  /// This rank's surplus buffers. Local; run inside an agreed stage (it allocates).
  void allocate(Workspace& workspace, SurplusBuffers<T>& buffers) const;
  /// The factorization's view: the layout over the caller's array and the overflow.
  kernels::DistributedMatrix<T> planned(const SurplusBuffers<T>& buffers) const {
    return {layout_.get(), storage_.get(), caller_data_, buffers.overflow};
  }
  /// Moves the surplus in (the caller's array only read) or back. Collective over
  /// context.comm; allocates nothing but MPI's datatypes.
  void move_surplus(bool in, SurplusBuffers<T>& buffers) const;

 private:
  MPI_Comm comm_;
  T* caller_data_;
  mpi::CallerMatrix caller_;
  std::string problem_;
  std::unique_ptr<layout::CartesianDistribution> layout_;  ///< sub(A) in place
  std::unique_ptr<layout::InPlaceLocalLayout> storage_;     ///< this rank's part of layout_
};

}  // namespace hetscal::runtime
