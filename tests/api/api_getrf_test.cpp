// Native API: hetero_pdgetrf in place on Cartesian and pattern layouts (square, tall and
// wide) and on ScaLAPACK descriptors at offsets, against the definition: residual
// ‖P·A − L·U‖/(‖A‖·N·eps), pivots equal to LAPACK's DGETRF's (hetscal's format) or to
// ScaLAPACK's PDGETRF's whole IPIV array (ScaLAPACK's format, unwritten entries included);
// everything outside sub(A) bit-identical; INFO for exactly singular matrices; argument
// errors with PDGETRF's codes and A and IPIV untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "api_lu_support.hpp"

namespace hetscal::api_test {
namespace {

constexpr double kThreshold = 10.0;
constexpr int kUnwritten = -7;  // what IPIV holds before the call

/// hetero_pdgetrf in place on the M×N matrix `a` in context c's layout: SUCCESS, `info` as
/// expected, pivots and factors checked, the local array's padding untouched.
void expect_factored_in_place(const LuContext& c, const std::vector<double>& a, int m, int n,
                              int expected_info = 0) {
  const std::vector<int> desc = c.desc(m, n);
  std::vector<double> local = local_of(desc.data(), a);
  const std::vector<double> before = local;
  std::vector<int> ipiv(static_cast<std::size_t>(std::max(1, std::min(m, n))), kUnwritten);
  int info = -99;
  EXPECT_EQ(hetero_pdgetrf(m, n, local.data(), 1, 1, desc.data(), ipiv.data(), &info),
            HETSCAL_SUCCESS);
  EXPECT_EQ(info, expected_info);
  const LapackLu lapack(a, m, n);
  EXPECT_EQ(info, lapack.info);
  if (std::min(m, n) > 0) {
    EXPECT_EQ(ipiv, lapack.pivots);
  }
  EXPECT_LT(lu_residual(a, whole_of(desc.data(), local), ipiv, m, n), kThreshold);
  bool padding_untouched = true;
  for (std::size_t k = 0; k < local.size(); ++k)
    if (before[k] == -99.0) padding_untouched &= local[k] == -99.0;
  EXPECT_TRUE(padding_untouched);
}

TEST(ApiGetrf, InPlaceOnEveryLayoutAndShape) {
  BlacsGrid grid;
  const std::array<std::pair<int, int>, 4> shapes{{{1, 1}, {45, 45}, {70, 38}, {33, 61}}};
  for (const auto& [m, n] : shapes) {
    const std::vector<double> a = random_matrix(1, m, n);
    for (const int layout :
         {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN, HETSCAL_LAYOUT_ANY}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " " + std::to_string(layout));
      const int planned = 8 * world_size();  // enough tiles for every grid of the ranks
      LuContext c(grid, layout, std::max(m, planned), std::max(n, planned));
      expect_factored_in_place(c, a, m, n);
    }
  }
}

TEST(ApiGetrf, ZeroColumnsGiveTheFirstZeroPivotOnEveryProcess) {
  BlacsGrid grid;
  const int n = 40;
  for (const int layout : {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN}) {
    LuContext c(grid, layout, n, n);
    expect_factored_in_place(c, random_matrix(2, n, n, {17, 30}), n, n, 18);
    expect_factored_in_place(c, random_matrix(2, n, n, {0}), n, n, 1);
    expect_factored_in_place(c, random_matrix(2, n, n - 5, {n - 6}), n, n - 5, n - 5);
  }
  LuContext speeds(grid, HETSCAL_LAYOUT_ANY, n, n);
  const BlockCyclic da(grid, random_matrix(3, n, n, {23}), n, n, 8);  // moved: the same INFO
  std::vector<double> local = da.local;
  std::vector<int> ipiv(static_cast<std::size_t>(da.lld + da.nb), kUnwritten);
  int info = -99;
  EXPECT_EQ(hetero_pdgetrf(n, n, local.data(), 1, 1, da.desc, ipiv.data(), &info), HETSCAL_SUCCESS);
  EXPECT_EQ(info, 24);
}

TEST(ApiGetrf, ScalapackDescriptorAtAnOffsetGivesScalapacksPivots) {
  BlacsGrid grid;
  LuContext c(grid, HETSCAL_LAYOUT_ANY, 64, 64);  // supplies the speeds
  const int nb = 4, offset = 2 * nb;
  const std::array<std::pair<int, int>, 3> shapes{{{37, 37}, {41, 29}, {29, 41}}};
  for (const auto& [m, n] : shapes) {
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
    const int rows = m + offset + 3, cols = n + offset + 2;
    const std::vector<double> big = random_matrix(4, rows, cols);
    BlockCyclic da(grid, big, rows, cols, nb);
    const ScalapackLu scalapack(da, m, n, offset + 1, offset + 1, kUnwritten);
    ASSERT_EQ(scalapack.info, 0);
    std::vector<int> ipiv(scalapack.ipiv.size(), kUnwritten);
    int info = -99;
    EXPECT_EQ(
        hetero_pdgetrf(m, n, da.local.data(), offset + 1, offset + 1, da.desc, ipiv.data(), &info),
        HETSCAL_SUCCESS);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(ipiv, scalapack.ipiv);  // every entry: the written ones and the others
    const std::vector<double> after = da.gathered(grid);
    std::vector<double> factors(static_cast<std::size_t>(m) * n), a(factors.size());
    std::vector<double> outside = after;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        const std::size_t k = (j + offset) * static_cast<std::size_t>(rows) + i + offset;
        factors[j * static_cast<std::size_t>(m) + i] = after[k];
        a[j * static_cast<std::size_t>(m) + i] = big[k];
        outside[k] = big[k];
      }
    const LapackLu lapack(a, m, n);
    EXPECT_EQ(info, lapack.info);
    EXPECT_LT(lu_residual(a, factors, lapack.pivots, m, n), kThreshold);
    EXPECT_TRUE(bit_identical(outside, big));
  }
}

