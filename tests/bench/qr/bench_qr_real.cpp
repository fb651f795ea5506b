// Real-run QR benchmark (DESIGN.md, instrument 3): hetscal's distributed Householder QR
// against Debian's ScaLAPACK pdgeqrf_ (pzgeqrf_ with --precision z: complex double data,
// issue 13), A = Q·R, N×N, under `mpirun -np 2`,
// OPENBLAS_NUM_THREADS=1. Heterogeneity comes from libhetscal-slowdown.so (preloaded by
// run_real.sh, identically for every variant); --speeds tells the planner and the Fastest
// panel rank about it.
//
// Usage: bench_qr_real [--n 4000,8000] [--nb 32,64,128,256] [--reps 3] [--speeds 1,0.3333]
//                      [--precision d|z]
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
#include <complex>
#include <cstdio>
#include <memory>
#include <optional>
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

/// A on one layout (bench::LaidOutMatrix), in scalar type T, with the τ of its factorisation
/// (global, on every rank) and its check.
template <typename T>
struct Matrix : bench::LaidOutMatrix<T> {
  std::vector<T> tau;

  Matrix(std::int64_t order, std::unique_ptr<layout::Distribution> d,
         std::unique_ptr<layout::LocalLayout> s)
      : bench::LaidOutMatrix<T>(order, std::move(d), std::move(s), bench::hashed_element<T>),
        tau(static_cast<std::size_t>(order), T(0)) {}

  /// Whether ‖Q·R·x − A·x‖_∞ <= ‖A‖_∞·‖x‖_∞·N·ε·16 on every rank, for x_j = 1 + j mod 3:
  /// R·x summed over the owners of R, then Q = H(1)···H(N) applied to it last reflector
  /// first, each tile column of V gathered in turn; A·x from the formula.
  bool check() {
    const std::vector<double> x = bench::check_vector(this->n);
    std::vector<T> qrx(x.size(), T(0));
    this->for_each_owned([&](std::int64_t i, std::int64_t j, T& v) {
      if (i <= j) qrx[static_cast<std::size_t>(i)] += v * x[static_cast<std::size_t>(j)];
    });
    bench::sum_over_ranks(qrx);
    for (std::int64_t t = this->distribution->cols().count() - 1; t >= 0; --t)
      apply_reflectors_of_tile_column(t, qrx);
    const bench::HashedProduct<T> ax = bench::hashed_product<T>(x);
    return bench::within_backward_error(qrx, ax.ax, ax.norm);
  }

 private:
  /// y := H(first)···H(last)·y for the reflectors of tile column t, the last one first:
  /// H(c) = I − τ_c·v·vᴴ, v(c) = 1, v below it from the factored column c.
  void apply_reflectors_of_tile_column(std::int64_t t, std::vector<T>& y) {
    const std::int64_t order = this->n;
    const std::vector<T> v = this->gathered_tile_column(t);
    const std::int64_t first = this->distribution->cols().offset(t);
    for (std::int64_t c = this->distribution->cols().size(t) - 1; c >= 0; --c) {
      const std::int64_t column = first + c;
      const T* vc = v.data() + c * order;
      T dot = y[static_cast<std::size_t>(column)];
      for (std::int64_t i = column + 1; i < order; ++i)
        dot += bench::conjugate(vc[i]) * y[static_cast<std::size_t>(i)];
      const T scale = tau[static_cast<std::size_t>(column)] * dot;
      y[static_cast<std::size_t>(column)] -= scale;
      for (std::int64_t i = column + 1; i < order; ++i) y[static_cast<std::size_t>(i)] -= scale * vc[i];
    }
  }
};

/// pdgeqrf_ or pzgeqrf_ with the workspace its LWORK = −1 query asks for, then its TAU (LOCc
/// entries, one per local column) gathered into the global τ: the ranks of the first process
/// row hold every column once between them.
template <typename T>
int scalapack_factor(Matrix<T>& a) {
  const int n = static_cast<int>(a.n), one = 1, query = -1;
  const auto pxgeqrf = scalapack_overloads::geqrf(a.data.data());
  std::vector<T> tau(static_cast<std::size_t>(a.n + a.distribution->cols().block()));
  T size(0);
  int info = 0;
  pxgeqrf(&n, &n, a.data.data(), &one, &one, a.descriptor.data(), tau.data(), &size, &query, &info);
  const int lwork = static_cast<int>(std::real(size));
  std::vector<T> work(static_cast<std::size_t>(std::max(1, lwork)));
  pxgeqrf(&n, &n, a.data.data(), &one, &one, a.descriptor.data(), tau.data(), work.data(), &lwork,
          &info);
  std::fill(a.tau.begin(), a.tau.end(), T(0));
  const auto& array = dynamic_cast<const layout::CartesianLocalLayout&>(*a.storage);
  if (array.local_row_of_tile(0)) {
    for (std::int64_t t = 0; t < a.distribution->cols().count(); ++t) {
      const std::optional<layout::LocalCol> local = array.local_col_of_tile(t);
      if (!local) continue;
      for (std::int64_t c = 0; c < a.distribution->cols().size(t); ++c)
        a.tau[static_cast<std::size_t>(a.distribution->cols().offset(t) + c)] =
            tau[static_cast<std::size_t>((*local + c).value())];
    }
  }
  bench::sum_over_ranks(a.tau);
  return info;
}

template <typename T>
std::function<int(Matrix<T>&)> hetscal_factor(const kernels::QrOptions& options) {
  return [options](Matrix<T>& a) {
    kernels::qr<T>(a.view(), a.tau.data(), MPI_COMM_WORLD, options);
    return 0;  // kernels::qr reports failures by exceptions; a QR has no INFO > 0
  };
}

template <typename T>
bench::PanelRankBench<Matrix<T>> qr_bench() {
  return {"hetscal's QR kernel against ScaLAPACK's pdgeqrf_ or pzgeqrf_ (real runs)",
          scalapack_factor<T>, hetscal_factor<T>,
          [](std::int64_t n) { return kernels::geqrf_flops<T>(n, n); },
          "target >= 1.3 on 2 equal ranks"};
}

}  // namespace

int main(int argc, char** argv) {
  return bench::panel_rank_bench_main(qr_bench<double>(), qr_bench<std::complex<double>>(), argc,
                                      argv);
}
