#include "runtime/gemm_route.hpp"

#include <complex>
#include <optional>

#include "kernels/scalar.hpp"
#include "layout/descriptor.hpp"
#include "runtime/context_state.hpp"
#include "runtime/in_place_gemm.hpp"
#include "runtime/memory_budget.hpp"
#include "runtime/planned_call.hpp"
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

  /// The copy route's prices; the in-place route instead under HETSCAL_TAKE_OVER=in-place, or
  /// under auto when the copy does not fit (the in-place route is not priced apart yet: the
  /// copy's prediction, moves included, stands for it, with its own first touch).
  Prices price(ContextState& state, const GemmLayout& plan) const {
    const double caller_bytes = operand_bytes<T>(*state.context, {call_.a.desc, call_.b.desc, call_.c.desc});
    Prices prices = agreed_prices<T>(state, problem_, plan.candidate,
                                     {plan.a.get(), plan.b.get(), plan.c.get()}, caller_bytes);
    const TakeOverMode mode = state.settings.take_over;
    if (mode == TakeOverMode::Copy || (mode == TakeOverMode::Auto && prices.no_route.empty())) return prices;
    const MachineFigures& machine = machine_figures(state);
    double needed = 0.0;
    CallMemory memory;
    mpi::run_agreed(state.context->comm, "price", [&] {
      in_place_.emplace(*state.context, call_, state.speeds.values);
      if (in_place_->problem().empty()) needed = in_place_->new_bytes(state.resources.workspace);
      memory = call_memory(state, machine, caller_bytes);  // reads /proc/meminfo: allocates
    });
    std::string why = in_place_->problem();  // global: the same on every rank
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
      in_place_.reset();
    }
    return prices;
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
  ContextState& state = context_state(call.c.desc[layout::field11::kCtxt - 1]);
  return route(state, [&] { return GemmRoute<T>(*state.context, call); }).status;
}

#define HETSCAL_INSTANTIATE_GEMM_ROUTE(T) \
  template TakeOverOutcome::Status gemm_route<T>(const GemmCall<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_GEMM_ROUTE)
#undef HETSCAL_INSTANTIATE_GEMM_ROUTE

}  // namespace hetscal::runtime
