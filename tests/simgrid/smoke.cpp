// SimGrid smoke test, run under smpirun on a platform of tests/simgrid/platforms/.
// Usage: simgrid_smoke <speed of each rank's host in flop/s, comma-separated>
// Checks that hetscal's flop-injected compute steps take simulated time flops / host speed,
// so that simulated runs of hetscal's kernels follow the platform's host speeds.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/flop_counter.hpp"
#include "kernels/local_blas.hpp"

namespace {

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) values.push_back(std::stod(item));
  return values;
}

struct Tally {
  int passed = 0, failed = 0;
  void check(bool ok, int rank, const char* what, double got, double want) {
    if (ok) {
      ++passed;
    } else {
      ++failed;
      std::printf("rank %d: FAILED %s: got %.9g, want %.9g\n", rank, what, got, want);
    }
  }
};

// A local GEMM through the wrapper in Skip mode: only its flops reach the simulator.
double timed_skipped_gemm(std::int64_t n) {
  using namespace hetscal::kernels;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  gemm<double>(Op::NoTrans, Op::NoTrans, n, n, n, 1.0, nullptr, n, nullptr, n, 0.0, nullptr, n);
  return MPI_Wtime() - start;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::vector<double> speeds = argc > 1 ? parse_list(argv[1]) : std::vector<double>{};
  if (speeds.size() != static_cast<std::size_t>(size)) {
    if (rank == 0) std::printf("usage: simgrid_smoke <one host speed (flop/s) per rank>\n");
    MPI_Finalize();
    return 2;
  }

  using namespace hetscal::kernels;
  set_compute_mode(ComputeMode::Skip);
  Tally tally;

  const std::int64_t n = 400;  // 1.28e8 flops: 1.28 s on a 100 Mflop/s host
  const double elapsed = timed_skipped_gemm(n);
  const double expected = gemm_flops(n, n, n) / speeds[static_cast<std::size_t>(rank)];
  // SMPI charges a few nanoseconds per MPI_Wtime call: allow 1 µs on top of rounding.
  tally.check(std::fabs(elapsed - expected) <= 1e-6 * expected + 1e-6, rank,
              "simulated time of an injected GEMM", elapsed, expected);
  tally.check(local_flops() == gemm_flops(n, n, n), rank, "flops counted", local_flops(),
              gemm_flops(n, n, n));

  // Every rank did the same work F, so the slowest host finishes last:
  // balance = (P·F/Σs) / (F/min s) = P·min(s)/Σs.
  const FlopBalance balance = gather_flop_balance(MPI_COMM_WORLD, speeds);
  double slowest = speeds[0], total = 0.0;
  for (double s : speeds) {
    slowest = std::min(slowest, s);
    total += s;
  }
  const double want_balance = static_cast<double>(size) * slowest / total;
  tally.check(std::fabs(balance.balance - want_balance) <= 1e-12, rank, "flop balance",
              balance.balance, want_balance);

  int counts[2] = {tally.passed, tally.failed}, totals[2] = {0, 0};
  MPI_Reduce(counts, totals, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%d passed, %d failed\n", totals[0], totals[1]);
  MPI_Finalize();
  return totals[1] == 0 ? 0 : 1;
}
