#include "runtime/speed_probe.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

extern "C" void dgemm_(const char* transa, const char* transb, const int* m, const int* n,
                       const int* k, const double* alpha, const double* a, const int* lda,
                       const double* b, const int* ldb, const double* beta, double* c,
                       const int* ldc);

namespace hetscal::runtime {
namespace {

// Large enough to run at the kernel's rate, and enough runs (about 20 ms in all on one core of
// 48 Gflop/s) that a rank's first few runs (a core waking, the library's first call) or a
// moment of another process do not set its median: with 5 runs of order 256 (4 ms) one
// start in four on two equal cores probed them 15-30 % apart, so that the first call planned
// a heterogeneous layout for a homogeneous machine and paid its moves. Small enough that the
// first intercepted call does not stall (about 60 ms on a core three times slower).
constexpr int kRuns = 9;
constexpr int kShortRuns = 3;

// The median rate of `runs` DGEMMs of order n.
double measure(int n, int runs) {
  std::vector<double> a(static_cast<std::size_t>(n) * n, 0.5), b(a), c(a);
  const double alpha = 1.0, beta = 0.0;
  std::vector<double> seconds;
  for (int run = 0; run < runs; ++run) {
    const auto start = std::chrono::steady_clock::now();
    dgemm_("N", "N", &n, &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(), &n);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    seconds.push_back(std::max(took.count(), 1e-9));
  }
  std::nth_element(seconds.begin(), seconds.begin() + runs / 2, seconds.end());
  return 2.0 * n * static_cast<double>(n) * n / seconds[static_cast<std::size_t>(runs / 2)];
}

}  // namespace

double probed_speed() {
  static const double speed = measure(kProbeOrder, kRuns);
  return speed;
}

double short_probed_speed(int order) { return measure(order, kShortRuns); }

}  // namespace hetscal::runtime
