// panel_chain_lower_bound (panel_chain_bound.hpp): never above the step models it bounds, on
// grids and patterns of random shapes, speeds and networks, and well above zero where the
// delivery of wide grids dominates (what lets the search skip them).
#include "core/time_models/panel_chain_bound.hpp"

#include <gtest/gtest.h>

#include <random>

#include "core/time_models/lu_steps.hpp"
#include "core/time_models/qr_steps.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

TEST(PanelChainBound, NeverAboveTheStepModels) {
  std::mt19937_64 rng(32);
  std::uniform_real_distribution<double> speed(1.0e8, 4.0e9), bandwidth(1.0e6, 1.0e10);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t processors = 16, tile = 16, n = 16 * (1 + static_cast<std::size_t>(trial) % 20);
    std::vector<double> speeds(processors);
    for (double& s : speeds) s = speed(rng);
    const Platform platform = planner_platform(speeds, bandwidth(rng),
                                               trial % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
    const TileOwnership layout = random_layout(rng, processors, n, tile, trial);
    for (PanelRank rank : {PanelRank::DiagonalOwner, PanelRank::Fastest}) {
      SCOPED_TRACE("trial " + std::to_string(trial));
      EXPECT_LE(panel_chain_lower_bound(platform, Routine::LU, layout),
                simulate_lu(platform, layout, rank).total() * (1.0 + 1e-12));
      EXPECT_LE(panel_chain_lower_bound(platform, Routine::QR, layout),
                simulate_qr(platform, layout, rank).total() * (1.0 + 1e-12));
    }
  }
}

// A 1×8 grid on a slow network: every tile row below the diagonal goes to seven other ranks;
// the bound counts most of the model's time.
TEST(PanelChainBound, CountsTheDeliveryOfWideGrids) {
  const Platform platform = planner_platform(std::vector<double>(8, 1.0e10), 1.0e7);
  const TileOwnership layout = block_cyclic_ownership(2048, 64, 1, 8, {});
  const double bound = panel_chain_lower_bound(platform, Routine::LU, layout);
  const double model = simulate_lu(platform, layout, PanelRank::DiagonalOwner).total();
  EXPECT_LE(bound, model);
  EXPECT_GT(bound, 0.5 * model);
  EXPECT_EQ(panel_chain_lower_bound(platform, Routine::Cholesky, layout), 0.0);
}

}  // namespace
}  // namespace hetscal::core
