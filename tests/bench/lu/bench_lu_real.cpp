// Real-run LU benchmark (DESIGN.md, instrument 3): hetscal's distributed kernel against
// Debian's ScaLAPACK pdgetrf_, A = P·L·U, N×N, under `mpirun -np 2`, OPENBLAS_NUM_THREADS=1.
// Heterogeneity comes from libhetscal-slowdown.so (preloaded by run_real.sh, identically for
// every variant); --speeds tells the planner and the Fastest panel rank about it.
//
// Usage: bench_lu_real [--n 4000,8000] [--nb 32,64,128,256] [--reps 3] [--speeds 1,0.3333]
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
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "factorization_bench.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/lu.hpp"
#include "real_bench_support.hpp"
#include "scalapack_abi.hpp"

extern "C" void pdgetrf_(const int* m, const int* n, double* a, const int* ia, const int* ja,
                         const int* desca, int* ipiv, int* info);

namespace {
using namespace hetscal;

/// A hashed value in [-0.5, 0.5): no structure, so pivoting works as on random matrices.
double a_value(std::int64_t i, std::int64_t j) {
  std::uint64_t x = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL ^
                    static_cast<std::uint64_t>(j + 1) * 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ULL;
  x ^= x >> 29;
  return static_cast<double>(x >> 11) / static_cast<double>(1ULL << 53) - 0.5;
}

/// A on one layout (bench::LaidOutMatrix), with the global pivots of its factorisation
/// (0-based) and their check.
struct Matrix : bench::LaidOutMatrix {
  std::vector<std::int64_t> pivots;

  Matrix(std::int64_t order, std::unique_ptr<layout::Distribution> d,
         std::unique_ptr<layout::LocalLayout> s)
      : LaidOutMatrix(order, std::move(d), std::move(s), a_value),
        pivots(static_cast<std::size_t>(order), 0) {}

