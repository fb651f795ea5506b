// A ScaLAPACK program (it knows nothing of hetscal) that calls PDPOTRF or PDGETRF with one
// bad argument at a time, each of the kinds the routine refuses, then its quick returns and
// once correctly. Every process prints the INFO it got (and PDGETRF's IPIV); ScaLAPACK's
// PXERBLA prints its own line for each refused call. The test runs it with and without
// hetscal preloaded: the two outputs must be the same lines.
//
// usage: factorization_bad_arguments pdpotrf|pdgetrf   (a 1×P grid over every process)
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "scalapack_abi.hpp"

namespace {

constexpr int kOrder = 8, kBlock = 2;

enum Routines { kPotrf = 1, kGetrf = 2, kBoth = 3 };

struct Case {
  const char* what;
  int routines;  ///< which routines the case is for
  char uplo;     ///< PDPOTRF's
  int m, n, ia, ja;  ///< PDPOTRF takes N only
  int desc_field;    ///< 1-based descriptor entry changed (0: none)
  int desc_value;
};

const Case cases[] = {
    {"UPLO = 'X'", kPotrf, 'X', 4, 4, 1, 1, 0, 0},
    {"M < 0", kGetrf, 'L', -1, 4, 1, 1, 0, 0},
    {"N < 0", kBoth, 'L', 4, -1, 1, 1, 0, 0},
    {"IA off a block boundary", kBoth, 'L', 4, 4, 2, 1, 0, 0},
    {"JA off a block boundary", kBoth, 'U', 4, 4, 1, 2, 0, 0},
    {"MB_A != NB_A", kBoth, 'L', 4, 4, 1, 1, 5, 4},
    {"LLD_A too small", kBoth, 'U', 4, 4, 1, 1, 9, 1},
    {"sub(A) beyond A", kBoth, 'L', 8, 8, 3, 3, 0, 0},
    {"an 11-entry descriptor type", kBoth, 'L', 4, 4, 1, 1, 1, 2},
    {"RSRC_A outside the grid", kGetrf, 'L', 4, 4, 1, 1, 7, 1},
    {"M_A = 1", kGetrf, 'L', 1, 4, 1, 1, 3, 1},
    {"M = 0", kGetrf, 'L', 0, 4, 1, 1, 0, 0},
    {"N = 0", kPotrf, 'L', 0, 0, 1, 1, 0, 0},
    {"wide, its first two columns equal (INFO = 2)", kGetrf, 'L', 6, 8, 3, 1, 0, 0},
    {"valid", kBoth, 'L', kOrder, kOrder, 1, 1, 0, 0},
};

// IPIV as one line (the entries PDGETRF leaves alone show as -1).
std::string ipiv_text(const std::vector<int>& ipiv) {
  std::string text;
  for (int p : ipiv) text += " " + std::to_string(p);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const bool getrf = argc > 1 && std::strcmp(argv[1], "pdgetrf") == 0;
  int rank = 0, size = 1;
  Cblacs_pinfo(&rank, &size);
  int context = 0;
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", 1, size);
  int nprow, npcol, myrow, mycol;
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  const int zero = 0, order = kOrder, block = kBlock;
  const int local_cols = numroc_(&order, &block, &mycol, &zero, &npcol);
  for (const Case& c : cases) {
    if (!(c.routines & (getrf ? kGetrf : kPotrf))) continue;
    int desc[9] = {1, context, kOrder, kOrder, kBlock, kBlock, 0, 0, kOrder};
    if (c.desc_field > 0) desc[c.desc_field - 1] = c.desc_value;
    // 2·I + 1: symmetric positive definite, and an LU without interchanges; 9 rows of LLD so
    // an odd one stays in bounds.
    std::vector<double> a(static_cast<std::size_t>(kOrder + 1) * (local_cols + 1), 1.0);
    for (int jl = 0; jl < local_cols; ++jl) {
      const int l = jl + 1, j = indxl2g_(&l, &block, &mycol, &zero, &npcol);
      a[static_cast<std::size_t>(jl) * kOrder + j - 1] = 3.0;
    }
    std::vector<int> ipiv(kOrder + kBlock, -1);
    int info = 12345;
    if (getrf) {
      pdgetrf_(&c.m, &c.n, a.data(), &c.ia, &c.ja, desc, ipiv.data(), &info);
      std::printf("rank %d: %s: INFO = %d, IPIV%s\n", rank, c.what, info, ipiv_text(ipiv).c_str());
    } else {
      pdpotrf_(&c.uplo, &c.n, a.data(), &c.ia, &c.ja, desc, &info);
      std::printf("rank %d: %s: INFO = %d\n", rank, c.what, info);
    }
    std::fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  Cblacs_gridexit(context);
  MPI_Finalize();
  return 0;
}
