#include "kernels/local_blas.hpp"

#include <cblas.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <random>
#include <string>

#include "core/common/error.hpp"

// LAPACK's Fortran symbols (no LAPACKE here), with the hidden length of the CHARACTER
// argument that gfortran passes after the declared ones. std::complex<R> has the layout of
// Fortran's COMPLEX.
extern "C" {
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, std::size_t uplo_len);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t uplo_len);
void cpotrf_(const char* uplo, const int* n, std::complex<float>* a, const int* lda, int* info,
             std::size_t uplo_len);
void zpotrf_(const char* uplo, const int* n, std::complex<double>* a, const int* lda, int* info,
             std::size_t uplo_len);
void spotf2_(const char* uplo, const int* n, float* a, const int* lda, int* info, std::size_t uplo_len);
void dpotf2_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t uplo_len);
void cpotf2_(const char* uplo, const int* n, std::complex<float>* a, const int* lda, int* info,
             std::size_t uplo_len);
void zpotf2_(const char* uplo, const int* n, std::complex<double>* a, const int* lda, int* info,
             std::size_t uplo_len);
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void cgetrf_(const int* m, const int* n, std::complex<float>* a, const int* lda, int* ipiv,
             int* info);
void zgetrf_(const int* m, const int* n, std::complex<double>* a, const int* lda, int* ipiv,
             int* info);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work,
             const int* lwork, int* info);
void slarft_(const char* direct, const char* storev, const int* n, const int* k, const float* v,
             const int* ldv, const float* tau, float* t, const int* ldt, std::size_t direct_len,
             std::size_t storev_len);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info);
void dlarft_(const char* direct, const char* storev, const int* n, const int* k, const double* v,
             const int* ldv, const double* tau, double* t, const int* ldt, std::size_t direct_len,
             std::size_t storev_len);
void cgeqrf_(const int* m, const int* n, std::complex<float>* a, const int* lda,
             std::complex<float>* tau, std::complex<float>* work, const int* lwork, int* info);
void clarft_(const char* direct, const char* storev, const int* n, const int* k,
             const std::complex<float>* v, const int* ldv, const std::complex<float>* tau,
             std::complex<float>* t, const int* ldt, std::size_t direct_len,
             std::size_t storev_len);
void zgeqrf_(const int* m, const int* n, std::complex<double>* a, const int* lda,
             std::complex<double>* tau, std::complex<double>* work, const int* lwork, int* info);
void zlarft_(const char* direct, const char* storev, const int* n, const int* k,
             const std::complex<double>* v, const int* ldv, const std::complex<double>* tau,
             std::complex<double>* t, const int* ldt, std::size_t direct_len,
             std::size_t storev_len);
}

namespace hetscal::kernels {
namespace {

// Real BLAS routines read 'C' as 'T'; saying so here keeps that out of every CBLAS's hands.
template <typename T>
CBLAS_TRANSPOSE to_cblas(Op op) {
  switch (op) {
    case Op::NoTrans: return CblasNoTrans;
    case Op::Trans: return CblasTrans;
    case Op::ConjTrans: return is_complex_v<T> ? CblasConjTrans : CblasTrans;
  }
  throw InvalidArgument("local BLAS: unknown Op");
}
CBLAS_SIDE to_cblas(Side side) { return side == Side::Left ? CblasLeft : CblasRight; }
CBLAS_UPLO to_cblas(Uplo uplo) { return uplo == Uplo::Lower ? CblasLower : CblasUpper; }
CBLAS_DIAG to_cblas(Diag diag) { return diag == Diag::Unit ? CblasUnit : CblasNonUnit; }

// CBLAS takes int dimensions; hetscal's local blocks always fit (checked by the layouts).
int as_int(std::int64_t v) { return static_cast<int>(v); }

// CBLAS passes real scalars by value and complex ones by address.
template <typename T>
auto blas_scalar(const T& x) {
  if constexpr (is_complex_v<T>) {
    return static_cast<const void*>(&x);
  } else {
    return x;
  }
}

// Accounts the flops, then says whether the call must really compute.
bool account(double flops) {
  account_flops(flops);
  return compute_mode() == ComputeMode::Execute;
}

// Times the BLAS/LAPACK call made during its life (the rank's computing time, waiting for
// messages excluded), for the speeds the run time observes.
class ComputeTimer {
 public:
  ComputeTimer() : start_(compute_clock_seconds()) {}
  ~ComputeTimer() { account_compute_seconds(compute_clock_seconds() - start_); }
  ComputeTimer(const ComputeTimer&) = delete;
  ComputeTimer& operator=(const ComputeTimer&) = delete;

