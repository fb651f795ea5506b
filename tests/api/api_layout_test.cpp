// Native API: routine-generic contexts (GEMM, LU, QR, Cholesky; Cartesian grids and
// patterns), the tile-based local-index queries, and scatter/gather on every layout. The
// oracle is the definition: every tile of a matrix has exactly one owner, that owner alone
// finds it in its local array, local tiles do not overlap, and data put in through the
// queries comes back through hetscal_scatter/hetscal_gather unchanged.
#include <gtest/gtest.h>

#include <tuple>

#include "api_test_support.hpp"

namespace hetscal::api_test {
namespace {

int my_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

struct Kind {
  int routine, layout, m, n, k;
};

const Kind kKinds[] = {
    {HETSCAL_ROUTINE_POTRF, HETSCAL_LAYOUT_CARTESIAN, 90, 90, 0},
    {HETSCAL_ROUTINE_POTRF, HETSCAL_LAYOUT_PATTERN, 90, 90, 0},
    {HETSCAL_ROUTINE_POTRF, HETSCAL_LAYOUT_ANY, 130, 130, 0},
    {HETSCAL_ROUTINE_GETRF, HETSCAL_LAYOUT_PATTERN, 120, 70, 0},
    {HETSCAL_ROUTINE_GEQRF, HETSCAL_LAYOUT_CARTESIAN, 150, 60, 0},
    {HETSCAL_ROUTINE_GEMM, HETSCAL_LAYOUT_PATTERN, 80, 70, 60},
};

struct Context {
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  explicit Context(const BlacsGrid& grid, const Kind& kind) {
    const std::vector<double> speeds = rising_speeds();
    EXPECT_EQ(hetscal_context_create(grid.context, speeds.data(), kind.routine, kind.layout, kind.m,
                                     kind.n, kind.k, &ctx),
              HETSCAL_SUCCESS);
  }
  ~Context() { hetscal_context_free(&ctx); }
};

TEST(ApiLayout, ContextsOfEveryRoutineAndKind) {
  BlacsGrid grid;
  for (const Kind& kind : kKinds) {
    Context c(grid, kind);
    ASSERT_NE(c.ctx, HETSCAL_CONTEXT_NULL) << kind.routine << " " << kind.layout;
    const int layout = hetscal_context_layout(c.ctx);
    if (kind.layout == HETSCAL_LAYOUT_ANY) {
      EXPECT_TRUE(layout == HETSCAL_LAYOUT_CARTESIAN || layout == HETSCAL_LAYOUT_PATTERN);
    } else {
      EXPECT_EQ(layout, kind.layout);
    }
    int nprow = 0, npcol = 0, myrow = -2, mycol = -2;
    ASSERT_EQ(hetscal_context_grid(c.ctx, &nprow, &npcol, &myrow, &mycol), HETSCAL_SUCCESS);
    EXPECT_GE(nprow, 1);
    EXPECT_GE(npcol, 1);
    double seconds = 0, balance = 0, speedup = 0;
    ASSERT_EQ(hetscal_context_prediction(c.ctx, &seconds, &balance, &speedup), HETSCAL_SUCCESS);
    EXPECT_GT(seconds, 0.0);
    EXPECT_GT(balance, 0.0);
    EXPECT_LE(balance, 1.0 + 1e-12);
    EXPECT_GT(speedup, 0.0);
    if (layout == HETSCAL_LAYOUT_PATTERN) {  // no column-major array: the tile queries serve
      EXPECT_EQ(myrow, -1);
      EXPECT_EQ(hetscal_local_rows(c.ctx, kind.m), -1);
      EXPECT_EQ(hetscal_global_col(c.ctx, kind.n, 1), 0);
    }
  }
}

TEST(ApiLayout, RefusesUnknownRoutinesLayoutsAndShapes) {
  BlacsGrid grid;
  const std::vector<double> speeds = rising_speeds();
  const std::tuple<int, int, int, int, int> bad[] = {
      {99, HETSCAL_LAYOUT_ANY, 10, 10, 10},                    // routine
      {HETSCAL_ROUTINE_POTRF, 7, 10, 10, 0},                   // layout
      {HETSCAL_ROUTINE_POTRF, HETSCAL_LAYOUT_ANY, 10, 12, 0},  // M ≠ N
      {HETSCAL_ROUTINE_GETRF, HETSCAL_LAYOUT_ANY, 0, 12, 0},   // M < 1
      {HETSCAL_ROUTINE_GEMM, HETSCAL_LAYOUT_ANY, 10, 12, 0},   // K < 1
  };
  for (const auto& [routine, layout, m, n, k] : bad) {
    hetscal_context_t ctx = 5;
    EXPECT_EQ(hetscal_context_create(grid.context, speeds.data(), routine, layout, m, n, k, &ctx),
              HETSCAL_ERR_ARGUMENT)
        << routine << " " << layout << " " << m << "x" << n << "x" << k;
    EXPECT_EQ(ctx, HETSCAL_CONTEXT_NULL);
  }
  EXPECT_EQ(hetscal_context_layout(4711), -1);
}

// Every tile of several matrix sizes has one owner, found in that owner's local array only,
// at distinct places inside hetscal_local_elements().
TEST(ApiLayout, TileQueriesCoverEveryMatrixOnce) {
  BlacsGrid grid;
  for (const Kind& kind : kKinds) {
    Context c(grid, kind);
    for (const auto& [m, n] : {std::pair<int, int>{kind.m, kind.n}, {57, 203}, {1, 1}, {0, 4}}) {
      int desc[HETSCAL_DESC_LEN], info = -1;
      hetscal_descinit(desc, m, n, c.ctx, std::max(1, hetscal_local_rows(c.ctx, m)), &info);
      ASSERT_EQ(info, 0);
      const long long elements = hetscal_local_elements(desc);
      ASSERT_GE(elements, 0);
      std::vector<int> used(static_cast<std::size_t>(elements), 0);
      std::int64_t mine = 0, total = 0;
      for_each_local_element(desc, [&](int, int, std::size_t k) {
        ASSERT_LT(k, used.size());
        ++used[k];
        ++mine;
      });
      EXPECT_EQ(std::count_if(used.begin(), used.end(), [](int u) { return u > 1; }), 0);
      MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
      EXPECT_EQ(total, std::int64_t{m} * n) << m << "x" << n;
      const int tile = desc[4];
      for (int tj = 1; (tj - 1) * tile < n; ++tj)
        for (int ti = 1; (ti - 1) * tile < m; ++ti) {
          const int owner = hetscal_tile_owner(desc, ti, tj);
          EXPECT_EQ(hetscal_local_tile(desc, ti, tj, nullptr, nullptr), owner == my_rank() ? 1 : 0);
        }
      EXPECT_EQ(hetscal_local_tile(desc, 0, 1, nullptr, nullptr), -2);
      EXPECT_EQ(hetscal_tile_owner(desc, 1, (n + tile - 1) / tile + 1), -1);
    }
  }
  int bad[HETSCAL_DESC_LEN] = {1, 0, 10, 10, 2, 2, 0, 0, 10};  // a ScaLAPACK descriptor
  EXPECT_EQ(hetscal_local_tile(bad, 1, 1, nullptr, nullptr), -1);
  EXPECT_EQ(hetscal_local_elements(bad), -1);
}

// A ScaLAPACK submatrix scattered into each layout lands where the tile queries say, and
// gathers back unchanged.
TEST(ApiLayout, ScatterAndGatherOnEveryLayout) {
  BlacsGrid grid;
  const int rows = 45, cols = 38;
  const auto big = whole(3, 50, 41);
  std::vector<double> expected(static_cast<std::size_t>(rows) * cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      expected[j * static_cast<std::size_t>(rows) + i] = big[(j + 1) * 50 + i + 2];
  for (const Kind& kind : kKinds) {
    Context c(grid, kind);
    BlockCyclic a(grid, big, 50, 41);
    int desch[HETSCAL_DESC_LEN], info = -1;
    hetscal_descinit(desch, rows, cols, c.ctx, std::max(1, hetscal_local_rows(c.ctx, rows)), &info);
    ASSERT_EQ(info, 0);
    std::vector<double> h(static_cast<std::size_t>(std::max(1LL, hetscal_local_elements(desch))),
                          0.0);
    hetscal_scatter(rows, cols, a.local.data(), 3, 2, a.desc, h.data(), desch, &info);
    ASSERT_EQ(info, 0);
    EXPECT_EQ(whole_of(desch, h), expected);
    for (double& x : h) x *= 2.0;
    hetscal_gather(rows, cols, a.local.data(), 3, 2, a.desc, h.data(), desch, &info);
    ASSERT_EQ(info, 0);
    std::vector<double> doubled = big;
    for (int j = 1; j < 1 + cols; ++j)
      for (int i = 2; i < 2 + rows; ++i) doubled[j * static_cast<std::size_t>(50) + i] *= 2.0;
    EXPECT_EQ(a.gathered(grid), doubled);
  }
}

// HETSCAL_LAYOUT_ANY keeps the kind predicted faster: its predicted time is the lesser of
// the two kinds' (the same model, the same speeds, hence the same candidates). GEMM: Cholesky,
// LU and QR contexts choose by the time moves included (api_cholesky_planner_test.cpp,
// api_lu_planner_test.cpp), which the predicted time of hetscal_context_prediction leaves out.
TEST(ApiLayout, AnyKeepsTheFasterPrediction) {
  BlacsGrid grid;
  for (const int n : {64, 400}) {
    double seconds[3] = {};
    for (const int layout :
         {HETSCAL_LAYOUT_ANY, HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN}) {
      Context c(grid, {HETSCAL_ROUTINE_GEMM, layout, n, n, n});
      ASSERT_EQ(hetscal_context_prediction(c.ctx, &seconds[layout], nullptr, nullptr),
                HETSCAL_SUCCESS);
    }
    EXPECT_DOUBLE_EQ(seconds[HETSCAL_LAYOUT_ANY],
                     std::min(seconds[HETSCAL_LAYOUT_CARTESIAN], seconds[HETSCAL_LAYOUT_PATTERN]))
        << n;
  }
}

// hetero_pdgemm in place on a pattern context: C = A·B exactly (small integers).
TEST(ApiLayout, GemmInPlaceOnAPattern) {
  BlacsGrid grid;
  const int m = 50, n = 30, k = 40;
  Context c(grid, {HETSCAL_ROUTINE_GEMM, HETSCAL_LAYOUT_PATTERN, m, n, k});
  ASSERT_EQ(hetscal_context_layout(c.ctx), HETSCAL_LAYOUT_PATTERN);
  int desca[HETSCAL_DESC_LEN], descb[HETSCAL_DESC_LEN], descc[HETSCAL_DESC_LEN], info = -1;
  hetscal_descinit(desca, m, k, c.ctx, 1, &info);
  hetscal_descinit(descb, k, n, c.ctx, 1, &info);
  hetscal_descinit(descc, m, n, c.ctx, 1, &info);
  const std::vector<double> a = whole(1, m, k), b = whole(2, k, n);
  const std::vector<double> la = local_of(desca, a), lb = local_of(descb, b);
  std::vector<double> lc =
      local_of(descc, std::vector<double>(static_cast<std::size_t>(m) * n, std::nan("")));
  hetero_pdgemm("N", "N", m, n, k, 1.0, la.data(), 1, 1, desca, lb.data(), 1, 1, descb, 0.0,
                lc.data(), 1, 1, descc, &info);
  ASSERT_EQ(info, 0);
  EXPECT_EQ(whole_of(descc, lc), reference_gemm(false, false, m, n, k, 1.0, a, m, b, k, 0.0, {}));
}

}  // namespace
}  // namespace hetscal::api_test
