// panel_chain_lower_bound (panel_chain_bound.hpp): never above the step models it bounds, on
// grids and patterns of random shapes, speeds and networks, and well above zero where the
// delivery of wide grids dominates (what lets the search skip them); its closed form equal to
// the step-by-step sum; and the sketch's bound (cartesian_panel_chain_lower_bound) never above
// the bound of the grid built from the sketch; the column messages' bound from the sketch
// (cartesian_column_message_lower_bound) plus the update bound never above the step models.
#include "core/time_models/panel_chain_bound.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/planners/candidate_search.hpp"
#include "core/planners/cholesky_ordering.hpp"
#include "core/time_models/lu_steps.hpp"
#include "core/time_models/qr_steps.hpp"
#include "core/time_models/time_model_steps.hpp"
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

// A random p×q grid for the column message bound: 2DBC, or heterogeneous shares in
// suffix-balanced order, on random distinct processors; its tile rows per grid row as the LU
// planner gives them to the bound (equal for 2DBC's cyclic order).
struct RandomGrid {
  TileOwnership layout;
  std::vector<double> row_shares;  ///< equal for 2DBC
  double speed = 0.0;  ///< the grid's processors' speeds, summed
};

RandomGrid random_grid(std::mt19937_64& rng, const Platform& platform, std::size_t p, std::size_t q, MatrixShape shape,
                       std::size_t tile, bool hetero) {
  std::uniform_real_distribution<double> share(1.0, 8.0);
  std::vector<std::size_t> at(platform.size());
  std::iota(at.begin(), at.end(), std::size_t{0});
  std::shuffle(at.begin(), at.end(), rng);
  at.resize(p * q);
  const std::size_t tile_rows = (shape.rows + tile - 1) / tile, tile_cols = (shape.cols + tile - 1) / tile;
  RandomGrid grid;
  for (std::size_t x : at) grid.speed += platform.processors[x].speed_flops;
  if (!hetero) {
    grid.layout = block_cyclic_ownership(BlockCyclicAxis{shape.rows, tile, 0, p}, BlockCyclicAxis{shape.cols, tile, 0, q}, at);
    grid.row_shares.assign(p, 1.0);
    return grid;
  }
  std::vector<double> row_shares(p), col_shares(q);
  for (double& s : row_shares) s = share(rng);
  for (double& s : col_shares) s = share(rng);
  grid.layout = ordered_cartesian_ownership(shape, tile, p, q, at, suffix_balanced_order(row_shares, tile_rows),
                                            suffix_balanced_order(col_shares, tile_cols));
  grid.row_shares = row_shares;
  return grid;
}

// What the search prunes on: the column messages' bound with the updates at perfect balance
// (LU: their sum, QR: the larger), never above the step models. Undiscounted (over kSampledMessageAllowance) where the steps
// are walked one by one, as discounted where a long sequence is sampled.
TEST(ColumnMessageBound, WithTheUpdatesNeverAboveTheStepModels) {
  std::mt19937_64 rng(32);
  std::uniform_int_distribution<std::size_t> side(1, 6), extent(16, 3000), long_extent(4000, 12000);
  std::uniform_real_distribution<double> speed(1.0e8, 4.0e9), bandwidth(1.0e6, 1.0e10), latency(0.0, 1.0e-3);
  std::size_t counted = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const bool sampled = trial % 6 == 5;  // more than 2·kSampledSteps steps
    const std::size_t p = 1 + side(rng), q = side(rng), tile = 16;
    const MatrixShape shape{sampled ? long_extent(rng) : extent(rng), sampled ? long_extent(rng) : extent(rng)};
    std::vector<double> speeds(p * q + 2);
    for (double& s : speeds) s = speed(rng);
    Platform platform = planner_platform(speeds, bandwidth(rng), trial % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
    platform.network.latency_s = latency(rng);
    const RandomGrid grid = random_grid(rng, platform, p, q, shape, tile, trial % 3 != 0);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": " + std::to_string(p) + "x" + std::to_string(q) + " on " +
                 std::to_string(shape.rows) + "x" + std::to_string(shape.cols));
    for (Routine routine : {Routine::LU, Routine::QR}) {
      Problem problem;
      problem.routine = routine;
      problem.m = shape.rows;
      problem.n = shape.cols;
      const double messages = cartesian_column_message_lower_bound(platform, routine, shape, tile, grid.row_shares, q);
      const double claimed = sampled ? messages : messages / kSampledMessageAllowance;
      const double compute = compute_lower_bound(platform, problem, tile, grid.speed);
      // LU sends U before its update; QR's W exchange overlaps its flops.
      const double bound = routine == Routine::LU ? claimed + compute : std::max(claimed, compute);
      counted += messages > 0.0;
      for (PanelRank rank : {PanelRank::DiagonalOwner, PanelRank::Fastest}) {
        const TimeBreakdown model = routine == Routine::LU ? simulate_lu(platform, grid.layout, rank)
                                                           : simulate_qr(platform, grid.layout, rank);
        EXPECT_LE(bound, model.total() * (1.0 + 1e-12)) << routine_name(routine);
      }
    }
  }
  EXPECT_GT(counted, 150u);  // the check is not vacuous
}

