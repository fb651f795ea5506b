// The planned GEMM layout (kernels/gemm_layout.hpp, shared by the shim and the API): extents, aligned operands, balance, refusal, and the cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "kernels/gemm_layout.hpp"
#include "kernels/gemm_plan_cache.hpp"

namespace hetscal::kernels {
namespace {

// Elements of C per rank divided by the rank's speed: the time each rank computes.
std::map<int, double> time_per_rank(const layout::CartesianDistribution& c, const std::vector<double>& speeds) {
  std::map<int, double> time;
  for (std::int64_t i = 0; i < c.rows().count(); ++i) {
    for (std::int64_t j = 0; j < c.cols().count(); ++j) {
      const int owner = c.owner({i, j});
      time[owner] += static_cast<double>(c.rows().size(i) * c.cols().size(j)) / speeds[owner];
    }
  }
  return time;
}

TEST(ShimGemmPlan, OperandsAlignedWithC) {
  const std::vector<double> speeds{1, 2, 3, 4};
  const GemmLayout plan = plan_gemm_layout(speeds, 300, 270, 130);
  EXPECT_EQ(plan.c->rows().extent(), 300);
  EXPECT_EQ(plan.c->cols().extent(), 270);
  EXPECT_EQ(plan.a->cols().extent(), 130);
  EXPECT_EQ(plan.b->rows().extent(), 130);
  for (std::int64_t i = 0; i < plan.c->rows().count(); ++i) EXPECT_EQ(plan.a->grid_row(i), plan.c->grid_row(i));
  for (std::int64_t j = 0; j < plan.c->cols().count(); ++j) EXPECT_EQ(plan.b->grid_col(j), plan.c->grid_col(j));
  std::int64_t rows = 0, cols = 0;
  for (auto r : plan.load.rows) rows += r;
  for (auto c : plan.load.cols) cols += c;
  EXPECT_EQ(rows, 300);
  EXPECT_EQ(cols, 270);
}

TEST(ShimGemmPlan, BalancesWhereBlockCyclicCannot) {
  const std::vector<double> speeds{1, 2, 3, 4};
  const GemmLayout plan = plan_gemm_layout(speeds, 2000, 2000, 2000);
  const auto time = time_per_rank(*plan.c, speeds);
  double slowest = 0, total = 0;
  for (const auto& entry : time) slowest = std::max(slowest, entry.second);
  for (int r = 0; r < 4; ++r) total += speeds[r];
  const double ideal = 2000.0 * 2000.0 / total;
  // Block-cyclic on 2×2 gives the speed-1 rank a quarter: 1e6 / 1 = 2.5 × ideal.
  EXPECT_LT(slowest, 1.15 * ideal);
}

TEST(ShimGemmPlan, RefusesMatricesSmallerThanEveryGrid) {
  EXPECT_THROW(plan_gemm_layout({1, 2, 3}, 1, 1, 4), InvalidArgument);
  EXPECT_NO_THROW(plan_gemm_layout({1, 2, 3}, 1, 3, 4));  // a 1×3 grid fits
}

TEST(ShimGemmPlan, TileBounds) {
  EXPECT_EQ(planned_tile(1, 1, 8), 1);
  EXPECT_EQ(planned_tile(100000, 100000, 4), 256);  // the cap: OpenBLAS near peak
  EXPECT_EQ(planned_tile(4000, 4000, 2), 256);
  EXPECT_EQ(planned_tile(1000, 4000, 4), 125);
  EXPECT_EQ(planned_tile(160, 400, 4), 20);
}

TEST(ShimPlanCache, PlansEachShapeOnce) {
  PlanCache cache({1, 3}, 2);
  const auto first = cache.gemm(50, 40, 30);
  EXPECT_EQ(cache.gemm(50, 40, 30), first);
  EXPECT_EQ(cache.plans_made(), 1u);
  EXPECT_THROW(cache.gemm(1, 1, 1), InvalidArgument);
  EXPECT_THROW(cache.gemm(1, 1, 1), InvalidArgument);
  EXPECT_EQ(cache.plans_made(), 2u);
  cache.gemm(60, 60, 60);  // full: emptied first
  EXPECT_EQ(cache.size(), 1u);
}

}  // namespace
}  // namespace hetscal::kernels
