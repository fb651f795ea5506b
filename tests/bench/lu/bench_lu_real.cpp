// Real-run LU benchmark (DESIGN.md, instrument 3): hetscal's distributed kernel against
// Debian's ScaLAPACK pdgetrf_ (pzgetrf_ with --precision z: complex double data, issue 13),
// A = P·L·U, N×N, under `mpirun -np 2`, OPENBLAS_NUM_THREADS=1.
// Heterogeneity comes from libhetscal-slowdown.so (preloaded by run_real.sh, identically for
// every variant); --speeds tells the planner and the Fastest panel rank about it.
//
// Usage: bench_lu_real [--n 4000,8000] [--nb 32,64,128,256] [--reps 3] [--speeds 1,0.3333]
//                      [--precision d|z]
// For each N: ScaLAPACK on the 1×P and P×1 grids and hetscal's kernel on the same block-cyclic
// layouts, each block size of --nb swept once and the fastest kept per grid; then hetscal's
// kernel on the heterogeneous grid planned for --speeds, with each panel factorised by the
// diagonal tile's owner and by the fastest rank of the panel. The kept variants run --reps
// times, interleaved, each on a freshly filled A (outside the timing); medians, GFLOP/s by
// LAWN 41's GETRF count, and for hetscal's variants the flops per rank and the flop balance
// for --speeds. Every kept variant's last factorisation is checked: ‖L·U·x − P·A·x‖ against
// ‖A‖·‖x‖·N·ε for a fixed x, P from the variant's own pivots.
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
#include "kernels/lu.hpp"
#include "panel_rank_bench.hpp"
#include "real_bench_support.hpp"
#include "scalapack_abi.hpp"

namespace {
using namespace hetscal;

/// A on one layout (bench::LaidOutMatrix), in scalar type T, with the global pivots of its
/// factorisation (0-based) and their check.
template <typename T>
struct Matrix : bench::LaidOutMatrix<T> {
  std::vector<std::int64_t> pivots;

  Matrix(std::int64_t order, std::unique_ptr<layout::Distribution> d,
         std::unique_ptr<layout::LocalLayout> s)
      : bench::LaidOutMatrix<T>(order, std::move(d), std::move(s), bench::hashed_element<T>),
        pivots(static_cast<std::size_t>(order), 0) {}

  /// Whether ‖L·U·x − P·A·x‖_∞ <= ‖A‖_∞·‖x‖_∞·N·ε·16 on every rank, for x_j = 1 + j mod 3:
  /// U·x and then L·(U·x) summed over the owners of the factors, A·x from the formula.
  bool check() {
    const std::size_t size = static_cast<std::size_t>(this->n);
    const std::vector<double> x = bench::check_vector(this->n);
    std::vector<T> ux(size, T(0)), lux(size, T(0));
    this->for_each_owned([&](std::int64_t i, std::int64_t j, T& v) {
      if (i <= j) ux[static_cast<std::size_t>(i)] += v * x[static_cast<std::size_t>(j)];
    });
    bench::sum_over_ranks(ux);
    this->for_each_owned([&](std::int64_t i, std::int64_t j, T& v) {
      if (i > j) lux[static_cast<std::size_t>(i)] += v * ux[static_cast<std::size_t>(j)];
    });
    bench::sum_over_ranks(lux);
    for (std::size_t i = 0; i < size; ++i) lux[i] += ux[i];  // L's unit diagonal
    bench::HashedProduct<T> pax = bench::hashed_product<T>(x);
    for (std::size_t p = 0; p < size; ++p)
      std::swap(pax.ax[p], pax.ax[static_cast<std::size_t>(pivots[p])]);
    return bench::within_backward_error(lux, pax.ax, pax.norm);
  }
};

/// pdgetrf_ or pzgetrf_, then its IPIV (LOCr + MB entries, global 1-based, for this rank's
/// local rows) gathered into global 0-based pivots: the rank holding tile column 0 has them all.
template <typename T>
int scalapack_factor(Matrix<T>& a) {
  const int n = static_cast<int>(a.n), one = 1;
  std::vector<int> ipiv(static_cast<std::size_t>(a.n + a.distribution->rows().block()));
  int info = 0;
  scalapack_overloads::getrf(a.data.data())(&n, &n, a.data.data(), &one, &one,
                                             a.descriptor.data(), ipiv.data(), &info);
  std::fill(a.pivots.begin(), a.pivots.end(), 0);
  const auto& array = dynamic_cast<const layout::CartesianLocalLayout&>(*a.storage);
  if (array.local_col_of_tile(0)) {
    for (std::int64_t t = 0; t < a.distribution->rows().count(); ++t) {
      const std::optional<layout::LocalRow> local = array.local_row_of_tile(t);
      if (!local) continue;
      for (std::int64_t r = 0; r < a.distribution->rows().size(t); ++r)
        a.pivots[static_cast<std::size_t>(a.distribution->rows().offset(t) + r)] =
            ipiv[static_cast<std::size_t>((*local + r).value())] - 1;
    }
  }
  bench::sum_over_ranks(a.pivots);
  return info;
}

template <typename T>
std::function<int(Matrix<T>&)> hetscal_factor(const kernels::LuOptions& options) {
  return [options](Matrix<T>& a) {
    return static_cast<int>(kernels::lu<T>(a.view(), a.pivots.data(), MPI_COMM_WORLD, options));
  };
}

template <typename T>
bench::PanelRankBench<Matrix<T>> lu_bench() {
  return {"hetscal's LU kernel against ScaLAPACK's pdgetrf_ or pzgetrf_ (real runs)",
          scalapack_factor<T>, hetscal_factor<T>,
          [](std::int64_t n) { return kernels::getrf_flops<T>(n, n); },
          "target >= 1.2 on 2 equal ranks"};
}

}  // namespace

int main(int argc, char** argv) {
  return bench::panel_rank_bench_main(lu_bench<double>(), lu_bench<std::complex<double>>(), argc,
                                      argv);
}
