// Native API: hetero_pdgetrs with factors independent of hetscal's LU: LAPACK's DGETRF on
// the whole matrix (in place in Cartesian and pattern layouts, pivots in hetscal's format,
// which is DGETRF's) and ScaLAPACK's own PDGETRF (both operands on ScaLAPACK descriptors at
// offsets, IPIV in ScaLAPACK's format); TRANS N and T; residual ‖op(A)·X − B‖/(‖A‖‖X‖·N·eps);
// everything outside sub(B) untouched; argument errors with PDGETRS's codes, B untouched.
#include <gtest/gtest.h>

#include "api_lu_support.hpp"

namespace hetscal::api_test {
namespace {

constexpr double kThreshold = 10.0;

/// sub(X) = X(row+1:row+rows, col+1:col+cols) of a whole column-major matrix of `ld` rows.
std::vector<double> submatrix(const std::vector<double>& x, int ld, int row, int col, int rows,
                              int cols) {
  std::vector<double> sub(static_cast<std::size_t>(rows) * cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      sub[j * static_cast<std::size_t>(rows) + i] =
          x[(j + col) * static_cast<std::size_t>(ld) + i + row];
  return sub;
}

TEST(ApiGetrs, FactorsInPlaceOnEveryLayout) {
  BlacsGrid grid;
  const int n = 41, nrhs = 4;
  const std::vector<double> a = random_matrix(1, n, n), b = whole(2, n, nrhs);
  const LapackLu lu(a, n, n);
  ASSERT_EQ(lu.info, 0);
  for (const int layout : {HETSCAL_LAYOUT_CARTESIAN, HETSCAL_LAYOUT_PATTERN}) {
    LuContext c(grid, layout, n, n);
    const std::vector<int> desca = c.desc(n, n), descb = c.desc(n, nrhs);
    const std::vector<double> local_a = local_of(desca.data(), lu.factors);
    for (const char trans : {'N', 'T', 'C'}) {
      SCOPED_TRACE(std::to_string(layout) + trans);
      const char option[2] = {trans, '\0'};
      std::vector<double> local_b = local_of(descb.data(), b);
      int info = -99;
      EXPECT_EQ(hetero_pdgetrs(option, n, nrhs, local_a.data(), 1, 1, desca.data(),
                               lu.pivots.data(), local_b.data(), 1, 1, descb.data(), &info),
                HETSCAL_SUCCESS);
      EXPECT_EQ(info, 0);
      EXPECT_LT(op_solve_residual(trans != 'N', a, whole_of(descb.data(), local_b), b, n, nrhs),
                kThreshold);

      // The same right-hand sides as B(2:, 3:) of a larger ScaLAPACK matrix: moved in and back.
      const std::vector<double> big = whole(3, n + 4, nrhs + 3);
      BlockCyclic scalapack_b(grid, big, n + 4, nrhs + 3, 4);
      EXPECT_EQ(
          hetero_pdgetrs(option, n, nrhs, local_a.data(), 1, 1, desca.data(), lu.pivots.data(),
                         scalapack_b.local.data(), 2, 3, scalapack_b.desc, &info),
          HETSCAL_SUCCESS);
      EXPECT_EQ(info, 0);
      std::vector<double> after = scalapack_b.gathered(grid);
      EXPECT_LT(op_solve_residual(trans != 'N', a, submatrix(after, n + 4, 1, 2, n, nrhs),
                                  submatrix(big, n + 4, 1, 2, n, nrhs), n, nrhs),
                kThreshold);
      for (int j = 0; j < nrhs; ++j)  // everything but sub(B) as it was
        for (int i = 0; i < n; ++i)
          after[(j + 2) * static_cast<std::size_t>(n + 4) + i + 1] =
              big[(j + 2) * static_cast<std::size_t>(n + 4) + i + 1];
      EXPECT_EQ(after, big);
    }
  }
}

TEST(ApiGetrs, ScalapackFactorsAndPivotsAtAnOffset) {
  BlacsGrid grid;
  const int n = 37, nrhs = 3, nb = 4, offset = 2 * nb, big_n = n + offset + 3;
  LuContext c(grid, HETSCAL_LAYOUT_ANY, 64, 64);  // supplies the speeds
  // sub(A) = A(9:9+n-1, 9:9+n-1) of a larger random matrix, factored by ScaLAPACK.
  const std::vector<double> big_a = random_matrix(4, big_n, big_n);
  const std::vector<double> a = submatrix(big_a, big_n, offset, offset, n, n);
  const BlockCyclic da(grid, big_a, big_n, big_n, nb);
  const ScalapackLu lu(da, n, n, offset + 1, offset + 1);
  ASSERT_EQ(lu.info, 0);
  const std::vector<double> big_b = whole(5, n + offset, nrhs);
  const std::vector<double> rhs = submatrix(big_b, n + offset, offset, 0, n, nrhs);
  for (const char trans : {'N', 'T'}) {
    BlockCyclic db(grid, big_b, n + offset, nrhs, nb);
    int info = -99;
    const char option[2] = {trans, '\0'};
    EXPECT_EQ(hetero_pdgetrs(option, n, nrhs, lu.local.data(), offset + 1, offset + 1, da.desc,
                             lu.ipiv.data(), db.local.data(), offset + 1, 1, db.desc, &info),
              HETSCAL_SUCCESS);
    EXPECT_EQ(info, 0);
    const std::vector<double> x = submatrix(db.gathered(grid), n + offset, offset, 0, n, nrhs);
    EXPECT_LT(op_solve_residual(trans == 'T', a, x, rhs, n, nrhs), kThreshold) << trans;
  }
}

TEST(ApiGetrs, BadArgumentsGiveTheirCodesAndLeaveBUntouched) {
  BlacsGrid grid;
  const int n = 20, nrhs = 2;
  LuContext c(grid, HETSCAL_LAYOUT_ANY, n, n), other(grid, HETSCAL_LAYOUT_ANY, n, n);
  const std::vector<int> desca = c.desc(n, n), descb = c.desc(n, nrhs),
                         wrong_size = c.desc(n + 1, nrhs), other_b = other.desc(n, nrhs);
  const LapackLu lu(random_matrix(1, n, n), n, n);
  const std::vector<double> local_a = local_of(desca.data(), lu.factors);
  const std::vector<double> b0 = local_of(descb.data(), whole(2, n, nrhs));
  std::vector<int> beyond = lu.pivots, zero = lu.pivots;
  beyond[n - 1] = n + 1;
  zero[3] = 0;
  struct Case {
    const char* trans;
    int n, nrhs, ia, ib;
    const int* ipiv;
    const int* descb;
    int expected;
  };
  const int* pivots = lu.pivots.data();
  const Case cases[] = {
      {"X", n, nrhs, 1, 1, pivots, descb.data(), -1},
      {"N", -1, nrhs, 1, 1, pivots, descb.data(), -2},
      {"N", n, -1, 1, 1, pivots, descb.data(), -3},
      {"N", n, nrhs, 2, 1, pivots, descb.data(), -5},
      {"T", n, nrhs, 1, 1, beyond.data(), descb.data(), -8},
      {"N", n, nrhs, 1, 1, zero.data(), descb.data(), -8},
      {"N", n, nrhs, 1, 2, pivots, descb.data(), -10},
      {"N", n, nrhs, 1, 1, pivots, wrong_size.data(), -1203},
      {"N", n, nrhs, 1, 1, pivots, other_b.data(), -1202},
  };
  for (const Case& k : cases) {
    std::vector<double> b = b0;
    int info = 0;
    EXPECT_EQ(hetero_pdgetrs(k.trans, k.n, k.nrhs, local_a.data(), k.ia, 1, desca.data(), k.ipiv,
                             b.data(), k.ib, 1, k.descb, &info),
              HETSCAL_ERR_ARGUMENT);
    EXPECT_EQ(info, k.expected);
    EXPECT_TRUE(bit_identical(b, b0)) << k.expected;
  }
  // Factors on a ScaLAPACK descriptor with B on a hetscal one: refused as another kind.
  BlockCyclic da(grid, random_matrix(1, n, n), n, n, 4);
  std::vector<double> b = b0;
  int info = 0;
  EXPECT_EQ(hetero_pdgetrs("N", n, nrhs, da.local.data(), 1, 1, da.desc, pivots, b.data(), 1, 1,
                           descb.data(), &info),
            HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(info, -1201);
  EXPECT_TRUE(bit_identical(b, b0));
}

}  // namespace
}  // namespace hetscal::api_test