 private:
  double start_;
};

// ComputeMode::Skip finds no pivots, yet its callers move rows by them (and a simulation must
// price those moves): the pivots fall where a random matrix's do, row i's uniformly among
// rows i..m-1 (1-based, as LAPACK's), the same for the same shape.
void skipped_pivots(std::int64_t m, std::int64_t n, int* ipiv) {
  std::minstd_rand draw(static_cast<unsigned>(m * 7919 + n));
  for (std::int64_t i = 0; i < std::min(m, n); ++i)
    ipiv[i] = static_cast<int>(
        i + 1 + std::uniform_int_distribution<std::int64_t>(0, m - 1 - i)(draw));
}

// Per-scalar CBLAS and LAPACK entry points: the only place where the four scalar types differ.
template <typename T>
struct Cblas;

template <>
struct Cblas<float> {
  static constexpr auto gemm = cblas_sgemm;
  static constexpr auto trsm = cblas_strsm;
  static constexpr auto syrk = cblas_ssyrk;
  static constexpr auto potrf = spotrf_;
  static constexpr auto potf2 = spotf2_;
  static constexpr auto getrf = sgetrf_;
  static constexpr auto trmm = cblas_strmm;
  static constexpr auto geqrf = sgeqrf_;
  static constexpr auto larft = slarft_;
};

template <>
struct Cblas<double> {
  static constexpr auto gemm = cblas_dgemm;
  static constexpr auto trsm = cblas_dtrsm;
  static constexpr auto syrk = cblas_dsyrk;
  static constexpr auto potrf = dpotrf_;
  static constexpr auto potf2 = dpotf2_;
  static constexpr auto getrf = dgetrf_;
  static constexpr auto trmm = cblas_dtrmm;
  static constexpr auto geqrf = dgeqrf_;
  static constexpr auto larft = dlarft_;
};

template <>
struct Cblas<std::complex<float>> {
  static constexpr auto gemm = cblas_cgemm;
  static constexpr auto trsm = cblas_ctrsm;
  static constexpr auto syrk = cblas_csyrk;
  static constexpr auto herk = cblas_cherk;
  static constexpr auto potrf = cpotrf_;
  static constexpr auto potf2 = cpotf2_;
  static constexpr auto getrf = cgetrf_;
  static constexpr auto trmm = cblas_ctrmm;
  static constexpr auto geqrf = cgeqrf_;
  static constexpr auto larft = clarft_;
};

template <>
struct Cblas<std::complex<double>> {
  static constexpr auto gemm = cblas_zgemm;
  static constexpr auto trsm = cblas_ztrsm;
  static constexpr auto syrk = cblas_zsyrk;
  static constexpr auto herk = cblas_zherk;
  static constexpr auto potrf = zpotrf_;
  static constexpr auto potf2 = zpotf2_;
  static constexpr auto getrf = zgetrf_;
  static constexpr auto trmm = cblas_ztrmm;
  static constexpr auto geqrf = zgeqrf_;
  static constexpr auto larft = zlarft_;
};

double product(std::int64_t x, std::int64_t y, std::int64_t z) {
  return static_cast<double>(x) * static_cast<double>(y) * static_cast<double>(z);
}

}  // namespace

OperationCount gemm_operations(std::int64_t m, std::int64_t n, std::int64_t k) {
  return {product(m, n, k), product(m, n, k)};
}

OperationCount trsm_operations(Side side, std::int64_t m, std::int64_t n) {
  const std::int64_t order = side == Side::Left ? m : n, other = side == Side::Left ? n : m;
  return {product(other, order, order + 1) / 2.0, product(other, order, order - 1) / 2.0};
}

OperationCount syrk_operations(std::int64_t n, std::int64_t k) {
  return {product(k, n, n + 1) / 2.0, product(k, n, n + 1) / 2.0};
}

OperationCount potrf_operations(std::int64_t n) {
  // n(n+1)(n+2)/6 = n³/6 + n²/2 + n/3 and (n-1)n(n+1)/6 = n³/6 − n/6: exact integers.
  return {product(n, n + 1, n + 2) / 6.0, product(n - 1, n, n + 1) / 6.0};
}

OperationCount getrf_operations(std::int64_t m, std::int64_t n) {
  const double rows = static_cast<double>(std::max(m, n)),
               cols = static_cast<double>(std::min(m, n));
  const double shared = rows * cols * cols / 2.0 - cols * cols * cols / 6.0;
  return {shared + rows * cols / 2.0 - cols * cols / 2.0 + 2.0 * cols / 3.0,
          shared - rows * cols / 2.0 + cols / 6.0};
}

OperationCount trmm_operations(Side side, std::int64_t m, std::int64_t n) {
  return trsm_operations(side, m, n);
}

OperationCount geqrf_operations(std::int64_t m, std::int64_t n) {
  const double rows = static_cast<double>(m), cols = static_cast<double>(n);
  if (m >= n) {
    const double shared = rows * cols * cols - cols * cols * cols / 3.0 + cols * cols / 2.0;
    return {shared + rows * cols + 23.0 * cols / 6.0, shared + 5.0 * cols / 6.0};
  }
  const double shared = cols * rows * rows - rows * rows * rows / 3.0 - rows * rows / 2.0;
  return {shared + 2.0 * cols * rows + 23.0 * rows / 6.0, shared + cols * rows + 5.0 * rows / 6.0};
}

OperationCount larft_operations(std::int64_t m, std::int64_t k) {
  // Σ_{i<k} i(m−i) = m·k(k−1)/2 − (k−1)k(2k−1)/6; Σ i(i+1)/2 = (k−1)k(k+1)/6;
  // Σ i(i−1)/2 = (k−2)(k−1)k/6.
  const double below =
      static_cast<double>(m) * product(k, k - 1, 1) / 2.0 - product(k - 1, k, 2 * k - 1) / 6.0;
  return {below + product(k - 1, k, k + 1) / 6.0, below + product(k - 2, k - 1, k) / 6.0};
}

template <typename T>
void gemm(Op op_a, Op op_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c,
          std::int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (!account(gemm_flops<T>(m, n, k))) return;
  const ComputeTimer timer;
  Cblas<T>::gemm(CblasColMajor, to_cblas<T>(op_a), to_cblas<T>(op_b), as_int(m), as_int(n),
                 as_int(k), blas_scalar(alpha), a, as_int(lda), b, as_int(ldb), blas_scalar(beta),
                 c, as_int(ldc));
}

template <typename T>
void trsm(Side side, Uplo uplo, Op op_a, Diag diag, std::int64_t m, std::int64_t n, T alpha,
          const T* a, std::int64_t lda, T* b, std::int64_t ldb) {
  if (m == 0 || n == 0) return;
  if (!account(trsm_flops<T>(side, m, n))) return;
  const ComputeTimer timer;
  Cblas<T>::trsm(CblasColMajor, to_cblas(side), to_cblas(uplo), to_cblas<T>(op_a),
                 to_cblas(diag), as_int(m), as_int(n), blas_scalar(alpha), a, as_int(lda), b,
                 as_int(ldb));
}

template <typename T>
void syrk(Uplo uplo, Op op_a, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, T beta, T* c, std::int64_t ldc) {
  if (is_complex_v<T> && op_a == Op::ConjTrans)
    throw InvalidArgument("local syrk: Op::ConjTrans on complex data is a HERK (use herk)");
  if (n == 0) return;
  if (!account(syrk_flops<T>(n, k))) return;
  const ComputeTimer timer;
  Cblas<T>::syrk(CblasColMajor, to_cblas(uplo), to_cblas<T>(op_a), as_int(n), as_int(k),
                 blas_scalar(alpha), a, as_int(lda), blas_scalar(beta), c, as_int(ldc));
}

template <typename T>
void herk(Uplo uplo, Op op_a, std::int64_t n, std::int64_t k, real_of_t<T> alpha, const T* a,
          std::int64_t lda, real_of_t<T> beta, T* c, std::int64_t ldc) {
  if constexpr (!is_complex_v<T>) {
    syrk<T>(uplo, op_a, n, k, alpha, a, lda, beta, c, ldc);  // Aᴴ = Aᵀ
  } else {
    if (op_a == Op::Trans)
      throw InvalidArgument("local herk: Op::Trans on complex data is a SYRK (use syrk)");
    if (n == 0) return;
    if (!account(syrk_flops<T>(n, k))) return;
    const ComputeTimer timer;
    Cblas<T>::herk(CblasColMajor, to_cblas(uplo), to_cblas<T>(op_a), as_int(n), as_int(k), alpha,
                   a, as_int(lda), beta, c, as_int(ldc));
  }
}

template <typename T>
int potrf(Uplo uplo, std::int64_t n, T* a, std::int64_t lda) {
  if (n == 0) return 0;
  if (!account(potrf_flops<T>(n))) return 0;
  const ComputeTimer timer;
  const char uplo_char = uplo == Uplo::Lower ? 'L' : 'U';
  const int order = as_int(n), ld = as_int(lda);
  int info = 0;
  Cblas<T>::potrf(&uplo_char, &order, a, &ld, &info, 1);
  return info;
}

template <typename T>
int potf2(Uplo uplo, std::int64_t n, T* a, std::int64_t lda) {
  // A redo of a tile potrf already counted: no flops, and nothing to redo when nothing was
  // computed (potrf returned 0 then).
  if (n == 0 || compute_mode() != ComputeMode::Execute) return 0;
  const ComputeTimer timer;
  const char uplo_char = uplo == Uplo::Lower ? 'L' : 'U';
  const int order = as_int(n), ld = as_int(lda);
  int info = 0;
  Cblas<T>::potf2(&uplo_char, &order, a, &ld, &info, 1);
  return info;
}

template <typename T>
int getrf(std::int64_t m, std::int64_t n, T* a, std::int64_t lda, int* ipiv) {
  if (m == 0 || n == 0) return 0;
  if (!account(getrf_flops<T>(m, n))) {
    skipped_pivots(m, n, ipiv);
    return 0;
  }
  const ComputeTimer timer;
  const int rows = as_int(m), cols = as_int(n), ld = as_int(lda);
  int info = 0;
  Cblas<T>::getrf(&rows, &cols, a, &ld, ipiv, &info);
  return info;
}

template <typename T>
void trmm(Side side, Uplo uplo, Op op_a, Diag diag, std::int64_t m, std::int64_t n, T alpha,
          const T* a, std::int64_t lda, T* b, std::int64_t ldb) {
  if (m == 0 || n == 0) return;
  if (!account(trmm_flops<T>(side, m, n))) return;
  const ComputeTimer timer;
  Cblas<T>::trmm(CblasColMajor, to_cblas(side), to_cblas(uplo), to_cblas<T>(op_a), to_cblas(diag),
                 as_int(m), as_int(n), blas_scalar(alpha), a, as_int(lda), b, as_int(ldb));
}

template <typename T>
void geqrf(std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* tau, T* work,
           std::int64_t work_size) {
  if (m == 0 || n == 0) return;
  if (!account(geqrf_flops<T>(m, n))) return;
  const ComputeTimer timer;
  const int rows = as_int(m), cols = as_int(n), ld = as_int(lda), lwork = as_int(work_size);
  int info = 0;
  Cblas<T>::geqrf(&rows, &cols, a, &ld, tau, work, &lwork, &info);
  if (info != 0)
    throw InvalidArgument("local geqrf: LAPACK refused argument " + std::to_string(-info));
}

template <typename T>
std::int64_t geqrf_work_size(std::int64_t m, std::int64_t n) {
  if (m == 0 || n == 0) return 1;
  const int rows = as_int(m), cols = as_int(n), ld = as_int(std::max<std::int64_t>(m, 1)),
            query = -1;
  T size{};
  int info = 0;
  Cblas<T>::geqrf(&rows, &cols, nullptr, &ld, nullptr, &size, &query, &info);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::real(size)));
}

template <typename T>
void larft(std::int64_t m, std::int64_t k, const T* v, std::int64_t ldv, const T* tau, T* t,
           std::int64_t ldt) {
  if (m == 0 || k == 0) return;
  if (!account(larft_flops<T>(m, k))) return;
  const ComputeTimer timer;
  const char forward = 'F', columnwise = 'C';
  const int rows = as_int(m), count = as_int(k), ld_v = as_int(ldv), ld_t = as_int(ldt);
  Cblas<T>::larft(&forward, &columnwise, &rows, &count, v, &ld_v, tau, t, &ld_t, 1, 1);
}

// The one place where scalar types are instantiated.
HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_LOCAL_BLAS_INSTANCES)

}  // namespace hetscal::kernels
