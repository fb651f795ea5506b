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
double potrf_flops(std::int64_t n) {
  return flops_of<T>(potrf_operations(n));
}
template <typename T = double>
double getrf_flops(std::int64_t m, std::int64_t n) {
  return flops_of<T>(getrf_operations(m, n));
}

}  // namespace hetscal::kernels
