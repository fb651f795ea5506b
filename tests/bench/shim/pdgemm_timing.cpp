// Benchmark program: times C = A·B with PDGEMM on a 1×P BLACS grid (a plain ScaLAPACK
// program; run it with or without libhetscal.so preloaded, see pdgemm_preload_timing.sh).
// usage: pdgemm_timing N NB REPETITIONS   — prints the median seconds of one call (max over
// ranks) on rank 0.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "scalapack_abi.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 1500;
  const int nb = argc > 2 ? std::atoi(argv[2]) : 64;
  const int repetitions = argc > 3 ? std::atoi(argv[3]) : 5;
  int rank = 0, size = 1, context = 0, zero = 0, one = 1;
  Cblacs_pinfo(&rank, &size);
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", 1, size);
  const int local_cols = numroc_(&n, &nb, &rank, &zero, &size);
  const int desc[9] = {1, context, n, n, nb, nb, 0, 0, std::max(n, 1)};
  std::vector<double> a(static_cast<std::size_t>(n) * std::max(local_cols, 1), 0.5), b(a), c(a);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i % 17) / 17.0;
  const double alpha = 1.0, beta = 0.0;
  std::vector<double> seconds;
  for (int r = 0; r < repetitions; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    pdgemm_("N", "N", &n, &n, &n, &alpha, a.data(), &one, &one, desc, b.data(), &one, &one, desc,
            &beta, c.data(), &one, &one, desc);
    double took = MPI_Wtime() - start, slowest = 0.0;
    MPI_Allreduce(&took, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    seconds.push_back(slowest);
  }
  std::nth_element(seconds.begin(), seconds.begin() + repetitions / 2, seconds.end());
  if (rank == 0) std::printf("pdgemm_timing: N=%d NB=%d 1x%d median %.4f s\n", n, nb, size, seconds[repetitions / 2]);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return 0;
}
