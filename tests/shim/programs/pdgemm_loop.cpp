// A ScaLAPACK program (it knows nothing of hetscal) that calls PDGEMM in a loop on an N×N
// problem, C = alpha·A·B + beta·C with B = 2·I, so that every call's exact result,
// 2·alpha·A + beta·C_before, is checked in O(N²) on each rank's own elements. beta ≠ 0: a
// call that wrote part of C and then handed the call to ScaLAPACK would be caught.
// Used by the bad-argument test (PB_Cabort's path).
//
// usage: pdgemm_loop [N] [calls] [bad-lld]   (defaults 1000 and 3; a 1×P grid, NB = 64)
//   bad-lld: DESCC's LLD is 1, which PBLAS refuses (PB_Cabort: the run ends with an error)
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "scalapack_abi.hpp"

namespace {

constexpr int kBlock = 64;

double a_value(int i, int j) { return std::sin(0.37 * i + 0.11 * j) + 0.01 * j; }
double c_value(int i, int j) { return 0.5 * i - 0.25 * j; }

struct Local {
  int desc[9];
  int cols = 0, lld = 1, mycol = 0, npcol = 1;
  std::vector<double> data;

  int global_col(int local) const {  // 0-based in, 1-based out
    const int l = local + 1, zero = 0;
    return indxl2g_(&l, &desc[5], &mycol, &zero, &npcol);
  }
};

Local distributed(int context, int n, double (*value)(int, int)) {
  Local x;
  int nprow, myrow;
  Cblacs_gridinfo(context, &nprow, &x.npcol, &myrow, &x.mycol);
  const int zero = 0, block = kBlock;
  x.cols = numroc_(&n, &block, &x.mycol, &zero, &x.npcol);
  x.lld = n;
  x.desc[0] = 1; x.desc[1] = context; x.desc[2] = n; x.desc[3] = n;
  x.desc[4] = kBlock; x.desc[5] = kBlock; x.desc[6] = 0; x.desc[7] = 0; x.desc[8] = x.lld;
  x.data.resize(static_cast<std::size_t>(x.lld) * static_cast<std::size_t>(std::max(x.cols, 1)));
  for (int jl = 0; jl < x.cols; ++jl) {
    const int j = x.global_col(jl);
    for (int i = 1; i <= n; ++i) x.data[static_cast<std::size_t>(jl) * x.lld + i - 1] = value(i, j);
  }
  return x;
}

double twice_identity(int i, int j) { return i == j ? 2.0 : 0.0; }

}  // namespace

namespace {

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {  // the program's own matrices: not a library's doing
    std::printf("hetscal-check: the program's own allocation failed\n");
    std::fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return 3;
}

namespace {

int run(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int calls = argc > 2 ? std::atoi(argv[2]) : 3;
  int rank, size, context;
  Cblacs_pinfo(&rank, &size);
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", 1, size);
  const Local a = distributed(context, n, a_value);
  const Local b = distributed(context, n, twice_identity);
  Local c = distributed(context, n, c_value);
  if (argc > 3 && std::string(argv[3]) == "bad-lld") c.desc[8] = 1;
  const double alpha = 1.5, beta = 0.5;
  const int one = 1;
  long wrong = 0;
  for (int call = 0; call < calls; ++call) {
    std::vector<double> expected(c.data.size());
    for (std::size_t e = 0; e < c.data.size(); ++e) expected[e] = 2.0 * alpha * a.data[e] + beta * c.data[e];
    pdgemm_("N", "N", &n, &n, &n, &alpha, a.data.data(), &one, &one, a.desc, b.data.data(), &one,
            &one, b.desc, &beta, c.data.data(), &one, &one, c.desc);
    for (std::size_t e = 0; e < c.data.size(); ++e) {
      if (std::fabs(c.data[e] - expected[e]) > 1e-12 * (1.0 + std::fabs(expected[e]))) ++wrong;
    }
  }
  long wrong_anywhere = 0;
  MPI_Allreduce(&wrong, &wrong_anywhere, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("hetscal-check: %d calls of PDGEMM %dx%dx%d: %ld wrong elements\n", calls, n, n, n,
                wrong_anywhere);
    std::printf("hetscal-check: %s\n", wrong_anywhere ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  }
  Cblacs_gridexit(context);
  MPI_Finalize();
  return wrong_anywhere ? 1 : 0;
}

}  // namespace
