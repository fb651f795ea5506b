// Native API on ScaLAPACK descriptors: scatter/gather round trips, hetero_pdgemm moving
// submatrices in and out (only sub(C) written), and the refusals of that path.
#include <gtest/gtest.h>

#include <cstring>

#include "api_test_support.hpp"

namespace hetscal::api_test {
namespace {


struct ApiScalapack : ::testing::Test {
  BlacsGrid grid;
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  void SetUp() override {
    const std::vector<double> speeds = rising_speeds();
    ASSERT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), 60, 60, 60, &ctx),
              HETSCAL_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(hetscal_context_free(&ctx), HETSCAL_SUCCESS); }
};

TEST_F(ApiScalapack, ScatterGatherRoundTrip) {
  const int rows = 45, cols = 38;
  const auto big = whole(4, 50, 41);
  BlockCyclic a(grid, big, 50, 41);
  const int lld = std::max(1, hetscal_local_rows(ctx, rows));
  int desch[HETSCAL_DESC_LEN], info = -1;
  hetscal_descinit(desch, rows, cols, ctx, lld, &info);
  ASSERT_EQ(info, 0);
  std::vector<double> h(static_cast<std::size_t>(lld) * std::max(1, hetscal_local_cols(ctx, cols)),
                        0.0);
  hetscal_scatter(rows, cols, a.local.data(), 3, 2, a.desc, h.data(), desch,
                  &info);  // A(3:47, 2:39)
  ASSERT_EQ(info, 0);
  std::vector<double> sub(static_cast<std::size_t>(rows) * cols);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i)
      sub[j * static_cast<std::size_t>(rows) + i] = big[(j + 1) * 50 + (i + 2)];
  }
  EXPECT_EQ(max_error_hetero(ctx, h, sub, rows, cols, lld), 0.0);
  for (double& x : h) x *= 2.0;
  hetscal_gather(rows, cols, a.local.data(), 3, 2, a.desc, h.data(), desch, &info);
  ASSERT_EQ(info, 0);
  std::vector<double> doubled = big;
  for (int j = 1; j < 1 + cols; ++j) {
    for (int i = 2; i < 2 + rows; ++i) doubled[j * static_cast<std::size_t>(50) + i] *= 2.0;
  }
  EXPECT_EQ(a.local, BlockCyclic(grid, doubled, 50, 41).local);
  hetscal_scatter(rows, cols + 1, a.local.data(), 3, 2, a.desc, h.data(), desch, &info);
  EXPECT_EQ(info, -804);  // H is rows×cols, not rows×(cols+1)
  hetscal_scatter(-1, cols, a.local.data(), 3, 2, a.desc, h.data(), desch, &info);
  EXPECT_EQ(info, -1);
}

TEST_F(ApiScalapack, MovedSubmatricesOnlySubCWritten) {
  const int m = 37, n = 29, k = 41;
  const auto a = whole(1, k + 3, m + 1), b = whole(2, k + 2, n + 4), c = whole(3, m + 5, n + 2);
  BlockCyclic da(grid, a, k + 3, m + 1), db(grid, b, k + 2, n + 4), dc(grid, c, m + 5, n + 2);
  int info = -1;  // sub(C) = C(4:40, 2:30) = 2·A(2:42, 2:38)ᵀ·B(3:43, 5:33) - C(4:40, 2:30)
  hetero_pdgemm("T", "N", m, n, k, 2.0, da.local.data(), 2, 2, da.desc, db.local.data(), 3, 5,
                db.desc, -1.0, dc.local.data(), 4, 2, dc.desc, &info);
  ASSERT_EQ(info, 0);
  std::vector<double> expected = c;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      double sum = 0.0;
      for (int l = 0; l < k; ++l)
        sum += a[(i + 1) * static_cast<std::size_t>(k + 3) + (l + 1)] *
               b[(j + 4) * static_cast<std::size_t>(k + 2) + (l + 2)];
      double& out = expected[(j + 1) * static_cast<std::size_t>(m + 5) + (i + 3)];
      out = 2.0 * sum - out;
    }
  }
  EXPECT_EQ(dc.local, BlockCyclic(grid, expected, m + 5, n + 2).local);
}

