// The BLAS/LAPACK entry points the emulator interposes, in the four precisions: the Fortran
// symbols ScaLAPACK and PBLAS call, and the CBLAS and LAPACK symbols hetscal's kernels call.
// Each forwards to the next definition (the real BLAS) and charges the call's flops (LAPACK
// Working Note 41 counts, leading terms). Fortran character arguments carry hidden lengths
// (gfortran ABI), passed on.
//
// Every routine either side calls must be here, or that side runs unslowed where the other is
// slowed: ScaLAPACK's PxGETRF/PxPOTRF/PxGEQRF panels use the BLAS 2 routines, hetscal's QR
// update uses TRMM and xLARFT, its Hermitian Cholesky HERK.
#include <cblas.h>

#include <algorithm>
#include <complex>
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

// A complex multiply-add is 8 real flops against a real one's 2 (LAWN 41 counts a complex
// multiplication as 6 flops and an addition as 2): a complex call is charged 4 times the real
// count of its shape, as long as it takes on the same core.
template <typename T>
constexpr double weight() {
  return 1.0;
}
template <>
constexpr double weight<std::complex<float>>() {
  return 4.0;
}
template <>
constexpr double weight<std::complex<double>>() {
  return 4.0;
}

bool is_left(char side) { return side == 'L' || side == 'l'; }
double d(int v) { return static_cast<double>(v); }

// Triangular solve/multiply: the triangle is m×m on the left, n×n on the right.
double triangular_flops(bool left, int m, int n) {
  return left ? d(m) * d(m) * d(n) : d(m) * d(n) * d(n);
}

// LU and QR of an m×n matrix, leading terms.
double getrf_flops(int m, int n) {
  const double big = d(std::max(m, n)), small = d(std::min(m, n));
  return big * small * small - small * small * small / 3.0;
}
double geqrf_flops(int m, int n) { return 2.0 * getrf_flops(m, n); }

// xLARFT's T for k reflectors of length n (a triangular product per column): n·k².
double larft_flops(int n, int k) { return d(n) * d(k) * d(k); }

using cfloat = std::complex<float>;
using cdouble = std::complex<double>;

}  // namespace

// Each macro defines one routine in one precision, given its prefix x (s, d, c, z), the
// element type T and, where the routine takes real scalars in complex precisions (HERK,
// HER2K), the real type R.

