#include "kernels/local_blas.hpp"

#include <cblas.h>

#include "kernels/flop_counter.hpp"

namespace hetscal::kernels {
namespace {

CBLAS_TRANSPOSE to_cblas(Op op) { return op == Op::NoTrans ? CblasNoTrans : CblasTrans; }
CBLAS_SIDE to_cblas(Side side) { return side == Side::Left ? CblasLeft : CblasRight; }
CBLAS_UPLO to_cblas(Uplo uplo) { return uplo == Uplo::Lower ? CblasLower : CblasUpper; }
CBLAS_DIAG to_cblas(Diag diag) { return diag == Diag::Unit ? CblasUnit : CblasNonUnit; }

// CBLAS takes int dimensions; hetscal's local blocks always fit (checked by the layouts).
int as_int(std::int64_t v) { return static_cast<int>(v); }

// Accounts the flops, then says whether the call must really compute.
bool account(double flops) {
  account_flops(flops);
  return compute_mode() == ComputeMode::Execute;
}

// Per-scalar CBLAS entry points: the only place where float and double differ.
template <typename T>
struct Cblas;

template <>
struct Cblas<double> {
  static constexpr auto gemm = cblas_dgemm;
  static constexpr auto trsm = cblas_dtrsm;
  static constexpr auto syrk = cblas_dsyrk;
};

template <>
struct Cblas<float> {
  static constexpr auto gemm = cblas_sgemm;
  static constexpr auto trsm = cblas_strsm;
  static constexpr auto syrk = cblas_ssyrk;
};

}  // namespace

double gemm_flops(std::int64_t m, std::int64_t n, std::int64_t k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

double trsm_flops(Side side, std::int64_t m, std::int64_t n) {
  const double dm = static_cast<double>(m), dn = static_cast<double>(n);
  return side == Side::Left ? dm * dm * dn : dm * dn * dn;
}

double syrk_flops(std::int64_t n, std::int64_t k) {
  return static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(k);
}

template <typename T>
void gemm(Op op_a, Op op_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c,
          std::int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (!account(gemm_flops(m, n, k))) return;
  Cblas<T>::gemm(CblasColMajor, to_cblas(op_a), to_cblas(op_b), as_int(m), as_int(n),
                 as_int(k), alpha, a, as_int(lda), b, as_int(ldb), beta, c, as_int(ldc));
}

template <typename T>
void trsm(Side side, Uplo uplo, Op op_a, Diag diag, std::int64_t m, std::int64_t n, T alpha,
          const T* a, std::int64_t lda, T* b, std::int64_t ldb) {
  if (m == 0 || n == 0) return;
  if (!account(trsm_flops(side, m, n))) return;
  Cblas<T>::trsm(CblasColMajor, to_cblas(side), to_cblas(uplo), to_cblas(op_a),
                 to_cblas(diag), as_int(m), as_int(n), alpha, a, as_int(lda), b, as_int(ldb));
}

template <typename T>
void syrk(Uplo uplo, Op op_a, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, T beta, T* c, std::int64_t ldc) {
  if (n == 0) return;
  if (!account(syrk_flops(n, k))) return;
  Cblas<T>::syrk(CblasColMajor, to_cblas(uplo), to_cblas(op_a), as_int(n), as_int(k), alpha,
                 a, as_int(lda), beta, c, as_int(ldc));
}

// The one place where scalar types are instantiated.
#define HETSCAL_INSTANTIATE_LOCAL_BLAS(T)                                                    \
  template void gemm<T>(Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*,      \
                        std::int64_t, const T*, std::int64_t, T, T*, std::int64_t);          \
  template void trsm<T>(Side, Uplo, Op, Diag, std::int64_t, std::int64_t, T, const T*,       \
                        std::int64_t, T*, std::int64_t);                                     \
  template void syrk<T>(Uplo, Op, std::int64_t, std::int64_t, T, const T*, std::int64_t, T,  \
                        T*, std::int64_t);
HETSCAL_INSTANTIATE_LOCAL_BLAS(float)
HETSCAL_INSTANTIATE_LOCAL_BLAS(double)
#undef HETSCAL_INSTANTIATE_LOCAL_BLAS

}  // namespace hetscal::kernels
