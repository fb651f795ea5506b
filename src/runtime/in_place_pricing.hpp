#pragma once
/// @file in_place_pricing.hpp
/// A call's in-place route priced apart from its copy route, and the route the call takes
/// (issue 28, items 1, 6 and 8; the choice itself is route_choice.hpp's), for any routine
/// with an in-place route: PxGEMM (gemm_route.cpp), PxPOTRF (potrf_route.cpp). A routine
/// plugs in with its in-place route's class and what that route prices of itself (its moves
/// and its steps); its memory, its first touch and the choice are priced here alike for all.
#include <optional>
#include <string>

#include "mpi/agreement.hpp"
#include "runtime/config.hpp"
#include "runtime/context_state.hpp"
#include "runtime/decision.hpp"
#include "runtime/memory_budget.hpp"
#include "runtime/planned_call.hpp"
#include "runtime/route_choice.hpp"

namespace hetscal::runtime {

/// The in-place route's terms (route_choice.hpp), `in_place` made for them. Collective: an
/// agreed stage, then the memory's agreement; every term global.
/// @param make_in_place builds the route into `in_place` (local; it allocates: run inside an
///        agreed stage here). InPlace has problem() (global) and new_bytes(const Workspace&).
/// @param price_own `void(const InPlace&, InPlaceTerms&)`: the route's moves_s and its steps
///        (steps_s, or steps_factor), global; called only when problem() is empty.
template <typename InPlace, typename MakeInPlace, typename PriceOwn>
InPlaceTerms in_place_terms(ContextState& state, double caller_bytes, std::optional<InPlace>& in_place,
                            const MakeInPlace& make_in_place, const PriceOwn& price_own) {
  const MachineFigures& machine = machine_figures(state);
  InPlaceTerms terms;
  double needed = 0.0;
  CallMemory memory;
  mpi::run_agreed(state.context->comm, "price", [&] {
    make_in_place();
    terms.problem = in_place->problem();  // global: the same on every rank
    if (terms.problem.empty()) {
      needed = in_place->new_bytes(state.resources.workspace);
      price_own(*in_place, terms);
    }
    memory = call_memory(state, machine, caller_bytes);  // reads /proc/meminfo: allocates
  });
  if (!terms.problem.empty()) return terms;
  const MemoryFit fit = agree_memory_fit(state.context->comm, needed, memory.allowed, memory.limit);
  if (!fit.fits) {  // global: every rank or none joins the stage that writes the reason
    mpi::run_agreed(state.context->comm, "price",
                    [&] { terms.problem = "the in-place route does not fit in memory: it " + fit.reason; });
  }
  terms.first_touch_bytes = fit.most_needed_bytes;
  terms.first_touch_s = fit.most_needed_bytes / machine.fresh_memory_bytes_per_s;
  return terms;
}

/// The prices of the route the call takes, given the copy route's (agreed_prices; no_route
/// non-empty when the copy does not fit), by HETSCAL_TAKE_OVER: under copy the copy route,
/// unchanged; otherwise the in-place route priced apart (in_place_terms), and under auto
/// the cheaper route that fits (route_choice.hpp: its note names the route and both prices).
/// Collective over the context.
/// @param caller_bytes this rank's local arrays of the call's operands (operand_bytes).
/// @return the prices; `in_place` holds the route when it is the one taken, else is empty.
template <typename InPlace, typename MakeInPlace, typename PriceOwn>
Prices choose_take_over_route(ContextState& state, const Prices& copy, double caller_bytes,
                              std::optional<InPlace>& in_place, const MakeInPlace& make_in_place,
                              const PriceOwn& price_own) {
  const TakeOverMode mode = state.settings.take_over;
  if (mode == TakeOverMode::Copy) return copy;
  const InPlaceTerms terms = in_place_terms(state, caller_bytes, in_place, make_in_place, price_own);
  Prices prices;
  // The choice copies the prices and writes the note (allocations): agreed, so that a rank
  // short of memory sends every rank to ScaLAPACK instead of leaving them in the decision.
  mpi::run_agreed(state.context->comm, "price", [&] { prices = choose_take_over_route(mode, copy, terms); });
  if (prices.route != "in place" || !prices.no_route.empty()) in_place.reset();
  return prices;
}

}  // namespace hetscal::runtime
