#pragma once
/// @file local_blas.hpp
/// The one thin wrapper through which hetscal's kernels call local BLAS/LAPACK: it counts
/// each call's flops (kernels/flop_counter.hpp) and, in SimGrid builds with
/// ComputeMode::Skip, injects the flops without computing. Column-major storage throughout.
/// Templated on the scalar type; float, double, std::complex<float> and std::complex<double>
/// (BLAS's s, d, c and z routines) are instantiated in local_blas.cpp. Op::ConjTrans is
/// BLAS's 'C': Xᴴ on complex data, Xᵀ on real data.
#include <cstdint>

#include "kernels/blas_enums.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::kernels {

/// C = alpha·op(A)·op(B) + beta·C, with op(A) m×k, op(B) k×n. Counts gemm_flops<T>(m, n, k).
template <typename T>
void gemm(Op op_a, Op op_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c,
          std::int64_t ldc);

/// B = alpha·op(A)⁻¹·B (Side::Left, A m×m) or alpha·B·op(A)⁻¹ (Side::Right, A n×n), A
/// triangular. Counts trsm_flops<T>(side, m, n).
template <typename T>
void trsm(Side side, Uplo uplo, Op op_a, Diag diag, std::int64_t m, std::int64_t n, T alpha,
          const T* a, std::int64_t lda, T* b, std::int64_t ldb);

/// C = alpha·A·Aᵀ + beta·C (Op::NoTrans, A n×k) or alpha·Aᵀ·A + beta·C (Op::Trans, A k×n)
/// on the `uplo` triangle. Counts syrk_flops<T>(n, k).
/// @throws InvalidArgument for Op::ConjTrans on complex data (that product is herk's).
template <typename T>
void syrk(Uplo uplo, Op op_a, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, T beta, T* c, std::int64_t ldc);

/// C = alpha·A·Aᴴ + beta·C (Op::NoTrans, A n×k) or alpha·Aᴴ·A + beta·C (Op::ConjTrans, A k×n)
/// on the `uplo` triangle, alpha and beta real (C stays Hermitian). On real data it is syrk.
/// Counts syrk_flops<T>(n, k).
/// @throws InvalidArgument for Op::Trans on complex data (BLAS's HERK has no such case).
template <typename T>
void herk(Uplo uplo, Op op_a, std::int64_t n, std::int64_t k, real_of_t<T> alpha, const T* a,
          std::int64_t lda, real_of_t<T> beta, T* c, std::int64_t ldc);

/// Cholesky factorisation of the n×n Hermitian positive definite A (LAPACK's xPOTRF):
/// A = L·Lᴴ (Uplo::Lower) or Uᴴ·U (Uplo::Upper), reading and writing only the `uplo`
/// triangle. As LAPACK, the imaginary parts of the diagonal are not read and are set to zero
/// in the factor. Counts potrf_flops<T>(n), also when the factorisation stops early.
/// @return LAPACK's INFO: 0, or j > 0 when the leading minor of order j is not positive
///         definite (the factorisation stopped there). 0 without computing in
///         ComputeMode::Skip.
template <typename T>
int potrf(Uplo uplo, std::int64_t n, T* a, std::int64_t lda);

/// The unblocked Cholesky factorisation (LAPACK's xPOTF2), column by column: where the leading
/// minor of order j is not positive definite it leaves what ScaLAPACK's PxPOTF2 leaves (the
/// first j-1 columns factored, the j-th diagonal entry the non-positive value, the rest as
/// given), which the blocked xPOTRF does not. For a tile whose potrf failed, redone from the
/// tile as it was: counts no flops (potrf counted them).
/// @return LAPACK's INFO, as potrf. 0 without computing in ComputeMode::Skip.
template <typename T>
int potf2(Uplo uplo, std::int64_t n, T* a, std::int64_t lda);

