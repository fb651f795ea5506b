#pragma once
// The QR driver's checks and ScaLAPACK's flops per process: TAU gathered from PDGEQRF's
// format by the block-cyclic index rule alone, TAU compared entry by entry, and the scaled
// residuals ‖A − Q·R‖₁ / (‖A‖₁·max(M,N)·ε) and ‖I − QᵀQ‖₁ / (M·ε) with the M×M Q formed on
// one process by the reference LAPACK's DORGQR from the gathered reflectors and τ, and A
// regenerated from its formula (independent of ScaLAPACK's PDGEQRF and of hetscal's kernel).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "block_cyclic_flops.hpp"
#include "driver_matrices.hpp"
#include "kernels/local_blas.hpp"

extern "C" {
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau,
             double* work, const int* lwork, int* info);  // reference LAPACK
}

namespace hetscal::driver {

/// The two residuals of a QR factorisation (infinity when the factors hold a NaN).
struct QrResiduals {
  double factorization = 0.0;  ///< ‖A − Q·R‖₁ / (‖A‖₁·max(M,N)·ε)
  double orthogonality = 0.0;  ///< ‖I − QᵀQ‖₁ / (M·ε)
};

/// The global τ (min(M,N) of them, on every process of the grid) from this process's TAU in
/// PDGEQRF's format for an A factored from (1, 1): τ of column j lives in process column
/// (j / NB) mod Q at local index (j / (NB·Q))·NB + j mod NB, on every process row.
/// Collective over a's grid.
inline std::vector<double> gathered_tau(const Operand& a, const std::vector<double>& tau) {
  const int count = std::min(a.rows, a.cols), q = a.grid->npcol;
  std::vector<double> global(static_cast<std::size_t>(count), 0.0);
  if (a.grid->myrow == 0) {  // one copy of each entry to the sum
    for (int j = 0; j < count; ++j)
      if ((j / a.nb) % q == a.grid->mycol)
        global[static_cast<std::size_t>(j)] =
            tau[static_cast<std::size_t>(j / (a.nb * q) * a.nb + j % a.nb)];
  }
  MPI_Allreduce(MPI_IN_PLACE, global.data(), count, MPI_DOUBLE, MPI_SUM, a.grid->comm);
  return global;
}

/// max |x_i − y_i| / (max(M,N)·ε) over the entries of every process of the grid (infinity
/// for a NaN or arrays of different lengths): two TAU arrays held alike, compared entry by
/// entry, entries neither call writes included. Collective over the grid.
inline double tau_difference(const std::vector<double>& x, const std::vector<double>& y, int m,
                             int n, const Grid& grid) {
  double most = x.size() == y.size() ? 0.0 : std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    const double d = std::abs(x[i] - y[i]);
    most = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(most, d);
  }
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_DOUBLE, MPI_MAX, grid.comm);
  return most / (std::max(m, n) * std::numeric_limits<double>::epsilon());
}

namespace detail {

// The M×M Q = H(1)···H(K) of the factors (M×N, leading dimension M) and `tau`, by DORGQR.
inline std::vector<double> formed_q(const std::vector<double>& factors, int m, int k,
                                    const std::vector<double>& tau) {
  std::vector<double> q(static_cast<std::size_t>(m) * m, 0.0);
  std::copy_n(factors.begin(), static_cast<std::ptrdiff_t>(m) * k, q.begin());
  int info = 0, lwork = -1;
  double size = 0.0;
  dorgqr_(&m, &m, &k, q.data(), &m, tau.data(), &size, &lwork, &info);
  lwork = std::max(1, static_cast<int>(size));
  std::vector<double> work(static_cast<std::size_t>(lwork));
  dorgqr_(&m, &m, &k, q.data(), &m, tau.data(), work.data(), &lwork, &info);
  return q;
}

// Both residuals of the whole factors (M×N, leading dimension M) with `tau`.
inline QrResiduals qr_residuals(const std::vector<double>& factors, int which, int m, int n,
                                const std::vector<double>& tau) {
  const int k = std::min(m, n);
  const std::vector<double> q = formed_q(factors, m, k, tau);
  std::vector<double> a(factors.size()), r(static_cast<std::size_t>(k) * n, 0.0),
      identity(q.size(), 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      a[static_cast<std::size_t>(j * m + i)] = generated(which, i, j);
      if (i < k && i <= j)
        r[static_cast<std::size_t>(j * k + i)] = factors[static_cast<std::size_t>(j * m + i)];
    }
  for (std::int64_t i = 0; i < m; ++i) identity[static_cast<std::size_t>(i * m + i)] = 1.0;
  const double a_norm = one_norm(a, m, n), minus_one = -1.0, one = 1.0;
  const double eps = std::numeric_limits<double>::epsilon();
  dgemm_("N", "N", &m, &n, &k, &minus_one, q.data(), &m, r.data(), &k, &one, a.data(), &m);
  dgemm_("T", "N", &m, &m, &m, &minus_one, q.data(), &m, q.data(), &m, &one, identity.data(), &m);
  return {one_norm(a, m, n) / (a_norm * std::max(m, n) * eps),
          one_norm(identity, m, m) / (m * eps)};
}

}  // namespace detail

/// The residuals of the factors held in `a` (the whole M×N matrix as PDGEQRF left it, A was
/// generated(a.which, ·)) with the global `tau`, the same on every process. Collective over
/// a's grid; computed on grid rank 0 (M×M and M×N matrices there).
inline QrResiduals check_qr(const Operand& a, const std::vector<double>& tau) {
  const std::vector<double> whole = gather_to_root(a);
  QrResiduals residuals;
  if (a.grid->rank == 0) residuals = detail::qr_residuals(whole, a.which, a.rows, a.cols, tau);
  double both[2] = {residuals.factorization, residuals.orthogonality};
  MPI_Bcast(both, 2, MPI_DOUBLE, 0, a.grid->comm);
  return {both[0], both[1]};
}

/// This process's flops of a right-looking blocked Householder QR on the block-cyclic layout
/// of `grid` (block nb, first block on process (0, 0)), as ScaLAPACK's PDGEQRF assigns the
/// work: step k's panel GEQRF (LAWN 41) and LARFT, and on each trailing tile the two GEMMs
/// of the block reflector's application (W = Vᵀ·C, C −= V·W).
inline double block_cyclic_qr_flops(int m, int n, int nb, const Grid& grid) {
  return block_cyclic_flops(
      m, n, nb, grid,
      [](std::int64_t rows, std::int64_t width) {
        return kernels::geqrf_flops(rows, width) + kernels::larft_flops(rows, width);
      },
      [](int, int, std::int64_t rows, std::int64_t cols, std::int64_t width) {
        return 2.0 * kernels::gemm_flops(rows, cols, width);
      });
}

}  // namespace hetscal::driver
