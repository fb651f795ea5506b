// Benchmark program for the native API under changing speeds (issue 12 item 4): a loop of
// hetero_pdgemm on an N×N GEMM context's matrices, with the matrices registered with
// hetscal_context_keep_balanced (mode `kept`) or not (mode `plain`), printing the time of
// every call (the slowest rank's, automatic rebalancing included), one line each:
//   native_loop: kept N=3000 call 7 seconds 1.2345
// and at the end the context's layout share of every rank. Run it with the emulator preloaded
// and a rank turning slower mid-run (run_native.sh); it measures nothing by itself.
//
// usage: native_loop MODE N CALLS      (MODE kept | plain)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "hetscal/hetscal.h"
#include "mpi/blacs.hpp"

namespace {

// One matrix of the context: its descriptor and a local array with room for any share up to
// the whole matrix (a benchmark's simplicity; a program bounds it by its slowest speeds).
struct Matrix {
  int desc[HETSCAL_DESC_LEN] = {};
  std::vector<double> local;
  Matrix(hetscal_context_t ctx, int n, double value) {
    int info = 0;
    hetscal_descinit(desc, n, n, ctx, std::max(1, hetscal_local_rows(ctx, n)), &info);
    local.assign(static_cast<std::size_t>(n) * n, value);
  }
};

int usage() {
  std::fprintf(stderr, "usage: native_loop kept|plain N CALLS\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string mode = argc > 1 ? argv[1] : "";
  const int n = argc > 2 ? std::atoi(argv[2]) : 0, calls = argc > 3 ? std::atoi(argv[3]) : 0;
  if ((mode != "kept" && mode != "plain") || n < 1 || calls < 1) {
    if (rank == 0) usage();
    MPI_Finalize();
    return 2;
  }
  int blacs = 0;
  Cblacs_get(0, 0, &blacs);
  Cblacs_gridinit(&blacs, "Row", 1, size);
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  if (hetscal_gemm_context_create(blacs, nullptr, n, n, n, &ctx) != HETSCAL_SUCCESS) {
    std::fprintf(stderr, "native_loop: no context\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  Matrix a(ctx, n, 1.0), b(ctx, n, 0.5), c(ctx, n, 0.0);
  if (mode == "kept") {
    double* arrays[] = {a.local.data(), b.local.data(), c.local.data()};
    const long long capacities[] = {static_cast<long long>(a.local.size()),
                                    static_cast<long long>(b.local.size()),
                                    static_cast<long long>(c.local.size())};
    int* descs[] = {a.desc, b.desc, c.desc};
    if (hetscal_context_keep_balanced(ctx, 3, arrays, capacities, descs) != HETSCAL_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int call = 1; call <= calls; ++call) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    int info = 0;
    hetero_pdgemm("N", "N", n, n, n, 1.0, a.local.data(), 1, 1, a.desc, b.local.data(), 1, 1,
                  b.desc, 0.0, c.local.data(), 1, 1, c.desc, &info);
    double seconds = MPI_Wtime() - start, slowest = 0.0;
    MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (info != 0) MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
      std::printf("native_loop: %s N=%d call %d seconds %.4f\n", mode.c_str(), n, call, slowest);
  }
  const long long mine = hetscal_local_elements(c.desc);
  std::vector<long long> shares(static_cast<std::size_t>(size));
  MPI_Gather(&mine, 1, MPI_LONG_LONG, shares.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("native_loop: %s N=%d final shares", mode.c_str(), n);
    for (const long long share : shares) std::printf(" %.3f", double(share) / (double(n) * n));
    std::printf("\n");
  }
  hetscal_context_free(&ctx);
  Cblacs_gridexit(blacs);
  MPI_Finalize();
  return 0;
}
