// The whole redistribution plan (§4): column migrations, row migrations, local slidings, on
// block layouts built by COL-PERI-SUM.
#include "core/rebalancing/rebalance.hpp"

#include <gtest/gtest.h>

#include <random>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

std::vector<double> random_speeds(std::mt19937& rng, std::size_t n) {
  std::uniform_real_distribution<double> draw(0.2, 2.0);
  std::vector<double> s(n);
  for (double& x : s) x = draw(rng);
  return s;
}

// Old loads plus every transfer: what the processors hold once the plan has run.
std::vector<long long> after_transfers(const RebalanceSummary& summary) {
  std::vector<long long> loads(summary.old_loads.begin(), summary.old_loads.end());
  for (const Operation& op : summary.operations)
    for (const Transfer& t : op.transfers) {
      loads[t.from] -= static_cast<long long>(t.blocks);
      loads[t.to] += static_cast<long long>(t.blocks);
    }
  return loads;
}

TEST(Rebalance, TransfersTurnTheOldLoadsIntoTheNewOnes) {
  std::mt19937 rng(31415);
  std::size_t row_migrations = 0;  // the cases must exercise every kind of operation
  for (std::size_t n : {2u, 3u, 5u, 8u, 13u}) {
    for (int trial = 0; trial < 10; ++trial) {
      const auto old_speeds = Speeds::from_speeds(random_speeds(rng, n));
      const auto new_speeds = Speeds::from_speeds(random_speeds(rng, n));
      const RebalanceSummary summary = plan_rebalance(old_speeds, new_speeds, {48});
      const std::vector<long long> expected(summary.new_loads.begin(), summary.new_loads.end());
      EXPECT_EQ(after_transfers(summary), expected) << "n=" << n << " trial=" << trial;

      double total = 0.0;
      for (const Operation& op : summary.operations) {
        total += op.cost;
        for (const Transfer& t : op.transfers) EXPECT_NE(t.from, t.to);
        // §4.3: a row migration costs a whole row, whoever holds it.
        const double expected_cost =
            op.kind == OperationKind::RowMigration ? 48.0 : static_cast<double>(op.blocks_moved);
        EXPECT_DOUBLE_EQ(op.cost, expected_cost);
      }
      EXPECT_DOUBLE_EQ(summary.total_cost, total);
      EXPECT_LE(summary.total_cost, summary.slidings_only_cost + 1e-9);
      EXPECT_GE(summary.balance_after, summary.balance_before - 0.05);
      row_migrations += summary.row_migrations.units;
    }
  }
  EXPECT_GT(row_migrations, 0u);
}

TEST(Rebalance, ColumnMigrationsMoveEachWidthDifferenceOnce) {
  std::mt19937 rng(27);
  for (int trial = 0; trial < 20; ++trial) {
    const auto old_speeds = Speeds::from_speeds(random_speeds(rng, 7));
    const auto new_speeds = Speeds::from_speeds(random_speeds(rng, 7));
    const RebalanceSummary summary = plan_rebalance(old_speeds, new_speeds, {40});
    std::size_t surplus = 0;
    for (std::size_t k = 0; k < summary.old_layout.columns.size(); ++k) {
      const auto before = summary.old_layout.columns[k].width,
                 after = summary.new_layout.columns[k].width;
      if (before > after) surplus += before - after;
    }
    EXPECT_EQ(summary.column_migrations.units, surplus) << trial;
    EXPECT_DOUBLE_EQ(summary.column_migrations.cost, 40.0 * static_cast<double>(surplus));
    EXPECT_EQ(summary.column_migrations.blocks, 40 * surplus);
  }
}

TEST(Rebalance, GreedyMatchesTheOptimumUnderConstantPrices) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 20; ++trial) {
    const auto old_speeds = Speeds::from_speeds(random_speeds(rng, 9));
    const auto new_speeds = Speeds::from_speeds(random_speeds(rng, 9));
    const double greedy = plan_rebalance(old_speeds, new_speeds, {36}).total_cost;
    const double optimal = plan_rebalance(old_speeds, new_speeds,
                                          {36, RowMigrationCost::Constant, RebalanceMethod::Optimal})
                               .total_cost;
    EXPECT_NEAR(greedy, optimal, 1e-9) << trial;
  }
}

