#pragma once
/// @file factorization_route.hpp
/// The part of the route (route.hpp) the intercepted factorizations share, whatever their
/// planner and kernel: the plan of the call's shape, layout kinds, speeds and caller layout,
/// looked up (or made) on every rank and agreed; both routes priced, the first touch of the
/// planned copy included; the planned computation run through the take-over sequence;
/// ScaLAPACK's INFO returned. What is a routine's own is found by its routine and types: its
/// configured layout kinds (AgreedSettings::layouts_for), its planner (plan_layout below) and
/// its planned computation (the run_planned overload of its call: planned_getrf.hpp,
/// planned_geqrf.hpp, planned_potrf.hpp).
#include <cstdint>
#include <memory>
#include <vector>

#include "layout/descriptor.hpp"
#include "runtime/context_state.hpp"
#include "runtime/geqrf_plan.hpp"
#include "runtime/getrf_plan.hpp"
#include "runtime/potrf_plan.hpp"
#include "runtime/planned_call.hpp"
#include "runtime/pricing.hpp"
#include "runtime/report.hpp"
#include "runtime/route.hpp"
#include "runtime/route_choice.hpp"

namespace hetscal::runtime {

/// How an intercepted factorization call ended.
struct FactorizationOutcome {
  TakeOverOutcome::Status status = TakeOverOutcome::Status::Forward;
  int info = 0;  ///< when Computed: ScaLAPACK's INFO (0 or > 0), the same on every rank
};

/// The planner of problem.routine (LU or QR), among `kinds`, pricing this rank's slice.
inline LuLayout plan_layout(const core::Platform& platform, const core::Problem& problem,
                            const std::vector<core::LuLayoutKind>& kinds, const core::PricingSlice& slice) {
  return problem.routine == core::Routine::QR ? choose_qr_layout(platform, problem, kinds, slice)
                                              : choose_lu_layout(platform, problem, kinds, slice);
}

/// The Cholesky planner, among `kinds`, pricing this rank's slice.
inline CholeskyLayout plan_layout(const core::Platform& platform, const core::Problem& problem,
                                  const std::vector<core::CholeskyLayoutKind>& kinds,
                                  const core::PricingSlice& slice) {
  return choose_cholesky_layout(platform, problem, kinds, slice);
}

/// One factorization call of `routine` planned as a Layout, as route() drives it.
template <typename T, typename Call, typename Layout>
class FactorizationRoute {
 public:
  using Kind = decltype(Layout::kind);

  /// @param m,n sub(A)'s rows and columns (Cholesky: N, N).
  /// @param in_place whether the routine has an in-place route (the routine's own part of
  ///        the route prices it: potrf_route.cpp), which changes how it is planned.
  FactorizationRoute(core::Routine routine, const ContextState& state, const Call& call, std::int64_t m,
                     std::int64_t n, InPlaceRoute in_place = InPlaceRoute::None)
      : routine_(routine),
        call_(call),
        m_(m),
        n_(n),
        kinds_(planned_kinds(routine, state.settings)),
        in_place_(in_place) {
    problem_.routine = routine;
    problem_.m = static_cast<std::size_t>(m);
    problem_.n = static_cast<std::size_t>(n);
    problem_.caller = caller_layout(*state.context, call.a.desc, call.a.ia, call.a.ja);
  }

  /// The report shows N for a Cholesky, M×N for the others.
  RoutedCall facts() const {
    RoutedCall facts;
    facts.routine = {routine_, scalar_type_of<T>()};
    facts.dims = routine_ == core::Routine::Cholesky ? std::vector<std::int64_t>{n_}
                                                             : std::vector<std::int64_t>{m_, n_};
    return facts;
  }

  /// The plan's key holds the layout kinds and the caller's layout, not UPLO or any other
  /// option: the model prices the variants alike.
  std::shared_ptr<const Layout> plan(ContextState& state) const {
    const MachineFigures& machine = machine_figures(state);
    // The key, the platform and the plan are made inside the agreed stages: each allocates.
    // The pricing is split over the context's ranks (each prices its slice of the candidates).
    auto plan = agreed_split_plan<Layout>(
        state,
        [&] {
          return PlanKey{facts().routine, {m_, n_, 0}, kinds_bits(), state.speeds.version,
                         caller_layout_key(problem_.caller)};
        },
        [&](const core::PricingSlice& slice) {
          return plan_layout(planning_platform(machine.platform_for<T>(), in_place_, state.settings.take_over),
                             problem_, kinds_, slice);
        });
    report_quietly([&] {
      report_once(state.verbosity, Verbosity::Once, state.is_root(),
                  facts().routine.name() + " " + shape_text(facts().dims) + " plan: " + plan->description +
                      " (machine: " + machine.text() + ")");
    });
    return plan;
  }

  Prices price(ContextState& state, const Layout& plan) const {
    return agreed_prices<T>(state, problem_, plan.candidate, {plan.a.get()},
                            operand_bytes<T>(*state.context, {call_.a.desc}));
  }

  TakeOverOutcome run(ContextState& state, const Layout& plan) const {
    return run_planned(*state.context, plan, call_, state.resources.workspace);
  }

  /// The routine, its shape and the caller's layout, as the time model prices them.
  const core::Problem& problem() const { return problem_; }

 private:
  // The kinds the planner chooses from: the configured ones, without the caller's own under
  // HETSCAL_FORCE (which must run hetscal's path).
  static std::vector<Kind> planned_kinds(core::Routine routine, const AgreedSettings& settings) {
    std::vector<Kind> kinds;
    for (Kind kind : settings.layouts_for<Kind>(routine))
      if (!(settings.force && kind == Kind::CallerLayout)) kinds.push_back(kind);
    return kinds;
  }

  // The kinds as a set of bits, for the plan key.
  int kinds_bits() const {
    int bits = 0;
    for (Kind kind : kinds_) bits |= 1 << static_cast<int>(kind);
    return bits;
  }

  core::Routine routine_;
  const Call& call_;
  std::int64_t m_, n_;
  std::vector<Kind> kinds_;
  InPlaceRoute in_place_;
  core::Problem problem_;
};

}  // namespace hetscal::runtime
