#include "runtime/potrf_route.hpp"

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
namespace {

template <typename T>
core::Problem cholesky_problem(const mpi::ContextInfo& context, const PotrfCall<T>& call) {
  core::Problem problem;
  problem.routine = core::Routine::Cholesky;
  problem.n = static_cast<std::size_t>(call.n);
  problem.caller = caller_layout(context, call.a.desc, call.a.ia, call.a.ja);
  return problem;
}

// The kinds of layout the planner chooses from: HETSCAL_CHOLESKY_LAYOUTS', without the
// caller's own under HETSCAL_FORCE (which must run hetscal's path).
std::vector<core::CholeskyLayoutKind> planned_kinds(const ContextState& state) {
  std::vector<core::CholeskyLayoutKind> kinds;
  for (core::CholeskyLayoutKind kind : state.cholesky_layouts)
    if (!(state.force && kind == core::CholeskyLayoutKind::CallerLayout)) kinds.push_back(kind);
  return kinds;
}

// The kinds as a set of bits, for the plan key.
int kinds_bits(const std::vector<core::CholeskyLayoutKind>& kinds) {
  int bits = 0;
  for (core::CholeskyLayoutKind kind : kinds) bits |= 1 << static_cast<int>(kind);
  return bits;
}

// The plan of the call's order, caller layout and layout kinds, looked up (or made) on every
// rank; the ranks agree that it worked before anyone relies on it. UPLO is not in the key:
// the model prices both triangles alike.
template <typename T>
std::shared_ptr<const CholeskyLayout> agreed_plan(ContextState& state, const PotrfCall<T>& call,
                                                  const core::Platform& platform,
                                                  const core::Problem& problem) {
  const std::vector<core::CholeskyLayoutKind> kinds = planned_kinds(state);
  const PlanKey key{{core::Routine::Cholesky, scalar_type_of<T>()},
                    {call.n, call.n, 0},
                    kinds_bits(kinds),
                    state.speeds_version,
                    caller_layout_key(problem.caller)};
  std::shared_ptr<const CholeskyLayout> plan;
  mpi::run_agreed(state.context->comm, "plan", [&] {
    mpi::fault_point(mpi::Stage::Plan);
    plan = state.plans.find_or_make<CholeskyLayout>(
        key, [&] { return choose_cholesky_layout(platform, problem, kinds); });
  });
  return plan;
}

// What this rank's workspace must grow by to hold its part of the planned sub(A).
template <typename T>
double workspace_growth(const ContextState& state, const CholeskyLayout& plan) {
  const auto part = layout::make_local_layout(*plan.a, state.context->my_rank);
  return static_cast<double>(
      state.workspace.growth<T>(0, static_cast<std::size_t>(part->local_elements())));
}

}  // namespace

template <typename T>
PotrfOutcome potrf_route(const PotrfCall<T>& call) {
  ContextState& state = context_state(call.a.desc[layout::field9::kCtxt - 1]);
  RoutedCall routed;
  routed.routine = {core::Routine::Cholesky, scalar_type_of<T>()};
  routed.dims = {call.n};
  std::shared_ptr<const CholeskyLayout> plan;
  routed.plan_and_price = [&](ContextState& agreed) -> std::optional<Prices> {
    const MachineFigures& machine = machine_figures(agreed);
    const core::Platform platform = machine.platform();
    const core::Problem problem = cholesky_problem(*agreed.context, call);
    plan = agreed_plan(agreed, call, platform, problem);
    report_once(agreed.verbosity, Verbosity::Once, agreed.is_root(),
                routed.routine.name() + " " + shape_text(routed.dims) + " plan: " + plan->description +
                    " (machine: " + machine.text() + ")");
    // Every rank holds the same plan, so every rank forwards alike (decide() says why).
    if (plan->keeps_caller_layout()) {
      throw InvalidArgument("ScaLAPACK's own layout is predicted fastest (" + plan->description + ")");
    }
    Prices prices = price_routes(platform, problem, plan->candidate);
    prices.heterogeneous_s += first_touch_seconds(agreed.context->comm,
                                                  workspace_growth<T>(agreed, *plan),
                                                  machine.fresh_memory_bytes_per_s);
    return prices;
  };
  int info = 0;
  routed.run = [&] {
    TakeOverOutcome outcome = run_planned_potrf(*state.context, *plan, call, state.workspace);
    info = outcome.info;
    return outcome;
  };
  const TakeOverOutcome::Status status = route(state, routed);
  return {status, status == TakeOverOutcome::Status::Computed ? info : 0};
}

template PotrfOutcome potrf_route<float>(const PotrfCall<float>&);
template PotrfOutcome potrf_route<double>(const PotrfCall<double>&);

}  // namespace hetscal::runtime
