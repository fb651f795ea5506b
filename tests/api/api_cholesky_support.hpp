#pragma once
// Shared by the native Cholesky tests: a symmetric positive definite test matrix (or one
// whose leading minor of a chosen order is not), LAPACK's DPOTRF as the independent factor,
// the residuals the results are checked with, and a Cholesky context.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "api_test_support.hpp"

extern "C" void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);

namespace hetscal::api_test {

/// The N×N symmetric matrix, column-major: small off-diagonal values and N on the diagonal
/// (diagonally dominant, hence positive definite), except a diagonal of -N at order
/// `not_pd_at` (1-based; 0: none), where the leading minor stops being positive definite.
inline std::vector<double> spd_matrix(int n, int not_pd_at = 0) {
  std::vector<double> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[j * static_cast<std::size_t>(n) + i] =
          i == j ? (i + 1 == not_pd_at ? -n : n)
                 : 0.1 * (element(1, std::min(i, j) + 1, std::max(i, j) + 1));
  return a;
}

/// `x` with NaN in the triangle `uplo` does not name (strictly), to show any read of it.
inline std::vector<double> with_nan_outside(char uplo, std::vector<double> x, int n) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (uplo == 'L' ? i < j : i > j) x[j * static_cast<std::size_t>(n) + i] = std::nan("");
  return x;
}

/// LAPACK's factor of `a` (the `uplo` triangle; the other left as in `a`).
inline std::vector<double> lapack_factor(char uplo, std::vector<double> a, int n) {
  int info = -1;
  dpotrf_(&uplo, &n, a.data(), &n, &info);
  return a;
}

/// ‖A − LLᵀ‖_F / (‖A‖_F·N·eps) (or Uᵀ·U) with the factor read from the `uplo` triangle of f.
inline double factor_residual(char uplo, const std::vector<double>& a, const std::vector<double>& f,
                              int n) {
  const auto factor = [&](int i, int j) {  // L(i, j), or U(j, i)
    const bool inside = uplo == 'L' ? i >= j : i <= j;
    return inside ? f[j * static_cast<std::size_t>(n) + i] : 0.0;
  };
  double r2 = 0.0, a2 = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double sum = 0.0;
      for (int l = 0; l < n; ++l)
        sum += uplo == 'L' ? factor(i, l) * factor(j, l) : factor(l, i) * factor(l, j);
      const double aij = a[j * static_cast<std::size_t>(n) + i];
      r2 += (aij - sum) * (aij - sum);
      a2 += aij * aij;
    }
  return std::sqrt(r2) / (std::sqrt(a2) * n * std::numeric_limits<double>::epsilon());
}

/// ‖A·X − B‖_F / (‖A‖_F·‖X‖_F·N·eps) for N×N A and N×NRHS X, B, all column-major.
inline double solve_residual(const std::vector<double>& a, const std::vector<double>& x,
                             const std::vector<double>& b, int n, int nrhs) {
  double r2 = 0.0, a2 = 0.0, x2 = 0.0;
  for (double v : a) a2 += v * v;
  for (double v : x) x2 += v * v;
  for (int j = 0; j < nrhs; ++j)
    for (int i = 0; i < n; ++i) {
      double sum = -b[j * static_cast<std::size_t>(n) + i];
      for (int l = 0; l < n; ++l)
        sum += a[l * static_cast<std::size_t>(n) + i] * x[j * static_cast<std::size_t>(n) + l];
      r2 += sum * sum;
    }
  return std::sqrt(r2) / (std::sqrt(a2 * x2) * n * std::numeric_limits<double>::epsilon());
}

/// Same bits (NaN equal to NaN): what "untouched" means for arrays that hold NaN.
inline bool bit_identical(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t k = 0; k < x.size(); ++k)
    if (std::memcmp(&x[k], &y[k], sizeof(double)) != 0) return false;
  return true;
}

/// A context of `routine` on `grid` for an M×N matrix (speeds rising_speeds()), freed with
/// the object.
struct FactorContext {
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  FactorContext(const BlacsGrid& grid, int routine, int layout, int m, int n, int k = 0) {
    const std::vector<double> speeds = rising_speeds();
    EXPECT_EQ(hetscal_context_create(grid.context, speeds.data(), routine, layout, m, n, k, &ctx),
              HETSCAL_SUCCESS);
  }
  ~FactorContext() { hetscal_context_free(&ctx); }
  FactorContext(const FactorContext&) = delete;
  FactorContext& operator=(const FactorContext&) = delete;
  /// A descriptor of an m×n matrix of the context.
  std::vector<int> desc(int m, int n) const {
    std::vector<int> d(HETSCAL_DESC_LEN);
    int info = -1;
    hetscal_descinit(d.data(), m, n, ctx, std::max(1, hetscal_local_rows(ctx, m)), &info);
    EXPECT_EQ(info, 0);
    return d;
  }
};

/// A Cholesky context of order N.
struct CholeskyContext : FactorContext {
  CholeskyContext(const BlacsGrid& grid, int layout, int n)
      : FactorContext(grid, HETSCAL_ROUTINE_POTRF, layout, n, n) {}
};

/// hetero_pdpotrf in place on the N×N matrix `a` in context `c`'s layout: SUCCESS, INFO 0,
/// factor residual below `threshold`, the other triangle (NaN) and the padding bit-identical.
inline void expect_factored_in_place(const CholeskyContext& c, const std::vector<double>& a, int n,
                                     char uplo, double threshold = 10.0) {
  const std::vector<int> desc = c.desc(n, n);
  std::vector<double> local = local_of(desc.data(), with_nan_outside(uplo, a, n));
  const std::vector<double> before = local;
  int info = -99;
  const char option[2] = {uplo, '\0'};
  EXPECT_EQ(hetero_pdpotrf(option, n, local.data(), 1, 1, desc.data(), &info), HETSCAL_SUCCESS);
  EXPECT_EQ(info, 0);
  EXPECT_LT(factor_residual(uplo, a, whole_of(desc.data(), local), n), threshold) << uplo;
  bool untouched = true;
  for (std::size_t k = 0; k < local.size(); ++k)
    if (std::isnan(before[k]) || before[k] == -99.0)
      untouched &= std::memcmp(&local[k], &before[k], sizeof(double)) == 0;
  EXPECT_TRUE(untouched) << uplo;
}

}  // namespace hetscal::api_test
