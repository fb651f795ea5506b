#include "runtime/getrf_plan.hpp"

#include <string>

#include "core/common/error.hpp"
#include "layout/candidate_distribution.hpp"
#include "runtime/geqrf_plan.hpp"
#include "runtime/plan_description.hpp"

namespace hetscal::runtime {
namespace {

/// The kernel's options for the panel rank the model priced; Fastest ranks by the
/// platform's speeds (processor i = rank i).
kernels::LuOptions kernel_options(const core::Candidate& chosen, const core::Platform& platform) {
  kernels::LuOptions options;
  if (chosen.panel_rank == core::PanelRank::Fastest) {
    options.panel_rank = kernels::LuPanelRank::Fastest;
    for (const core::Processor& p : platform.processors) options.rank_speeds.push_back(p.speed_flops);
  }
  return options;
}

/// The layout of an LU or a QR (the same families and panel-rank choice; `plan` prices them
/// with the routine's step model). `routine` names the call in messages ("an LU layout").
template <typename Planner>
LuLayout choose_factorization_layout(const core::Platform& platform, const core::Problem& problem,
                                     const std::vector<core::LuLayoutKind>& kinds, core::Routine routine,
                                     const std::string& what, Planner plan_choice,
                                     const core::PricingSlice& slice) {
  const auto m = static_cast<std::int64_t>(problem.rows());
  const auto n = static_cast<std::int64_t>(problem.n);
  if (problem.routine != routine) {
    throw InvalidArgument("hetscal: " + what + " is for " + core::routine_name(routine) + " problems, not " +
                          core::routine_name(problem.routine));
  }
  if (n < 1) throw InvalidArgument("hetscal: " + what + " needs N >= 1 columns");
  if (kinds.empty()) throw InvalidArgument("hetscal: " + what + " needs at least one kind of layout to choose from");
  core::LuPlanOptions options;
  options.kinds = kinds;
  options.search.slice = slice;
  const core::LuChoice choice = plan_choice(platform, m, n, problem.caller, options);

  LuLayout plan;
  adopt_choice(plan, choice, platform.size());
  // The caller's layout is ScaLAPACK's own: nothing to build, the call is forwarded.
  if (!plan.keeps_caller_layout()) {
    plan.a = layout::distribution_of(choice.candidate, m, n, static_cast<int>(platform.size()));
    plan.options = kernel_options(choice.candidate, platform);
  }
  return plan;
}

}  // namespace

LuLayout choose_lu_layout(const core::Platform& platform, const core::Problem& problem,
                          const std::vector<core::LuLayoutKind>& kinds, const core::PricingSlice& slice) {
  return choose_factorization_layout(platform, problem, kinds, core::Routine::LU, "an LU layout",
                                     core::choose_lu_plan, slice);
}

LuLayout choose_qr_layout(const core::Platform& platform, const core::Problem& problem,
                          const std::vector<core::LuLayoutKind>& kinds, const core::PricingSlice& slice) {
  return choose_factorization_layout(platform, problem, kinds, core::Routine::QR, "a QR layout",
                                     core::choose_qr_plan, slice);
}

}  // namespace hetscal::runtime