/// LU factorisation with partial pivoting of the m×n A (LAPACK's xGETRF): A = P·L·U, L unit
/// lower trapezoidal, U upper trapezoidal, both over A. Counts getrf_flops<T>(m, n), also
/// when a pivot is exactly zero (the factorisation is completed all the same).
/// @param ipiv min(m, n) entries: LAPACK's 1-based IPIV (row i was interchanged with
///        row ipiv[i-1]).
/// @return LAPACK's INFO: 0, or i > 0 when U(i,i) (1-based) is the first exactly zero pivot.
///         0 without computing in ComputeMode::Skip, where ipiv gets pivots spread as a
///         random matrix's are (row i's uniform among rows i..m), so that simulations price
///         the row interchanges.
template <typename T>
int getrf(std::int64_t m, std::int64_t n, T* a, std::int64_t lda, int* ipiv);

/// B = alpha·op(A)·B (Side::Left, A m×m) or alpha·B·op(A) (Side::Right, A n×n), A
/// triangular. Counts trmm_flops<T>(side, m, n).
template <typename T>
void trmm(Side side, Uplo uplo, Op op_a, Diag diag, std::int64_t m, std::int64_t n, T alpha,
          const T* a, std::int64_t lda, T* b, std::int64_t ldb);

/// Householder QR factorisation of the m×n A (LAPACK's xGEQRF): A = Q·R, R upper trapezoidal
/// on and above the diagonal, the reflectors' vectors below it (unit diagonal implicit).
/// Counts geqrf_flops<T>(m, n).
/// @param tau min(m, n) entries: the reflectors' scalars, as xLARFG defines them.
/// @param work geqrf_work_size<T>(m, n) entries at least (no allocation inside the call).
template <typename T>
void geqrf(std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* tau, T* work,
           std::int64_t work_size);

/// The workspace xGEQRF wants for an m×n factorisation (its LWORK = −1 query; LAPACK's block
/// size included), at least 1.
template <typename T>
std::int64_t geqrf_work_size(std::int64_t m, std::int64_t n);

/// The k×k upper triangular T of the compact WY form of H(1)···H(k) = I − V·T·Vᴴ (LAPACK's
/// xLARFT, forward, columnwise), V m×k unit lower trapezoidal (its diagonal and upper part
/// are not read). Counts larft_flops<T>(m, k).
template <typename T>
void larft(std::int64_t m, std::int64_t k, const T* v, std::int64_t ldv, const T* tau, T* t,
           std::int64_t ldt);

/// Operation counts of the calls above (LAPACK Working Note 41, real multiplications and
/// additions apart): GEMM m·n·k of each; TRSM n·m(m+1)/2 multiplications and n·m(m-1)/2
/// additions (Side::Left; m and n swapped for Side::Right); SYRK and HERK k·n(n+1)/2 of each;
/// POTRF n³/6 + n²/2 + n/3 multiplications (the square roots counted with them) and
/// n³/6 − n/6 additions. With these counts a tiled Cholesky factorisation (POTRF, TRSM,
/// SYRK/HERK, GEMM on tiles) adds up exactly to potrf_operations(n), whatever its tiles.
OperationCount gemm_operations(std::int64_t m, std::int64_t n, std::int64_t k);
OperationCount trsm_operations(Side side, std::int64_t m, std::int64_t n);
OperationCount syrk_operations(std::int64_t n, std::int64_t k);
OperationCount potrf_operations(std::int64_t n);
/// GETRF, for m >= n (m and n swapped otherwise): mn²/2 − n³/6 + mn/2 − n²/2 + 2n/3
/// multiplications and mn²/2 − n³/6 − mn/2 + n/6 additions (LAWN 41).
OperationCount getrf_operations(std::int64_t m, std::int64_t n);
/// TRMM: as TRSM (n·m(m+1)/2 multiplications, n·m(m-1)/2 additions for Side::Left).
OperationCount trmm_operations(Side side, std::int64_t m, std::int64_t n);
/// GEQRF, LAWN 41: for m >= n, mn² − n³/3 + mn + n²/2 + 23n/6 multiplications and
/// mn² − n³/3 + n²/2 + 5n/6 additions; for m < n, nm² − m³/3 + 2nm − m²/2 + 23m/6 and
/// nm² − m³/3 + nm − m²/2 + 5m/6.
OperationCount geqrf_operations(std::int64_t m, std::int64_t n);
/// LARFT (not in LAWN 41): column i of T costs a product of V's rows below i, i(m−i)
/// multiplications and additions, and a triangular product, i(i+1)/2 multiplications and
/// i(i−1)/2 additions; summed over i < k.
OperationCount larft_operations(std::int64_t m, std::int64_t k);

