// The planned GEMM layout (runtime/gemm_plan.hpp, shared by the shim and the API): extents,
// aligned operands, balance, refusal, the candidate the time model prices, and the cache.
#include "runtime/gemm_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/common/error.hpp"
#include "runtime/plan_cache.hpp"

namespace hetscal::runtime {
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
  EXPECT_THROW(plan_gemm_layout({1, 1, 1}, 1, 1, 4), InvalidArgument);
  EXPECT_NO_THROW(plan_gemm_layout({1, 1, 1}, 1, 3, 4));  // a 1×3 grid fits
  // Unequal speeds are also planned on the fastest ranks alone, where a 1×1 grid fits.
  EXPECT_EQ(plan_gemm_layout({1, 2, 3}, 1, 1, 4).c->grid().rank(0, 0), 2);
}

TEST(ShimGemmPlan, TileBounds) {
  EXPECT_EQ(core::planned_tile(1, 1, 8), 1);
  EXPECT_EQ(core::planned_tile(100000, 100000, 4), 256);  // the cap: OpenBLAS near peak
  EXPECT_EQ(core::planned_tile(4000, 4000, 2), 256);
  EXPECT_EQ(core::planned_tile(1000, 4000, 4), 125);
  EXPECT_EQ(core::planned_tile(160, 400, 4), 20);
}

// Beyond 64 × 64 ranks every p × ⌊P/p⌋ grid has a side longer than a panel plan takes: the
// plan uses the fastest ranks of a grid of sides <= 64 instead of refusing every PDGEMM.
TEST(ShimGemmPlan, ThousandsOfRanksGetAGridOfBoundedSides) {
  std::vector<double> speeds;
  for (int r = 0; r < 16384; ++r) speeds.push_back(static_cast<double>(1 << (r % 3)));
  const GemmLayout plan = plan_gemm_layout(speeds, 100000, 100000, 100000);
  const layout::ProcessGrid& grid = plan.c->grid();
  EXPECT_LE(grid.nprow(), 64);
  EXPECT_LE(grid.npcol(), 64);
  EXPECT_GT(grid.nprow() * grid.npcol(), 1024);
  for (int r = 0; r < grid.nprow(); ++r)
    for (int c = 0; c < grid.npcol(); ++c) EXPECT_EQ(speeds[static_cast<std::size_t>(grid.rank(r, c))], 4.0);
}

TEST(ShimGemmPlan, NoTileNarrowerThanTheKernelRunsEfficiently) {
  // PDGETRI's 600x32x504 PDGEMM on 4 ranks (issue 29): planned_tile alone gives 4, and the
  // tiles tried went down to 1 (rank-1 updates). With the kernel measured, 16 is the
  // narrowest at half the peak, and C's 32 columns allow it.
  core::KernelRate kernel;
  kernel.measured = {{1, 0.05}, {4, 0.25}, {16, 0.6}, {64, 0.9}, {256, 1.0}};
  EXPECT_EQ(core::planned_tile(600, 32, 4), 4);
  EXPECT_LE(plan_gemm_layout({1, 1, 1, 3}, 600, 32, 504).tile, 4);
  const GemmLayout plan = plan_gemm_layout({1, 1, 1, 3}, 600, 32, 504, 0, kernel);
  EXPECT_GE(plan.tile, 16);
  EXPECT_EQ(plan.c->rows().extent(), 600);
  EXPECT_EQ(plan.c->cols().extent(), 32);
  // A matrix narrower than the efficient tile gets its whole width.
  EXPECT_EQ(plan_gemm_layout({1, 3}, 600, 8, 504, 0, kernel).tile, 8);
}

TEST(RuntimePlanCache, PlansEachKeyOnceAndRemembersRefusals) {
  PlanCache cache(2);
  int made = 0;
  const auto gemm = [&](std::int64_t m, std::int64_t n, std::int64_t k) {
    const PlanKey key{{core::Routine::Gemm, ScalarType::Double}, {m, n, k}, 0, 0, {}};
    return cache.find_or_make<GemmLayout>(key, [&] {
      ++made;
      return plan_gemm_layout({1, 1}, m, n, k);
    });
  };
  const auto first = gemm(50, 40, 30);
  EXPECT_EQ(gemm(50, 40, 30), first);
  EXPECT_EQ(made, 1);
  EXPECT_THROW(gemm(1, 1, 1), InvalidArgument);
  EXPECT_THROW(gemm(1, 1, 1), InvalidArgument);
  EXPECT_EQ(made, 2) << "a refused shape is not planned again";
  gemm(60, 60, 60);  // full: emptied first
  EXPECT_EQ(cache.size(), 1u);
}

TEST(RuntimePlanCache, OtherFailuresAreNotRemembered) {
  PlanCache cache;
  const PlanKey key{{core::Routine::Cholesky, ScalarType::Float}, {10, 10, 0}, 1, 0, {}};
  int attempts = 0;
  const std::function<int()> failing = [&]() -> int {
    ++attempts;
    throw std::bad_alloc();
  };
  EXPECT_THROW(cache.find_or_make<int>(key, failing), std::bad_alloc);
  EXPECT_EQ(*cache.find_or_make<int>(key, [] { return 7; }), 7) << "tried again";
  EXPECT_EQ(attempts, 1);
}

TEST(RuntimePlanCache, KeysTellRoutinesTypesOptionsSpeedsAndCallerLayoutsApart) {
  PlanCache cache;
  int made = 0;
  const auto plan = [&](PlanKey key) { return *cache.find_or_make<int>(key, [&] { return ++made; }); };
  const PlanKey base{{core::Routine::LU, ScalarType::Double}, {100, 100, 0}, 0, 0, {}};
  PlanKey other_type = base, other_options = base, other_speeds = base, other_routine = base;
  PlanKey other_caller = base;
  other_caller.caller_layout = {2, 2, 64, 64, 0, 0, 0, 1, 2, 3};
  other_type.routine.scalar = ScalarType::ComplexDouble;
  other_options.options = 1;
  other_speeds.speeds_version = 1;
  other_routine.routine.routine = core::Routine::QR;
  EXPECT_EQ(plan(base), 1);
  EXPECT_EQ(plan(other_type), 2);
  EXPECT_EQ(plan(other_options), 3);
  EXPECT_EQ(plan(other_speeds), 4);
  EXPECT_EQ(plan(other_routine), 5);
  EXPECT_EQ(plan(other_caller), 6);
  EXPECT_EQ(plan(base), 1);
}

TEST(RuntimeGemmPlan, CandidateMatchesTheLayout) {
  const GemmLayout plan = plan_gemm_layout({1, 2, 3, 4}, 1000, 800, 600);
  const core::Candidate& c = plan.candidate;
  EXPECT_EQ(c.kind, core::CandidateKind::Cartesian);
  EXPECT_EQ(static_cast<std::int64_t>(c.tile), plan.tile);
  EXPECT_EQ(c.rows * c.cols, 4u);
  EXPECT_EQ(c.row_share.size(), c.rows);
  EXPECT_EQ(c.col_share.size(), c.cols);
  EXPECT_EQ(c.rows, static_cast<std::size_t>(plan.c->grid().nprow()));
  for (std::size_t i = 0; i < c.rows; ++i) {
    for (std::size_t j = 0; j < c.cols; ++j) {
      EXPECT_EQ(static_cast<int>(c.owner[i * c.cols + j]),
                plan.c->grid().rank(static_cast<int>(i), static_cast<int>(j)));
    }
  }
}

}  // namespace
}  // namespace hetscal::runtime