// ---- Fortran BLAS 3 ----
#define HETSCAL_INTERPOSE_GEMM(x, T)                                                             \
  void x##gemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,        \
                const T* alpha, const T* a, const int* lda, const T* b, const int* ldb,          \
                const T* beta, T* c, const int* ldc, std::size_t lta, std::size_t ltb) {         \
    static decltype(&x##gemm_) real = nullptr;                                                   \
    forward(real, #x "gemm_", weight<T>() * 2.0 * d(*m) * d(*n) * d(*k), ta, tb, m, n, k, alpha, \
            a, lda, b, ldb, beta, c, ldc, lta, ltb);                                             \
  }

// TRSM and TRMM share their arguments and their count.
#define HETSCAL_INTERPOSE_TRIANGULAR(x, name, T)                                                \
  void x##name##_(const char* side, const char* uplo, const char* ta, const char* diag,         \
                  const int* m, const int* n, const T* alpha, const T* a, const int* lda, T* b, \
                  const int* ldb, std::size_t l1, std::size_t l2, std::size_t l3,               \
                  std::size_t l4) {                                                             \
    static decltype(&x##name##_) real = nullptr;                                                \
    forward(real, #x #name "_", weight<T>() * triangular_flops(is_left(*side), *m, *n), side,   \
            uplo, ta, diag, m, n, alpha, a, lda, b, ldb, l1, l2, l3, l4);                       \
  }

// SYRK, and HERK with real alpha and beta (S = R).
#define HETSCAL_INTERPOSE_RANK_K(x, name, T, S)                                                    \
  void x##name##_(const char* uplo, const char* trans, const int* n, const int* k, const S* alpha, \
                  const T* a, const int* lda, const S* beta, T* c, const int* ldc, std::size_t l1, \
                  std::size_t l2) {                                                                \
    static decltype(&x##name##_) real = nullptr;                                                   \
    forward(real, #x #name "_", weight<T>() * d(*n) * d(*n) * d(*k), uplo, trans, n, k, alpha, a,  \
            lda, beta, c, ldc, l1, l2);                                                            \
  }

// SYR2K, and HER2K with a real beta (B = R).
#define HETSCAL_INTERPOSE_RANK_2K(x, name, T, B)                                                   \
  void x##name##_(const char* uplo, const char* trans, const int* n, const int* k, const T* alpha, \
                  const T* a, const int* lda, const T* b, const int* ldb, const B* beta, T* c,     \
                  const int* ldc, std::size_t l1, std::size_t l2) {                                \
    static decltype(&x##name##_) real = nullptr;                                                   \
    forward(real, #x #name "_", weight<T>() * 2.0 * d(*n) * d(*n) * d(*k), uplo, trans, n, k,      \
            alpha, a, lda, b, ldb, beta, c, ldc, l1, l2);                                          \
  }

// SYMM and HEMM.
#define HETSCAL_INTERPOSE_SYMMETRIC_MULTIPLY(x, name, T)                                          \
  void x##name##_(const char* side, const char* uplo, const int* m, const int* n, const T* alpha, \
                  const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c,    \
                  const int* ldc, std::size_t l1, std::size_t l2) {                               \
    static decltype(&x##name##_) real = nullptr;                                                  \
    forward(real, #x #name "_", weight<T>() * 2.0 * triangular_flops(is_left(*side), *m, *n),     \
            side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, l1, l2);                       \
  }

// ---- Fortran BLAS 2 (ScaLAPACK's unblocked panels) ----
#define HETSCAL_INTERPOSE_GEMV(x, T)                                                             \
  void x##gemv_(const char* trans, const int* m, const int* n, const T* alpha, const T* a,       \
                const int* lda, const T* x_, const int* incx, const T* beta, T* y,               \
                const int* incy, std::size_t l1) {                                               \
    static decltype(&x##gemv_) real = nullptr;                                                   \
    forward(real, #x "gemv_", weight<T>() * 2.0 * d(*m) * d(*n), trans, m, n, alpha, a, lda, x_, \
            incx, beta, y, incy, l1);                                                            \
  }

// GER (real), GERU and GERC (complex).
#define HETSCAL_INTERPOSE_RANK_1(x, name, T)                                                       \
  void x##name##_(const int* m, const int* n, const T* alpha, const T* x_, const int* incx,        \
                  const T* y, const int* incy, T* a, const int* lda) {                             \
    static decltype(&x##name##_) real = nullptr;                                                   \
    forward(real, #x #name "_", weight<T>() * 2.0 * d(*m) * d(*n), m, n, alpha, x_, incx, y, incy, \
            a, lda);                                                                               \
  }

// ---- Fortran LAPACK (local panels) ----
#define HETSCAL_INTERPOSE_LAPACK(x, T)                                                           \
  void x##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info) {       \
    static decltype(&x##getrf_) real = nullptr;                                                  \
    forward(real, #x "getrf_", weight<T>() * getrf_flops(*m, *n), m, n, a, lda, ipiv, info);     \
  }                                                                                              \
  void x##potrf_(const char* uplo, const int* n, T* a, const int* lda, int* info,                \
                 std::size_t l1) {                                                               \
    static decltype(&x##potrf_) real = nullptr;                                                  \
    forward(real, #x "potrf_", weight<T>() * d(*n) * d(*n) * d(*n) / 3.0, uplo, n, a, lda, info, \
            l1);                                                                                 \
  }                                                                                              \
  /* A workspace query (lwork = -1) computes nothing and is not charged. */                      \
  void x##geqrf_(const int* m, const int* n, T* a, const int* lda, T* tau, T* work,              \
                 const int* lwork, int* info) {                                                  \
    static decltype(&x##geqrf_) real = nullptr;                                                  \
    forward(real, #x "geqrf_", *lwork == -1 ? 0.0 : weight<T>() * geqrf_flops(*m, *n), m, n, a,  \
            lda, tau, work, lwork, info);                                                        \
  }                                                                                              \
  void x##larft_(const char* direct, const char* storev, const int* n, const int* k, const T* v, \
                 const int* ldv, const T* tau, T* t, const int* ldt, std::size_t l1,             \
                 std::size_t l2) {                                                               \
    static decltype(&x##larft_) real = nullptr;                                                  \
    forward(real, #x "larft_", larft_flops(*n, *k) * weight<T>(), direct, storev, n, k, v, ldv,  \
            tau, t, ldt, l1, l2);                                                                \
  }

// Everything a precision has whatever its kind.
#define HETSCAL_INTERPOSE_FORTRAN(x, T)            \
  HETSCAL_INTERPOSE_GEMM(x, T)                     \
  HETSCAL_INTERPOSE_TRIANGULAR(x, trsm, T)         \
  HETSCAL_INTERPOSE_TRIANGULAR(x, trmm, T)         \
  HETSCAL_INTERPOSE_RANK_K(x, syrk, T, T)          \
  HETSCAL_INTERPOSE_RANK_2K(x, syr2k, T, T)        \
  HETSCAL_INTERPOSE_SYMMETRIC_MULTIPLY(x, symm, T) \
  HETSCAL_INTERPOSE_GEMV(x, T)                     \
  HETSCAL_INTERPOSE_LAPACK(x, T)

// The complex precisions' Hermitian and conjugated routines.
#define HETSCAL_INTERPOSE_FORTRAN_COMPLEX(x, T, R) \
  HETSCAL_INTERPOSE_RANK_K(x, herk, T, R)          \
  HETSCAL_INTERPOSE_RANK_2K(x, her2k, T, R)        \
  HETSCAL_INTERPOSE_SYMMETRIC_MULTIPLY(x, hemm, T) \
  HETSCAL_INTERPOSE_RANK_1(x, geru, T)             \
  HETSCAL_INTERPOSE_RANK_1(x, gerc, T)

// ---- CBLAS (hetscal's kernels) ----
// CBLAS passes real scalars by value and complex ones, and complex arrays, as void pointers:
// P is the arrays' pointee (float, double or void), S a scalar argument's type.
// CBLAS's TRSM and TRMM share their arguments and their count.
#define HETSCAL_INTERPOSE_CBLAS_TRIANGULAR(x, name, T, P, S)                                    \
  void cblas_##x##name(CBLAS_ORDER order, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE ta, \
                       CBLAS_DIAG diag, blasint m, blasint n, S alpha, const P* a, blasint lda, \
                       P* b, blasint ldb) {                                                     \
    static decltype(&cblas_##x##name) real = nullptr;                                           \
    forward(real, "cblas_" #x #name, weight<T>() * triangular_flops(side == CblasLeft, m, n),   \
            order, side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb);                          \
  }

#define HETSCAL_INTERPOSE_CBLAS(x, T, P, S)                                                        \
  void cblas_##x##gemm(CBLAS_ORDER order, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m,       \
                       blasint n, blasint k, S alpha, const P* a, blasint lda, const P* b,         \
                       blasint ldb, S beta, P* c, blasint ldc) {                                   \
    static decltype(&cblas_##x##gemm) real = nullptr;                                              \
    forward(real, "cblas_" #x "gemm", weight<T>() * 2.0 * d(m) * d(n) * d(k), order, ta, tb, m, n, \
            k, alpha, a, lda, b, ldb, beta, c, ldc);                                               \
  }                                                                                                \
  HETSCAL_INTERPOSE_CBLAS_TRIANGULAR(x, trsm, T, P, S)                                             \
  HETSCAL_INTERPOSE_CBLAS_TRIANGULAR(x, trmm, T, P, S)                                             \
  void cblas_##x##syrk(CBLAS_ORDER order, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, blasint n,       \
                       blasint k, S alpha, const P* a, blasint lda, S beta, P* c, blasint ldc) {   \
    static decltype(&cblas_##x##syrk) real = nullptr;                                              \
    forward(real, "cblas_" #x "syrk", weight<T>() * d(n) * d(n) * d(k), order, uplo, trans, n, k,  \
            alpha, a, lda, beta, c, ldc);                                                          \
  }

#define HETSCAL_INTERPOSE_CBLAS_HERK(x, T, R)                                                     \
  void cblas_##x##herk(CBLAS_ORDER order, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, blasint n,      \
                       blasint k, R alpha, const void* a, blasint lda, R beta, void* c,           \
                       blasint ldc) {                                                             \
    static decltype(&cblas_##x##herk) real = nullptr;                                             \
    forward(real, "cblas_" #x "herk", weight<T>() * d(n) * d(n) * d(k), order, uplo, trans, n, k, \
            alpha, a, lda, beta, c, ldc);                                                         \
  }

extern "C" {

HETSCAL_INTERPOSE_FORTRAN(s, float)
HETSCAL_INTERPOSE_FORTRAN(d, double)
HETSCAL_INTERPOSE_FORTRAN(c, cfloat)
HETSCAL_INTERPOSE_FORTRAN(z, cdouble)
HETSCAL_INTERPOSE_RANK_1(s, ger, float)
HETSCAL_INTERPOSE_RANK_1(d, ger, double)
HETSCAL_INTERPOSE_FORTRAN_COMPLEX(c, cfloat, float)
HETSCAL_INTERPOSE_FORTRAN_COMPLEX(z, cdouble, double)

HETSCAL_INTERPOSE_CBLAS(s, float, float, float)
HETSCAL_INTERPOSE_CBLAS(d, double, double, double)
HETSCAL_INTERPOSE_CBLAS(c, cfloat, void, const void*)
HETSCAL_INTERPOSE_CBLAS(z, cdouble, void, const void*)
HETSCAL_INTERPOSE_CBLAS_HERK(c, cfloat, float)
HETSCAL_INTERPOSE_CBLAS_HERK(z, cdouble, double)

}  // extern "C"
