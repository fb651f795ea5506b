#pragma once
/// @file pricing_split.hpp
/// The planners' pricing split over the ranks of a communicator (core/planners/candidate_search.hpp):
/// rank r of P prices slice r of the candidates, and one MPI_Allreduce with MINLOC on
/// (predicted seconds, candidate index) tells every rank the winner, which each then builds
/// from its own (identical) candidate list. So each rank's share of the pricing shrinks as P
/// grows, and every rank ends with the same plan.
///
/// The reduction doubles as the failure agreement of the pricing: a rank whose pricing threw
/// contributes a negative pick (core::search_candidates), and so does a rank whose planner
/// threw before pricing (planned_over below), so that every rank reaches the one reduction
/// and every rank throws. A planner given this slice must therefore be called on every rank
/// of the communicator, or on none (a plan found in an agreed cache).
#include <mpi.h>

#include <limits>
#include <utility>

#include "core/planners/candidate_search.hpp"

namespace hetscal::mpi {

/// Slice `rank of size` of `comm`, agreeing by MINLOC over `comm` (collective: every rank
/// calls agree once per planning). One rank: the whole list, no communication.
/// @throws MpiError if the rank or size cannot be read.
core::PricingSlice pricing_slice_over(MPI_Comm comm);

/// Runs `plan(slice)`, a planner whose pricing is split over `comm` (every rank of `comm`
/// calls this at the same point), and makes sure that this rank takes part in the slice's
/// agreement exactly once: when `plan` throws before reaching it (its inputs, say, could not
/// be allocated), this rank contributes a failure so that no other rank waits, then the
/// exception goes on. Collective over `comm`.
template <typename Plan>
auto planned_over(MPI_Comm comm, Plan&& plan) -> decltype(plan(std::declval<const core::PricingSlice&>())) {
  core::PricingSlice slice = pricing_slice_over(comm);
  if (slice.count == 1) return plan(slice);
  bool agreed = false;
  auto agree = std::move(slice.agree);
  slice.agree = [&agree, &agreed](const core::CandidatePick& mine) {
    agreed = true;
    return agree(mine);
  };
  try {
    return plan(slice);
  } catch (...) {
    if (!agreed) agree({-std::numeric_limits<double>::infinity(), 0});
    throw;
  }
}

}  // namespace hetscal::mpi
