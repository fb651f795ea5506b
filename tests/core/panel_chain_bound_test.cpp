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

/// A random layout of an n×n matrix on the platform: a Cartesian grid of random shares, or a
/// pattern whose rows repeat ranks (every third trial).
TileOwnership random_layout(std::mt19937_64& rng, std::size_t processors, std::size_t n, std::size_t tile,
                            int trial) {
  std::uniform_int_distribution<std::size_t> side(1, 4), rank(0, processors - 1);
  std::uniform_real_distribution<double> share(0.5, 3.0);
  const std::size_t rows = side(rng), cols = side(rng);
  std::vector<std::size_t> owner(rows * cols);
  if (trial % 3 == 0) {
    for (std::size_t& x : owner) x = rank(rng);
    return pattern_ownership(n, tile, rows, cols, owner);
  }
  for (std::size_t c = 0; c < owner.size(); ++c) owner[c] = c % processors;
  std::vector<double> row_share(rows), col_share(cols);
  for (double& s : row_share) s = share(rng);
  for (double& s : col_share) s = share(rng);
  return cartesian_ownership(n, tile, rows, cols, owner, row_share, col_share);
}

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
