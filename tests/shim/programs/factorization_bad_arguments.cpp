// A ScaLAPACK program (it knows nothing of hetscal) that calls PDPOTRF, PDGETRF or PDGEQRF
// with one bad argument at a time, each of the kinds the routine refuses, then its quick
// returns and once correctly (PDGEQRF: also offsets inside blocks, MB_A != NB_A, workspace
// queries, a too-small LWORK, and a query on one process only). Every process prints the INFO
// it got (and PDGETRF's IPIV; PDGEQRF's WORK(1) and TAU to 6 decimals, rounding apart);
// ScaLAPACK's PXERBLA prints its own line for each refused call. The test runs it with and
// without hetscal preloaded: the two outputs must be the same lines.
//
// usage: factorization_bad_arguments pdpotrf|pdgetrf|pdgeqrf   (a 1×P grid over every process)
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "scalapack_abi.hpp"

namespace {

constexpr int kOrder = 8, kBlock = 2;

enum Routines { kPotrf = 1, kGetrf = 2, kBoth = 3, kGeqrf = 4, kAll = 7 };

// PDGEQRF's LWORK: enough, a query, too small, or a query on process 0 only.
enum Lwork { kEnough = 1000, kQuery = -1, kTooSmall = 3, kQueryOnRankZero = -2 };

struct Case {
  const char* what;
  int routines;  ///< which routines the case is for
  char uplo;     ///< PDPOTRF's
  int m, n, ia, ja;  ///< PDPOTRF takes N only
  int desc_field;    ///< 1-based descriptor entry changed (0: none)
  int desc_value;
  int lwork = kEnough;  ///< PDGEQRF's
};

const Case cases[] = {
    {"UPLO = 'X'", kPotrf, 'X', 4, 4, 1, 1, 0, 0},
    {"M < 0", kGetrf | kGeqrf, 'L', -1, 4, 1, 1, 0, 0},
    {"N < 0", kAll, 'L', 4, -1, 1, 1, 0, 0},
    {"IA off a block boundary", kAll, 'L', 4, 4, 2, 1, 0, 0},
    {"JA off a block boundary", kAll, 'U', 4, 4, 1, 2, 0, 0},
    {"MB_A != NB_A", kAll, 'L', 4, 4, 1, 1, 5, 4},
    {"LLD_A too small", kAll, 'U', 4, 4, 1, 1, 9, 1},
    {"sub(A) beyond A", kAll, 'L', 8, 8, 3, 3, 0, 0},
    {"an 11-entry descriptor type", kAll, 'L', 4, 4, 1, 1, 1, 2},
    {"RSRC_A outside the grid", kGetrf | kGeqrf, 'L', 4, 4, 1, 1, 7, 1},
    {"M_A = 1", kGetrf | kGeqrf, 'L', 1, 4, 1, 1, 3, 1},
    {"M = 0", kGetrf | kGeqrf, 'L', 0, 4, 1, 1, 0, 0},
    {"N = 0", kPotrf | kGeqrf, 'L', 0, 0, 1, 1, 0, 0},
    {"wide, its first two columns equal (INFO = 2)", kGetrf, 'L', 6, 8, 3, 1, 0, 0},
    {"a workspace query", kGeqrf, 'L', 7, 5, 2, 3, 0, 0, kQuery},
    {"LWORK below LWMIN", kGeqrf, 'L', 7, 5, 2, 3, 0, 0, kTooSmall},
    {"a workspace query on process 0 only", kGeqrf, 'L', 7, 5, 2, 3, 0, 0, kQueryOnRankZero},
    {"M < 0 in a workspace query", kGeqrf, 'L', -1, 5, 2, 3, 0, 0, kQuery},
    // Columns 4 to 6 of 2·I + 1 are independent, so every TAU is set by the data. (Columns 2
    // and 3 are equal: the second reflector of a sub(A) from column 2 was of rounding noise,
    // 0 in one kernel and up to 2 in another, and the plans a loaded machine's calibration
    // chose decided which: issue 27's load-dependent failure.)
    {"wide, offsets inside blocks", kGeqrf, 'L', 3, 5, 4, 4, 0, 0},
    {"valid", kAll, 'L', kOrder, kOrder, 1, 1, 0, 0},
};

// IPIV as one line (the entries PDGETRF leaves alone show as -1).
std::string ipiv_text(const std::vector<int>& ipiv) {
  std::string text;
  for (int p : ipiv) text += " " + std::to_string(p);
  return text;
}

// TAU as one line, 6 decimals (hetscal's and ScaLAPACK's differ by rounding; -0 shows as 0).
std::string tau_text(const std::vector<double>& tau) {
  std::string text;
  char value[32];
  for (double t : tau) {
    std::snprintf(value, sizeof value, " %.6f", t == 0.0 ? 0.0 : t);
    text += value;
  }
  return text;
}

// PDGEQRF's call for one case: LWORK as the case says on this process.
void call_pdgeqrf(const Case& c, int rank, double* a, const int* desc, int* info) {
  std::vector<double> tau(kOrder + kBlock, -1.0), work(kEnough, -1.0);
  int lwork = c.lwork;
  if (lwork == kQueryOnRankZero) lwork = rank == 0 ? kQuery : kEnough;
  pdgeqrf_(&c.m, &c.n, a, &c.ia, &c.ja, desc, tau.data(), work.data(), &lwork, info);
  std::printf("rank %d: %s: INFO = %d, WORK(1) = %g, TAU%s\n", rank, c.what, *info, work[0],
              tau_text(tau).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::string routine = argc > 1 ? argv[1] : "";
  const int which = routine == "pdgetrf" ? kGetrf : routine == "pdgeqrf" ? kGeqrf : kPotrf;
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
    if (!(c.routines & which)) continue;
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
    if (which == kGeqrf) {
      call_pdgeqrf(c, rank, a.data(), desc, &info);
    } else if (which == kGetrf) {
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
