#pragma once
/// @file planned_call.hpp
/// The pieces every routine's part of the route (route.hpp) shares: its plan looked up or
/// made on every rank and agreed, and both routes priced and agreed, the first touch of the
/// planned copies included. Each ends in an agreement, so a rank that fails alone (memory,
/// above all) sends every rank to ScaLAPACK.
#include <initializer_list>
#include <memory>
#include <vector>

#include "core/time_models/time_model.hpp"
#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/agreement.hpp"
#include "mpi/fault_injection.hpp"
#include "runtime/context_state.hpp"
#include "runtime/decision.hpp"
#include "runtime/plan_cache.hpp"
#include "runtime/pricing.hpp"

namespace hetscal::runtime {

/// The plan of the key `make_key()` returns, looked up in the context's cache or made by
/// `make()` (deterministic: the same plan on every rank). Collective: the ranks agree that it
/// worked (the key's and the plan's allocations included) before anyone relies on it.
/// @throws mpi::StageFailed on every rank when any rank failed (a refused key included).
template <typename Plan, typename MakeKey, typename Make>
std::shared_ptr<const Plan> agreed_plan(ContextState& state, const MakeKey& make_key, const Make& make) {
  std::shared_ptr<const Plan> plan;
  mpi::run_agreed(state.context->comm, "plan", [&] {
    mpi::fault_point(mpi::Stage::Plan);
    plan = state.resources.plans.find_or_make<Plan>(make_key(), make);
  });
  return plan;
}

/// Runs `report` (which builds and prints a line), losing the line if memory fails: a report
/// must never make one rank leave the route alone.
template <typename Report>
void report_quietly(const Report& report) noexcept {
  try {
    report();
  } catch (const std::exception&) {
  }
}

/// Both routes of a call of scalar type T priced on the context's machine (measured on its
/// first need): ScaLAPACK on the caller's layout against `candidate` with the moves, plus the
/// first touch of what this rank's workspace must grow by to hold its parts of `planned`
/// (buffer i for planned[i], as the take-over uses them). Collective; the ranks agree that the
/// local pricing worked before the first touch's reduction.
/// @throws mpi::StageFailed on every rank when any rank failed.
/// `planned` is a list, not a vector: building it allocates nothing outside the agreed stage.
template <typename T>
Prices agreed_prices(ContextState& state, const core::Problem& problem, const core::Candidate& candidate,
                     std::initializer_list<const layout::Distribution*> planned) {
  const MachineFigures& machine = machine_figures(state);
  Prices prices;
  double growth_bytes = 0.0;
  mpi::run_agreed(state.context->comm, "price", [&] {
    prices = price_routes(machine.platform_for<T>(), problem, candidate);
    for (std::size_t slot = 0; slot < planned.size(); ++slot) {
      const auto part = layout::make_local_layout(*planned.begin()[slot], state.context->my_rank);
      growth_bytes += static_cast<double>(
          state.resources.workspace.growth<T>(slot, static_cast<std::size_t>(part->local_elements())));
    }
  });
  price_first_touch(prices, state.context->comm, growth_bytes, machine.fresh_memory_bytes_per_s);
  return prices;
}

}  // namespace hetscal::runtime
