// Native API: hetero_pdgemm on hetscal descriptors (in place) and on ScaLAPACK descriptors
// (moved), scatter/gather, and refused arguments (each with its code, the data untouched).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <limits>

#include "api_test_support.hpp"

namespace hetscal::api_test {
namespace {

constexpr int kM = 70, kN = 50, kK = 40;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// One hetscal matrix: descriptor and this process's local array.
struct Hetero {
  int rows = 0, cols = 0, lld = 1;
  int desc[HETSCAL_DESC_LEN] = {};
  std::vector<double> local;
  Hetero(hetscal_context_t ctx, const std::vector<double>& whole_matrix, int r, int c)
      : rows(r), cols(c) {
    lld = std::max(1, hetscal_local_rows(ctx, rows));
    int info = -1;
    hetscal_descinit(desc, rows, cols, ctx, lld, &info);
    EXPECT_EQ(info, 0);
    local = local_hetero(ctx, whole_matrix, rows, cols, lld);
  }
};

struct ApiGemm : ::testing::Test {
  BlacsGrid grid;
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  void SetUp() override {
    const std::vector<double> speeds = rising_speeds();
    ASSERT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), kM, kN, kK, &ctx),
              HETSCAL_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(hetscal_context_free(&ctx), HETSCAL_SUCCESS); }
};

TEST_F(ApiGemm, InPlaceEveryTranspose) {
  for (const char* ta : {"N", "T"}) {
    for (const char* tb : {"N", "t", "C"}) {
      const bool trans_a = *ta != 'N', trans_b = *tb != 'N';
      const int a_rows = trans_a ? kK : kM, a_cols = trans_a ? kM : kK;
      const int b_rows = trans_b ? kN : kK, b_cols = trans_b ? kK : kN;
      const auto a = whole(1, a_rows, a_cols), b = whole(2, b_rows, b_cols), c = whole(3, kM, kN);
      Hetero ha(ctx, a, a_rows, a_cols), hb(ctx, b, b_rows, b_cols), hc(ctx, c, kM, kN);
      int info = -1;
      hetero_pdgemm(ta, tb, kM, kN, kK, 1.5, ha.local.data(), 1, 1, ha.desc, hb.local.data(), 1, 1,
                    hb.desc, -0.5, hc.local.data(), 1, 1, hc.desc, &info);
      ASSERT_EQ(info, 0) << ta << tb;
      const auto expected =
          reference_gemm(trans_a, trans_b, kM, kN, kK, 1.5, a, a_rows, b, b_rows, -0.5, c);
      EXPECT_EQ(max_error_hetero(ctx, hc.local, expected, kM, kN, hc.lld), 0.0) << ta << tb;
    }
  }
}

TEST_F(ApiGemm, BetaZeroNeverReadsC) {
  const auto a = whole(1, kM, kK), b = whole(2, kK, kN);
  Hetero ha(ctx, a, kM, kK), hb(ctx, b, kK, kN),
      hc(ctx, std::vector<double>(kM * kN, kNaN), kM, kN);
  int info = -1;
  hetero_pdgemm("N", "N", kM, kN, kK, 1.0, ha.local.data(), 1, 1, ha.desc, hb.local.data(), 1, 1,
                hb.desc, 0.0, hc.local.data(), 1, 1, hc.desc, &info);
  ASSERT_EQ(info, 0);
  const auto expected = reference_gemm(false, false, kM, kN, kK, 1.0, a, kM, b, kK, 0.0, {});
  EXPECT_EQ(max_error_hetero(ctx, hc.local, expected, kM, kN, hc.lld), 0.0);
}

// Issue 30: a process 10⁶ times slower than the others is left idle, as the factorizations
// leave it: the product is computed on the others, and the idle one holds nothing.
TEST(ApiGemmIdleProcess, ComputesOnTheOthers) {
  BlacsGrid grid;
  std::vector<double> speeds(static_cast<std::size_t>(world_size()), 1e6);
  speeds.front() = 1.0;
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  ASSERT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), kM, kN, kK, &ctx), HETSCAL_SUCCESS);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (world_size() > 1) {
    EXPECT_EQ(hetscal_context_participates(ctx), rank == 0 ? 0 : 1);
  }
  const auto a = whole(1, kM, kK), b = whole(2, kK, kN), c = whole(3, kM, kN);
  {
    Hetero ha(ctx, a, kM, kK), hb(ctx, b, kK, kN), hc(ctx, c, kM, kN);
    int info = -1;
    hetero_pdgemm("N", "N", kM, kN, kK, 2.0, ha.local.data(), 1, 1, ha.desc, hb.local.data(), 1, 1, hb.desc, 1.0,
                  hc.local.data(), 1, 1, hc.desc, &info);
    ASSERT_EQ(info, 0);
    const auto expected = reference_gemm(false, false, kM, kN, kK, 2.0, a, kM, b, kK, 1.0, c);
    EXPECT_EQ(max_error_hetero(ctx, hc.local, expected, kM, kN, hc.lld), 0.0);
  }
  EXPECT_EQ(hetscal_context_free(&ctx), HETSCAL_SUCCESS);
}