// The model's own column messages, summed step by step: LU's U tiles (the row block phase),
// QR's partial W to the roots and W back.
double column_messages_step_by_step(const Platform& platform, Routine routine, const TileOwnership& layout) {
  const double tile_bytes = static_cast<double>(layout.tile * layout.tile) * 8.0;
  std::vector<double> speeds;
  for (const Processor& x : platform.processors) speeds.push_back(x.speed_flops);
  double seconds = 0.0;
  const LuSteps lu(layout, platform.size(), PanelRank::DiagonalOwner, speeds);
  const QrSteps qr(layout, platform.size(), PanelRank::DiagonalOwner, speeds);
  for (std::size_t k = 0; k < lu.steps(); ++k) {
    BroadcastPhase there(platform.network), back(platform.network);
    if (routine == Routine::LU) {
      for (const PairMessage& m : lu.step(k).u_messages) there.message(m.from, m.to, m.tiles * tile_bytes);
    } else {
      for (const PairMessage& m : qr.step(k).w_partials) {
        there.message(m.from, m.to, m.tiles * tile_bytes);
        back.message(m.to, m.from, m.tiles * tile_bytes);
      }
    }
    seconds += there.time() + back.time();
  }
  return seconds;
}

// Undiscounted, the bound never exceeds the column messages it counts, and equals them on a
// 2×1 grid whose tile rows alternate (one receiver while both rows have tiles below k).
// A 6×6 grid on a shared bus: the six column classes' U tiles go one after another, and the
// bound counts them all (a switched network's largest class alone would be a sixth).
TEST(ColumnMessageBound, ABusCarriesEveryColumnClass) {
  std::mt19937_64 rng(11);
  const MatrixShape shape{16 * 200, 16 * 200};
  for (NetworkKind kind : {NetworkKind::SharedBus, NetworkKind::Switched}) {
    const Platform platform = planner_platform(std::vector<double>(36, 1.0e9), 1.0e7, kind);
    const RandomGrid grid = random_grid(rng, platform, 6, 6, shape, 16, false);
    const double bound = cartesian_column_message_lower_bound(platform, Routine::LU, shape, 16, grid.row_shares, 6);
    const double model = column_messages_step_by_step(platform, Routine::LU, grid.layout);
    EXPECT_GT(bound, 0.7 * model) << (kind == NetworkKind::SharedBus ? "bus" : "switched");
  }
}

