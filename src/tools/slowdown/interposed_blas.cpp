// The BLAS/LAPACK entry points the emulator interposes: the Fortran symbols ScaLAPACK and
// PBLAS call, and the CBLAS symbols hetscal's kernels call. Each forwards to the next
// definition (the real BLAS) and charges the call's flops (LAPACK Working Note 41 counts,
// leading terms). Fortran character arguments carry hidden lengths (gfortran ABI), passed on.
#include <cblas.h>

#include <algorithm>
#include <cstddef>

#include "tools/slowdown/slowdown.hpp"

namespace {

using hetscal::slowdown::charge;
using hetscal::slowdown::next_symbol;
using hetscal::slowdown::OuterCall;

template <typename Fn, typename... Args>
void forward(Fn*& real, const char* name, double flops, Args... args) {
  if (real == nullptr) real = reinterpret_cast<Fn*>(next_symbol(name));
  OuterCall call;
  real(args...);
  if (call.is_outermost()) charge(flops);
}

bool is_left(char side) { return side == 'L' || side == 'l'; }
double d(int v) { return static_cast<double>(v); }

// Triangular solve/multiply: the triangle is m×m on the left, n×n on the right.
double triangular_flops(bool left, int m, int n) { return left ? d(m) * d(m) * d(n) : d(m) * d(n) * d(n); }

// LU and QR of an m×n matrix, leading terms.
double getrf_flops(int m, int n) {
  const double big = d(std::max(m, n)), small = d(std::min(m, n));
  return big * small * small - small * small * small / 3.0;
}
double geqrf_flops(int m, int n) { return 2.0 * getrf_flops(m, n); }

}  // namespace

extern "C" {

// ---- Fortran BLAS 3 ----
void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b,
            const int* ldb, const double* beta, double* c, const int* ldc, std::size_t lta,
            std::size_t ltb) {
  static decltype(&dgemm_) real = nullptr;
  forward(real, "dgemm_", 2.0 * d(*m) * d(*n) * d(*k), ta, tb, m, n, k, alpha, a, lda, b, ldb,
          beta, c, ldc, lta, ltb);
}

void dtrsm_(const char* side, const char* uplo, const char* ta, const char* diag, const int* m,
            const int* n, const double* alpha, const double* a, const int* lda, double* b,
            const int* ldb, std::size_t l1, std::size_t l2, std::size_t l3, std::size_t l4) {
  static decltype(&dtrsm_) real = nullptr;
  forward(real, "dtrsm_", triangular_flops(is_left(*side), *m, *n), side, uplo, ta, diag, m, n,
          alpha, a, lda, b, ldb, l1, l2, l3, l4);
}

void dtrmm_(const char* side, const char* uplo, const char* ta, const char* diag, const int* m,
            const int* n, const double* alpha, const double* a, const int* lda, double* b,
            const int* ldb, std::size_t l1, std::size_t l2, std::size_t l3, std::size_t l4) {
  static decltype(&dtrmm_) real = nullptr;
  forward(real, "dtrmm_", triangular_flops(is_left(*side), *m, *n), side, uplo, ta, diag, m, n,
          alpha, a, lda, b, ldb, l1, l2, l3, l4);
}

void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* beta, double* c, const int* ldc,
            std::size_t l1, std::size_t l2) {
  static decltype(&dsyrk_) real = nullptr;
  forward(real, "dsyrk_", d(*n) * d(*n) * d(*k), uplo, trans, n, k, alpha, a, lda, beta, c,
          ldc, l1, l2);
}

void dsyr2k_(const char* uplo, const char* trans, const int* n, const int* k,
             const double* alpha, const double* a, const int* lda, const double* b,
             const int* ldb, const double* beta, double* c, const int* ldc, std::size_t l1,
             std::size_t l2) {
  static decltype(&dsyr2k_) real = nullptr;
  forward(real, "dsyr2k_", 2.0 * d(*n) * d(*n) * d(*k), uplo, trans, n, k, alpha, a, lda, b,
          ldb, beta, c, ldc, l1, l2);
}

void dsymm_(const char* side, const char* uplo, const int* m, const int* n, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta,
            double* c, const int* ldc, std::size_t l1, std::size_t l2) {
  static decltype(&dsymm_) real = nullptr;
  forward(real, "dsymm_", 2.0 * triangular_flops(is_left(*side), *m, *n), side, uplo, m, n,
          alpha, a, lda, b, ldb, beta, c, ldc, l1, l2);
}

// ---- Fortran BLAS 2 (ScaLAPACK's unblocked panels) ----
void dgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* x, const int* incx, const double* beta, double* y,
            const int* incy, std::size_t l1) {
  static decltype(&dgemv_) real = nullptr;
  forward(real, "dgemv_", 2.0 * d(*m) * d(*n), trans, m, n, alpha, a, lda, x, incx, beta, y,
          incy, l1);
}

void dger_(const int* m, const int* n, const double* alpha, const double* x, const int* incx,
           const double* y, const int* incy, double* a, const int* lda) {
  static decltype(&dger_) real = nullptr;
  forward(real, "dger_", 2.0 * d(*m) * d(*n), m, n, alpha, x, incx, y, incy, a, lda);
}

// ---- Fortran LAPACK factorizations (local panels) ----
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info) {
  static decltype(&dgetrf_) real = nullptr;
  forward(real, "dgetrf_", getrf_flops(*m, *n), m, n, a, lda, ipiv, info);
}

void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info,
             std::size_t l1) {
  static decltype(&dpotrf_) real = nullptr;
  forward(real, "dpotrf_", d(*n) * d(*n) * d(*n) / 3.0, uplo, n, a, lda, info, l1);
}

void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info) {
  static decltype(&dgeqrf_) real = nullptr;
  // A workspace query (lwork = -1) computes nothing and is not charged.
  forward(real, "dgeqrf_", *lwork == -1 ? 0.0 : geqrf_flops(*m, *n), m, n, a, lda, tau, work,
          lwork, info);
}

// ---- CBLAS (hetscal's kernels) ----
void cblas_dgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n,
                 blasint k, double alpha, const double* a, blasint lda, const double* b,
                 blasint ldb, double beta, double* c, blasint ldc) {
  static decltype(&cblas_dgemm) real = nullptr;
  forward(real, "cblas_dgemm", 2.0 * d(m) * d(n) * d(k), order, ta, tb, m, n, k, alpha, a, lda,
          b, ldb, beta, c, ldc);
}

void cblas_dtrsm(CBLAS_ORDER order, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE ta,
                 CBLAS_DIAG diag, blasint m, blasint n, double alpha, const double* a,
                 blasint lda, double* b, blasint ldb) {
  static decltype(&cblas_dtrsm) real = nullptr;
  forward(real, "cblas_dtrsm", triangular_flops(side == CblasLeft, m, n), order, side, uplo, ta,
          diag, m, n, alpha, a, lda, b, ldb);
}

void cblas_dsyrk(CBLAS_ORDER order, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, blasint n,
                 blasint k, double alpha, const double* a, blasint lda, double beta, double* c,
                 blasint ldc) {
  static decltype(&cblas_dsyrk) real = nullptr;
  forward(real, "cblas_dsyrk", d(n) * d(n) * d(k), order, uplo, trans, n, k, alpha, a, lda,
          beta, c, ldc);
}

}  // extern "C"
