// Native API: context creation (good and bad speeds, sizes, grids), queries, descriptors and
// local sizes consistent with the layout.
#include <gtest/gtest.h>

#include <limits>
#include <numeric>

#include "api_test_support.hpp"

namespace hetscal::api_test {
namespace {

TEST(ApiContext, CreatesAPlanForRisingSpeeds) {
  BlacsGrid grid;
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  const std::vector<double> speeds = rising_speeds();
  ASSERT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 300, 200, 100, &ctx),
            HETSCAL_SUCCESS);
  int nprow = 0, npcol = 0, myrow = -2, mycol = -2;
  ASSERT_EQ(hetscal_context_grid(ctx, &nprow, &npcol, &myrow, &mycol), HETSCAL_SUCCESS);
  EXPECT_LE(nprow * npcol, world_size());
  EXPECT_GE(hetscal_context_tile(ctx), 1);
  EXPECT_EQ(hetscal_context_participates(ctx), myrow >= 0 ? 1 : 0);
  double seconds = 0, balance = 0, speedup = 0;
  ASSERT_EQ(hetscal_context_prediction(ctx, &seconds, &balance, &speedup), HETSCAL_SUCCESS);
  EXPECT_GT(seconds, 0.0);
  EXPECT_GT(balance, 0.0);
  EXPECT_LE(balance, 1.0 + 1e-12);
  if (world_size() > 1) {
    EXPECT_GT(balance, 0.8);  // speeds 1..P: the plan balances well
    EXPECT_GT(speedup, 1.0);  // and beats an even split of the same grid
  }
  EXPECT_EQ(hetscal_context_free(&ctx), HETSCAL_SUCCESS);
  EXPECT_EQ(ctx, HETSCAL_CONTEXT_NULL);
  EXPECT_EQ(hetscal_context_free(&ctx), HETSCAL_ERR_CONTEXT);
  EXPECT_EQ(hetscal_context_tile(ctx), -1);
}

TEST(ApiContext, MeasuresSpeedsWhenNoneAreGiven) {
  BlacsGrid grid;
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  ASSERT_EQ(hetscal_gemm_context_create(grid.context, nullptr, 200, 200, 200, &ctx),
            HETSCAL_SUCCESS);
  EXPECT_EQ(hetscal_context_free(&ctx), HETSCAL_SUCCESS);
}

TEST(ApiContext, RefusesBadSpeeds) {
  BlacsGrid grid;
  const double bad_values[] = {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::infinity()};
  for (double bad : bad_values) {
    std::vector<double> speeds = rising_speeds();
    speeds.back() = bad;
    hetscal_context_t ctx = 12345;
    EXPECT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 100, 100, 100, &ctx),
              HETSCAL_ERR_SPEEDS)
        << bad;
    EXPECT_EQ(ctx, HETSCAL_CONTEXT_NULL);
  }
  if (world_size() > 1) {  // processes that disagree are refused on every process
    std::vector<double> speeds = rising_speeds();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) speeds[0] = 7.0;
    hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
    EXPECT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 100, 100, 100, &ctx),
              HETSCAL_ERR_SPEEDS);
  }
}

TEST(ApiContext, RefusesBadSizesHandlesAndGrids) {
  BlacsGrid grid;
  const std::vector<double> speeds = rising_speeds();
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  EXPECT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 0, 10, 10, &ctx),
            HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 10, -1, 10, &ctx),
            HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 10, 10, 0, &ctx),
            HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 10, 10, 10, nullptr),
            HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(hetscal_gemm_context_create(-1, speeds.data(), 10, 10, 10, &ctx), HETSCAL_ERR_CONTEXT);
  if (world_size() > 1) {  // a 1×1 matrix has one tile: no grid of P >= 2 equal processes fits
    const std::vector<double> equal(speeds.size(), 1.0);
    EXPECT_EQ(hetscal_gemm_context_create(grid.context, equal.data(), 1, 1, 1, &ctx), HETSCAL_ERR_NO_PLAN);
  }
  EXPECT_EQ(ctx, HETSCAL_CONTEXT_NULL);
  EXPECT_EQ(hetscal_context_grid(4711, nullptr, nullptr, nullptr, nullptr), HETSCAL_ERR_CONTEXT);
  EXPECT_EQ(hetscal_context_prediction(4711, nullptr, nullptr, nullptr), HETSCAL_ERR_CONTEXT);
  EXPECT_EQ(hetscal_local_rows(4711, 10), -1);
}

