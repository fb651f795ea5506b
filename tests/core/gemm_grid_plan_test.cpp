// PxGEMM's grid plan (core/planners/gemm_grid_plan.hpp): the process counts it tries, the
// ranks it leaves idle, and a brute-force check against planning every count.
#include "core/planners/gemm_grid_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>
#include <set>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

std::set<std::size_t> planned_ranks(const GemmGridPlan& plan) {
  return {plan.choice.arrangement.processor.begin(), plan.choice.arrangement.processor.end()};
}

TEST(GemmProcessCounts, AllRanksWhenTheirSpeedsAreEqual) {
  EXPECT_EQ(gemm_process_counts({2, 2, 2}), (std::vector<std::size_t>{3}));
}

TEST(GemmProcessCounts, TheFastestRanksAboveEachSpeedDrop) {
  EXPECT_EQ(gemm_process_counts({1, 4, 2, 4}), (std::vector<std::size_t>{4, 3, 2}));
}

TEST(GemmProcessCounts, NeverARankBelowTheSmallestPlannedRatio) {
  EXPECT_EQ(gemm_process_counts({1e300, 1e-300}), (std::vector<std::size_t>{1}));
  EXPECT_EQ(gemm_process_counts({1.0, 0.5 * kSmallestPlannedSpeedRatio, 1.0}), (std::vector<std::size_t>{2}));
  EXPECT_EQ(gemm_process_counts({1.0, kSmallestPlannedSpeedRatio}), (std::vector<std::size_t>{2, 1}));
}

TEST(GemmProcessCounts, KeepsTheLargestDrops) {
  // Twenty classes, each 1.5 times the next, and one drop of 100 between ranks 10 and 11.
  std::vector<double> speeds;
  for (int i = 0; i < 20; ++i) speeds.push_back(std::pow(1.5, -i) * (i >= 10 ? 0.01 : 1.0));
  const std::vector<std::size_t> counts = gemm_process_counts(speeds);
  EXPECT_EQ(counts.size(), kMaxGemmSpeedDrops + 1);
  EXPECT_EQ(counts.front(), 20u);
  EXPECT_TRUE(std::is_sorted(counts.rbegin(), counts.rend()));
  EXPECT_NE(std::find(counts.begin(), counts.end(), 10u), counts.end());
}

TEST(GemmProcessCounts, RefusesSpeedsThatAreNotPositive) {
  EXPECT_THROW(gemm_process_counts({1, 0}), InvalidArgument);
  EXPECT_THROW(gemm_process_counts({}), InvalidArgument);
}

TEST(GemmGridPlan, LeavesIdleARankTooSlowForATileLine) {
  // Issue 30: at 10⁶:1 any grid line of the slow rank holds far more than its share of C.
  const GemmGridPlan alone = plan_gemm_grid({1e6, 1}, 800, 800);
  EXPECT_EQ(planned_ranks(alone), (std::set<std::size_t>{0}));
  EXPECT_EQ(alone.rows, (std::vector<std::int64_t>{800}));
  // At 3:1 both ranks pay.
  EXPECT_EQ(planned_ranks(plan_gemm_grid({3, 1}, 800, 800)), (std::set<std::size_t>{0, 1}));
  // The fastest is found wherever it is, and speeds of any magnitude are planned.
  EXPECT_EQ(planned_ranks(plan_gemm_grid({1, 1e-300, 1e300}, 800, 800)), (std::set<std::size_t>{2}));
}

TEST(GemmGridPlan, CountsRowsAndColumnsOfEveryGridLine) {
  const GemmGridPlan plan = plan_gemm_grid({1, 2, 3, 4}, 1000, 700);
  EXPECT_EQ(std::accumulate(plan.rows.begin(), plan.rows.end(), std::int64_t{0}), 1000);
  EXPECT_EQ(std::accumulate(plan.cols.begin(), plan.cols.end(), std::int64_t{0}), 700);
  EXPECT_EQ(plan.rows.size(), plan.choice.arrangement.rows);
  EXPECT_EQ(plan.cols.size(), plan.choice.arrangement.cols);
}

// The fastest k ranks of `speeds` in their own order, as a smaller platform.
std::vector<double> fastest(std::vector<double> speeds, std::size_t k) {
  std::sort(speeds.rbegin(), speeds.rend());
  speeds.resize(k);
  return speeds;
}

// Brute force: the plan is within a few percent of the best plan over every count of fastest
// ranks (the counts it skips, inside a class of equal speeds, differ only by the integer
// rounding of shares).
TEST(GemmGridPlan, NearlyTheBestOfEveryProcessCount) {
  std::mt19937 random(20261128);
  std::uniform_int_distribution<int> ranks(2, 7), extent(40, 2500), classes(1, 3);
  const std::vector<double> class_speeds{1.0, 3.0, 40.0, 1e3, 1e5};
  double worst = 1.0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> speeds;
    std::uniform_int_distribution<std::size_t> pick(0, class_speeds.size() - 1);
    std::vector<double> chosen_classes;
    for (int c = classes(random); c > 0; --c) chosen_classes.push_back(class_speeds[pick(random)]);
    std::uniform_int_distribution<std::size_t> member(0, chosen_classes.size() - 1);
    for (int r = ranks(random); r > 0; --r) speeds.push_back(chosen_classes[member(random)]);
    const std::int64_t m = extent(random), n = extent(random);
    const GemmGridPlan plan = plan_gemm_grid(speeds, m, n);
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t k = 1; k <= speeds.size(); ++k) {
      try {
        best = std::min(best, plan_gemm_grid(fastest(speeds, k), m, n).slowest);
      } catch (const InvalidArgument&) {  // no grid of k fits: k is not a candidate
      }
    }
    worst = std::max(worst, plan.slowest / best);
    EXPECT_LE(plan.slowest, 1.10 * best) << "trial " << trial << ": " << speeds.size() << " ranks, " << m << "x" << n;
  }
  std::printf("worst chosen / best over every count: %.3f\n", worst);
}

}  // namespace
}  // namespace hetscal::core
