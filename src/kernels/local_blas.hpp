#pragma once
/// @file local_blas.hpp
/// The one thin wrapper through which hetscal's kernels call local BLAS/LAPACK: it counts
/// each call's flops (kernels/flop_counter.hpp) and, in SimGrid builds with
/// ComputeMode::Skip, injects the flops without computing. Column-major storage throughout.
/// Templated on the scalar type; float and double are instantiated in local_blas.cpp.
#include <cstdint>

#include "kernels/blas_enums.hpp"

namespace hetscal::kernels {

/// C = alpha·op(A)·op(B) + beta·C, with op(A) m×k, op(B) k×n. Counts 2·m·n·k flops.
template <typename T>
void gemm(Op op_a, Op op_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c,
          std::int64_t ldc);

/// B = alpha·op(A)⁻¹·B (Side::Left, A m×m) or alpha·B·op(A)⁻¹ (Side::Right, A n×n), A
/// triangular. Counts m·n² (right) or m²·n (left) flops.
template <typename T>
void trsm(Side side, Uplo uplo, Op op_a, Diag diag, std::int64_t m, std::int64_t n, T alpha,
          const T* a, std::int64_t lda, T* b, std::int64_t ldb);

/// C = alpha·A·Aᵀ + beta·C (Op::NoTrans, A n×k) on the `uplo` triangle. Counts n²·k flops.
template <typename T>
void syrk(Uplo uplo, Op op_a, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, T beta, T* c, std::int64_t ldc);

/// Flop counts of the operations above (LAPACK Working Note 41 conventions, real case).
double gemm_flops(std::int64_t m, std::int64_t n, std::int64_t k);
double trsm_flops(Side side, std::int64_t m, std::int64_t n);
double syrk_flops(std::int64_t n, std::int64_t k);

}  // namespace hetscal::kernels
