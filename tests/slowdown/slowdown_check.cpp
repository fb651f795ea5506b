// Run with libhetscal-slowdown.so preloaded, HETSCAL_SLOWDOWN_RATE=1e9 and this process
// slowed by 3 (HETSCAL_SLOWDOWN=0:3, rank 0) or not at all (argument "unslowed").
// Checks the seconds the emulator charges against (factor − 1)·flops/rate for CBLAS,
// Fortran BLAS and a LAPACK factorization whose internal BLAS calls must not be charged twice,
// and, in the other precisions, that every routine hetscal's kernels or ScaLAPACK's call is
// charged, complex ones 4 times the real count of their shape.
#include <cblas.h>
#include <dlfcn.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "emulator_query.hpp"

extern "C" void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
                       const double*, const int*, const double*, const int*, const double*, double*,
                       const int*, std::size_t, std::size_t);
extern "C" void dgetrf_(const int*, const int*, double*, const int*, int*, int*);
extern "C" void zgemm_(const char*, const char*, const int*, const int*, const int*,
                       const std::complex<double>*, const std::complex<double>*, const int*,
                       const std::complex<double>*, const int*, const std::complex<double>*,
                       std::complex<double>*, const int*, std::size_t, std::size_t);
extern "C" void zgeru_(const int*, const int*, const std::complex<double>*,
                       const std::complex<double>*, const int*, const std::complex<double>*,
                       const int*, std::complex<double>*, const int*);
extern "C" void zpotrf_(const char*, const int*, std::complex<double>*, const int*, int*,
                        std::size_t);
extern "C" void sgemv_(const char*, const int*, const int*, const float*, const float*, const int*,
                       const float*, const int*, const float*, float*, const int*, std::size_t);
extern "C" void dlarft_(const char*, const char*, const int*, const int*, const double*, const int*,
                        const double*, double*, const int*, std::size_t, std::size_t);

namespace {
int failures = 0, passes = 0;

void expect_charge(const char* what, double before, double flops, double factor) {
  const double want = (factor - 1.0) * flops / 1e9, got = charged() - before;
  const bool ok = std::fabs(got - want) <= 1e-12 * (1.0 + want);
  (ok ? passes : failures)++;
  std::printf("%s %s: charged %.9f s, expected %.9f s\n", ok ? "ok" : "FAILED", what, got, want);
}
}  // namespace

int main(int argc, char** argv) {
  const double factor = (argc > 1 && std::strcmp(argv[1], "unslowed") == 0) ? 1.0 : 3.0;
  const int n = 300;
  std::vector<double> a(n * n), b(n * n, 1.0), c(n * n, 0.0);
  for (int i = 0; i < n * n; ++i) a[i] = (i % n == i / n) ? n : 1.0 / (1 + i % 7);

  double before = charged();
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n,
              0.0, c.data(), n);
  expect_charge("cblas_dgemm", before, 2.0 * n * n * n, factor);

  before = charged();
  const double one = 1.0, zero = 0.0;
  dgemm_("N", "T", &n, &n, &n, &one, a.data(), &n, b.data(), &n, &zero, c.data(), &n, 1, 1);
  expect_charge("dgemm_", before, 2.0 * n * n * n, factor);

  before = charged();
  std::vector<int> ipiv(n);
  int info = 0;
  dgetrf_(&n, &n, a.data(), &n, ipiv.data(), &info);
  expect_charge("dgetrf_ (nested BLAS not charged twice)", before,
                double(n) * n * n - double(n) * n * n / 3.0, factor);

  // The other precisions: one routine of each kind the emulator added for them.
  using zcomplex = std::complex<double>;
  std::vector<zcomplex> za(n * n), zb(n * n, zcomplex(1.0, -1.0)), zc(n * n);
  for (int i = 0; i < n * n; ++i)
    za[i] = (i % n == i / n) ? zcomplex(2.0 * n, 0.0) : zcomplex(0.5 / (1 + i % 7), 0.25);
  const zcomplex z_one(1.0, 0.0), z_zero(0.0, 0.0);
  const double four_n3 = 4.0 * n * n * n;  // a complex multiply-add is 4 real ones

  before = charged();
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, n, n, n, &z_one, za.data(), n, zb.data(),
              n, &z_zero, zc.data(), n);
  expect_charge("cblas_zgemm", before, 2.0 * four_n3, factor);

  before = charged();
  zgemm_("N", "C", &n, &n, &n, &z_one, za.data(), &n, zb.data(), &n, &z_zero, zc.data(), &n, 1, 1);
  expect_charge("zgemm_", before, 2.0 * four_n3, factor);

  before = charged();
  cblas_zherk(CblasColMajor, CblasLower, CblasNoTrans, n, n, 1.0, zb.data(), n, 0.0, zc.data(), n);
  expect_charge("cblas_zherk", before, four_n3, factor);

  before = charged();
  cblas_ztrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, n, &z_one,
              za.data(), n, zc.data(), n);
  expect_charge("cblas_ztrmm", before, four_n3, factor);

  before = charged();
  const int inc = 1;
  zgeru_(&n, &n, &z_one, zb.data(), &inc, zb.data(), &inc, zc.data(), &n);
  expect_charge("zgeru_", before, 4.0 * 2.0 * n * n, factor);

  before = charged();
  zpotrf_("L", &n, za.data(), &n, &info, 1);
  expect_charge("zpotrf_ (nested BLAS not charged twice)", before, four_n3 / 3.0, factor);

  std::vector<float> sa(n * n, 0.5f), sx(n, 1.0f), sy(n, 0.0f);
  const float s_one = 1.0f, s_zero = 0.0f;
  before = charged();
  sgemv_("T", &n, &n, &s_one, sa.data(), &n, sx.data(), &inc, &s_zero, sy.data(), &inc, 1);
  expect_charge("sgemv_", before, 2.0 * n * n, factor);

  // hetscal's QR builds T with xLARFT: n·k² for k reflectors of length n.
  const int k = 40;
  std::vector<double> tau(k, 1.5), t(k * k);
  before = charged();
  dlarft_("F", "C", &n, &k, a.data(), &n, tau.data(), t.data(), &k, 1, 1);
  expect_charge("dlarft_", before, double(n) * k * k, factor);

  std::printf("%d passed, %d failed\n", passes, failures);
  return failures == 0 ? 0 : 1;
}
