#pragma once
/// @file factorization_route.hpp
/// The route the intercepted factorizations (PxPOTRF, PxGETRF) share, whatever their planner
/// and kernel: the plan of the call's shape, layout kinds, speeds and caller layout, looked up
/// (or made) on every rank and agreed; ScaLAPACK's own layout forwarded when the planner
/// predicts it fastest; both routes priced, the first touch of the planned copy included;
/// the planned computation run through the take-over sequence; ScaLAPACK's INFO returned.
/// A routine supplies its configured layout kinds, its planner and its planned computation.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/error.hpp"
#include "layout/descriptor.hpp"
#include "layout/local_storage.hpp"
#include "mpi/agreement.hpp"
#include "mpi/fault_injection.hpp"
#include "runtime/context_state.hpp"
#include "runtime/pricing.hpp"
#include "runtime/report.hpp"
#include "runtime/route.hpp"

namespace hetscal::runtime {

/// How an intercepted factorization call ended.
struct FactorizationOutcome {
  TakeOverOutcome::Status status = TakeOverOutcome::Status::Forward;
  int info = 0;  ///< when Computed: ScaLAPACK's INFO (0 or > 0), the same on every rank
};

namespace detail {

// The layout kinds a planner chooses from: the configured ones, without the caller's own
// under HETSCAL_FORCE (which must run hetscal's path).
template <typename Kind>
std::vector<Kind> planned_kinds(const std::vector<Kind>& configured, bool force) {
  std::vector<Kind> kinds;
  for (Kind kind : configured)
    if (!(force && kind == Kind::CallerLayout)) kinds.push_back(kind);
  return kinds;
}

// The kinds as a set of bits, for the plan key.
template <typename Kind>
int kinds_bits(const std::vector<Kind>& kinds) {
  int bits = 0;
  for (Kind kind : kinds) bits |= 1 << static_cast<int>(kind);
  return bits;
}

// What this rank's workspace must grow by to hold its part of the planned sub(A).
template <typename T>
double workspace_growth(const ContextState& state, const layout::Distribution& planned) {
  const auto part = layout::make_local_layout(planned, state.context->my_rank);
  return static_cast<double>(
      state.workspace.growth<T>(0, static_cast<std::size_t>(part->local_elements())));
}

// The plan of `key`, looked up (or made by `choose`) on every rank; the ranks agree that it
// worked before anyone relies on it.
template <typename Layout>
std::shared_ptr<const Layout> agreed_plan(ContextState& state, const PlanKey& key,
                                          const std::function<Layout()>& choose) {
  std::shared_ptr<const Layout> plan;
  mpi::run_agreed(state.context->comm, "plan", [&] {
    mpi::fault_point(mpi::Stage::Plan);
    plan = state.plans.find_or_make<Layout>(key, choose);
  });
  return plan;
}

}  // namespace detail

/// Decides, runs and reports one factorization call. Collective over the call's context.
/// @param routine the algorithm (Cholesky or LU); T gives the precision.
/// @param m,n sub(A)'s rows and columns (Cholesky: N, N); the report shows N, or M×N.
/// @param call the routine's call; call.a is sub(A) as the caller passed it.
/// @param configured_kinds the context's configured layout kinds for this routine
///        (HETSCAL_CHOLESKY_LAYOUTS, HETSCAL_LU_LAYOUTS); the plan's key holds them, and not
///        UPLO or any other option: the model prices the variants alike.
/// @param planner the routine's planner (choose_cholesky_layout, choose_lu_layout).
/// @param run the planned computation through the take-over sequence (outcome.info: INFO).
/// @pre the call passed its routine's argument checks on every rank; M, N >= 1.
/// @return Computed (sub(A) holds the factors, info ScaLAPACK's INFO), Forward (sub(A)
///         untouched: call ScaLAPACK) or FailedAfterWrite (sub(A) lost).
template <typename T, typename Call, typename Layout, typename Kind>
FactorizationOutcome route_factorization(
    core::Routine routine, std::int64_t m, std::int64_t n, const Call& call,
    std::vector<Kind> ContextState::*configured_kinds,
    Layout (*planner)(const core::Platform&, const core::Problem&, const std::vector<Kind>&),
    TakeOverOutcome (*run)(const mpi::ContextInfo&, const Layout&, const Call&, Workspace&)) {
  ContextState& state = context_state(call.a.desc[layout::field9::kCtxt - 1]);
  const std::vector<Kind> kinds = detail::planned_kinds(state.*configured_kinds, state.force);
  core::Problem problem;
  problem.routine = routine;
  problem.m = static_cast<std::size_t>(m);
  problem.n = static_cast<std::size_t>(n);
  problem.caller = caller_layout(*state.context, call.a.desc, call.a.ia, call.a.ja);
  RoutedCall routed;
  routed.routine = {routine, scalar_type_of<T>()};
  routed.dims = routine == core::Routine::Cholesky ? std::vector<std::int64_t>{n}
                                                   : std::vector<std::int64_t>{m, n};
  std::shared_ptr<const Layout> plan;
  routed.plan_and_price = [&](ContextState& agreed) -> std::optional<Prices> {
    const MachineFigures& machine = machine_figures(agreed);
    const core::Platform platform = machine.platform_for<T>();
    const PlanKey key{routed.routine, {m, n, 0}, detail::kinds_bits(kinds), agreed.speeds_version,
                      caller_layout_key(problem.caller)};
    plan = detail::agreed_plan<Layout>(agreed, key, [&] { return planner(platform, problem, kinds); });
    report_once(agreed.verbosity, Verbosity::Once, agreed.is_root(),
                routed.routine.name() + " " + shape_text(routed.dims) + " plan: " +
                    plan->description + " (machine: " + machine.text() + ")");
    // Every rank holds the same plan, so every rank forwards alike (decide() says why).
    if (plan->keeps_caller_layout()) {
      throw InvalidArgument("ScaLAPACK's own layout is predicted fastest (" + plan->description + ")");
    }
    Prices prices = price_routes(platform, problem, plan->candidate);
    price_first_touch(prices, agreed.context->comm, detail::workspace_growth<T>(agreed, *plan->a),
                      machine.fresh_memory_bytes_per_s);
    return prices;
  };
  int info = 0;
  routed.run = [&] {
    TakeOverOutcome outcome = run(*state.context, *plan, call, state.workspace);
    info = outcome.info;
    return outcome;
  };
  const TakeOverOutcome::Status status = route(state, routed);
  return {status, status == TakeOverOutcome::Status::Computed ? info : 0};
}

}  // namespace hetscal::runtime
