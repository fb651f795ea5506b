#pragma once
// The Cholesky driver's matrix, its check and ScaLAPACK's flops per process: a generated
// symmetric positive definite A, the scaled residual ‖A − L·Lᵀ‖₁ / (‖A‖₁·N·ε) of a factor
// rebuilt on one process with the reference BLAS dgemm (independent of ScaLAPACK's PDPOTRF
// and of hetscal's kernel), and the LAWN 41 flops of the tiles a block-cyclic layout gives
// each process.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "driver_matrices.hpp"
#include "kernels/local_blas.hpp"

namespace hetscal::driver {

/// Element (i, j) (0-based) of the driver's N×N matrix: symmetric, off-diagonal entries in
/// [-0.5, 0.5) and N added on the diagonal, so strictly diagonally dominant, hence positive
/// definite, with every leading minor well conditioned.
inline double spd_element(std::int64_t i, std::int64_t j, int n) {
  return generated(1, std::min(i, j), std::max(i, j)) + (i == j ? n : 0);
}

/// The outcome of one factorisation's check, the same on every process of the grid.
struct FactorCheck {
  double residual = NAN;      ///< ‖A − L·Lᵀ‖₁ / (‖A‖₁·N·ε) (or with Uᵀ·U)
  bool other_intact = false;  ///< the triangle opposite to UPLO still holds A, bit for bit
};

namespace detail {

inline bool in_triangle(char uplo, std::int64_t i, std::int64_t j) {
  return uplo == 'L' ? i >= j : i <= j;
}

// The check on the whole factor (N×N, leading dimension N): the opposite triangle compared
// with A and cleared, then A − F·Fᵀ ('L') or A − Fᵀ·F ('U') by dgemm.
inline FactorCheck check_whole(std::vector<double> factor, int n, char uplo) {
  FactorCheck out;
  out.other_intact = true;
  std::vector<double> a(factor.size());
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < n; ++i) {
      const auto ij = static_cast<std::size_t>(j * n + i);
      a[ij] = spd_element(i, j, n);
      if (in_triangle(uplo, i, j)) continue;
      out.other_intact = out.other_intact && factor[ij] == a[ij];
      factor[ij] = 0.0;
    }
  }
  const double a_norm = one_norm(a, n, n), minus_one = -1.0, one = 1.0;
  std::vector<double>& difference = a;  // A − F·Fᵀ overwrites A: N² doubles fewer
  dgemm_(uplo == 'L' ? "N" : "T", uplo == 'L' ? "T" : "N", &n, &n, &n, &minus_one, factor.data(),
         &n, factor.data(), &n, &one, difference.data(), &n);
  out.residual = one_norm(difference, n, n) / (a_norm * n * std::numeric_limits<double>::epsilon());
  return out;
}

}  // namespace detail

/// Checks the factor held in `a` (the whole N×N matrix as PDPOTRF left it). Collective over
/// a's grid; the work is done on grid rank 0 (two N×N matrices there: the gathered factor and A).
inline FactorCheck check_factor(const Operand& a, char uplo) {
  std::vector<double> whole = gather_to_root(a);
  FactorCheck out;
  double shared[2] = {0.0, 0.0};
  if (a.grid->rank == 0) {
    out = detail::check_whole(std::move(whole), a.rows, uplo);
    shared[0] = out.residual;
    shared[1] = out.other_intact ? 1.0 : 0.0;
  }
  MPI_Bcast(shared, 2, MPI_DOUBLE, 0, a.grid->comm);
  return FactorCheck{shared[0], shared[1] == 1.0};
}

/// This process's flops of a tiled right-looking Cholesky on the block-cyclic layout of
/// `grid` (block nb, first block on process (0, 0)): each tile of the UPLO triangle is
/// computed by its owner, by LAWN 41's counts (POTRF + SYRK of the updates on a diagonal
/// tile, TRSM + GEMM of the updates elsewhere), as ScaLAPACK's PDPOTRF assigns the work.
/// Summed over the grid this is kernels::potrf_flops(N) exactly.
inline double block_cyclic_cholesky_flops(int n, int nb, char uplo, const Grid& grid) {
  const int tiles = (n + nb - 1) / nb;
  double flops = 0.0;
  for (int j = 0; j < tiles; ++j) {
    const std::int64_t width = std::min(nb, n - j * nb), before = static_cast<std::int64_t>(j) * nb;
    for (int i = j; i < tiles; ++i) {
      const int row = uplo == 'L' ? i : j, col = uplo == 'L' ? j : i;  // tile (i, j) of L
      if (row % grid.nprow != grid.myrow || col % grid.npcol != grid.mycol) continue;
      const std::int64_t height = std::min(nb, n - i * nb);
      flops += i == j ? kernels::potrf_flops(width) + kernels::syrk_flops(width, before)
                      : kernels::trsm_flops(kernels::Side::Right, height, width) +
                            kernels::gemm_flops(height, width, before);
    }
  }
  return flops;
}

}  // namespace hetscal::driver
