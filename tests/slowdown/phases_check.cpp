// Run under mpirun with libhetscal-slowdown.so preloaded and HETSCAL_SLOWDOWN_RATE=1e9:
// each rank makes 6 equal DGEMM calls and checks, call by call, the seconds the emulator
// charges against (f − 1)·flops/rate for the factor f its scenario says is in force.
//   calls:   HETSCAL_SLOWDOWN=1:3@calls=2..4,0:2@calls=4..
//   seconds: HETSCAL_SLOWDOWN=0:3@t=0..,1:3@t=1000..   (rank 1's window never opens)
#include <cblas.h>
#include <dlfcn.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "emulator_query.hpp"

namespace {

constexpr int kCalls = 6;

// The factor the scenario's HETSCAL_SLOWDOWN puts on `rank`'s call number `call`.
double expected_factor(const char* scenario, int rank, int call) {
  if (std::strcmp(scenario, "calls") == 0) {
    if (rank == 1) return call >= 2 && call < 4 ? 3.0 : 1.0;
    return call >= 4 ? 2.0 : 1.0;
  }
  return rank == 0 ? 3.0 : 1.0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* scenario = argc > 1 ? argv[1] : "calls";
  const int n = 200;
  std::vector<double> a(n * n, 0.5), b(n * n, 0.25), c(n * n, 0.0);
  const double flops = 2.0 * n * n * n;
  int failures = 0;
  for (int call = 0; call < kCalls; ++call) {
    const double before = charged();
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n,
                0.0, c.data(), n);
    const double want = (expected_factor(scenario, rank, call) - 1.0) * flops / 1e9;
    const double got = charged() - before;
    const bool ok = std::fabs(got - want) <= 1e-12 * (1.0 + want);
    failures += ok ? 0 : 1;
    std::printf("rank %d call %d: %s charged %.9f s, expected %.9f s\n", rank, call,
                ok ? "ok" : "FAILED", got, want);
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%s: %d failures\n", scenario, total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