// Each malformed call returns its documented INFO on every process and leaves C alone.
TEST_F(ApiGemm, RefusedArgumentsLeaveDataUntouched) {
  const auto a = whole(1, kM, kK), b = whole(2, kK, kN), c = whole(3, kM, kN);
  Hetero ha(ctx, a, kM, kK), hb(ctx, b, kK, kN), hc(ctx, c, kM, kN);
  BlacsGrid other_grid;
  hetscal_context_t other = HETSCAL_CONTEXT_NULL;
  const std::vector<double> speeds = rising_speeds();
  ASSERT_EQ(hetscal_gemm_context_create(other_grid.context, speeds.data(), kM, kN, kK, &other),
            HETSCAL_SUCCESS);
  struct Case {
    const char* what;
    int expected;
    std::function<void(std::string&, std::string&, int&, int&, int&, int&, int*, int*, int*)>
        change;
  };
  const std::vector<Case> cases{
      {"transa", -1, [](auto& ta, auto&&...) { ta = "X"; }},
      {"transb", -2, [](auto&, auto& tb, auto&&...) { tb = "?"; }},
      {"m < 0", -3, [](auto&, auto&, int& m, auto&&...) { m = -1; }},
      {"n < 0", -4, [](auto&, auto&, int&, int& n, auto&&...) { n = -2; }},
      {"k < 0", -5, [](auto&, auto&, int&, int&, int& k, auto&&...) { k = -3; }},
      {"ia != 1", -8, [](auto&, auto&, int&, int&, int&, int& ia, auto...) { ia = 2; }},
      {"CTXT of A", -1002,
       [](auto&, auto&, int&, int&, int&, int&, int* da, int*, int*) { da[1] = 4711; }},
      {"M_A differs", -1003, [](auto&, auto&, int& m, auto&&...) { m = kM - 1; }},
      {"kind of B", -1401,
       [](auto&, auto&, int&, int&, int&, int&, int*, int* db, int*) { db[0] = 1; }},
      {"NB of B", -1406,
       [](auto&, auto&, int&, int&, int&, int&, int*, int* db, int*) { db[5] += 1; }},
      {"RSRC of C", -1907,
       [](auto&, auto&, int&, int&, int&, int&, int*, int*, int* dc) { dc[6] = 1; }},
      {"LLD of C", -1909,
       [](auto&, auto&, int&, int&, int&, int&, int*, int*, int* dc) { dc[8] = 0; }},
  };
  for (const Case& test : cases) {
    std::string ta = "N", tb = "N";
    int m = kM, n = kN, k = kK, ia = 1;
    int da[9], db[9], dc[9];
    std::memcpy(da, ha.desc, sizeof da);
    std::memcpy(db, hb.desc, sizeof db);
    std::memcpy(dc, hc.desc, sizeof dc);
    test.change(ta, tb, m, n, k, ia, da, db, dc);
    std::vector<double> c_local = hc.local;
    int info = 0;
    hetero_pdgemm(ta.c_str(), tb.c_str(), m, n, k, 1.0, ha.local.data(), ia, 1, da, hb.local.data(),
                  1, 1, db, 1.0, c_local.data(), 1, 1, dc, &info);
    EXPECT_EQ(info, test.expected) << test.what;
    EXPECT_EQ(std::memcmp(c_local.data(), hc.local.data(), c_local.size() * sizeof(double)), 0)
        << test.what;
  }
  // C of another context: -(100·19 + 2).
  Hetero other_c(other, c, kM, kN);
  int info = 0;
  hetero_pdgemm("N", "N", kM, kN, kK, 1.0, ha.local.data(), 1, 1, ha.desc, hb.local.data(), 1, 1,
                hb.desc, 1.0, other_c.local.data(), 1, 1, other_c.desc, &info);
  EXPECT_EQ(info, -1902);
  EXPECT_EQ(hetscal_context_free(&other), HETSCAL_SUCCESS);
}

}  // namespace
}  // namespace hetscal::api_test
