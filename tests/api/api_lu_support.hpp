#pragma once
// Shared by the native LU tests: a general test matrix without near-ties in pivoting (or one
// with zero columns), LAPACK's DGETRF as the independent factorisation, the residual
// ‖P·A − L·U‖/(‖A‖·N·eps) computed from its definition, ScaLAPACK's PDGETRF (linked directly,
// not intercepted) for IPIV in ScaLAPACK's format, and an LU context.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "api_cholesky_support.hpp"

extern "C" {
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void pdgetrf_(const int* m, const int* n, double* a, const int* ia, const int* ja, const int* desca,
              int* ipiv, int* info);
}

namespace hetscal::api_test {

/// Element (i, j) (0-based) of random matrix `which`: in [-1, 1), reproducible everywhere,
/// so that the column maxima LU pivots on are far apart (no near-ties).
inline double random_element(int which, int i, int j) {
  std::uint64_t x = (static_cast<std::uint64_t>(which) << 48) ^
                    (static_cast<std::uint64_t>(i) << 24) ^ static_cast<std::uint64_t>(j);
  x += 0x9E3779B97F4A7C15ull;  // splitmix64
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * 0x1.0p-52 - 1.0;
}

/// The rows×cols random matrix `which`, column-major, with the columns listed in
/// `zero_columns` (0-based) zero: U(j,j) of the first of them is then exactly zero.
inline std::vector<double> random_matrix(int which, int rows, int cols,
                                         const std::vector<int>& zero_columns = {}) {
  std::vector<double> a(static_cast<std::size_t>(rows) * cols);
  for (int j = 0; j < cols; ++j) {
    const bool zero = std::find(zero_columns.begin(), zero_columns.end(), j) != zero_columns.end();
    for (int i = 0; i < rows; ++i)
      a[j * static_cast<std::size_t>(rows) + i] = zero ? 0.0 : random_element(which, i, j);
  }
  return a;
}

/// LAPACK's DGETRF of the whole matrix: the factors over `a`, the pivots (1-based) and INFO.
struct LapackLu {
  std::vector<double> factors;
  std::vector<int> pivots;
  int info = -1;
  LapackLu(std::vector<double> a, int rows, int cols) : factors(std::move(a)) {
    pivots.assign(static_cast<std::size_t>(std::max(1, std::min(rows, cols))), 0);
    const int lda = std::max(1, rows);
    dgetrf_(&rows, &cols, factors.data(), &lda, pivots.data(), &info);
  }
};

/// ‖P·A − L·U‖_F / (‖A‖_F·max(M,N)·eps) with L and U read from the rows×cols `factors` (L unit
/// lower trapezoidal, U upper) and P from `pivots` (1-based, row i interchanged with
/// pivots[i] at step i), all from the definitions; infinite when a pivot is outside A.
inline double lu_residual(const std::vector<double>& a, const std::vector<double>& factors,
                          const std::vector<int>& pivots, int rows, int cols) {
  for (int i = 0; i < std::min(rows, cols); ++i)
    if (pivots[i] < 1 || pivots[i] > rows) return std::numeric_limits<double>::infinity();
  std::vector<double> pa = a;  // P·A: A's rows interchanged in order
  for (int i = 0; i < std::min(rows, cols); ++i)
    for (int j = 0; j < cols; ++j)
      std::swap(pa[j * static_cast<std::size_t>(rows) + i],
                pa[j * static_cast<std::size_t>(rows) + pivots[i] - 1]);
  const auto at = [&](int i, int j) { return factors[j * static_cast<std::size_t>(rows) + i]; };
  double r2 = 0.0, a2 = 0.0;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) {
      double sum = 0.0;
      for (int l = 0; l <= std::min({i, j, std::min(rows, cols) - 1}); ++l)
        sum += (l == i ? 1.0 : at(i, l)) * at(l, j);
      const double pij = pa[j * static_cast<std::size_t>(rows) + i];
      r2 += (pij - sum) * (pij - sum);
      a2 += pij * pij;
    }
  return std::sqrt(r2) /
         (std::sqrt(a2) * std::max(rows, cols) * std::numeric_limits<double>::epsilon());
}

/// ‖op(A)·X − B‖_F / (‖A‖_F·‖X‖_F·N·eps), op(A) = A or Aᵀ, all whole and column-major.
inline double op_solve_residual(bool trans, const std::vector<double>& a,
                                const std::vector<double>& x, const std::vector<double>& b, int n,
                                int nrhs) {
  std::vector<double> op_a = a;
  if (trans)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        op_a[j * static_cast<std::size_t>(n) + i] = a[i * static_cast<std::size_t>(n) + j];
  return solve_residual(op_a, x, b, n, nrhs);
}

/// An LU (GETRF) context on `grid` (speeds rising_speeds()) for an M×N matrix, freed with
/// the object.
struct LuContext : FactorContext {
  LuContext(const BlacsGrid& grid, int layout, int m, int n)
      : FactorContext(grid, HETSCAL_ROUTINE_GETRF, layout, m, n) {}
};

/// ScaLAPACK's own PDGETRF on a copy of `a` (sub(A) at (ia, ja), M×N): its local factors and
/// its IPIV (LOCr(M_A)+MB_A entries, `untouched` where PDGETRF does not write).
struct ScalapackLu {
  std::vector<double> local;
  std::vector<int> ipiv;
  int info = -1;
  ScalapackLu(const BlockCyclic& a, int m, int n, int ia, int ja, int untouched = -7)
      : local(a.local), ipiv(static_cast<std::size_t>(a.lld + a.nb), untouched) {
    pdgetrf_(&m, &n, local.data(), &ia, &ja, a.desc, ipiv.data(), &info);
  }
};

}  // namespace hetscal::api_test
