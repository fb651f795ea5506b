// Native API: hetero_pdgeqrf in place on Cartesian and pattern layouts (square, tall and
// wide) and on ScaLAPACK descriptors at offsets: residuals ‖A − Q·R‖/(‖A‖·N·eps) and
// ‖I − QᵀQ‖/(M·eps) from the reflectors' definition, the factors and TAU against LAPACK's
// DGEQRF (hetscal's format) or ScaLAPACK's PDGEQRF (its whole TAU array, unwritten entries
// included); everything outside sub(A) bit-identical; argument errors with PDGEQRF's codes
// and A and TAU untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "api_qr_support.hpp"

namespace hetscal::api_test {
namespace {

constexpr double kThreshold = 10.0;
constexpr double kRounding = 1e-12;  // factors and τ against LAPACK's, relative
constexpr double kUnwritten = -7.5;  // what TAU holds before the call

void expect_factored_in_place(const QrContext& c, const Dense& a) {
  const int m = a.rows, n = a.cols, k = std::min(m, n);
  const std::vector<int> desc = c.desc(m, n);
  std::vector<double> local = local_of(desc.data(), a.x);
  const std::vector<double> before = local;
  std::vector<double> tau(static_cast<std::size_t>(std::max(1, k)), kUnwritten);
  int info = -99;
  EXPECT_EQ(hetero_pdgeqrf(m, n, local.data(), 1, 1, desc.data(), tau.data(), &info),
            HETSCAL_SUCCESS);
  EXPECT_EQ(info, 0);
  const Dense factors{m, n, whole_of(desc.data(), local)};
  const LapackQr lapack(a);
  EXPECT_LT(max_relative_difference(factors.x, lapack.factors.x), kRounding);
  EXPECT_LT(max_relative_difference(tau, lapack.tau), kRounding);
  EXPECT_LT(qr_residual(a, factors, tau), kThreshold);
  EXPECT_LT(orthogonality(factors, tau, k), kThreshold);
  bool padding_untouched = true;
  for (std::size_t e = 0; e < local.size(); ++e)
    if (before[e] == -99.0) padding_untouched &= local[e] == -99.0;
  EXPECT_TRUE(padding_untouched);
}

TEST(ApiGeqrf, InPlaceOnEveryLayoutAndShape) {
  BlacsGrid grid;
  const std::array<std::pair<int, int>, 4> shapes{{{1, 1}, {45, 45}, {70, 38}, {33, 61}}};
  for (const auto& [m, n] : shapes) {
    const Dense a{m, n, random_matrix(1, m, n)};
    for (const int layout :
         {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN, HETSCAL_LAYOUT_ANY}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " " + std::to_string(layout));
      const int planned = 8 * world_size();  // enough tiles for every grid of the ranks
      QrContext c(grid, layout, std::max(m, planned), std::max(n, planned));
      expect_factored_in_place(c, a);
    }
  }
}

TEST(ApiGeqrf, ScalapackDescriptorAtAnOffsetGivesPdgeqrfsFactorsAndTau) {
  BlacsGrid grid;
  QrContext c(grid, HETSCAL_LAYOUT_ANY, 64, 64);  // supplies the speeds
  const int nb = 4;
  struct Shape {
    int m, n, ia, ja;
  };
  // Offsets on and off block boundaries (PDGEQRF has no alignment condition).
  const std::array<Shape, 4> shapes{{{37, 37, 9, 9}, {41, 29, 3, 6}, {29, 41, 1, 7}, {1, 5, 2, 2}}};
  for (const Shape& s : shapes) {
    SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n));
    const int rows = s.m + s.ia + 3, cols = s.n + s.ja + 2;
    const std::vector<double> big = random_matrix(4, rows, cols);
    BlockCyclic da(grid, big, rows, cols, nb);
    const ScalapackQr scalapack(da, s.m, s.n, s.ia, s.ja, kUnwritten);
    ASSERT_EQ(scalapack.info, 0);
    std::vector<double> tau(scalapack.tau.size(), kUnwritten);
    int info = -99;
    EXPECT_EQ(hetero_pdgeqrf(s.m, s.n, da.local.data(), s.ia, s.ja, da.desc, tau.data(), &info),
              HETSCAL_SUCCESS);
    EXPECT_EQ(info, 0);
    EXPECT_LT(max_relative_difference(tau, scalapack.tau), kRounding);  // every entry
    for (std::size_t e = 0; e < tau.size(); ++e)  // unwritten entries exactly so
      if (scalapack.tau[e] == kUnwritten) {
        EXPECT_EQ(tau[e], kUnwritten) << e;
      }
    EXPECT_LT(max_relative_difference(da.local, scalapack.local), kRounding);
    const std::vector<double> after = da.gathered(grid);
    Dense factors{s.m, s.n, std::vector<double>(static_cast<std::size_t>(s.m) * s.n)};
    Dense a = factors;
    std::vector<double> outside = after;
    for (int j = 0; j < s.n; ++j)
      for (int i = 0; i < s.m; ++i) {
        const std::size_t e = (j + s.ja - 1) * static_cast<std::size_t>(rows) + i + s.ia - 1;
        factors(i, j) = after[e];
        a(i, j) = big[e];
        outside[e] = big[e];
      }
    const LapackQr lapack(a);
    EXPECT_LT(qr_residual(a, factors, lapack.tau), kThreshold);
    EXPECT_TRUE(bit_identical(outside, big));
  }
}

