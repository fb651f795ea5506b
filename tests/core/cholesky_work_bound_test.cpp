// cholesky_update_lower_bound (cholesky_work_bound.hpp): never above the Cholesky step model
// on grids and patterns of random shapes and speeds, equal to its compute where the slowest
// owner is the busiest, and far above the balanced compute bound on 2D block-cyclic over ranks
// of different speeds (what lets the search skip those). cholesky_message_lower_bound: never
// above the step model either, and the larger of the two where messages dominate.
#include "core/time_models/cholesky_work_bound.hpp"

#include <gtest/gtest.h>

#include <random>

#include "core/planners/candidate_search.hpp"
#include "core/time_models/cholesky_steps.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

TEST(CholeskyUpdateBound, NeverAboveTheStepModel) {
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> speed(1.0e8, 4.0e9), bandwidth(1.0e6, 1.0e10);
  for (int trial = 0; trial < 60; ++trial) {
    // Up to 2·kSampledSteps tiles a side: every step walked, no sampling error.
    const std::size_t processors = 16, tile = 16, n = 16 * (1 + static_cast<std::size_t>(trial) % 40);
    std::vector<double> speeds(processors);
    for (double& s : speeds) s = speed(rng);
    const Platform platform = planner_platform(speeds, bandwidth(rng),
                                               trial % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
    const TileOwnership layout = random_layout(rng, processors, n, tile, trial);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const TimeBreakdown model = simulate_cholesky(platform, layout);
    const double bound = cholesky_update_lower_bound(platform, layout);
    EXPECT_LE(bound, model.compute * (1.0 + 1e-12));  // the busiest owner's updates
    EXPECT_LE(bound, model.total() * (1.0 + 1e-12));
    EXPECT_LE(cholesky_message_lower_bound(platform, layout), model.total() * (1.0 + 1e-12));
  }
}

// Grids of distinct processors and patterns that repeat them, on a slow network where the
// colrows' tiles cost more than the updates: the message bound is above the update bound, and
// within the model.
TEST(CholeskyMessageBound, AboveTheUpdateBoundWhereMessagesDominate) {
  const Platform platform = planner_platform(std::vector<double>(16, 1.0e10), 1.0e7);
  const TileOwnership grid = block_cyclic_ownership(1024, 32, 4, 4, {});
  const TileOwnership wide = block_cyclic_ownership(1024, 32, 1, 16, {});
  const TileOwnership repeated = pattern_ownership(1024, 32, 4, 4, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3});
  for (const TileOwnership* layout : {&grid, &wide, &repeated}) {
    const double bound = cholesky_message_lower_bound(platform, *layout);
    EXPECT_GT(bound, 2.0 * cholesky_update_lower_bound(platform, *layout));
    EXPECT_LE(bound, simulate_cholesky(platform, *layout).total());
  }
  // On a longer matrix (fewer steps near the end, where colrows are not full yet), the wide
  // grid sends every colrow tile to 15 ranks, the square one to 6.
  const double wide_long = cholesky_message_lower_bound(platform, block_cyclic_ownership(8192, 32, 1, 16, {}));
  const double square_long = cholesky_message_lower_bound(platform, block_cyclic_ownership(8192, 32, 4, 4, {}));
  EXPECT_GT(wide_long, 2.0 * square_long);
}

// One rank: its updates are all the model's compute.
TEST(CholeskyUpdateBound, IsTheComputeOfASingleRank) {
  const Platform platform = planner_platform({2.0e9});
  const TileOwnership layout = block_cyclic_ownership(1024, 64, 1, 1, {});
  EXPECT_NEAR(cholesky_update_lower_bound(platform, layout), simulate_cholesky(platform, layout).compute,
              1e-12 * simulate_cholesky(platform, layout).compute);
}

// 2DBC over ranks of speeds 1, 2 and 4: every rank holds as much, so the slowest one's
// updates take about (1 + 2 + 4)/3 times the balanced bound.
TEST(CholeskyUpdateBound, SeesTheSlowestRankOfAnEvenSplit) {
  const Platform platform = planner_platform({4.0e9, 2.0e9, 1.0e9, 4.0e9, 2.0e9, 1.0e9});
  Problem problem;
  problem.routine = Routine::Cholesky;
  problem.n = 4096;
  const TileOwnership layout = block_cyclic_ownership(4096, 64, 2, 3, {});
  const double balanced = compute_lower_bound(platform, problem, 64, 14.0e9);
  EXPECT_GT(cholesky_update_lower_bound(platform, layout), 2.0 * balanced);
  EXPECT_LE(cholesky_update_lower_bound(platform, layout), simulate_cholesky(platform, layout).total());
}

}  // namespace
}  // namespace hetscal::core
