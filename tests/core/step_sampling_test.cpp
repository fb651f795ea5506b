// Sampled step sequences (core/time_models/step_sampling.hpp): the strata cover every step once,
// and a sampled sum stays close to the full one (within 2 %), on a synthetic cost and across the
// threshold of the LU, QR, GEMM and Cholesky step models; the search's coarse budget stays
// within half its margin of the full sampling.
#include "core/time_models/step_sampling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/planners/candidate_search.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/time_models/lu_steps.hpp"
#include "core/time_models/qr_steps.hpp"
#include "core/time_models/time_model.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

TEST(StepSampling, ShortSequencesAreWalkedWhole) {
  const auto steps = sampled_steps(10, 5);
  ASSERT_EQ(steps.size(), 10u);
  for (std::size_t k = 0; k < 10; ++k) {
    EXPECT_EQ(steps[k].step, k);
    EXPECT_EQ(steps[k].weight, 1.0);
  }
}

TEST(StepSampling, OneStepPerStratumWeightsSumToTheSteps) {
  const std::size_t total = 15625;
  const auto steps = sampled_steps(total, kSampledSteps);
  ASSERT_EQ(steps.size(), kSampledSteps);
  double weight = 0.0;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const std::size_t first = s * total / kSampledSteps, end = (s + 1) * total / kSampledSteps;
    EXPECT_GE(steps[s].step, first);
    EXPECT_LT(steps[s].step, end);
    EXPECT_EQ(steps[s].weight, static_cast<double>(end - first));
    weight += steps[s].weight;
  }
  EXPECT_EQ(weight, static_cast<double>(total));
}

TEST(StepSampling, ASmoothCostWithAPeriodicPartIsSummedWithinHalfAPercent) {
  const std::size_t total = 10000;
  // A shrinking trailing matrix plus a cost that cycles with a grid of 7 columns.
  const auto cost = [&](std::size_t k) {
    const double left = static_cast<double>(total - k);
    return left * left * (1.0 + 0.3 * static_cast<double>(k % 7 == 3));
  };
  double full = 0.0, sampled = 0.0;
  for (std::size_t k = 0; k < total; ++k) full += cost(k);
  for (const SampledStep& s : sampled_steps(total)) sampled += s.weight * cost(s.step);
  EXPECT_NEAR(sampled / full, 1.0, 5e-3);
}

/// Predicted seconds of `routine` on a 3×4 heterogeneous grid with 64-tiles at order n.
double predicted(Routine routine, std::size_t n) {
  const Platform platform = planner_platform({4e9, 2e9, 1e9, 4e9, 2e9, 1e9, 4e9, 2e9, 1e9, 4e9, 2e9, 1e9});
  Problem problem;
  problem.routine = routine;
  problem.n = n;
  problem.caller = caller_grid(3, 4);
  const Candidate grid = cartesian_candidate("hetero 3x4", 64, 3, 4, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
                                             {1.0, 1.0, 1.0}, {1.0, 2.0, 3.0, 4.0});
  return predict(platform, problem, grid).total_s();
}

TEST(StepSampling, TheModelsAreContinuousAcrossTheSamplingThreshold) {
  const std::size_t walked = 2 * kSampledSteps * 64, sampled = walked + 64;  // 192 and 193 steps
  const double cube = std::pow(static_cast<double>(sampled) / static_cast<double>(walked), 3.0);
  for (Routine routine : {Routine::LU, Routine::QR, Routine::Gemm, Routine::Cholesky}) {
    const double ratio = predicted(routine, sampled) / predicted(routine, walked);
    // One step more (and its flops, about `cube`), within the sampling's error of 2 %.
    EXPECT_NEAR(ratio, cube, 0.02) << routine_name(routine);
  }
}

TEST(StepSampling, ACoarseBudgetStaysWithinTheSearchMargin) {
  const std::size_t n = 1000 * 64;  // 1,000 steps: sampled in both passes of the search
  for (Routine routine : {Routine::LU, Routine::QR, Routine::Gemm, Routine::Cholesky}) {
    const double full = predicted(routine, n);
    double coarse = 0.0;
    {
      const StepSamplingScope scope(kCoarseSampledSteps);
      EXPECT_EQ(step_sample_budget(), kCoarseSampledSteps);
      coarse = predicted(routine, n);
    }
    EXPECT_EQ(step_sample_budget(), kSampledSteps);  // the scope ended
    EXPECT_NEAR(coarse / full, 1.0, kCoarseMargin / 2) << routine_name(routine);
  }
}

// Under a PricingLimitScope the LU and QR models stop once their sum, with the floors of the
// steps still to come, passes the limit: only when the whole sum is above it, and then
// before the partial sum itself gets there (near a tie, the floors of the last steps decide);
// at or above the whole sum they return it whole.
TEST(StepSampling, APricingLimitStopsTheSumOnceTheWholeMustPassIt) {
  std::mt19937_64 rng(3);
  const Platform platform = planner_platform({1.0e9, 2.0e9, 3.0e9, 4.0e9});
  const TileOwnership layout = random_layout(rng, 4, 16 * 400, 16, 1);
  for (Routine routine : {Routine::LU, Routine::QR}) {
    const auto total = [&] {
      return (routine == Routine::LU ? simulate_lu(platform, layout, PanelRank::Fastest)
                                     : simulate_qr(platform, layout, PanelRank::Fastest))
          .total();
    };
    const double whole = total();
    for (double fraction : {0.3, 0.99}) {
      const PricingLimitScope limit(fraction * whole);
      const double partial = total();
      EXPECT_TRUE(limit.stopped()) << routine_name(routine) << " at " << fraction;
      EXPECT_LT(partial, fraction * whole) << routine_name(routine) << " at " << fraction;
    }
    for (double fraction : {1.0, 2.0}) {
      const PricingLimitScope limit(fraction * whole);
      EXPECT_EQ(total(), whole) << routine_name(routine) << " at " << fraction;
      EXPECT_FALSE(limit.stopped());
    }
  }
  EXPECT_EQ(pricing_limit(), std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace hetscal::core
