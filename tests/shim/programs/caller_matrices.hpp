#pragma once
// Matrices as a plain ScaLAPACK program holds them (block-cyclic on a BLACS grid, from a
// formula of the global indices), and the real ScaLAPACK's routines found past hetscal's
// interposed symbols: what the programs comparing hetscal with ScaLAPACK on the same input
// share (fault_sweep.cpp, potrf_partial_factor.cpp, getrf_singular.cpp).
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "scalapack_abi.hpp"

namespace caller_matrices {

template <typename T>
struct Real { using type = T; };
template <typename T>
struct Real<std::complex<T>> { using type = T; };

template <typename T>
T element(double re, double im) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    (void)im;
    return static_cast<T>(re);
  } else {
    using R = typename Real<T>::type;
    return T(static_cast<R>(re), static_cast<R>(im));
  }
}

struct Grid {
  int context = -1, nprow = 1, npcol = 1, myrow = 0, mycol = 0;
};

template <typename T>
struct Local {
  int desc[9] = {};
  int rows = 0, cols = 0;
  std::vector<T> data;
};

// An M×N matrix of `grid` in NB×NB blocks with entries value(i, j) (0-based global indices).
template <typename T>
Local<T> distributed(const Grid& grid, int m, int n, int nb, const std::function<T(int, int)>& value) {
  Local<T> x;
  const int zero = 0, block = nb;
  x.rows = numroc_(&m, &block, &grid.myrow, &zero, &grid.nprow);
  x.cols = numroc_(&n, &block, &grid.mycol, &zero, &grid.npcol);
  const int lld = std::max(x.rows, 1);
  const int desc[9] = {1, grid.context, m, n, nb, nb, 0, 0, lld};
  std::copy(desc, desc + 9, x.desc);
  x.data.resize(static_cast<std::size_t>(lld) * static_cast<std::size_t>(std::max(x.cols, 1)));
  for (int jl = 0; jl < x.cols; ++jl) {
    const int jl1 = jl + 1, j = indxl2g_(&jl1, &block, &grid.mycol, &zero, &grid.npcol) - 1;
    for (int il = 0; il < x.rows; ++il) {
      const int il1 = il + 1, i = indxl2g_(&il1, &block, &grid.myrow, &zero, &grid.nprow) - 1;
      x.data[static_cast<std::size_t>(il) + static_cast<std::size_t>(jl) * lld] = value(i, j);
    }
  }
  return x;
}

// The real ScaLAPACK's routine `name` (pdgemm_, …), found in ScaLAPACK's own library so that
// hetscal's interposed symbol is bypassed.
inline void* scalapack_symbol(const std::string& name) {
  static void* library = dlopen(HETSCAL_SCALAPACK_SONAME, RTLD_LAZY);
  void* symbol = library ? dlsym(library, name.c_str()) : nullptr;
  if (!symbol) {
    std::fprintf(stderr, "%s not found in %s\n", name.c_str(), HETSCAL_SCALAPACK_SONAME);
    std::exit(2);
  }
  return symbol;
}

template <typename T> constexpr char prefix();
template <> constexpr char prefix<float>() { return 's'; }
template <> constexpr char prefix<double>() { return 'd'; }
template <> constexpr char prefix<std::complex<float>>() { return 'c'; }
template <> constexpr char prefix<std::complex<double>>() { return 'z'; }

// The main of a program that compares hetscal with ScaLAPACK in every precision on one BLACS
// grid of all the world's ranks: usage `<name> PxQ N NB`; every_case(T(), grid, n, nb, rank)
// runs the cases of T and returns whether all passed. Prints "<name>: passed" or "FAILED".
template <typename EveryCase>
int run_every_precision(int argc, char** argv, const char* name, EveryCase&& every_case) {
  MPI_Init(&argc, &argv);
  int my_rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Grid grid;
  if (argc < 4 || std::sscanf(argv[1], "%dx%d", &grid.nprow, &grid.npcol) != 2 ||
      grid.nprow * grid.npcol != ranks) {
    if (my_rank == 0) std::fprintf(stderr, "usage: %s PxQ N NB (P·Q ranks)\n", name);
    MPI_Finalize();
    return 2;
  }
  const int n = std::atoi(argv[2]), nb = std::atoi(argv[3]);
  Cblacs_get(0, 0, &grid.context);
  Cblacs_gridinit(&grid.context, "R", grid.nprow, grid.npcol);
  Cblacs_gridinfo(grid.context, &grid.nprow, &grid.npcol, &grid.myrow, &grid.mycol);
  bool all = every_case(float(), grid, n, nb, my_rank);
  all = every_case(double(), grid, n, nb, my_rank) && all;
  all = every_case(std::complex<float>(), grid, n, nb, my_rank) && all;
  all = every_case(std::complex<double>(), grid, n, nb, my_rank) && all;
  if (my_rank == 0) std::printf("%s: %s\n", name, all ? "passed" : "FAILED");
  Cblacs_gridexit(grid.context);
  MPI_Finalize();
  return all ? 0 : 1;
}

}  // namespace caller_matrices
