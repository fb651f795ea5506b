// Benchmark program: the peak RSS one ScaLAPACK call adds to each rank, over the bytes of the
// rank's own operands (issue 28's table). A plain ScaLAPACK program: run it with or without
// libhetscal.so preloaded (peak_rss_table.sh prints the table of both).
//
// usage: peak_rss_call ROUTINE N NB NPROW NPCOL
//   ROUTINE  pdgemm (C = A·B, beta = 0), pdgetrf, pdpotrf or pdgeqrf, on N×N operands
// Prints one line per rank: "peak_rss_call: ROUTINE rank R operands X MiB peak growth Y MiB
// ratio Z". The operands (A, and B and C for PDGEMM), IPIV, TAU and WORK are allocated and
// touched first; then the rank's peak RSS is reset to its current RSS (/proc/self/clear_refs,
// "5") and read back after the call (VmHWM − VmRSS before): what the call itself took at its
// peak, whoever allocated it (ScaLAPACK's own workspace, or hetscal's).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "scalapack_abi.hpp"

namespace {

// A /proc/self/status field in bytes (its value is in kB), or -1.
double status_bytes(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const std::size_t length = std::strlen(field);
  while (std::getline(status, line)) {
    if (line.compare(0, length, field) == 0 && line.size() > length && line[length] == ':')
      return std::atof(line.c_str() + length + 1) * 1024.0;
  }
  return -1.0;
}

bool reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  return static_cast<bool>(clear);
}

// A(i, j) of a diagonally dominant symmetric matrix (PDPOTRF and PDGETRF succeed on it).
double value(int i, int j, int n) {
  return i == j ? 2.0 * n : std::sin(0.37 * (i + 1) * (j + 1)) / (1.0 + std::abs(i - j));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 6) {
    std::fprintf(stderr, "usage: peak_rss_call pdgemm|pdgetrf|pdpotrf|pdgeqrf N NB NPROW NPCOL\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string routine = argv[1];
  const int n = std::atoi(argv[2]), nb = std::atoi(argv[3]);
  int nprow = std::atoi(argv[4]), npcol = std::atoi(argv[5]);
  int rank = 0, size = 1, context = 0, zero = 0, one = 1, myrow = 0, mycol = 0, info = 0;
  Cblacs_pinfo(&rank, &size);
  if (nprow * npcol != size) {
    std::fprintf(stderr, "peak_rss_call: a %dx%d grid needs %d ranks, not %d\n", nprow, npcol, nprow * npcol, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", nprow, npcol);
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  const int rows = numroc_(&n, &nb, &myrow, &zero, &nprow), cols = numroc_(&n, &nb, &mycol, &zero, &npcol);
  const int lld = std::max(rows, 1);
  const int desc[9] = {1, context, n, n, nb, nb, 0, 0, lld};
  const std::size_t elements = static_cast<std::size_t>(lld) * static_cast<std::size_t>(std::max(cols, 1));
  std::vector<double> a(elements), b, c;
  for (int jl = 0; jl < cols; ++jl) {
    const int j = (jl / nb) * nb * npcol + mycol * nb + jl % nb;
    for (int il = 0; il < rows; ++il) {
      const int i = (il / nb) * nb * nprow + myrow * nb + il % nb;
      a[static_cast<std::size_t>(jl) * lld + il] = value(i, j, n);
    }
  }
  if (routine == "pdgemm") {
    b = a;
    c.assign(elements, 0.0);
  }
  std::vector<int> ipiv(static_cast<std::size_t>(rows + nb));
  std::vector<double> tau(static_cast<std::size_t>(std::max(cols, 1)));
  std::vector<double> work(1);
  if (routine == "pdgeqrf") {
    int query = -1;
    pdgeqrf_(&n, &n, a.data(), &one, &one, desc, tau.data(), work.data(), &query, &info);
    work.assign(static_cast<std::size_t>(work[0]), 0.0);
  }
  const double operand_bytes = static_cast<double>(elements * sizeof(double)) * (routine == "pdgemm" ? 3.0 : 1.0);
  // One call of the routine on the leading size×size part of the operands.
  const auto call = [&](int size, double* x, double* y, double* z) {
    const double alpha = 1.0, beta = 0.0;
    int lwork = static_cast<int>(work.size());
    if (routine == "pdgemm") {
      pdgemm_("N", "N", &size, &size, &size, &alpha, x, &one, &one, desc, y, &one, &one, desc, &beta, z, &one,
              &one, desc);
    } else if (routine == "pdgetrf") {
      pdgetrf_(&size, &size, x, &one, &one, desc, ipiv.data(), &info);
    } else if (routine == "pdpotrf") {
      pdpotrf_("L", &size, x, &one, &one, desc, &info);
    } else if (routine == "pdgeqrf") {
      pdgeqrf_(&size, &size, x, &one, &one, desc, tau.data(), work.data(), &lwork, &info);
    } else {
      std::fprintf(stderr, "peak_rss_call: unknown routine %s\n", routine.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  };
  // A small call of the same routine first (on copies of A), so that what a process pays
  // once (hetscal's calibration, BLACS's and MPI's buffers) is not counted.
  {
    std::vector<double> warm(a), warm_b(a), warm_c(a);
    call(std::min(n, 5 * nb), warm.data(), warm_b.data(), warm_c.data());
  }

  MPI_Barrier(MPI_COMM_WORLD);
  const bool reset = reset_peak_rss();
  const double before = status_bytes("VmRSS");
  call(n, a.data(), b.data(), c.data());
  const double peak = status_bytes("VmHWM");
  MPI_Barrier(MPI_COMM_WORLD);
  const double mib = 1 << 20;
  for (int r = 0; r < size; ++r) {
    if (r == rank) {
      std::printf("peak_rss_call: %s %dx%d rank %d info %d operands %.1f MiB peak growth %.1f MiB ratio %.2f%s\n",
                  routine.c_str(), nprow, npcol, rank, info, operand_bytes / mib, (peak - before) / mib,
                  (peak - before) / operand_bytes, reset ? "" : " (peak RSS not reset: ratio meaningless)");
      std::fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  Cblacs_gridexit(context);
  MPI_Finalize();
  return info == 0 ? 0 : 1;
}
