#pragma once
/// @file planned_call.hpp
/// The pieces every routine's part of the route (route.hpp) shares: its plan looked up or
/// made on every rank and agreed, and both routes priced and agreed, the first touch of the
/// planned copies included. Each ends in an agreement, so a rank that fails alone (memory,
/// above all) sends every rank to ScaLAPACK.
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/time_models/time_model.hpp"
#include "layout/block_cyclic.hpp"
#include "layout/descriptor.hpp"
#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/agreement.hpp"
#include "mpi/fault_injection.hpp"
#include "mpi/pricing_split.hpp"
#include "runtime/memory_budget.hpp"
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

/// The plan of the key `make_key()` returns, as agreed_plan, made by `make(slice)`: a planner
/// whose pricing is split over the context's ranks (mpi/pricing_split.hpp), so collective.
/// Two agreed stages: the key and the cache lookup first, where an injected fault or a rank
/// that fails stops every rank before any planning; then, only when the cache does not hold
/// the key (on every rank alike: the caches stay equal), the planner on every rank, each
/// pricing its slice. When that fails anywhere, every rank drops the key unless every rank
/// remembers it as refused, so that the caches stay equal and a later call of the shape plans
/// on every rank or on none.
/// @throws mpi::StageFailed on every rank when any rank failed (a refused key included).
template <typename Plan, typename MakeKey, typename Make>
std::shared_ptr<const Plan> agreed_split_plan(ContextState& state, const MakeKey& make_key, const Make& make) {
  const MPI_Comm comm = state.context->comm;
  PlanCache& plans = state.resources.plans;
  std::shared_ptr<const Plan> plan;
  std::optional<PlanKey> key;
  bool cached = false;
  mpi::run_agreed(comm, "plan", [&] {
    mpi::fault_point(mpi::Stage::Plan);
    key.emplace(make_key());
    cached = plans.holds(*key);
    if (cached) plan = plans.find_or_make<Plan>(*key, nullptr);  // the plan, or its refusal
  });
  if (cached) return plan;
  try {
    // The local part communicates (the pricing's MINLOC), on every rank alike.
    mpi::run_agreed(comm, "plan", [&] {
      plan = plans.find_or_make<Plan>(*key, [&] { return mpi::planned_over(comm, make); });
    });
  } catch (const mpi::StageFailed&) {
    if (!mpi::on_every_rank(comm, plans.refuses(*key))) plans.forget(*key);
    throw;
  }
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

/// Bytes of this rank's local arrays of the operands `descs` (LLD × LOCc(N) each): what the
/// caller's own operands occupy here.
template <typename T>
double operand_bytes(const mpi::ContextInfo& context, std::initializer_list<layout::Descriptor> descs) {
  double bytes = 0.0;
  for (const layout::Descriptor& d : descs) {
    bytes += static_cast<double>(d.lld) *
             static_cast<double>(layout::local_extent(d.col_axis(context.npcol), context.mycol)) * sizeof(T);
  }
  return bytes;
}

/// What this rank may newly allocate for a call (runtime/memory_budget.hpp), and what bounds
/// it, for the reasons: "HETSCAL_MEMORY" or "MemAvailable".
struct CallMemory {
  std::optional<double> allowed;  ///< nothing: no known limit
  std::string limit;
};

/// @param caller_bytes this rank's local arrays of the call's operands (operand_bytes). Local.
CallMemory call_memory(ContextState& state, const MachineFigures& machine, double caller_bytes);

/// Why the copy route of a call cannot run, or "": HETSCAL_TAKE_OVER=in-place, or the planned
/// copies and their message buffers would not fit in the memory a rank may newly allocate.
/// Collective (one reduction); every rank returns the same.
/// @param growth_bytes what this rank's planned copies must grow by.
/// @param planned_bytes this rank's planned copies in all.
/// @param caller_bytes this rank's local arrays of the call's operands.
std::string copy_route_problem(ContextState& state, const CallMemory& memory, double growth_bytes,
                               double planned_bytes, double caller_bytes);

/// Both routes of a call of scalar type T priced on the context's machine (measured on its
/// first need): ScaLAPACK on the caller's layout against `candidate` with the moves, plus the
/// first touch of what this rank's workspace must grow by to hold its parts of `planned`
/// (buffer i for planned[i], as the take-over uses them), and whether that route fits in
/// memory (Prices::no_route). Collective; the ranks agree that the local pricing worked
/// before the reductions.
/// @param caller_bytes this rank's local arrays of the call's operands (operand_bytes).
/// @throws mpi::StageFailed on every rank when any rank failed.
/// `planned` is a list, not a vector: building it allocates nothing outside the agreed stage.
template <typename T>
Prices agreed_prices(ContextState& state, const core::Problem& problem, const core::Candidate& candidate,
                     std::initializer_list<const layout::Distribution*> planned, double caller_bytes) {
  const MachineFigures& machine = machine_figures(state);
  Prices prices;
  double growth_bytes = 0.0, planned_bytes = 0.0;
  CallMemory memory;
  mpi::run_agreed(state.context->comm, "price", [&] {
    // Reads /proc/meminfo through a file buffer: an allocation, so inside the agreed stage.
    memory = call_memory(state, machine, caller_bytes);
    prices = price_routes(machine.platform_for<T>(), problem, candidate);
    for (std::size_t slot = 0; slot < planned.size(); ++slot) {
      const auto part = layout::make_local_layout(*planned.begin()[slot], state.context->my_rank);
      const auto elements = static_cast<std::size_t>(part->local_elements());
      growth_bytes += static_cast<double>(state.resources.workspace.growth<T>(slot, elements));
      planned_bytes += static_cast<double>(elements * sizeof(T));
    }
  });
  price_first_touch(prices, state.context->comm, growth_bytes, machine.fresh_memory_bytes_per_s);
  prices.no_route = copy_route_problem(state, memory, growth_bytes, planned_bytes, caller_bytes);
  return prices;
}

}  // namespace hetscal::runtime
