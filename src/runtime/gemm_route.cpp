#include "runtime/gemm_route.hpp"

#include <complex>

#include "kernels/scalar.hpp"
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

bool replicated(const int* desc) {
  const layout::Descriptor d = layout::Descriptor::parse(desc);
  return d.rsrc == layout::kReplicated || d.csrc == layout::kReplicated;
}

// Features hetscal leaves to ScaLAPACK; empty when the call is supported.
template <typename T>
std::string unsupported(const GemmCall<T>& call) {
  if (call.alpha == T(0)) return "alpha = 0: only scales C";
  if (replicated(call.a.desc) || replicated(call.b.desc) || replicated(call.c.desc)) {
    return "a replicated operand (RSRC or CSRC = -1)";
  }
  return {};
}

// The block of the K dimension in the caller's op(A).
template <typename T>
std::int64_t caller_k_block(const GemmCall<T>& call) {
  const layout::Descriptor a = layout::Descriptor::parse(call.a.desc);
  return call.op_a == kernels::Op::NoTrans ? a.nb : a.mb;
}

template <typename T>
core::Problem gemm_problem(const mpi::ContextInfo& context, const GemmCall<T>& call) {
  core::Problem problem;
  problem.routine = core::Routine::Gemm;
  problem.m = static_cast<std::size_t>(call.m);
  problem.n = static_cast<std::size_t>(call.n);
  problem.k = static_cast<std::size_t>(call.k);
  problem.c_read = call.beta != T(0);
  problem.caller = caller_layout(context, call.c.desc, call.c.ia, call.c.ja);
  return problem;
}

// The plan of the call's shape, looked up (or made) on every rank; the ranks agree that it
// worked before anyone relies on it.
template <typename T>
std::shared_ptr<const GemmLayout> agreed_plan(ContextState& state, const GemmCall<T>& call) {
  const PlanKey key{{core::Routine::Gemm, scalar_type_of<T>()},
                    {call.m, call.n, call.k}, 0, state.speeds_version, {}};
  std::shared_ptr<const GemmLayout> plan;
  mpi::run_agreed(state.context->comm, "plan", [&] {
    mpi::fault_point(mpi::Stage::Plan);
    plan = state.plans.find_or_make<GemmLayout>(
        key, [&] { return plan_gemm_layout(state.speeds, call.m, call.n, call.k); });
  });
  return plan;
}

// What this rank's workspace must grow by to hold its part of op(A), op(B) and C.
template <typename T>
double workspace_growth(const ContextState& state, const GemmLayout& plan) {
  double bytes = 0.0;
  std::size_t slot = 0;
  for (const layout::CartesianDistribution* d : {plan.a.get(), plan.b.get(), plan.c.get()}) {
    const auto part = layout::make_local_layout(*d, state.context->my_rank);
    bytes += static_cast<double>(
        state.workspace.growth<T>(slot++, static_cast<std::size_t>(part->local_elements())));
  }
  return bytes;
}

}  // namespace

template <typename T>
TakeOverOutcome::Status gemm_route(const GemmCall<T>& call) {
  ContextState& state = context_state(call.c.desc[layout::field11::kCtxt - 1]);
  RoutedCall routed;
  routed.routine = {core::Routine::Gemm, scalar_type_of<T>()};
  routed.dims = {call.m, call.n, call.k};
  routed.unsupported = unsupported(call);
  routed.single_panel_update = routed.unsupported.empty() && call.k <= caller_k_block(call);
  std::shared_ptr<const GemmLayout> plan;
  routed.plan_and_price = [&](ContextState& agreed) -> std::optional<Prices> {
    plan = agreed_plan(agreed, call);
    report_once(agreed.verbosity, Verbosity::Once, agreed.is_root(),
                routed.routine.name() + " " + shape_text(routed.dims) + " plan: " + plan->description);
    const MachineFigures& machine = machine_figures(agreed);
    Prices prices = price_routes(machine.platform_for<T>(), gemm_problem(*agreed.context, call),
                                 plan->candidate);
    price_first_touch(prices, agreed.context->comm, workspace_growth<T>(agreed, *plan),
                      machine.fresh_memory_bytes_per_s);
    return prices;
  };
  routed.run = [&] { return run_planned_gemm(*state.context, *plan, call, state.workspace); };
  return route(state, routed);
}

#define HETSCAL_INSTANTIATE_GEMM_ROUTE(T) \
  template TakeOverOutcome::Status gemm_route<T>(const GemmCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_GEMM_ROUTE)
#undef HETSCAL_INSTANTIATE_GEMM_ROUTE

}  // namespace hetscal::runtime
