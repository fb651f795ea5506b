#include "runtime/potrf_plan.hpp"

#include "core/common/error.hpp"
#include "layout/candidate_distribution.hpp"
#include "runtime/plan_description.hpp"

namespace hetscal::runtime {

CholeskyLayout choose_cholesky_layout(const core::Platform& platform, const core::Problem& problem,
                                      const std::vector<core::CholeskyLayoutKind>& kinds,
                                      const core::PricingSlice& slice) {
  const auto n = static_cast<std::int64_t>(problem.n);
  if (problem.routine != core::Routine::Cholesky || n < 1) {
    throw InvalidArgument("hetscal: a Cholesky layout needs a Cholesky problem of order >= 1");
  }
  core::CholeskyPlanOptions options;
  options.kinds = kinds;
  options.search.slice = slice;
  const core::CholeskyChoice choice = core::choose_cholesky_plan(platform, n, problem.caller, options);

  CholeskyLayout plan;
  adopt_choice(plan, choice, platform.size());
  // The caller's layout is ScaLAPACK's own: nothing to build, the call is forwarded.
  if (!plan.keeps_caller_layout()) {
    plan.a = layout::distribution_of(choice.candidate, n, static_cast<int>(platform.size()));
  }
  return plan;
}

}  // namespace hetscal::runtime
