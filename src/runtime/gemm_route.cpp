#include "runtime/gemm_route.hpp"

#include <algorithm>
#include <complex>
#include <optional>

#include "core/time_models/time_model_steps.hpp"
#include "kernels/scalar.hpp"
#include "layout/descriptor.hpp"
#include "runtime/context_state.hpp"
#include "runtime/in_place_gemm.hpp"
#include "runtime/in_place_pricing.hpp"
#include "runtime/planned_call.hpp"
#include "runtime/pricing.hpp"
#include "runtime/report.hpp"
#include "runtime/route.hpp"

namespace hetscal::runtime {
namespace {

bool replicated(const layout::Descriptor& d) {
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
  return call.op_a == kernels::Op::NoTrans ? call.a.desc.nb : call.a.desc.mb;
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

// The seconds the slowest rank of a grid computes its share of C for, per unit of work: its
// rows times columns over its speed (GEMM's flops are proportional to C's elements).
double slowest_share(const GridLoad& load) {
  double slowest = 0.0;
  for (std::size_t i = 0; i < load.rows.size(); ++i)
    for (std::size_t j = 0; j < load.cols.size(); ++j)
      slowest = std::max(slowest, static_cast<double>(load.rows[i] * load.cols[j]) /
                                      load.speed[i * load.cols.size() + j]);
  return slowest;
}

// The in-place steps over the copy plan's, as far as the model knows them (route_choice.hpp):
// the slowest rank's share of C in place over its share in the plan (both in absolute terms,
// so that a plan leaving slow ranks idle compares alike), times the kernel's rate at the
// plan's tile over its rate at the caller's K block (the in-place updates' inner dimension).
template <typename T>
double steps_factor(const GemmLayout& plan, const InPlaceGemm<T>& in_place, const std::vector<double>& speeds,
                    const core::KernelRate& kernel) {
  const double balance = slowest_share(in_place.load(speeds)) / slowest_share(plan.load);
  const double rate = kernel.efficiency(static_cast<double>(plan.tile)) /
                      kernel.efficiency(static_cast<double>(in_place.k_block()));
  return balance * rate;
}

// The surplus of C moved in (only when C is read) and back out, on the network model that
// prices the copy route's moves (core::redistribution_time).
template <typename T>
double surplus_moves_s(const InPlaceGemm<T>& in_place, const core::Network& network, bool c_read) {
  const SurplusElements elements = in_place.surplus();
  return (c_read ? 2.0 : 1.0) * core::redistribution_time(network, elements.held, elements.planned, elements.kept);
}

// One PxGEMM call, as route() drives it.
template <typename T>
class GemmRoute {
 public:
  /// Made inside the route's "decision" stage: what it allocates (the problem's caller
  /// layout) is agreed there, not in the pricing's set-up where one rank could fail alone.
  GemmRoute(const mpi::ContextInfo& context, const GemmCall<T>& call)
      : call_(call), problem_(gemm_problem(context, call)) {}

  RoutedCall facts() const {
    RoutedCall facts;
    facts.routine = {core::Routine::Gemm, scalar_type_of<T>()};
    facts.dims = {call_.m, call_.n, call_.k};
    facts.unsupported = unsupported(call_);
    facts.single_panel_update = facts.unsupported.empty() && call_.k <= caller_k_block(call_);
    return facts;
  }

  std::shared_ptr<const GemmLayout> plan(ContextState& state) const {
    // Collective when not yet measured: taken on every rank before the plan's agreed stage.
    const MachineFigures& machine = machine_figures(state);
    auto plan = agreed_plan<GemmLayout>(
        state, [&] { return PlanKey{facts().routine, {call_.m, call_.n, call_.k}, 0, state.speeds.version, {}}; },
        [&] {
          return plan_gemm_layout(state.speeds.values, call_.m, call_.n, call_.k, 0, machine.kernel());
        });
    report_quietly([&] {
      report_once(state.verbosity, Verbosity::Once, state.is_root(),
                  facts().routine.name() + " " + shape_text(facts().dims) + " plan: " + plan->description +
                      " (machine: " + machine.text() + ")");
    });
    return plan;
  }

  /// The route the call takes and its prices (in_place_pricing.hpp): the copy route, priced
  /// by agreed_prices; unless HETSCAL_TAKE_OVER=copy, the in-place route priced apart, and
  /// under auto whichever fits and is cheaper.
  Prices price(ContextState& state, const GemmLayout& plan) const {
    const double caller_bytes = operand_bytes<T>(*state.context, {call_.a.desc, call_.b.desc, call_.c.desc});
    const Prices copy = agreed_prices<T>(state, problem_, plan.candidate, {plan.a.get(), plan.b.get(), plan.c.get()},
                                         caller_bytes);
    const MachineFigures& machine = machine_figures(state);
    return choose_take_over_route(
        state, copy, caller_bytes, in_place_, [&] { in_place_.emplace(*state.context, call_, state.speeds.values); },
        [&](const InPlaceGemm<T>& in_place, InPlaceTerms& terms) {
          terms.moves_s = surplus_moves_s(in_place, machine.platform_for<T>().network, call_.beta != T(0));
          terms.steps_factor = steps_factor(plan, in_place, state.speeds.values, machine.kernel());
        });
  }

  TakeOverOutcome run(ContextState& state, const GemmLayout& plan) const {
    if (in_place_) return in_place_->run(state.resources.workspace);
    return run_planned(*state.context, plan, call_, state.resources.workspace);
  }

 private:
  const GemmCall<T>& call_;
  core::Problem problem_;
  /// The in-place route, when price() chose it.
  mutable std::optional<InPlaceGemm<T>> in_place_;
};

}  // namespace

template <typename T>
TakeOverOutcome::Status gemm_route(const GemmCall<T>& call) {
  ContextState& state = context_state(call.c.desc.context);
  const CallSizes sizes{{core::Routine::Gemm, scalar_type_of<T>()}, {call.m, call.n, call.k}, 3};
  return route(state, sizes, [&] { return GemmRoute<T>(*state.context, call); }).status;
}

#define HETSCAL_INSTANTIATE_GEMM_ROUTE(T) \
  template TakeOverOutcome::Status gemm_route<T>(const GemmCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_GEMM_ROUTE)
#undef HETSCAL_INSTANTIATE_GEMM_ROUTE

}  // namespace hetscal::runtime