TEST(Rebalance, SpannedPricingChargesOnlyColumnsWithDifferentOwners) {
  std::mt19937 rng(5);
  std::size_t row_migrations = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const auto old_speeds = Speeds::from_speeds(random_speeds(rng, 6));
    const auto new_speeds = Speeds::from_speeds(random_speeds(rng, 6));
    const RebalanceSummary summary =
        plan_rebalance(old_speeds, new_speeds, {30, RowMigrationCost::SpannedColumns});
    for (const Operation& op : summary.operations) {
      EXPECT_DOUBLE_EQ(op.cost, static_cast<double>(op.blocks_moved));
    }
    const std::vector<long long> expected(summary.new_loads.begin(), summary.new_loads.end());
    EXPECT_EQ(after_transfers(summary), expected) << trial;
    row_migrations += summary.row_migrations.units;
  }
  EXPECT_GT(row_migrations, 0u);
}

TEST(Rebalance, UnchangedSpeedsNeedNothing) {
  const auto speeds = Speeds::from_speeds({1.0, 2.0, 3.0, 4.0, 5.0});
  const RebalanceSummary summary = plan_rebalance(speeds, speeds, {50});
  EXPECT_TRUE(summary.operations.empty());
  EXPECT_DOUBLE_EQ(summary.total_cost, 0.0);
  EXPECT_EQ(summary.fresh_partition_blocks, 0u);
  EXPECT_EQ(summary.old_loads, summary.new_loads);
}

TEST(Rebalance, KeepingTheLayoutUsuallyMovesLessThanAFreshPartition) {
  // §4: a fresh COL-PERI-SUM partition may put processors elsewhere and move much of the
  // matrix. One processor slowing down: keeping the layout moves 500 blocks, a fresh
  // partition 3371.
  const auto old_speeds = Speeds::from_speeds({1, 2, 3, 4, 5, 6, 7, 8});
  const RebalanceSummary slower =
      plan_rebalance(old_speeds, Speeds::from_speeds({1, 2, 3, 4, 5, 6, 7, 4}), {60});
  EXPECT_DOUBLE_EQ(slower.total_cost, 500.0);
  EXPECT_EQ(slower.fresh_partition_blocks, 3371u);
  EXPECT_GT(slower.balance_after, 0.95);
  EXPECT_LT(slower.balance_before, 0.6);
  // Not always: when the fastest and slowest processors swap speeds, the fresh partition
  // swaps their rectangles (902 blocks) while the kept layout reshapes every column.
  const RebalanceSummary swapped =
      plan_rebalance(old_speeds, Speeds::from_speeds({8, 2, 3, 4, 5, 6, 7, 1}), {60});
  EXPECT_GT(swapped.total_cost, static_cast<double>(swapped.fresh_partition_blocks));
  EXPECT_EQ(swapped.fresh_partition_blocks, 902u);
}

TEST(Rebalance, RectanglesCoverTheMatrix) {
  const auto summary = plan_rebalance(Speeds::from_speeds({3, 1, 4, 1, 5, 9, 2, 6}),
                                      Speeds::from_speeds({2, 7, 1, 8, 2, 8, 1, 8}), {24});
  for (const auto* rects : {&summary.old_rectangles, &summary.new_rectangles}) {
    std::vector<int> covered(24 * 24, 0);
    for (const auto& r : *rects)
      for (std::size_t x = r.x; x < r.x + r.width; ++x)
        for (std::size_t y = r.y; y < r.y + r.height; ++y) ++covered.at(y * 24 + x);
    for (int c : covered) EXPECT_EQ(c, 1);
  }
}

TEST(Rebalance, RefusesBadRequests) {
  const auto three = Speeds::from_speeds({1, 2, 3});
  const auto four = Speeds::from_speeds({1, 2, 3, 4});
  EXPECT_THROW(plan_rebalance(three, four), InvalidArgument);
  EXPECT_THROW(plan_rebalance(four, four, {1}), InvalidArgument);  // 2 columns on 1 block
  const auto old_layout = discretise(col_peri_sum({1, 2, 3, 4}), 12);
  auto other = old_layout;
  std::swap(other.columns[0].processors[0], other.columns[1].processors[0]);
  EXPECT_THROW(plan_rebalance(old_layout, other), InvalidArgument);
  auto smaller = discretise(col_peri_sum({1, 2, 3, 4}), 10);
  EXPECT_THROW(plan_rebalance(old_layout, smaller), InvalidArgument);
  // The exhaustive search refuses large cases instead of running for hours.
  EXPECT_THROW(plan_rebalance(Speeds::from_speeds({1, 2, 3, 4, 5, 6, 7, 8}),
                              Speeds::from_speeds({8, 2, 3, 4, 5, 6, 7, 1}),
                              {60, RowMigrationCost::SpannedColumns, RebalanceMethod::Optimal}),
               InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core
