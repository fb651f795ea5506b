// Real-run Cholesky benchmark (DESIGN.md, instrument 3): hetscal's distributed kernel against
// Debian's ScaLAPACK pdpotrf_ (pzpotrf_ with --precision z: Hermitian complex double data,
// issue 13), A = L·Lᴴ (UPLO = L), N×N, under `mpirun -np 2`,
// OPENBLAS_NUM_THREADS=1. Heterogeneity comes from libhetscal-slowdown.so (preloaded by
// run_real.sh, identically for every variant); --speeds tells the planner about it.
//
// Usage: bench_cholesky_real [--n 4000,8000] [--nb 32,64,128,256] [--reps 3] [--speeds 1,0.3333]
//                            [--precision d|z]
// For each N: ScaLAPACK on the 1×P and P×1 grids and hetscal's kernel on the same block-cyclic
// layouts, each block size of --nb swept once and the fastest kept per grid; then hetscal's
// kernel on the heterogeneous grid the planner makes for --speeds (tile size near the best
// cyclic one: balanced_tile_size). The kept variants run --reps times, interleaved, each on a
// freshly filled A (outside the timing; one matrix in memory at a time); medians, GFLOP/s by
// LAWN 41's POTRF count, and for hetscal's variants the flops per rank and the flop balance
// for --speeds. Every kept variant's last factor is checked on sampled entries of L·Lᴴ.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dgemm_ceiling.hpp"
#include "factorization_bench.hpp"
#include "factorization_report.hpp"
#include "gemm/planned_grid.hpp"
#include "kernels/cholesky.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/local_blas.hpp"
#include "layout/block_cyclic_distribution.hpp"
#include "layout/local_storage.hpp"
#include "real_bench_support.hpp"
#include "scalapack_abi.hpp"

namespace {
using namespace hetscal;

/// Hermitian and diagonally dominant (off-diagonal parts in [-0.5, 0.5), diagonal N), hence
/// positive definite; symmetric on real data.
template <typename T>
T a_value(std::int64_t i, std::int64_t j, std::int64_t n) {
  if (i == j) return T(static_cast<double>(n));
  const std::int64_t low = std::min(i, j), high = std::max(i, j);
  const double re = static_cast<double>((low * 7 + high * 13) % 17) / 17.0 - 0.5;
  if constexpr (std::is_same_v<T, double>) {
    return re;
  } else {
    const T lower(re, static_cast<double>((low * 5 + high * 11) % 13) / 13.0 - 0.5);
    return i > j ? lower : std::conj(lower);
  }
}

/// A on one layout (bench::LaidOutMatrix), in scalar type T, with the check of its factor.
template <typename T>
struct Matrix : bench::LaidOutMatrix<T> {
  Matrix(std::int64_t order, std::unique_ptr<layout::Distribution> d,
         std::unique_ptr<layout::LocalLayout> s)
      : bench::LaidOutMatrix<T>(
            order, std::move(d), std::move(s),
            [order](std::int64_t i, std::int64_t j) { return a_value<T>(i, j, order); }) {}

  /// Whether L·Lᴴ matches A on the entries between sampled rows (every 97th and the last),
  /// on every rank: those rows of L are gathered, then each product is summed here.
  bool check() {
    const std::int64_t order = this->n;
    std::vector<std::int64_t> sample_of(static_cast<std::size_t>(order), -1), rows;
    for (std::int64_t i = 0; i < order; i += 97) rows.push_back(i);
    if (order > 0 && rows.back() != order - 1) rows.push_back(order - 1);
    for (std::size_t s = 0; s < rows.size(); ++s)
      sample_of[static_cast<std::size_t>(rows[s])] = static_cast<std::int64_t>(s);
    std::vector<T> l(rows.size() * static_cast<std::size_t>(order), T(0));
    this->for_each_owned([&](std::int64_t i, std::int64_t j, T& x) {
      const std::int64_t s = sample_of[static_cast<std::size_t>(i)];
      if (s >= 0 && j <= i) l[static_cast<std::size_t>(s * order + j)] = x;
    });
    bench::sum_over_ranks(l);
    bool ok = true;
    for (std::size_t si = 0; si < rows.size(); ++si) {
      for (std::size_t sj = 0; sj <= si; ++sj) {
        T product(0);
        for (std::int64_t k = 0; k <= rows[sj]; ++k)
          product += l[si * static_cast<std::size_t>(order) + static_cast<std::size_t>(k)] *
                     bench::conjugate(l[sj * static_cast<std::size_t>(order) + static_cast<std::size_t>(k)]);
        ok = ok && std::abs(product - a_value<T>(rows[si], rows[sj], order)) <=
                       1e-12 * static_cast<double>(order * order);
      }
    }
    return ok;
  }
};

template <typename T>
int scalapack_factor(Matrix<T>& a) {
  const int n = static_cast<int>(a.n), one = 1;
  int info = 0;
  scalapack_overloads::potrf(a.data.data())("L", &n, a.data.data(), &one, &one,
                                            a.descriptor.data(), &info);
  return info;
}

template <typename T>
int hetscal_factor(Matrix<T>& a) {
  return static_cast<int>(kernels::cholesky<T>(kernels::Uplo::Lower, a.view(), MPI_COMM_WORLD));
}

/// The benchmark on T data for every N of o.n.
/// @return whether every kept variant's last factor passed its check
template <typename T>
bool run_cholesky_bench(const bench::FactorizationOptions& o, const bench::BlacsGrids& grids,
                        int rank) {
  const double dgemm_peak = bench::concurrent_dgemm_peak(MPI_COMM_WORLD);
  bool all_correct = true;
  for (const std::int64_t n : o.n) {
    std::vector<bench::Variant<Matrix<T>>> variants = bench::cyclic_variants<Matrix<T>>(
        grids, n, o.nb, scalapack_factor<T>, hetscal_factor<T>, rank);
    const bench::PlannedLayout plan = bench::plan_for(variants, o.speeds, n);
    variants.emplace_back(
        "hetscal_planned", bench::shape_of(plan.grid), plan.nb,
        [&plan, n, rank] { return bench::planned_matrix<Matrix<T>>(plan.grid, n, plan.nb, rank); },
        hetscal_factor<T>, true);
    all_correct = bench::run_interleaved(variants, o.reps) && all_correct;
    if (rank == 0)
      bench::print_report(
          variants, o, n, kernels::potrf_flops<T>(n),
          {"target >= 1.5 on 2 ranks", "target >= 1.15 on 2 ranks", {"hetscal_planned"}},
          plan.grid.predicted_speedup(), dgemm_peak);
  }
  return all_correct;
}

}  // namespace

int main(int argc, char** argv) {
  return bench::factorization_bench_main(
      "hetscal's Cholesky kernel against ScaLAPACK's pdpotrf_ or pzpotrf_ (real runs)", argc, argv,
      [](const bench::FactorizationOptions& o, const bench::BlacsGrids& grids, int rank) {
        return o.precision == 'z' ? run_cholesky_bench<std::complex<double>>(o, grids, rank)
                                  : run_cholesky_bench<double>(o, grids, rank);
      });
}