TEST(ApiGetrf, QuickReturnsAsScalapacks) {
  BlacsGrid grid;
  LuContext c(grid, HETSCAL_LAYOUT_PATTERN, 30, 30);
  const std::vector<int> desc = c.desc(0, 5);
  double unused = 7.0;
  int ipiv = kUnwritten, info = -99;
  EXPECT_EQ(hetero_pdgetrf(0, 5, &unused, 1, 1, desc.data(), &ipiv, &info), HETSCAL_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(ipiv, kUnwritten);
  EXPECT_EQ(unused, 7.0);
  // ScaLAPACK descriptors: sub(A) with no column leaves everything as it was; an A of one
  // row only sets IPIV(1) = 1, as PDGETRF does, whatever A holds.
  for (const int rows : {6, 1}) {
    BlockCyclic da(grid, random_matrix(5, rows, 6, {0}), rows, 6, 4);
    const std::vector<double> before = da.local;
    std::vector<int> ipivs(static_cast<std::size_t>(da.lld + da.nb), kUnwritten), expected = ipivs;
    if (rows == 1) expected[0] = 1;
    const int n = rows == 1 ? 6 : 0;
    EXPECT_EQ(hetero_pdgetrf(rows, n, da.local.data(), 1, 1, da.desc, ipivs.data(), &info),
              HETSCAL_SUCCESS);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(ipivs, expected);
    EXPECT_EQ(da.local, before);
  }
}

TEST(ApiGetrf, BadArgumentsGiveTheirCodesAndLeaveAAndIpivUntouched) {
  BlacsGrid grid;
  const int n = 24;
  LuContext c(grid, HETSCAL_LAYOUT_ANY, n, n);
  const std::vector<int> desc = c.desc(n, n), wide = c.desc(n, n + 1);
  std::vector<int> bad_tile = desc;
  bad_tile[4] += 1;
  const std::vector<double> a0 = local_of(desc.data(), random_matrix(1, n, n));
  struct Case {
    int m, n, ia, ja;
    const int* desc;
    int expected;
  };
  const Case cases[] = {
      {-1, n, 1, 1, desc.data(), -1},      {n, -2, 1, 1, desc.data(), -2},
      {n, n, 3, 1, desc.data(), -4},       {n, n, 1, 2, desc.data(), -5},
      {n, n, 1, 1, wide.data(), -604},     {n, n, 1, 1, bad_tile.data(), -605},
      {n - 1, n, 1, 1, desc.data(), -603},
  };
  for (const Case& k : cases) {
    std::vector<double> a = a0;
    std::vector<int> ipiv(static_cast<std::size_t>(n), kUnwritten);
    int info = 0;
    EXPECT_EQ(hetero_pdgetrf(k.m, k.n, a.data(), k.ia, k.ja, k.desc, ipiv.data(), &info),
              HETSCAL_ERR_ARGUMENT);
    EXPECT_EQ(info, k.expected);
    EXPECT_TRUE(bit_identical(a, a0)) << k.expected;
    EXPECT_EQ(ipiv, std::vector<int>(static_cast<std::size_t>(n), kUnwritten)) << k.expected;
  }
  // ScaLAPACK descriptors: PDGETRF's codes, block alignment and square blocks included.
  BlockCyclic scalapack(grid, random_matrix(1, n, n), n, n, 4);
  std::vector<int> short_lld(scalapack.desc, scalapack.desc + 9), oblong(short_lld);
  short_lld[8] = 0;
  oblong[4] = 2;  // MB_A = 2, NB_A = 4
  const Case scalapack_cases[] = {
      {-1, n, 1, 1, scalapack.desc, -1},        {n - 1, n - 1, 2, 1, scalapack.desc, -4},
      {n - 2, n - 2, 1, 3, scalapack.desc, -5}, {n, n, 1, 1, oblong.data(), -606},
      {n, n, 1, 1, short_lld.data(), -609},
  };
  const std::vector<double> s0 = scalapack.local;
  for (const Case& k : scalapack_cases) {
    std::vector<double> a = s0;
    std::vector<int> ipiv(static_cast<std::size_t>(scalapack.lld + 4), kUnwritten);
    int info = 0;
    EXPECT_EQ(hetero_pdgetrf(k.m, k.n, a.data(), k.ia, k.ja, k.desc, ipiv.data(), &info),
              HETSCAL_ERR_ARGUMENT);
    EXPECT_EQ(info, k.expected);
    EXPECT_TRUE(bit_identical(a, s0)) << k.expected;
    EXPECT_EQ(ipiv, std::vector<int>(ipiv.size(), kUnwritten)) << k.expected;
  }
  // A ScaLAPACK descriptor of a BLACS grid without a hetscal context: nothing to plan with.
  BlacsGrid bare;
  BlockCyclic da(bare, random_matrix(1, n, n), n, n, 4);
  const std::vector<double> before = da.local;
  std::vector<int> ipiv(static_cast<std::size_t>(da.lld + 4), kUnwritten);
  int info = 0;
  EXPECT_EQ(hetero_pdgetrf(n, n, da.local.data(), 1, 1, da.desc, ipiv.data(), &info),
            HETSCAL_ERR_CONTEXT);
  EXPECT_EQ(info, HETSCAL_INFO_FAILED(HETSCAL_ERR_CONTEXT));
  EXPECT_EQ(da.local, before);
}

}  // namespace
}  // namespace hetscal::api_test
