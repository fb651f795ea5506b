// Run with libhetscal-slowdown.so preloaded, HETSCAL_SLOWDOWN_RATE=1e9 and this process
// slowed by 3 (HETSCAL_SLOWDOWN=0:3, rank 0) or not at all (argument "unslowed").
// Checks the seconds the emulator charges against (factor − 1)·flops/rate for CBLAS,
// Fortran BLAS and a LAPACK factorization whose internal BLAS calls must not be charged twice.
#include <cblas.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "emulator_query.hpp"

extern "C" void dgemm_(const char*, const char*, const int*, const int*, const int*,
                       const double*, const double*, const int*, const double*, const int*,
                       const double*, double*, const int*, std::size_t, std::size_t);
extern "C" void dgetrf_(const int*, const int*, double*, const int*, int*, int*);

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

  std::printf("%d passed, %d failed\n", passes, failures);
  return failures == 0 ? 0 : 1;
}