// Issue 30: unequal speeds are planned on the fastest processes that pay, as the
// factorizations are; a 1×1 matrix goes to the fastest process alone, and the others hold none.
TEST(ApiContext, PlansAMatrixTooSmallForEveryProcessOnTheFastest) {
  BlacsGrid grid;
  const std::vector<double> speeds = rising_speeds();
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  ASSERT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 1, 1, 1, &ctx), HETSCAL_SUCCESS);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool fastest = rank == world_size() - 1;
  EXPECT_EQ(hetscal_context_participates(ctx), fastest ? 1 : 0);
  EXPECT_EQ(hetscal_local_rows(ctx, 1), fastest ? 1 : 0);
  EXPECT_EQ(hetscal_context_free(&ctx), HETSCAL_SUCCESS);
}

// Every element of an m×n matrix lives on exactly one process, and local rows map to
// distinct, increasing global rows.
TEST(ApiContext, LocalSizesCoverTheMatrixOnce) {
  BlacsGrid grid;
  const std::vector<double> speeds = rising_speeds();
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  ASSERT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 130, 90, 70, &ctx),
            HETSCAL_SUCCESS);
  for (const auto& [m, n] : {std::pair<int, int>{130, 90}, {57, 203}, {0, 5}, {1, 1}}) {
    const int lr = hetscal_local_rows(ctx, m), lc = hetscal_local_cols(ctx, n);
    ASSERT_GE(lr, 0);
    ASSERT_GE(lc, 0);
    std::int64_t mine = std::int64_t{lr} * lc, total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(total, std::int64_t{m} * n) << m << "x" << n;
    int previous = 0;
    for (int il = 1; il <= lr; ++il) {
      const int i = hetscal_global_row(ctx, m, il);
      EXPECT_GT(i, previous);
      EXPECT_LE(i, m);
      previous = i;
    }
    EXPECT_EQ(hetscal_global_row(ctx, m, lr + 1), 0);
    EXPECT_EQ(hetscal_global_col(ctx, n, 0), 0);
  }
  EXPECT_EQ(hetscal_local_rows(ctx, -1), -1);
  EXPECT_EQ(hetscal_context_free(&ctx), HETSCAL_SUCCESS);
}

TEST(ApiDescriptor, InitialisesAndRefuses) {
  BlacsGrid grid;
  const std::vector<double> speeds = rising_speeds();
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  ASSERT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 120, 80, 60, &ctx),
            HETSCAL_SUCCESS);
  const int lld = std::max(1, hetscal_local_rows(ctx, 120));
  int desc[HETSCAL_DESC_LEN] = {}, info = 99;
  hetscal_descinit(desc, 120, 80, ctx, lld, &info);
  EXPECT_EQ(info, 0);
  const int tile = hetscal_context_tile(ctx);
  const std::vector<int> expected{HETSCAL_DTYPE, ctx, 120, 80, tile, tile, 0, 0, lld};
  EXPECT_EQ(std::vector<int>(desc, desc + HETSCAL_DESC_LEN), expected);
  hetscal_descinit(desc, -1, 80, ctx, lld, &info);
  EXPECT_EQ(info, -2);
  hetscal_descinit(desc, 120, -3, ctx, lld, &info);
  EXPECT_EQ(info, -3);
  hetscal_descinit(desc, 120, 80, 4711, lld, &info);
  EXPECT_EQ(info, -4);
  hetscal_descinit(desc, 120, 80, ctx, 0, &info);
  EXPECT_EQ(info, -5);
  EXPECT_EQ(desc[8], lld);  // filled anyway, LLD raised to the minimum, as DESCINIT does
  EXPECT_EQ(hetscal_context_free(&ctx), HETSCAL_SUCCESS);
}

}  // namespace
}  // namespace hetscal::api_test