  /// Whether ‖L·U·x − P·A·x‖_∞ <= ‖A‖_∞·‖x‖_∞·N·ε·16 on every rank, for x_j = 1 + j mod 3:
  /// U·x and then L·(U·x) summed over the owners of the factors, A·x from the formula.
  bool check() {
    const std::size_t size = static_cast<std::size_t>(n);
    std::vector<double> x(size), ux(size, 0.0), lux(size, 0.0), ax(size, 0.0);
    for (std::size_t j = 0; j < size; ++j) x[j] = 1.0 + static_cast<double>(j % 3);
    for_each_owned([&](std::int64_t i, std::int64_t j, double& v) {
      if (i <= j) ux[static_cast<std::size_t>(i)] += v * x[static_cast<std::size_t>(j)];
    });
    MPI_Allreduce(MPI_IN_PLACE, ux.data(), static_cast<int>(size), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    for_each_owned([&](std::int64_t i, std::int64_t j, double& v) {
      if (i > j) lux[static_cast<std::size_t>(i)] += v * ux[static_cast<std::size_t>(j)];
    });
    MPI_Allreduce(MPI_IN_PLACE, lux.data(), static_cast<int>(size), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    double norm = 0.0;
    for (std::size_t i = 0; i < size; ++i) {
      lux[i] += ux[i];  // L's unit diagonal
      double row = 0.0;
      for (std::size_t j = 0; j < size; ++j) {
        const double a = a_value(static_cast<std::int64_t>(i), static_cast<std::int64_t>(j));
        ax[i] += a * x[j];
        row += std::fabs(a);
      }
      norm = std::max(norm, row);
    }
    for (std::size_t p = 0; p < size; ++p)
      std::swap(ax[p], ax[static_cast<std::size_t>(pivots[p])]);
    double error = 0.0;
    for (std::size_t i = 0; i < size; ++i) error = std::max(error, std::fabs(lux[i] - ax[i]));
    return error <= norm * 3.0 * static_cast<double>(n) * 2.2e-16 * 16.0;
  }
};

using Variant = bench::Variant<Matrix>;
using bench::Grid;

/// pdgetrf_, then its IPIV (LOCr + MB entries, global 1-based, for this rank's local rows)
/// gathered into global 0-based pivots: the rank holding tile column 0 has them all.
int scalapack_factor(Matrix& a) {
  const int n = static_cast<int>(a.n), one = 1;
  std::vector<int> ipiv(static_cast<std::size_t>(a.n + a.distribution->rows().block()));
  int info = 0;
  pdgetrf_(&n, &n, a.data.data(), &one, &one, a.descriptor.data(), ipiv.data(), &info);
  std::fill(a.pivots.begin(), a.pivots.end(), 0);
  const auto& array = dynamic_cast<const layout::CartesianLocalLayout&>(*a.storage);
  if (array.local_col_of_tile(0) >= 0) {
    for (std::int64_t t = 0; t < a.distribution->rows().count(); ++t) {
      const std::int64_t local = array.local_row_of_tile(t);
      if (local < 0) continue;
      for (std::int64_t r = 0; r < a.distribution->rows().size(t); ++r)
        a.pivots[static_cast<std::size_t>(a.distribution->rows().offset(t) + r)] =
            ipiv[static_cast<std::size_t>(local + r)] - 1;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, a.pivots.data(), n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return info;
}

std::function<int(Matrix&)> hetscal_factor(kernels::LuOptions options) {
  return [options](Matrix& a) {
    return static_cast<int>(
        kernels::lu<double>(a.view(), a.pivots.data(), MPI_COMM_WORLD, options));
  };
}

void report(const std::vector<Variant>& variants, const bench::FactorizationOptions& o,
            std::int64_t n, double planned_speedup) {
  const double flops = kernels::getrf_flops<double>(n, n);
  bool ok = true;
  for (const Variant& v : variants) ok = ok && v.correct;
  std::printf("N=%lld reps=%d results %s\n", static_cast<long long>(n), o.reps,
              ok ? "checked" : "WRONG");
  std::printf("%-24s %5s %5s %10s %9s\n", "variant", "grid", "nb", "median_s", "GFLOP/s");
  for (const Variant& v : variants)
    std::printf("%-24s %5s %5lld %10.3f %9.2f\n", v.name.c_str(), v.grid.c_str(),
                static_cast<long long>(v.nb), bench::median(v.seconds),
                flops / bench::median(v.seconds) / 1e9);
  const auto ratio = [&](const std::string& base, const std::string& candidate) {
    return bench::median_of(variants, base) / bench::median_of(variants, candidate);
  };
  std::printf("ratio hetscal_1xP/scalapack_1xP   %.3f  (target >= 1.2 on 2 equal ranks)\n",
              ratio("scalapack_1xP", "hetscal_1xP"));
  std::printf("ratio hetscal_Px1/scalapack_Px1   %.3f  (target >= 1.2 on 2 equal ranks)\n",
              ratio("scalapack_Px1", "hetscal_Px1"));
  const std::string best_scalapack =
      ratio("scalapack_1xP", "scalapack_Px1") <= 1.0 ? "scalapack_1xP" : "scalapack_Px1";
  const std::string best_cyclic =
      ratio("hetscal_1xP", "hetscal_Px1") <= 1.0 ? "hetscal_1xP" : "hetscal_Px1";
  for (const char* planned : {"hetscal_planned_diagonal", "hetscal_planned_fastest"}) {
    std::printf("ratio %s/best_scalapack %.3f\n", planned, ratio(best_scalapack, planned));
    std::printf("ratio %s/best_cyclic    %.3f  (ideal by the GEMM planner %.3f)\n", planned,
                ratio(best_cyclic, planned), planned_speedup);
  }
  bench::print_flop_balance(variants, o.speeds);
}

}  // namespace

int main(int argc, char** argv) {
  return bench::factorization_bench_main(
      "hetscal's LU kernel against ScaLAPACK's pdgetrf_ (real runs)", argc, argv,
      [](const bench::FactorizationOptions& o, const bench::BlacsGrids& grids, int rank) {
        kernels::LuOptions diagonal, fastest;
        fastest.panel_rank = kernels::LuPanelRank::Fastest;
        fastest.rank_speeds = o.speeds;
        bool all_correct = true;
        for (const std::int64_t n : o.n) {
          std::vector<Variant> variants = bench::cyclic_variants<Matrix>(
              grids, n, o.nb, scalapack_factor, hetscal_factor(diagonal), rank);
          const bench::PlannedLayout plan = bench::plan_for(variants, o.speeds, n);
          const auto planned = [&plan, n, rank] {
            return bench::planned_matrix<Matrix>(plan.grid, n, plan.nb, rank);
          };
          for (const auto& [name, options] : {std::pair("hetscal_planned_diagonal", diagonal),
                                              std::pair("hetscal_planned_fastest", fastest)})
            variants.emplace_back(name, bench::shape_of(plan.grid), plan.nb, planned,
                                  hetscal_factor(options), true);
          all_correct = bench::run_interleaved(variants, o.reps) && all_correct;
          if (rank == 0) report(variants, o, n, plan.grid.predicted_speedup());
        }
        return all_correct;
      });
}
