#pragma once
// The LU driver's checks and ScaLAPACK's flops per process: pivots gathered from
// ScaLAPACK's IPIV format by the block-cyclic index rule alone, the scaled residual
// ‖P·A − L·U‖₁ / (‖A‖₁·max(M,N)·ε) with L·U rebuilt on one process by the reference BLAS
// dgemm and A regenerated from its formula (independent of ScaLAPACK's PDGETRF and of
// hetscal's kernel), and the LAWN 41 flops of the tiles a block-cyclic layout gives each
// process.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "block_cyclic_flops.hpp"
#include "driver_matrices.hpp"
#include "kernels/local_blas.hpp"

namespace hetscal::driver {

/// The global pivots (1-based rows of A, min(M,N) of them, on every process of the grid)
/// from this process's IPIV in ScaLAPACK's format for an A factored from (1, 1): entry i
/// lives in process row (i / NB) mod P at local index (i / (NB·P))·NB + i mod NB, in every
/// process column. Collective over a's grid.
inline std::vector<int> gathered_pivots(const Operand& a, const std::vector<int>& ipiv) {
  const int count = std::min(a.rows, a.cols), p = a.grid->nprow;
  std::vector<int> pivots(static_cast<std::size_t>(count), 0);
  for (int i = 0; i < count; ++i)
    if ((i / a.nb) % p == a.grid->myrow)
      pivots[static_cast<std::size_t>(i)] =
          ipiv[static_cast<std::size_t>(i / (a.nb * p) * a.nb + i % a.nb)];
  MPI_Allreduce(MPI_IN_PLACE, pivots.data(), count, MPI_INT, MPI_MAX, a.grid->comm);
  return pivots;
}

namespace detail {

// ‖P·A − L·U‖₁ / (‖A‖₁·max(M,N)·ε) for the whole factors (M×N, leading dimension M).
inline double lu_residual(const std::vector<double>& factors, int which, int m, int n,
                          const std::vector<int>& pivots) {
  const int k = std::min(m, n);
  std::vector<double> pa(factors.size()), l(static_cast<std::size_t>(m) * k, 0.0),
      u(static_cast<std::size_t>(k) * n, 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      const double f = factors[static_cast<std::size_t>(j * m + i)];
      pa[static_cast<std::size_t>(j * m + i)] = generated(which, i, j);
      if (j < k) l[static_cast<std::size_t>(j * m + i)] = i == j ? 1.0 : i > j ? f : 0.0;
      if (i < k && i <= j) u[static_cast<std::size_t>(j * k + i)] = f;
    }
  for (int i = 0; i < k; ++i) {  // P·A: the interchanges in order
    const int p = pivots[static_cast<std::size_t>(i)] - 1;
    if (p < 0 || p >= m) return std::numeric_limits<double>::infinity();
    for (std::int64_t j = 0; j < n; ++j)
      std::swap(pa[static_cast<std::size_t>(j * m + i)], pa[static_cast<std::size_t>(j * m + p)]);
  }
  const double a_norm = one_norm(pa, m, n), minus_one = -1.0, one = 1.0;
  dgemm_("N", "N", &m, &n, &k, &minus_one, l.data(), &m, u.data(), &k, &one, pa.data(), &m);
  return one_norm(pa, m, n) / (a_norm * std::max(m, n) * std::numeric_limits<double>::epsilon());
}

}  // namespace detail

/// The residual of the factors held in `a` (the whole M×N matrix as PDGETRF left it, A was
/// generated(a.which, ·)) with `pivots` (global, 1-based), the same on every process.
/// Collective over a's grid; computed on grid rank 0 (three M×N-sized matrices there).
inline double check_lu(const Operand& a, const std::vector<int>& pivots) {
  std::vector<double> whole = gather_to_root(a);
  double residual = 0.0;
  if (a.grid->rank == 0) residual = detail::lu_residual(whole, a.which, a.rows, a.cols, pivots);
  MPI_Bcast(&residual, 1, MPI_DOUBLE, 0, a.grid->comm);
  return residual;
}

/// This process's flops of a right-looking blocked LU on the block-cyclic layout of `grid`
/// (block nb, first block on process (0, 0)) by LAWN 41's counts: step k's panel GETRF,
/// TRSM on the tiles of row block k, GEMM on the trailing tiles, as ScaLAPACK's PDGETRF
/// assigns the work.
inline double block_cyclic_lu_flops(int m, int n, int nb, const Grid& grid) {
  return block_cyclic_flops(
      m, n, nb, grid,
      [](std::int64_t rows, std::int64_t width) { return kernels::getrf_flops(rows, width); },
      [](int i, int k, std::int64_t rows, std::int64_t cols, std::int64_t width) {
        return i == k ? kernels::trsm_flops(kernels::Side::Left, width, cols)
                      : kernels::gemm_flops(rows, cols, width);
      });
}

}  // namespace hetscal::driver
