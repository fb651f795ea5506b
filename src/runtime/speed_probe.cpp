#include "runtime/speed_probe.hpp"

#include <algorithm>
#include <vector>

#include "kernels/flop_counter.hpp"

extern "C" void dgemm_(const char* transa, const char* transb, const int* m, const int* n,
                       const int* k, const double* alpha, const double* a, const int* lda,
                       const double* b, const int* ldb, const double* beta, double* c,
                       const int* ldc);

namespace hetscal::runtime {
namespace {

// Large enough to run at the kernel's rate, and runs for about 20 ms (9 runs on one core of
// 48 Gflop/s) so that a rank's first few runs (a core waking, the library's first call) or a
// moment of another process do not set its median: with 5 runs of order 256 (4 ms) one
// start in four on two equal cores probed them 15-30 % apart, so that the first call planned
// a heterogeneous layout for a homogeneous machine and paid its moves. Bounded by time, so
// that a slow core (or one slowed by the emulator) does not stall: a run that alone takes the
// budget already averages over as long a time as the 9 short ones.
constexpr int kMinRuns = 1;
constexpr int kMaxRuns = 9;
constexpr double kBudgetSeconds = 0.020;
constexpr int kShortRuns = 3;

// The median rate of DGEMMs of order n: `min_runs`, then more until `max_runs` or until
// they took `budget_s` in all.
double measure(int n, int min_runs, int max_runs, double budget_s) {
  std::vector<double> a(static_cast<std::size_t>(n) * n, 0.5), b(a), c(a);
  const double alpha = 1.0, beta = 0.0;
  std::vector<double> seconds;
  double total = 0.0;
  for (int run = 0; run < max_runs && (run < min_runs || total < budget_s); ++run) {
    const double start = kernels::compute_clock_seconds();
    dgemm_("N", "N", &n, &n, &n, &alpha, a.data(), &n, b.data(), &n, &beta, c.data(), &n);
    seconds.push_back(std::max(kernels::compute_clock_seconds() - start, 1e-9));
    total += seconds.back();
  }
  const std::size_t middle = seconds.size() / 2;
  std::nth_element(seconds.begin(), seconds.begin() + static_cast<std::ptrdiff_t>(middle), seconds.end());
  return 2.0 * n * static_cast<double>(n) * n / seconds[middle];
}

}  // namespace

double probed_speed() {
  static const double speed = measure(kProbeOrder, kMinRuns, kMaxRuns, kBudgetSeconds);
  return speed;
}

double short_probed_speed(int order) { return measure(order, kShortRuns, kShortRuns, 0.0); }

}  // namespace hetscal::runtime
