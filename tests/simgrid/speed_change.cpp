// SimGrid check of a platform whose host speed changes during the run (a speed profile),
// run under smpirun on tests/simgrid/platforms/nine_workstations_slowing.xml.
// Usage: simgrid_speed_change <host speed of each rank, flop/s> <slowing rank> <change time s>
//                             <factor>
// Each rank injects two GEMM-sized amounts of flops: the first ends at half the change time
// T on every host; the second, started there, would take T at full speed. A rank whose host
// keeps its speed takes exactly that; on the slowing host the work after the change runs
// `factor` times slower: about (1 + factor)·T/2 instead of T.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/flop_counter.hpp"

namespace {

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) values.push_back(std::stod(item));
  return values;
}

// Injects `flops` on this host (the wrapper's accounting, which calls smpi_execute_flops)
// and returns the simulated seconds it took; `start` gets the simulated time it began.
double timed_flops(double flops, double* start) {
  *start = MPI_Wtime();
  hetscal::kernels::account_flops(flops);
  return MPI_Wtime() - *start;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::vector<double> speeds = argc > 4 ? parse_list(argv[1]) : std::vector<double>{};
  if (speeds.size() != static_cast<std::size_t>(size)) {
    if (rank == 0) std::printf("usage: simgrid_speed_change <speeds> <slowing rank> <change time> <factor>\n");
    MPI_Finalize();
    return 2;
  }
  const int slowing = std::atoi(argv[2]);
  const double change_s = std::atof(argv[3]), factor = std::atof(argv[4]);
  const double speed = speeds[static_cast<std::size_t>(rank)];

  double start = 0.0;
  const double first = timed_flops(speed * change_s / 2.0, &start);
  MPI_Barrier(MPI_COMM_WORLD);
  const double second = timed_flops(speed * change_s, &start);
  const double want_first = change_s / 2.0;
  // The barrier's messages start the second part a little after T/2: the work before the
  // change is (change − start) seconds at full speed, the rest `factor` times slower.
  const double before_change = change_s - start;
  const double want_second = rank == slowing ? before_change + factor * (change_s - before_change) : change_s;
  // SMPI charges a few nanoseconds per MPI call: allow 1 µs on top of rounding.
  const bool ok = std::fabs(first - want_first) <= 1e-6 * want_first + 1e-6 &&
                  std::fabs(second - want_second) <= 1e-6 * want_second + 1e-6;
  if (!ok || rank == slowing)
    std::printf("rank %d: %s before the change %.6f s (want %.6f), across it %.6f s (want %.6f)\n",
                rank, ok ? "ok" : "FAILED", first, want_first, second, want_second);
  int failed = ok ? 0 : 1, total = 0;
  MPI_Reduce(&failed, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) std::printf("speed profile: %d of %d ranks off\n", total, size);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
