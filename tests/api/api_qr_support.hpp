#pragma once
// Shared by the native QR tests: Q applied from its definition (the reflectors one by one,
// H(i) = I − τ_i·v_i·v_iᵀ, no blocking), the residuals ‖A − Q·R‖/(‖A‖·max(M,N)·eps) and
// ‖I − QᵀQ‖/(M·eps) built from it, LAPACK's DGEQRF as the independent factorisation, and
// ScaLAPACK's PDGEQRF and PDORMQR (linked directly, not intercepted) on copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "api_lu_support.hpp"

extern "C" {
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info);
void pdgeqrf_(const int* m, const int* n, double* a, const int* ia, const int* ja, const int* desca,
              double* tau, double* work, const int* lwork, int* info);
void pdormqr_(const char* side, const char* trans, const int* m, const int* n, const int* k,
              const double* a, const int* ia, const int* ja, const int* desca, const double* tau,
              double* c, const int* ic, const int* jc, const int* descc, double* work,
              const int* lwork, int* info);
}

namespace hetscal::api_test {

/// Column-major rows×cols matrix.
struct Dense {
  int rows = 0, cols = 0;
  std::vector<double> x;
  double& operator()(int i, int j) { return x[j * static_cast<std::size_t>(rows) + i]; }
  double operator()(int i, int j) const { return x[j * static_cast<std::size_t>(rows) + i]; }
};

/// C := H(i)·C for every reflector of the m-row `factors` (v_i below the diagonal of column
/// i, v_i(i) = 1), in the order that makes op(Q)·C: Qᵀ applies H(1) first, Q H(k) first.
inline void apply_reflectors(const Dense& factors, const std::vector<double>& tau, int k,
                             bool transposed, Dense& c) {
  for (int step = 0; step < k; ++step) {
    const int r = transposed ? step : k - 1 - step;
    const auto v = [&](int i) { return i == r ? 1.0 : factors(i, r); };
    for (int j = 0; j < c.cols; ++j) {
      double dot = 0.0;
      for (int i = r; i < c.rows; ++i) dot += v(i) * c(i, j);
      for (int i = r; i < c.rows; ++i) c(i, j) -= tau[static_cast<std::size_t>(r)] * v(i) * dot;
    }
  }
}

/// Q (m×m) from the reflectors of `factors`, by applying them to the identity.
inline Dense explicit_q(const Dense& factors, const std::vector<double>& tau, int k) {
  Dense q{factors.rows, factors.rows,
          std::vector<double>(static_cast<std::size_t>(factors.rows) * factors.rows)};
  for (int i = 0; i < q.rows; ++i) q(i, i) = 1.0;
  apply_reflectors(factors, tau, k, false, q);
  return q;
}

/// ‖A − Q·R‖_F / (‖A‖_F·max(M,N)·eps), R the upper trapezoid of `factors`.
inline double qr_residual(const Dense& a, const Dense& factors, const std::vector<double>& tau) {
  const int k = std::min(a.rows, a.cols);
  Dense qr{a.rows, a.cols, std::vector<double>(a.x.size())};
  for (int j = 0; j < a.cols; ++j)
    for (int i = 0; i <= std::min(j, a.rows - 1); ++i) qr(i, j) = factors(i, j);
  apply_reflectors(factors, tau, k, false, qr);
  double r2 = 0.0, a2 = 0.0;
  for (std::size_t e = 0; e < a.x.size(); ++e) {
    r2 += (a.x[e] - qr.x[e]) * (a.x[e] - qr.x[e]);
    a2 += a.x[e] * a.x[e];
  }
  return std::sqrt(r2) /
         (std::sqrt(a2) * std::max(a.rows, a.cols) * std::numeric_limits<double>::epsilon());
}

/// ‖I − QᵀQ‖_F / (M·eps).
inline double orthogonality(const Dense& factors, const std::vector<double>& tau, int k) {
  const Dense q = explicit_q(factors, tau, k);
  double r2 = 0.0;
  for (int j = 0; j < q.rows; ++j)
    for (int i = 0; i < q.rows; ++i) {
      double dot = 0.0;
      for (int l = 0; l < q.rows; ++l) dot += q(l, i) * q(l, j);
      r2 += (dot - (i == j ? 1.0 : 0.0)) * (dot - (i == j ? 1.0 : 0.0));
    }
  return std::sqrt(r2) / (q.rows * std::numeric_limits<double>::epsilon());
}

/// LAPACK's DGEQRF of the whole matrix.
struct LapackQr {
  Dense factors;
  std::vector<double> tau;
  explicit LapackQr(Dense a) : factors(std::move(a)) {
    const int m = factors.rows, n = factors.cols, lda = std::max(1, m), lwork = 64 * (n + 1);
    tau.assign(static_cast<std::size_t>(std::max(1, std::min(m, n))), 0.0);
    std::vector<double> work(static_cast<std::size_t>(lwork));
    int info = -1;
    dgeqrf_(&m, &n, factors.x.data(), &lda, tau.data(), work.data(), &lwork, &info);
    EXPECT_EQ(info, 0);
  }
};

/// The largest |x − y| over two equally long vectors, scaled by max(1, max |y|).
inline double max_relative_difference(const std::vector<double>& x, const std::vector<double>& y) {
  double diff = 0.0, scale = 1.0;
  for (std::size_t e = 0; e < std::min(x.size(), y.size()); ++e) {
    diff = std::max(diff, std::abs(x[e] - y[e]));
    scale = std::max(scale, std::abs(y[e]));
  }
  return x.size() == y.size() ? diff / scale : std::numeric_limits<double>::infinity();
}

/// A QR (GEQRF) context on `grid` (speeds rising_speeds()) for an M×N matrix.
struct QrContext : FactorContext {
  QrContext(const BlacsGrid& grid, int layout, int m, int n)
      : FactorContext(grid, HETSCAL_ROUTINE_GEQRF, layout, m, n) {}
};

/// A local workspace of `query`'s answer (ScaLAPACK's LWORK = -1 call).
template <typename Query>
std::vector<double> workspace_for(Query&& query) {
  double size = 0.0;
  const int minus_one = -1;
  query(&size, &minus_one);
  return std::vector<double>(static_cast<std::size_t>(std::max(1.0, size)));
}

/// ScaLAPACK's own PDGEQRF on a copy of `a` (sub(A) at (ia, ja), M×N): its local factors and
/// TAU (LOCc(N_A) entries, `untouched` where PDGEQRF does not write).
struct ScalapackQr {
  std::vector<double> local, tau;
  int info = -1;
  ScalapackQr(const BlockCyclic& a, int m, int n, int ia, int ja, double untouched)
      : local(a.local), tau(static_cast<std::size_t>(a.local.size() / a.lld + 1), untouched) {
    std::vector<double> work = workspace_for([&](double* w, const int* lwork) {
      pdgeqrf_(&m, &n, local.data(), &ia, &ja, a.desc, tau.data(), w, lwork, &info);
    });
    const int lwork = static_cast<int>(work.size());
    pdgeqrf_(&m, &n, local.data(), &ia, &ja, a.desc, tau.data(), work.data(), &lwork, &info);
  }
};

}  // namespace hetscal::api_test
