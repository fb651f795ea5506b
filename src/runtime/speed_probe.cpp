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
constexpr double kBudgetSeconds = 0.010;
// One window in four read 8.9e9 flop/s instead of 5e10 on an idle machine (issue 29): the
// probe is repeated and its best window kept. Another process can only slow a window down.
constexpr int kWindows = 3;
constexpr int kShortRuns = 3;
constexpr int kTileRateRuns = 5;

// The median rate of DGEMMs of m×n outputs and inner dimension k: `min_runs`, then more
// until `max_runs` or until they took `budget_s` in all.
double measure(int m, int n, int k, int min_runs, int max_runs, double budget_s) {
  std::vector<double> a(static_cast<std::size_t>(m) * k, 0.5), b(static_cast<std::size_t>(k) * n, 0.5),
      c(static_cast<std::size_t>(m) * n, 0.0);
  const double alpha = 1.0, beta = 0.0;
  std::vector<double> seconds;
  double total = 0.0;
  for (int run = 0; run < max_runs && (run < min_runs || total < budget_s); ++run) {
    const double start = kernels::compute_clock_seconds();
    dgemm_("N", "N", &m, &n, &k, &alpha, a.data(), &m, b.data(), &k, &beta, c.data(), &m);
    seconds.push_back(std::max(kernels::compute_clock_seconds() - start, 1e-9));
    total += seconds.back();
  }
  const std::size_t middle = seconds.size() / 2;
  std::nth_element(seconds.begin(), seconds.begin() + static_cast<std::ptrdiff_t>(middle), seconds.end());
  return 2.0 * m * static_cast<double>(n) * k / seconds[middle];
}

double measure_square(int n, int runs) { return measure(n, n, n, runs, runs, 0.0); }

double best_window() {
  // The emulator's clock (tests) is exact, and its tests count the process's BLAS calls: one
  // window, as before windows were repeated.
  const int windows = kernels::compute_clock_is_emulated() ? 1 : kWindows;
  double best = 0.0;
  for (int window = 0; window < windows; ++window) {
    best = std::max(best, measure(kProbeOrder, kProbeOrder, kProbeOrder, kMinRuns, kMaxRuns, kBudgetSeconds));
  }
  return best;
}

}  // namespace

double probed_speed() {
  static const double speed = best_window();
  return speed;
}

double short_probed_speed(int order) { return measure_square(order, kShortRuns); }

std::vector<core::TileRate> probed_tile_rates() {
  static const std::vector<core::TileRate> rates = [] {
    const double peak = probed_speed();
    std::vector<core::TileRate> measured;
    for (int width : kTileRateWidths) {
      const double rate = measure(kTileRateOrder, kTileRateOrder, width, kTileRateRuns, kTileRateRuns, 0.0);
      measured.push_back({static_cast<double>(width), std::min(1.0, rate / peak)});
    }
    return measured;
  }();
  return rates;
}

}  // namespace hetscal::runtime
