#pragma once
/// @file pricing.hpp
/// The two routes of a call priced by the one cost model (core/time_models/time_model.hpp) on the
/// context's measured machine: ScaLAPACK on the caller's block-cyclic layout, and hetscal's
/// plan with the operands moved in and the results moved out.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"
#include "layout/descriptor.hpp"
#include "mpi/blacs_context.hpp"
#include "runtime/decision.hpp"

namespace hetscal::runtime {

/// The caller's sub(X) = X(IA.., JA..) layout as the model sees it: the BLACS grid with its
/// processes (ranks of context.comm) rotated so that sub(X) starts at grid position (0, 0),
/// the row and column blocks, and where sub(X) starts inside its first block.
/// @param d X's descriptor, parsed after its checks; ia, ja 1-based.
core::CallerLayout caller_layout(const mpi::ContextInfo& context, const layout::Descriptor& d, int ia, int ja);

/// Everything of a caller's layout a Cholesky plan depends on (the in-place candidate and
/// the moves are priced on it): grid, processes, block sizes, offsets; for plan keys.
std::vector<std::size_t> caller_layout_key(const core::CallerLayout& caller);

/// Both routes of one call.
/// @param problem the routine, its shape and the caller's layout.
/// @param planned the planned layout (CandidateKind::Cartesian or Pattern).
/// @throws InvalidArgument when the model cannot price the candidate.
Prices price_routes(const core::Platform& platform, const core::Problem& problem,
                    const core::Candidate& planned);

/// Adds to `prices` the first touch of the planned copies' new memory: the most any rank
/// must newly allocate (reduced over `comm`, so that every rank prices alike), at the
/// machine's fresh-memory rate, in first_touch_bytes, first_touch_s and heterogeneous_s.
/// Collective over `comm`.
/// @param local_growth_bytes what this rank's workspace must grow by for the call.
void price_first_touch(Prices& prices, MPI_Comm comm, double local_growth_bytes,
                       double fresh_memory_bytes_per_s);

/// Predicted seconds of the routine on `candidate` alone (no move from the caller's layout).
/// @throws InvalidArgument as core::predict.
double predicted_compute_seconds(const core::Platform& platform, const core::Problem& problem,
                                 const core::Candidate& candidate);

}  // namespace hetscal::runtime
