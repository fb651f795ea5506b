// Native API: hetero_pdpotrs with a factor LAPACK's DPOTRF computed on the whole matrix (an
// oracle independent of hetscal's Cholesky): the factor in place in Cartesian and pattern
// layouts with B in place or on a ScaLAPACK descriptor, both on ScaLAPACK descriptors at
// offsets; residual ‖A·X − B‖/(‖A‖‖X‖·N·eps); argument errors with their codes and B untouched.
#include <gtest/gtest.h>

#include "api_cholesky_support.hpp"

namespace hetscal::api_test {
namespace {

constexpr double kThreshold = 10.0;

TEST(ApiPotrs, FactorInPlaceOnEveryLayout) {
  BlacsGrid grid;
  const int n = 37, nrhs = 5;
  const std::vector<double> a = spd_matrix(n), b = whole(2, n, nrhs);
  for (const int layout : {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN}) {
    CholeskyContext c(grid, layout, n);
    for (const char uplo : {'L', 'U'}) {
      const std::vector<int> desca = c.desc(n, n), descb = c.desc(n, nrhs);
      const std::vector<double> factor = with_nan_outside(uplo, lapack_factor(uplo, a, n), n);
      const std::vector<double> local_a = local_of(desca.data(), factor);
      std::vector<double> local_b = local_of(descb.data(), b);
      int info = -99;
      const char option[2] = {uplo, '\0'};
      EXPECT_EQ(hetero_pdpotrs(option, n, nrhs, local_a.data(), 1, 1, desca.data(), local_b.data(),
                               1, 1, descb.data(), &info),
                HETSCAL_SUCCESS);
      EXPECT_EQ(info, 0);
      EXPECT_LT(solve_residual(a, whole_of(descb.data(), local_b), b, n, nrhs), kThreshold)
          << layout << uplo;

      // The same right-hand sides on a ScaLAPACK descriptor (B(2:, 3:) of a larger matrix).
      const std::vector<double> big = whole(3, n + 4, nrhs + 3);
      BlockCyclic scalapack_b(grid, big, n + 4, nrhs + 3, 4);
      EXPECT_EQ(hetero_pdpotrs(option, n, nrhs, local_a.data(), 1, 1, desca.data(),
                               scalapack_b.local.data(), 2, 3, scalapack_b.desc, &info),
                HETSCAL_SUCCESS);
      EXPECT_EQ(info, 0);
      const std::vector<double> after = scalapack_b.gathered(grid);
      std::vector<double> x(static_cast<std::size_t>(n) * nrhs), rhs(x.size());
      for (int j = 0; j < nrhs; ++j)
        for (int i = 0; i < n; ++i) {
          x[j * static_cast<std::size_t>(n) + i] =
              after[(j + 2) * static_cast<std::size_t>(n + 4) + i + 1];
          rhs[j * static_cast<std::size_t>(n) + i] =
              big[(j + 2) * static_cast<std::size_t>(n + 4) + i + 1];
        }
      EXPECT_LT(solve_residual(a, x, rhs, n, nrhs), kThreshold) << layout << uplo;
      std::vector<double> outside = after;  // everything but sub(B) as it was
      for (int j = 0; j < nrhs; ++j)
        for (int i = 0; i < n; ++i)
          outside[(j + 2) * static_cast<std::size_t>(n + 4) + i + 1] =
              big[(j + 2) * static_cast<std::size_t>(n + 4) + i + 1];
      EXPECT_EQ(outside, big);
    }
  }
}

TEST(ApiPotrs, BothOnScalapackDescriptorsAtOffsets) {
  BlacsGrid grid;
  const int n = 29, nrhs = 3, offset = 3;
  CholeskyContext c(grid, HETSCAL_LAYOUT_ANY, 64);  // supplies the speeds
  const std::vector<double> a = spd_matrix(n), rhs = whole(5, n, nrhs);
  for (const char uplo : {'L', 'U'}) {
    // sub(A) = A(4:4+n-1, 4:4+n-1) of a larger matrix holding the factor; NaN elsewhere.
    const int big_n = n + offset + 2;
    std::vector<double> big_a(static_cast<std::size_t>(big_n) * big_n, std::nan(""));
    const std::vector<double> factor = with_nan_outside(uplo, lapack_factor(uplo, a, n), n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        big_a[(j + offset) * static_cast<std::size_t>(big_n) + i + offset] =
            factor[j * static_cast<std::size_t>(n) + i];
    BlockCyclic da(grid, big_a, big_n, big_n, 5);
    std::vector<double> big_b(static_cast<std::size_t>(n + offset) * nrhs, 0.0);
    for (int j = 0; j < nrhs; ++j)
      for (int i = 0; i < n; ++i)
        big_b[j * static_cast<std::size_t>(n + offset) + i + offset] =
            rhs[j * static_cast<std::size_t>(n) + i];
    BlockCyclic db(grid, big_b, n + offset, nrhs, 5);
    int info = -99;
    const char option[2] = {uplo, '\0'};
    EXPECT_EQ(hetero_pdpotrs(option, n, nrhs, da.local.data(), offset + 1, offset + 1, da.desc,
                             db.local.data(), offset + 1, 1, db.desc, &info),
              HETSCAL_SUCCESS);
    EXPECT_EQ(info, 0);
    const std::vector<double> after = db.gathered(grid);
    std::vector<double> x(static_cast<std::size_t>(n) * nrhs);
    for (int j = 0; j < nrhs; ++j)
      for (int i = 0; i < n; ++i)
        x[j * static_cast<std::size_t>(n) + i] =
            after[j * static_cast<std::size_t>(n + offset) + i + offset];
    EXPECT_LT(solve_residual(a, x, rhs, n, nrhs), kThreshold) << uplo;
  }
}

TEST(ApiPotrs, BadArgumentsGiveTheirCodesAndLeaveBUntouched) {
  BlacsGrid grid;
  const int n = 20, nrhs = 2;
  CholeskyContext c(grid, HETSCAL_LAYOUT_ANY, n), other(grid, HETSCAL_LAYOUT_ANY, n);
  const std::vector<int> desca = c.desc(n, n), descb = c.desc(n, nrhs),
                         wrong_size = c.desc(n + 1, nrhs), other_b = other.desc(n, nrhs);
  const std::vector<double> local_a = local_of(desca.data(), lapack_factor('L', spd_matrix(n), n));
  const std::vector<double> b0 = local_of(descb.data(), whole(2, n, nrhs));
  struct Case {
    const char* uplo;
    int n, nrhs, ia, ib;
    const int* descb;
    int expected;
  };
  const Case cases[] = {
      {"X", n, nrhs, 1, 1, descb.data(), -1},      {"L", -1, nrhs, 1, 1, descb.data(), -2},
      {"L", n, -1, 1, 1, descb.data(), -3},        {"L", n, nrhs, 2, 1, descb.data(), -5},
      {"L", n, nrhs, 1, 2, descb.data(), -9},      {"L", n, nrhs, 1, 1, wrong_size.data(), -1103},
      {"L", n, nrhs, 1, 1, other_b.data(), -1102},
  };
  for (const Case& k : cases) {
    std::vector<double> b = b0;
    int info = 0;
    EXPECT_EQ(hetero_pdpotrs(k.uplo, k.n, k.nrhs, local_a.data(), k.ia, 1, desca.data(), b.data(),
                             k.ib, 1, k.descb, &info),
              HETSCAL_ERR_ARGUMENT);
    EXPECT_EQ(info, k.expected);
    EXPECT_TRUE(bit_identical(b, b0)) << k.expected;
  }
  // A factor on a ScaLAPACK descriptor with B on a hetscal one is refused as another kind.
  BlockCyclic da(grid, spd_matrix(n), n, n, 4);
  std::vector<double> b = b0;
  int info = 0;
  EXPECT_EQ(hetero_pdpotrs("U", n, nrhs, da.local.data(), 1, 1, da.desc, b.data(), 1, 1,
                           descb.data(), &info),
            HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(info, -1101);
  EXPECT_TRUE(bit_identical(b, b0));
}

}  // namespace
}  // namespace hetscal::api_test
