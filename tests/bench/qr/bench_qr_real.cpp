// Real-run QR benchmark (DESIGN.md, instrument 3): hetscal's distributed Householder QR
// against Debian's ScaLAPACK pdgeqrf_, A = Q·R, N×N, under `mpirun -np 2`,
// OPENBLAS_NUM_THREADS=1. Heterogeneity comes from libhetscal-slowdown.so (preloaded by
// run_real.sh, identically for every variant); --speeds tells the planner and the Fastest
// panel rank about it.
//
// Usage: bench_qr_real [--n 4000,8000] [--nb 32,64,128,256] [--reps 3] [--speeds 1,0.3333]
// For each N: ScaLAPACK on the 1×P and P×1 grids and hetscal's kernel on the same block-cyclic
// layouts, each block size of --nb swept once and the fastest kept per grid; then hetscal's
// kernel on the heterogeneous grid planned for --speeds, with each panel factorised by the
// diagonal tile's owner and by the fastest rank of the panel. The kept variants run --reps
// times, interleaved, each on a freshly filled A (outside the timing); medians, GFLOP/s by
// LAWN 41's GEQRF count, and for hetscal's variants the flops per rank and the flop balance
// for --speeds. Every kept variant's last factorisation is checked: ‖Q·R·x − A·x‖ against
// ‖A‖·‖x‖·N·ε for a fixed x, Q applied reflector by reflector from the variant's own V and τ.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "factorization_bench.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/qr.hpp"
#include "panel_rank_bench.hpp"
#include "real_bench_support.hpp"
#include "scalapack_abi.hpp"

namespace {
using namespace hetscal;

/// A on one layout (bench::LaidOutMatrix), with the τ of its factorisation (global, on
/// every rank) and its check.
struct Matrix : bench::LaidOutMatrix {
  std::vector<double> tau;

  Matrix(std::int64_t order, std::unique_ptr<layout::Distribution> d,
         std::unique_ptr<layout::LocalLayout> s)
      : LaidOutMatrix(order, std::move(d), std::move(s), bench::hashed_value),
        tau(static_cast<std::size_t>(order), 0.0) {}

  /// Whether ‖Q·R·x − A·x‖_∞ <= ‖A‖_∞·‖x‖_∞·N·ε·16 on every rank, for x_j = 1 + j mod 3:
  /// R·x summed over the owners of R, then Q = H(1)···H(N) applied to it last reflector
  /// first, each tile column of V gathered in turn; A·x from the formula.
  bool check() {
    const std::vector<double> x = bench::check_vector(n);
    std::vector<double> qrx(x.size(), 0.0);
    for_each_owned([&](std::int64_t i, std::int64_t j, double& v) {
      if (i <= j) qrx[static_cast<std::size_t>(i)] += v * x[static_cast<std::size_t>(j)];
    });
    MPI_Allreduce(MPI_IN_PLACE, qrx.data(), static_cast<int>(qrx.size()), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    for (std::int64_t t = distribution->cols().count() - 1; t >= 0; --t)
      apply_reflectors_of_tile_column(t, qrx);
    const bench::HashedProduct ax = bench::hashed_product(x);
    return bench::within_backward_error(qrx, ax.ax, ax.norm);
  }

 private:
  /// y := H(first)···H(last)·y for the reflectors of tile column t, the last one first:
  /// H(c) = I − τ_c·v·vᵀ, v(c) = 1, v below it from the factored column c.
  void apply_reflectors_of_tile_column(std::int64_t t, std::vector<double>& y) {
    const std::vector<double> v = gathered_tile_column(t);
    const std::int64_t first = distribution->cols().offset(t);
    for (std::int64_t c = distribution->cols().size(t) - 1; c >= 0; --c) {
      const std::int64_t column = first + c;
      const double* vc = v.data() + c * n;
      double dot = y[static_cast<std::size_t>(column)];
      for (std::int64_t i = column + 1; i < n; ++i) dot += vc[i] * y[static_cast<std::size_t>(i)];
      const double scale = tau[static_cast<std::size_t>(column)] * dot;
      y[static_cast<std::size_t>(column)] -= scale;
      for (std::int64_t i = column + 1; i < n; ++i) y[static_cast<std::size_t>(i)] -= scale * vc[i];
    }
  }
};

/// pdgeqrf_ with the workspace its LWORK = −1 query asks for, then its TAU (LOCc entries,
/// one per local column) gathered into the global τ: the ranks of the first process row
/// hold every column once between them.
int scalapack_factor(Matrix& a) {
  const int n = static_cast<int>(a.n), one = 1, query = -1;
  std::vector<double> tau(static_cast<std::size_t>(a.n + a.distribution->cols().block()));
  double size = 0.0;
  int info = 0;
  pdgeqrf_(&n, &n, a.data.data(), &one, &one, a.descriptor.data(), tau.data(), &size, &query,
           &info);
  const int lwork = static_cast<int>(size);
  std::vector<double> work(static_cast<std::size_t>(std::max(1, lwork)));
  pdgeqrf_(&n, &n, a.data.data(), &one, &one, a.descriptor.data(), tau.data(), work.data(), &lwork,
           &info);
  std::fill(a.tau.begin(), a.tau.end(), 0.0);
  const auto& array = dynamic_cast<const layout::CartesianLocalLayout&>(*a.storage);
  if (array.local_row_of_tile(0) >= 0) {
    for (std::int64_t t = 0; t < a.distribution->cols().count(); ++t) {
      const std::int64_t local = array.local_col_of_tile(t);
      if (local < 0) continue;
      for (std::int64_t c = 0; c < a.distribution->cols().size(t); ++c)
        a.tau[static_cast<std::size_t>(a.distribution->cols().offset(t) + c)] =
            tau[static_cast<std::size_t>(local + c)];
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, a.tau.data(), n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return info;
}

std::function<int(Matrix&)> hetscal_factor(const kernels::QrOptions& options) {
  return [options](Matrix& a) {
    kernels::qr<double>(a.view(), a.tau.data(), MPI_COMM_WORLD, options);
    return 0;  // kernels::qr reports failures by exceptions; a QR has no INFO > 0
  };
}

}  // namespace

int main(int argc, char** argv) {
  return bench::panel_rank_bench_main<Matrix>(
      {"hetscal's QR kernel against ScaLAPACK's pdgeqrf_ (real runs)", scalapack_factor,
       hetscal_factor, [](std::int64_t n) { return kernels::geqrf_flops<double>(n, n); },
       "target >= 1.3 on 2 equal ranks"},
      argc, argv);
}