// alpha = 0 or K = 0 only scale sub(C), in the caller's own layout.
TEST_F(ApiScalapack, AlphaZeroOrEmptyKOnlyScaleC) {
  const auto x = whole(1, 30, 30);
  BlockCyclic a(grid, x, 30, 30), b(grid, x, 30, 30), c(grid, x, 30, 30);
  std::vector<double> scaled = x;
  for (int j = 1; j < 30; ++j) {
    for (int i = 0; i < 30; ++i) scaled[j * 30 + i] *= 0.5;  // sub(C) = C(1:30, 2:30)
  }
  for (const auto& [k, alpha] : {std::pair<int, double>{20, 0.0}, {0, 3.0}}) {
    BlockCyclic out(grid, x, 30, 30);
    int info = -1;
    hetero_pdgemm("N", "N", 30, 29, k, alpha, a.local.data(), 1, 1, a.desc, b.local.data(), 1, 1,
                  b.desc, 0.5, out.local.data(), 1, 2, out.desc, &info);
    ASSERT_EQ(info, 0) << k;
    EXPECT_EQ(out.local, BlockCyclic(grid, scaled, 30, 30).local) << k;
  }
}

TEST_F(ApiScalapack, RefusalsOfTheMovedPath) {
  const auto x = whole(1, 40, 40);
  BlockCyclic a(grid, x, 40, 40), b(grid, x, 40, 40), c(grid, x, 40, 40);
  const std::vector<double> c_before = c.local;
  const auto call = [&](const int* da, const int* db, const int* dc) {
    int info = 0;
    hetero_pdgemm("N", "N", 40, 40, 40, 1.0, a.local.data(), 1, 1, da, b.local.data(), 1, 1, db,
                  1.0, c.local.data(), 1, 1, dc, &info);
    return info;
  };
  int bad[9];
  std::memcpy(bad, b.desc, sizeof bad);
  bad[0] = HETSCAL_DTYPE;
  EXPECT_EQ(call(a.desc, bad, c.desc), -1401);  // kinds mixed
  std::memcpy(bad, b.desc, sizeof bad);
  bad[4] = 0;
  // A 9-entry MB is also the IMB of the 11-entry form PBLAS checks, and IMB comes first.
  EXPECT_EQ(call(a.desc, bad, c.desc), -1405);
  // Fields are numbered 1..9 for ScaLAPACK descriptors too (the header's rule): a bad LLD of A
  // is field 9 of argument 10, as for a hetscal descriptor (PBLAS would say field 11).
  std::memcpy(bad, a.desc, sizeof bad);
  bad[8] = 0;
  EXPECT_EQ(call(bad, b.desc, c.desc), -1009);
  std::memcpy(bad, a.desc, sizeof bad);
  bad[7] = 99;  // CSRC beyond the grid: field 8
  EXPECT_EQ(call(bad, b.desc, c.desc), -1008);
  std::memcpy(bad, c.desc, sizeof bad);
  bad[6] = -1;  // rows replicated on every process row: LLD must then hold all M rows
  bad[8] = 40;
  EXPECT_EQ(call(a.desc, b.desc, bad), HETSCAL_ERR_UNSUPPORTED);  // replicated C
  EXPECT_EQ(c.local, c_before);
  BlacsGrid bare;  // a BLACS grid without a hetscal context
  BlockCyclic other(bare, x, 40, 40);
  EXPECT_EQ(call(other.desc, other.desc, other.desc), HETSCAL_ERR_CONTEXT);
  EXPECT_EQ(c.local, c_before);
}

}  // namespace
}  // namespace hetscal::api_test
