// Benchmark program for the adaptive scenario (issue 12): a plain ScaLAPACK program (it knows
// nothing of hetscal; run it with or without libhetscal.so preloaded, see run_real.sh) that
// calls one routine in a loop on an N×N problem on a 1×P grid and prints the time of every
// call (the slowest rank's), one line each:
//   adaptive_loop: pdgemm N=3000 call 7 seconds 1.2345
// A factorization starts every call from the same matrix (copied in, untimed), so that every
// call does the same work; PDPOTRF's matrix is symmetric positive definite.
//
// usage: adaptive_loop ROUTINE N CALLS [NB] [FIRST]
//   ROUTINE pdgemm, pdgetrf, pdpotrf or pdgeqrf; NB default 64; FIRST numbers the first call
//   (default 1), for runs made phase by phase.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "scalapack_abi.hpp"

namespace {

struct Problem {
  int n = 0, nb = 64, context = 0, local_cols = 0;
  int desc[9] = {};
  std::vector<double> original, a, b, c, tau, work;
  std::vector<int> ipiv;
};

// An N×N matrix on a 1×P grid: entries from a fixed formula, plus 2N on the diagonal so that
// it is positive definite (and well conditioned for LU and QR).
void fill(Problem& p, int rank, int size) {
  const int zero = 0;
  p.local_cols = numroc_(&p.n, &p.nb, &rank, &zero, &size);
  const int desc[9] = {1, p.context, p.n, p.n, p.nb, p.nb, 0, 0, std::max(p.n, 1)};
  std::copy(desc, desc + 9, p.desc);
  p.original.assign(static_cast<std::size_t>(p.n) * std::max(p.local_cols, 1), 0.0);
  for (int jl = 0; jl < p.local_cols; ++jl) {
    const int j = (jl / p.nb * size + rank) * p.nb + jl % p.nb;  // 0-based global column
    for (int i = 0; i < p.n; ++i) {
      const double symmetric = 1.0 / (1.0 + std::abs(i - j)) + std::cos(0.01 * (i + j));
      p.original[static_cast<std::size_t>(jl) * p.n + i] = symmetric + (i == j ? 2.0 * p.n : 0.0);
    }
  }
  p.a = p.original;
  p.b = p.original;
  p.c.assign(p.original.size(), 0.0);
  p.ipiv.assign(static_cast<std::size_t>(p.n + p.nb), 0);
  p.tau.assign(static_cast<std::size_t>(std::max(p.local_cols, 1)), 0.0);
}

// The routine's call on the problem (INFO checked: a failed factorization ends the run).
std::function<int()> call_of(const std::string& routine, Problem& p) {
  static const int one = 1;
  if (routine == "pdgemm") {
    return [&p] {
      const double alpha = 1.0, beta = 0.0;
      pdgemm_("N", "N", &p.n, &p.n, &p.n, &alpha, p.a.data(), &one, &one, p.desc, p.b.data(), &one,
              &one, p.desc, &beta, p.c.data(), &one, &one, p.desc);
      return 0;
    };
  }
  if (routine == "pdgetrf") {
    return [&p] {
      int info = 0;
      pdgetrf_(&p.n, &p.n, p.a.data(), &one, &one, p.desc, p.ipiv.data(), &info);
      return info;
    };
  }
  if (routine == "pdpotrf") {
    return [&p] {
      int info = 0;
      pdpotrf_("L", &p.n, p.a.data(), &one, &one, p.desc, &info);
      return info;
    };
  }
  if (routine == "pdgeqrf") {
    return [&p] {
      int info = 0, query = -1;
      double size = 0.0;
      pdgeqrf_(&p.n, &p.n, p.a.data(), &one, &one, p.desc, p.tau.data(), &size, &query, &info);
      int lwork = static_cast<int>(size);
      p.work.resize(static_cast<std::size_t>(std::max(lwork, 1)));
      pdgeqrf_(&p.n, &p.n, p.a.data(), &one, &one, p.desc, p.tau.data(), p.work.data(), &lwork, &info);
      return info;
    };
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  Cblacs_pinfo(&rank, &size);
  const std::string routine = argc > 1 ? argv[1] : "";
  Problem p;
  p.n = argc > 2 ? std::atoi(argv[2]) : 0;
  const int calls = argc > 3 ? std::atoi(argv[3]) : 0;
  p.nb = argc > 4 ? std::atoi(argv[4]) : 64;
  const int first = argc > 5 ? std::atoi(argv[5]) : 1;
  Cblacs_get(0, 0, &p.context);
  Cblacs_gridinit(&p.context, "Row", 1, size);
  std::function<int()> call = p.n > 0 && p.nb > 0 && calls > 0 ? call_of(routine, p) : nullptr;
  if (!call) {
    if (rank == 0)
      std::fprintf(stderr, "usage: adaptive_loop pdgemm|pdgetrf|pdpotrf|pdgeqrf N CALLS [NB] [FIRST]\n");
    MPI_Finalize();
    return 2;
  }
  fill(p, rank, size);
  int status = 0;
  for (int k = 0; k < calls && status == 0; ++k) {
    if (routine != "pdgemm") p.a = p.original;  // the same work every call
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    const int info = call();
    double took = MPI_Wtime() - start, slowest = 0.0;
    MPI_Allreduce(&took, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("adaptive_loop: %s N=%d call %d seconds %.4f\n", routine.c_str(), p.n, first + k, slowest);
      std::fflush(stdout);
    }
    if (info != 0) {
      if (rank == 0) std::fprintf(stderr, "adaptive_loop: %s returned INFO=%d\n", routine.c_str(), info);
      status = 1;
    }
  }
  Cblacs_gridexit(p.context);
  MPI_Finalize();
  return status;
}
