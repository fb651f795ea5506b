#include "runtime/getrf_plan.hpp"

#include "core/error.hpp"
#include "layout/candidate_distribution.hpp"
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

}  // namespace

LuLayout choose_lu_layout(const core::Platform& platform, const core::Problem& problem,
                          const std::vector<core::LuLayoutKind>& kinds) {
  const auto m = static_cast<std::int64_t>(problem.rows());
  const auto n = static_cast<std::int64_t>(problem.n);
  if (problem.routine != core::Routine::LU) {
    throw InvalidArgument(std::string("hetscal: an LU layout needs an LU problem, not ") +
                          core::routine_name(problem.routine));
  }
  if (n < 1) throw InvalidArgument("hetscal: an LU layout needs N >= 1 columns");
  if (kinds.empty()) throw InvalidArgument("hetscal: an LU layout needs at least one kind of layout to choose from");
  core::LuPlanOptions options;
  options.kinds = kinds;
  const core::LuChoice choice = core::choose_lu_plan(platform, m, n, problem.caller, options);

  LuLayout plan;
  adopt_choice(plan, choice, platform.size());
  // The caller's layout is ScaLAPACK's own: nothing to build, the call is forwarded.
  if (!plan.keeps_caller_layout()) {
    plan.a = layout::distribution_of(choice.candidate, m, n, static_cast<int>(platform.size()));
    plan.options = kernel_options(choice.candidate, platform);
  }
  return plan;
}

}  // namespace hetscal::runtime
