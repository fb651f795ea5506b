#include "core/grids/panel_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/common/error.hpp"
#include "core/grids/heuristic_grid.hpp"

namespace hetscal::core {
namespace {

using Order = std::vector<std::size_t>;

const Arrangement kSection322{2, 2, {1, 2, 3, 5}, {0, 1, 2, 3}};
const Shares kSection322Shares{{1, 1.0 / 3}, {1, 0.5}};

TEST(PanelPlan, SectionThreeTwoTwoColumnOrderABAABA) {
  const std::vector<double> equivalent = column_equivalent_cycle_times(kSection322, {6, 2});
  EXPECT_NEAR(equivalent[0], 3.0 / 20, 1e-15);
  EXPECT_NEAR(equivalent[1], 5.0 / 17, 1e-15);
  const PanelPlan plan = make_panel_plan(kSection322, kSection322Shares, 8, 6);
  EXPECT_EQ(plan.counts.r, (std::vector<std::int64_t>{6, 2}));
  EXPECT_EQ(plan.counts.c, (std::vector<std::int64_t>{4, 2}));
  EXPECT_EQ(plan.col_of_panel_col, (Order{0, 1, 0, 0, 1, 0}));  // A B A A B A
  ASSERT_EQ(plan.row_of_panel_row.size(), 8u);
  EXPECT_EQ(std::count(plan.row_of_panel_row.begin(), plan.row_of_panel_row.end(), 0u), 6);
  // Rows: equivalent cycle-times 1/(4/1 + 2/2) = 1/5 and 1/(4/3 + 2/5) = 15/26.
  const std::vector<double> rows = row_equivalent_cycle_times(kSection322, {4, 2});
  EXPECT_NEAR(rows[0], 0.2, 1e-15);
  EXPECT_NEAR(rows[1], 15.0 / 26, 1e-15);
}

TEST(PanelPlan, OwnerOfTileIsPeriodic) {
  const PanelPlan plan = make_panel_plan(kSection322, kSection322Shares, 8, 6);
  for (std::size_t I = 0; I < 24; ++I) {
    for (std::size_t J = 0; J < 18; ++J) {
      const auto owner = plan.owner_of_tile(I, J);
      EXPECT_EQ(owner, plan.owner_of_tile(I % 8, J % 6));
      EXPECT_EQ(owner.first, plan.row_of_panel_row[I % 8]);
      EXPECT_EQ(owner.second, plan.col_of_panel_col[J % 6]);
    }
  }
}

TEST(PanelPlan, MapsHoldTheCounts) {
  std::mt19937 gen(17);
  std::uniform_real_distribution<double> speed(1.0, 10.0);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<double> t(4 + trial % 9);
    for (double& x : t) x = speed(gen);
    const std::size_t p = 1 + trial % 3;
    const std::size_t q = t.size() / p;
    const HeuristicGridResult h = plan_grid_heuristic(t, p, q);
    const PanelPlan plan = default_panel_plan(h.arrangement, h.shares);
    ASSERT_EQ(plan.row_of_panel_row.size(), static_cast<std::size_t>(plan.panel_rows));
    ASSERT_EQ(plan.col_of_panel_col.size(), static_cast<std::size_t>(plan.panel_cols));
    for (std::size_t i = 0; i < p; ++i)
      EXPECT_EQ(std::count(plan.row_of_panel_row.begin(), plan.row_of_panel_row.end(), i),
                plan.counts.r[i]);
    for (std::size_t j = 0; j < q; ++j)
      EXPECT_EQ(std::count(plan.col_of_panel_col.begin(), plan.col_of_panel_col.end(), j),
                plan.counts.c[j]);
  }
}

TEST(PanelPlan, DefaultIsTheSmallestSquarePanelReachingTheTarget) {
  const PanelPlan plan = default_panel_plan(kSection322, kSection322Shares);
  EXPECT_EQ(plan.panel_rows, plan.panel_cols);
  EXPECT_GE(plan.work_per_time, 0.99 * plan.rational_work_per_time);
  for (std::int64_t b = 2; b < plan.panel_rows; ++b)
    EXPECT_LT(make_panel_plan(kSection322, kSection322Shares, b, b).work_per_time,
              0.99 * plan.rational_work_per_time)
        << "B = " << b;
}

TEST(PanelPlan, DefaultRespectsTheMatrixTileCounts) {
  PanelSizeOptions options;
  options.tile_rows = 3;
  options.tile_cols = 5;
  const PanelPlan plan = default_panel_plan(kSection322, kSection322Shares, options);
  EXPECT_LE(plan.panel_rows, 3);
  EXPECT_LE(plan.panel_cols, 5);
  options.tile_rows = 1;
  EXPECT_THROW(default_panel_plan(kSection322, kSection322Shares, options), InvalidArgument);
  PanelSizeOptions small;
  small.max_panel = 1;
  EXPECT_THROW(default_panel_plan(kSection322, kSection322Shares, small), InvalidArgument);
  PanelSizeOptions bad_target;
  bad_target.target_fraction = 1.5;
  EXPECT_THROW(default_panel_plan(kSection322, kSection322Shares, bad_target), InvalidArgument);
}

TEST(PanelPlan, WhenNoPanelReachesTheTargetTheBestIsKept) {
  PanelSizeOptions options;
  options.max_panel = 5;
  options.target_fraction = 1.0;
  const Arrangement a{2, 2, {1, 2, 3, 7.3}, {0, 1, 2, 3}};
  const Shares s = plan_grid_heuristic(a.cycle_time, 2, 2).shares;
  const PanelPlan plan = default_panel_plan(a, s, options);
  for (std::int64_t b = 2; b <= 5; ++b)
    EXPECT_GE(plan.work_per_time, make_panel_plan(a, s, b, b).work_per_time);
}

}  // namespace
}  // namespace hetscal::core