TEST(ApiGeqrf, EmptyMatricesAreQuickReturns) {
  BlacsGrid grid;
  QrContext c(grid, HETSCAL_LAYOUT_PATTERN, 30, 30);
  const std::vector<int> desc = c.desc(0, 5);
  double unused = 7.0, tau = kUnwritten;
  int info = -99;
  EXPECT_EQ(hetero_pdgeqrf(0, 5, &unused, 1, 1, desc.data(), &tau, &info), HETSCAL_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(tau, kUnwritten);
  EXPECT_EQ(unused, 7.0);
  BlockCyclic da(grid, random_matrix(5, 6, 6), 6, 6, 4);
  const std::vector<double> before = da.local;
  std::vector<double> taus(8, kUnwritten);
  EXPECT_EQ(hetero_pdgeqrf(6, 0, da.local.data(), 1, 1, da.desc, taus.data(), &info),
            HETSCAL_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_EQ(taus, std::vector<double>(8, kUnwritten));
  EXPECT_EQ(da.local, before);
}

TEST(ApiGeqrf, BadArgumentsGiveTheirCodesAndLeaveAAndTauUntouched) {
  BlacsGrid grid;
  const int n = 24;
  QrContext c(grid, HETSCAL_LAYOUT_ANY, n, n);
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
  const std::vector<double> tau0(static_cast<std::size_t>(n), kUnwritten);
  const auto expect_refused = [&](const Case& k, const std::vector<double>& before) {
    std::vector<double> a = before, tau = tau0;
    int info = 0;
    EXPECT_EQ(hetero_pdgeqrf(k.m, k.n, a.data(), k.ia, k.ja, k.desc, tau.data(), &info),
              HETSCAL_ERR_ARGUMENT);
    EXPECT_EQ(info, k.expected);
    EXPECT_TRUE(bit_identical(a, before)) << k.expected;
    EXPECT_EQ(tau, tau0) << k.expected;
  };
  for (const Case& k : cases) expect_refused(k, a0);
  // ScaLAPACK descriptors: CHK1MAT's codes, as PDGEQRF reports them (DTYPE first).
  BlockCyclic scalapack(grid, random_matrix(1, n, n), n, n, 4);
  std::vector<int> short_lld(scalapack.desc, scalapack.desc + 9), typed(short_lld);
  short_lld[8] = 0;
  typed[0] = 2;
  const Case scalapack_cases[] = {
      {-1, n, 1, 1, scalapack.desc, -1},    {n, n, 2, 1, scalapack.desc, -1},
      {n, n, 0, 1, scalapack.desc, -4},     {-1, n, 1, 1, typed.data(), -601},
      {n, n, 1, 1, short_lld.data(), -609},
  };
  for (const Case& k : scalapack_cases) expect_refused(k, scalapack.local);
  BlacsGrid bare;  // a ScaLAPACK descriptor of a BLACS grid without a hetscal context
  BlockCyclic da(bare, random_matrix(1, n, n), n, n, 4);
  const std::vector<double> before = da.local;
  std::vector<double> tau = tau0;
  int info = 0;
  EXPECT_EQ(hetero_pdgeqrf(n, n, da.local.data(), 1, 1, da.desc, tau.data(), &info),
            HETSCAL_ERR_CONTEXT);
  EXPECT_EQ(info, HETSCAL_INFO_FAILED(HETSCAL_ERR_CONTEXT));
  EXPECT_EQ(da.local, before);
  EXPECT_EQ(tau, tau0);
}

}  // namespace
}  // namespace hetscal::api_test