/// Flops counted for those calls on scalar type T (flops_of: complex counts 4 times real).
template <typename T = double>
double gemm_flops(std::int64_t m, std::int64_t n, std::int64_t k) {
  return flops_of<T>(gemm_operations(m, n, k));
}
template <typename T = double>
double trsm_flops(Side side, std::int64_t m, std::int64_t n) {
  return flops_of<T>(trsm_operations(side, m, n));
}
template <typename T = double>
double syrk_flops(std::int64_t n, std::int64_t k) {
  return flops_of<T>(syrk_operations(n, k));
}

template <typename T = double>
double trmm_flops(Side side, std::int64_t m, std::int64_t n) {
  return flops_of<T>(trmm_operations(side, m, n));
}
template <typename T = double>
double geqrf_flops(std::int64_t m, std::int64_t n) {
  return flops_of<T>(geqrf_operations(m, n));
}
template <typename T = double>
double larft_flops(std::int64_t m, std::int64_t k) {
  return flops_of<T>(larft_operations(m, k));
}

template <typename T = double>
double potrf_flops(std::int64_t n) {
  return flops_of<T>(potrf_operations(n));
}
template <typename T = double>
double getrf_flops(std::int64_t m, std::int64_t n) {
  return flops_of<T>(getrf_operations(m, n));
}

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in local_blas.cpp.
#define HETSCAL_LOCAL_BLAS_INSTANCES(PREFIX, T)                                                    \
  PREFIX template void gemm<T>(Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*,      \
                               std::int64_t, const T*, std::int64_t, T, T*, std::int64_t);         \
  PREFIX template void trsm<T>(Side, Uplo, Op, Diag, std::int64_t, std::int64_t, T, const T*,      \
                               std::int64_t, T*, std::int64_t);                                    \
  PREFIX template void syrk<T>(Uplo, Op, std::int64_t, std::int64_t, T, const T*, std::int64_t, T, \
                               T*, std::int64_t);                                                  \
  PREFIX template void herk<T>(Uplo, Op, std::int64_t, std::int64_t, real_of_t<T>, const T*,       \
                               std::int64_t, real_of_t<T>, T*, std::int64_t);                      \
  PREFIX template int potrf<T>(Uplo, std::int64_t, T*, std::int64_t);                              \
  PREFIX template int potf2<T>(Uplo, std::int64_t, T*, std::int64_t);                              \
  PREFIX template int getrf<T>(std::int64_t, std::int64_t, T*, std::int64_t, int*);                \
  PREFIX template void trmm<T>(Side, Uplo, Op, Diag, std::int64_t, std::int64_t, T, const T*,      \
                               std::int64_t, T*, std::int64_t);                                    \
  PREFIX template void geqrf<T>(std::int64_t, std::int64_t, T*, std::int64_t, T*, T*,              \
                                std::int64_t);                                                     \
  PREFIX template std::int64_t geqrf_work_size<T>(std::int64_t, std::int64_t);                     \
  PREFIX template void larft<T>(std::int64_t, std::int64_t, const T*, std::int64_t, const T*, T*,  \
                                std::int64_t);
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_LOCAL_BLAS_INSTANCES)

}  // namespace hetscal::kernels
