// panel_chain_lower_bound (panel_chain_bound.hpp): never above the step models it bounds, on
// grids and patterns of random shapes, speeds and networks, and well above zero where the
// delivery of wide grids dominates (what lets the search skip them); its closed form equal to
// the step-by-step sum; and the sketch's bound (cartesian_panel_chain_lower_bound) never above
// the bound of the grid built from the sketch.
#include "core/time_models/panel_chain_bound.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/planners/cholesky_ordering.hpp"
#include "core/time_models/lu_steps.hpp"
#include "core/time_models/qr_steps.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

// The chain summed step by step, as panel_chain_bound.hpp's comment states it.
double chain_step_by_step(const Platform& platform, Routine routine, const TileOwnership& layout) {
  double fastest = 0.0;
  for (const Processor& p : platform.processors) fastest = std::max(fastest, p.speed_flops);
  const double nb = static_cast<double>(layout.tile), cube = nb * nb * nb;
  const double rate = fastest * platform.kernel.update_efficiency(nb, layout.grouped_updates);
  const double tile_seconds = nb * nb * 8.0 / platform.network.bandwidth_bytes_per_s;
  const std::size_t rows = layout.tiles(), steps = layout.tile_col_of(std::min(layout.row_extent(), layout.n) - 1) + 1;
  std::size_t distinct = layout.cols;
  for (std::size_t a = 0; a < layout.rows; ++a) {
    std::vector<std::size_t> row(layout.cols);
    for (std::size_t b = 0; b < layout.cols; ++b) row[b] = layout.at(a, b);
    std::sort(row.begin(), row.end());
    distinct = std::min<std::size_t>(distinct, std::unique(row.begin(), row.end()) - row.begin());
  }
  double seconds = 0.0;
  for (std::size_t k = 0; k < steps && k < rows; ++k) {
    std::vector<bool> left(layout.cols, false);
    for (std::size_t t = k + 1; t < layout.col_class.size(); ++t) left[layout.col_class[t]] = true;
    const std::size_t gone = layout.cols - static_cast<std::size_t>(std::count(left.begin(), left.end(), true));
    const double h = static_cast<double>(rows - k);
    const double flops = routine == Routine::LU ? (h - 1.0 / 3.0) * cube : (3.0 * h - 1.0) * cube;
    const double readers = distinct > gone + 1 ? static_cast<double>(distinct - gone - 1) : 0.0;
    seconds += flops / rate + (h - 1.0) * readers * tile_seconds;
  }
  return seconds;
}

// Also: its closed form is the sum of its steps.
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
    for (Routine routine : {Routine::LU, Routine::QR}) {
      const double steps = chain_step_by_step(platform, routine, layout);
      EXPECT_NEAR(panel_chain_lower_bound(platform, routine, layout), steps, 1e-9 * steps) << "trial " << trial;
    }
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

// Random p×q grids (2DBC, and heterogeneous shares in suffix-balanced order) on random M×N:
// the bound found from the sketch is never above the built grid's, and close to it on long
// matrices, where most candidates of a large search are ruled out.
TEST(PanelChainBound, SketchBoundNeverAboveTheBuiltGrids) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<std::size_t> side(1, 6), extent(16, 4000);
  std::uniform_real_distribution<double> share(1.0, 8.0), bandwidth(1.0e6, 1.0e10);
  std::size_t bounded = 0, close = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t p = side(rng), q = side(rng), tile = 16, m = extent(rng), n = extent(rng);
    std::vector<double> speeds(p * q, 1.0e9);
    const Platform platform = planner_platform(speeds, bandwidth(rng), NetworkKind::Switched);
    std::vector<std::size_t> at(p * q);
    std::iota(at.begin(), at.end(), std::size_t{0});
    std::shuffle(at.begin(), at.end(), rng);
    std::vector<double> row_shares(p), col_shares(q, 1.0);
    for (double& s : row_shares) s = share(rng);
    const bool hetero = trial % 2 == 1;
    if (hetero)
      for (double& s : col_shares) s = share(rng);
    const MatrixShape shape{m, n};
    const TileOwnership built =
        hetero ? ordered_cartesian_ownership(shape, tile, p, q, at, suffix_balanced_order(row_shares, (m + tile - 1) / tile),
                                             suffix_balanced_order(col_shares, (n + tile - 1) / tile))
               : block_cyclic_ownership(BlockCyclicAxis{m, tile, 0, p}, BlockCyclicAxis{n, tile, 0, q}, at);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": " + std::to_string(p) + "x" + std::to_string(q) + " on " +
                 std::to_string(m) + "x" + std::to_string(n));
    for (Routine routine : {Routine::LU, Routine::QR}) {
      const double sketch = cartesian_panel_chain_lower_bound(platform, routine, shape, tile, col_shares);
      const double full = panel_chain_lower_bound(platform, routine, built);
      EXPECT_LE(sketch, full * (1.0 + 1e-12));
      bounded += sketch > 0.0;
      close += sketch > 0.9 * full;
    }
  }
  EXPECT_GT(bounded, 150u);  // the check is not vacuous
  EXPECT_GT(close, 100u);
  EXPECT_EQ(cartesian_panel_chain_lower_bound(planner_platform({1.0e9}, 1.0e9), Routine::Cholesky, {4000, 4000}, 16, {1.0}),
            0.0);
}

}  // namespace
}  // namespace hetscal::core