TEST(ColumnMessageBound, NeverAboveTheColumnMessagesItCounts) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::size_t> side(1, 6), extent(16, 2000);
  std::uniform_real_distribution<double> bandwidth(1.0e6, 1.0e10), latency(0.0, 1.0e-3);
  for (int trial = 0; trial < 120; ++trial) {
    const std::size_t p = 1 + side(rng), q = side(rng), tile = 16;
    const MatrixShape shape{extent(rng), extent(rng)};
    Platform platform = planner_platform(std::vector<double>(p * q + 2, 1.0e9), bandwidth(rng),
                                         trial % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
    platform.network.latency_s = latency(rng);
    const RandomGrid grid = random_grid(rng, platform, p, q, shape, tile, trial % 3 != 0);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": " + std::to_string(p) + "x" + std::to_string(q) + " on " +
                 std::to_string(shape.rows) + "x" + std::to_string(shape.cols));
    for (Routine routine : {Routine::LU, Routine::QR}) {
      const double bound = cartesian_column_message_lower_bound(platform, routine, shape, tile, grid.row_shares, q);
      EXPECT_LE(bound / kSampledMessageAllowance,
                column_messages_step_by_step(platform, routine, grid.layout) * (1.0 + 1e-12))
          << routine_name(routine);
    }
  }
  // Fewer tile rows than the window (2p for equal shares): only the count bound holds, for
  // any order; blocked rows (each class's tile rows together) meet it within a receiver.
  std::size_t positive = 0;
  for (std::size_t p = 2; p <= 9; ++p) {
    for (std::size_t tile_rows = p + 1; tile_rows < 2 * p; ++tile_rows) {
      const Platform platform = planner_platform(std::vector<double>(p, 1.0e9), 1.0e8);
      const MatrixShape shape{tile_rows * 16, 4 * tile_rows * 16};
      std::vector<std::size_t> blocked;
      for (std::size_t a = 0; a < p; ++a)
        for (std::size_t t = 0; t < tile_rows / p + (a < tile_rows % p ? 1 : 0); ++t) blocked.push_back(a);
      std::vector<std::size_t> at(p);
      std::iota(at.begin(), at.end(), std::size_t{0});
      const TileOwnership layout = ordered_cartesian_ownership(shape, 16, p, 1, at, blocked, {0});
      for (Routine routine : {Routine::LU, Routine::QR}) {
        const double bound = cartesian_column_message_lower_bound(platform, routine, shape, 16, std::vector<double>(p, 1.0), 1);
        EXPECT_LE(bound / kSampledMessageAllowance, column_messages_step_by_step(platform, routine, layout) * (1.0 + 1e-12))
            << routine_name(routine) << " " << p << " rows, " << tile_rows << " tile rows";
        positive += bound > 0.0;
      }
    }
  }
  EXPECT_GT(positive, 40u);
  const Platform platform = planner_platform(std::vector<double>(2, 1.0e9), 1.0e8);
  const TileOwnership two_rows = block_cyclic_ownership(BlockCyclicAxis{1024, 16, 0, 2}, BlockCyclicAxis{1024, 16, 0, 1}, {});
  for (Routine routine : {Routine::LU, Routine::QR}) {
    const double bound = cartesian_column_message_lower_bound(platform, routine, {1024, 1024}, 16, {1.0, 1.0}, 1);
    const double exact = column_messages_step_by_step(platform, routine, two_rows);
    EXPECT_GT(bound / kSampledMessageAllowance, 0.95 * exact) << routine_name(routine);
  }
}

// A tall 16×1 grid on a slow network: every step's U row goes to the 15 other ranks of the
// column, one after another; the bound counts most of the model's time, far above the
// updates' alone, which is what lets the search drop such grids unbuilt.
TEST(ColumnMessageBound, CountsTheRowBlockOfTallGrids) {
  const Platform platform = planner_platform(std::vector<double>(16, 1.0e10), 1.0e7);
  const MatrixShape shape{4096, 4096};
  const TileOwnership layout = block_cyclic_ownership(BlockCyclicAxis{4096, 64, 0, 16}, BlockCyclicAxis{4096, 64, 0, 1}, {});
  const std::vector<double> row_shares(16, 1.0);  // 64 tile rows, cyclically
  const double messages = cartesian_column_message_lower_bound(platform, Routine::LU, shape, 64, row_shares, 1);
  const double model = simulate_lu(platform, layout, PanelRank::DiagonalOwner).total();
  EXPECT_LE(messages, model);
  EXPECT_GT(messages, 0.5 * model);
  Problem problem;
  problem.routine = Routine::LU;
  problem.n = 4096;
  EXPECT_GT(messages, 10.0 * compute_lower_bound(platform, problem, 64, 16 * 1.0e10));
  EXPECT_EQ(cartesian_column_message_lower_bound(platform, Routine::Cholesky, shape, 64, row_shares, 1), 0.0);
  EXPECT_EQ(cartesian_column_message_lower_bound(platform, Routine::LU, shape, 64, {1.0}, 1), 0.0);  // one grid row
}

}  // namespace
}  // namespace hetscal::core
