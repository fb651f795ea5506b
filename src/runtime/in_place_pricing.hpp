#pragma once
/// @file in_place_pricing.hpp
/// The choice between a call's copy route and its in-place route (issue 28, items 6 and 8),
/// for any routine with an in-place route (in_place_potrf.hpp; in_place_gemm.hpp's PDGEMM
/// makes the same choice in gemm_route.cpp). The in-place route is not priced apart yet: the
/// copy route's predicted time, moves included, stands for it, with the in-place route's own
/// first touch; so it is taken when HETSCAL_TAKE_OVER=in-place asks for it, or under auto when
/// the copy route does not fit in memory.
#include <optional>
#include <string>

#include "mpi/agreement.hpp"
#include "runtime/config.hpp"
#include "runtime/context_state.hpp"
#include "runtime/decision.hpp"
#include "runtime/memory_budget.hpp"
#include "runtime/planned_call.hpp"

namespace hetscal::runtime {

/// The prices of the route the call takes, given the copy route's.
/// @param caller_bytes this rank's local arrays of the call's operands (operand_bytes).
/// @param make_in_place builds the in-place route into `in_place` (local, it allocates: run
///        inside an agreed stage here); InPlace has problem() and new_bytes(const Workspace&).
/// @return the in-place route's prices (route "in place", `in_place` set), or the copy
///         route's with the in-place route's refusal added to no_route (`in_place` empty).
/// Collective over the context.
template <typename InPlace, typename MakeInPlace>
Prices choose_take_over_route(ContextState& state, Prices prices, double caller_bytes,
                              std::optional<InPlace>& in_place, const MakeInPlace& make_in_place) {
  const TakeOverMode mode = state.settings.take_over;
  if (mode == TakeOverMode::Copy || (mode == TakeOverMode::Auto && prices.no_route.empty())) return prices;
  const MachineFigures& machine = machine_figures(state);
  double needed = 0.0;
  CallMemory memory;
  mpi::run_agreed(state.context->comm, "price", [&] {
    make_in_place();
    if (in_place->problem().empty()) needed = in_place->new_bytes(state.resources.workspace);
    memory = call_memory(state, machine, caller_bytes);  // reads /proc/meminfo: allocates
  });
  std::string why = in_place->problem();  // global: the same on every rank
  if (why.empty()) {
    const MemoryFit fit = agree_memory_fit(state.context->comm, needed, memory.allowed, memory.limit);
    if (!fit.fits) why = "the in-place route does not fit in memory: it " + fit.reason;
    prices.heterogeneous_s += fit.most_needed_bytes / machine.fresh_memory_bytes_per_s - prices.first_touch_s;
    prices.first_touch_bytes = fit.most_needed_bytes;
    prices.first_touch_s = fit.most_needed_bytes / machine.fresh_memory_bytes_per_s;
  }
  if (why.empty()) {
    prices.no_route.clear();
    prices.route = "in place";
  } else {
    prices.no_route = mode == TakeOverMode::Auto ? prices.no_route + "; " + why : why;
    in_place.reset();
  }
  return prices;
}

}  // namespace hetscal::runtime
