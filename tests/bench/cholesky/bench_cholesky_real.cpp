// Real-run Cholesky benchmark (DESIGN.md, instrument 3): hetscal's distributed kernel against
// Debian's ScaLAPACK pdpotrf_, A = L·Lᵀ (UPLO = L), N×N, under `mpirun -np 2`,
// OPENBLAS_NUM_THREADS=1. Heterogeneity comes from libhetscal-slowdown.so (preloaded by
// run_real.sh, identically for every variant); --speeds tells the planner about it.
//
// Usage: bench_cholesky_real [--n 4000,8000] [--nb 32,64,128,256] [--reps 3] [--speeds 1,0.3333]
// For each N: ScaLAPACK on the 1×P and P×1 grids and hetscal's kernel on the same block-cyclic
// layouts, each block size of --nb swept once and the fastest kept per grid; then hetscal's
// kernel on the heterogeneous grid the planner makes for --speeds (tile size near the best
// cyclic one: balanced_tile_size). The kept variants run --reps times, interleaved, each on a
// freshly filled A (outside the timing; one matrix in memory at a time); medians, GFLOP/s by
// LAWN 41's POTRF count, and for hetscal's variants the flops per rank and the flop balance
// for --speeds. Every kept variant's last factor is checked on sampled entries of L·Lᵀ.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

struct Options {
  std::vector<std::int64_t> n{4000, 8000};
  std::vector<std::int64_t> nb{32, 64, 128, 256};
  int reps = 3;
  std::vector<double> speeds;
};

/// The command line, or nullopt after --help or an error (printed by rank 0; `exit_code` is
/// then CLI11's: 0 for --help).
std::optional<Options> parse_options(int argc, char** argv, int rank, int ranks, int& exit_code) {
  Options o;
  CLI::App app("hetscal's Cholesky kernel against ScaLAPACK's pdpotrf_ (real runs)");
  app.add_option("--n", o.n, "matrix orders, comma separated")->delimiter(',');
  app.add_option("--nb", o.nb, "block sizes swept, comma separated")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--reps", o.reps, "interleaved repetitions of each kept variant")
      ->check(CLI::PositiveNumber);
  app.add_option("--speeds", o.speeds,
                 "relative speed of each rank, for the planner and the balance")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  try {
    app.parse(argc, argv);
    if (o.speeds.empty()) o.speeds.assign(static_cast<std::size_t>(ranks), 1.0);
    if (o.speeds.size() != static_cast<std::size_t>(ranks))
      throw CLI::ValidationError("--speeds", "needs one value per rank");
  } catch (const CLI::ParseError& e) {
    exit_code = rank == 0 ? app.exit(e) : e.get_exit_code();
    return std::nullopt;
  }
  return o;
}

/// Symmetric and diagonally dominant (off-diagonal values in [-0.5, 0.5), diagonal N), hence
/// positive definite.
double a_value(std::int64_t i, std::int64_t j, std::int64_t n) {
  if (i == j) return static_cast<double>(n);
  const std::int64_t low = std::min(i, j), high = std::max(i, j);
  return static_cast<double>((low * 7 + high * 13) % 17) / 17.0 - 0.5;
}

/// One matrix on one layout, with its ScaLAPACK descriptor when it is a caller's layout.
struct Matrix {
  std::int64_t n;
  std::unique_ptr<layout::Distribution> distribution;
  std::unique_ptr<layout::LocalLayout> storage;
  std::vector<int> descriptor;
  std::vector<double> data;

  Matrix(std::int64_t order, std::unique_ptr<layout::Distribution> d,
         std::unique_ptr<layout::LocalLayout> s)
      : n(order),
        distribution(std::move(d)),
        storage(std::move(s)),
        data(static_cast<std::size_t>(std::max<std::int64_t>(1, storage->local_elements()))) {
    for_each_owned([&](std::int64_t i, std::int64_t j, double& x) { x = a_value(i, j, n); });
  }
  template <typename F>
  void for_each_owned(F visit) {
    const layout::Distribution& d = *distribution;
    for (const layout::GlobalTile& t : storage->owned_tiles()) {
      const layout::TileLocation where = storage->tile_location(t);
      for (std::int64_t jj = 0; jj < d.cols().size(t.col); ++jj)
        for (std::int64_t ii = 0; ii < d.rows().size(t.row); ++ii)
          visit(d.rows().offset(t.row) + ii, d.cols().offset(t.col) + jj,
                data[static_cast<std::size_t>(where.offset + ii + jj * where.ld)]);
    }
  }
  kernels::DistributedMatrix<double> view() {
    return {distribution.get(), storage.get(), data.data()};
  }

  /// Whether L·Lᵀ matches A on the entries between sampled rows (every 97th and the last),
  /// on every rank: those rows of L are gathered, then each product is summed here.
  bool check() {
    std::vector<std::int64_t> sample_of(static_cast<std::size_t>(n), -1), rows;
    for (std::int64_t i = 0; i < n; i += 97) rows.push_back(i);
    if (n > 0 && rows.back() != n - 1) rows.push_back(n - 1);
    for (std::size_t s = 0; s < rows.size(); ++s)
      sample_of[static_cast<std::size_t>(rows[s])] = static_cast<std::int64_t>(s);
    std::vector<double> l(rows.size() * static_cast<std::size_t>(n), 0.0);
    for_each_owned([&](std::int64_t i, std::int64_t j, double& x) {
      const std::int64_t s = sample_of[static_cast<std::size_t>(i)];
      if (s >= 0 && j <= i) l[static_cast<std::size_t>(s * n + j)] = x;
    });
    MPI_Allreduce(MPI_IN_PLACE, l.data(), static_cast<int>(l.size()), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    bool ok = true;
    for (std::size_t si = 0; si < rows.size(); ++si) {
      for (std::size_t sj = 0; sj <= si; ++sj) {
        double product = 0.0;
        for (std::int64_t k = 0; k <= rows[sj]; ++k)
          product += l[si * static_cast<std::size_t>(n) + static_cast<std::size_t>(k)] *
                     l[sj * static_cast<std::size_t>(n) + static_cast<std::size_t>(k)];
        ok = ok && std::fabs(product - a_value(rows[si], rows[sj], n)) <=
                       1e-12 * static_cast<double>(n * n);
      }
    }
    return ok;
  }
};

/// A kept variant: how to make its matrix, how to factorise it, and its measurements.
struct Variant {
  Variant() = default;
  Variant(std::string variant, std::string grid_shape, std::int64_t block,
          std::function<std::unique_ptr<Matrix>()> maker, std::function<int(Matrix&)> factorise,
          bool hetscal_kernel)
      : name(std::move(variant)),
        grid(std::move(grid_shape)),
        nb(block),
        make(std::move(maker)),
        factor(std::move(factorise)),
        counts_flops(hetscal_kernel) {}

  std::string name, grid;
  std::int64_t nb = 0;
  std::function<std::unique_ptr<Matrix>()> make;
  std::function<int(Matrix&)> factor;
  bool counts_flops = false;   ///< hetscal's kernel: its flops per rank are counted
  double sweep_seconds = 0.0;  ///< its one run in the block-size sweep
  std::vector<double> seconds;
  std::vector<double> flops_per_rank;
  bool correct = false;

  /// One timed factorisation of a freshly made matrix; `last`: also checked and counted.
  double measure(bool last) {
    std::unique_ptr<Matrix> a = make();
    kernels::reset_flops();
    int info = -1;
    const double t = bench::timed([&] { info = factor(*a); });
    if (last) {
      double mine = kernels::local_flops();
      int ranks = 1;
      MPI_Comm_size(MPI_COMM_WORLD, &ranks);
      flops_per_rank.assign(static_cast<std::size_t>(ranks), 0.0);
      MPI_Allgather(&mine, 1, MPI_DOUBLE, flops_per_rank.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
      correct = info == 0 && a->check();
    }
    return t;
  }
};

/// The BLACS contexts of the two block-cyclic grids, 1×P and P×1.
struct Grid {
  int context = 0, nprow = 1, npcol = 1;
  std::string name() const { return std::to_string(nprow) + "x" + std::to_string(npcol); }
};

/// The caller's block-cyclic layout of A on `grid` (LLD = LOCr), as a ScaLAPACK program holds it.
std::unique_ptr<Matrix> block_cyclic(const Grid& grid, std::int64_t n, std::int64_t nb, int rank) {
  const int order = static_cast<int>(n), block = static_cast<int>(nb), zero = 0;
  const int myrow = grid.nprow == 1 ? 0 : rank;
  const int local_rows = numroc_(&order, &block, &myrow, &zero, &grid.nprow);
  const auto desc =
      layout::Descriptor::block_cyclic(grid.context, n, n, nb, nb, 0, 0, std::max(1, local_rows));
  auto d = std::make_unique<layout::BlockCyclicDistribution>(
      desc, layout::ProcessGrid::row_major(grid.nprow, grid.npcol));
  auto storage =
      std::make_unique<layout::CartesianLocalLayout>(layout::caller_local_layout(*d, rank));
  auto a = std::make_unique<Matrix>(n, std::move(d), std::move(storage));
  a->descriptor = desc.to_array();
  return a;
}

int scalapack_factor(Matrix& a) {
  const int n = static_cast<int>(a.n), one = 1;
  int info = 0;
  pdpotrf_("L", &n, a.data.data(), &one, &one, a.descriptor.data(), &info);
  return info;
}

int hetscal_factor(Matrix& a) {
  return static_cast<int>(
      kernels::cholesky<double>(kernels::Uplo::Lower, a.view(), MPI_COMM_WORLD));
}

/// Runs each block size once and keeps the fastest as a variant.
Variant sweep(const std::string& name, const Grid& grid, std::int64_t n,
              const std::vector<std::int64_t>& sizes, const std::function<int(Matrix&)>& factor,
              bool hetscal_kernel, int rank) {
  Variant best;
  double best_time = 1e300;
  for (const std::int64_t nb : sizes) {
    Variant v(
        name, grid.name(), nb, [=] { return block_cyclic(grid, n, nb, rank); }, factor,
        hetscal_kernel);
    const double t = v.measure(false);
    if (rank == 0)
      std::printf("sweep %-18s nb=%-4lld %9.3f s\n", name.c_str(), static_cast<long long>(nb), t);
    if (t < best_time) best_time = t, best = v;
  }
  best.sweep_seconds = best_time;
  return best;
}

const Variant& find(const std::vector<Variant>& variants, const std::string& name) {
  return *std::find_if(variants.begin(), variants.end(),
                       [&](const Variant& v) { return v.name == name; });
}

void report(const std::vector<Variant>& variants, const Options& o, std::int64_t n,
            double planned_speedup) {
  const double flops = kernels::potrf_flops<double>(n);
  bool ok = true;
  for (const Variant& v : variants) ok = ok && v.correct;
  std::printf("N=%lld reps=%d results %s\n", static_cast<long long>(n), o.reps,
              ok ? "checked" : "WRONG");
  std::printf("%-18s %5s %5s %10s %9s\n", "variant", "grid", "nb", "median_s", "GFLOP/s");
  for (const Variant& v : variants)
    std::printf("%-18s %5s %5lld %10.3f %9.2f\n", v.name.c_str(), v.grid.c_str(),
                static_cast<long long>(v.nb), bench::median(v.seconds),
                flops / bench::median(v.seconds) / 1e9);
  const auto ratio = [&](const char* base, const char* candidate) {
    return bench::median(find(variants, base).seconds) /
           bench::median(find(variants, candidate).seconds);
  };
  std::printf("ratio hetscal_1xP/scalapack_1xP   %.3f  (target >= 1.5 on 2 ranks)\n",
              ratio("scalapack_1xP", "hetscal_1xP"));
  std::printf("ratio hetscal_Px1/scalapack_Px1   %.3f  (target >= 1.15 on 2 ranks)\n",
              ratio("scalapack_Px1", "hetscal_Px1"));
  const bool first_is_faster = bench::median(find(variants, "scalapack_1xP").seconds) <=
                               bench::median(find(variants, "scalapack_Px1").seconds);
  const bool cyclic_1xp = bench::median(find(variants, "hetscal_1xP").seconds) <=
                          bench::median(find(variants, "hetscal_Px1").seconds);
  std::printf("ratio hetscal_planned/best_scalapack %.3f\n",
              ratio(first_is_faster ? "scalapack_1xP" : "scalapack_Px1", "hetscal_planned"));
  std::printf("ratio hetscal_planned/best_cyclic    %.3f  (ideal by the GEMM planner %.3f)\n",
              ratio(cyclic_1xp ? "hetscal_1xP" : "hetscal_Px1", "hetscal_planned"),
              planned_speedup);
  for (const Variant& v : variants) {
    if (!v.counts_flops) continue;
    std::printf("flops %-16s", v.name.c_str());
    for (const double f : v.flops_per_rank) std::printf(" %.4g", f);
    std::printf("  balance %.4f for speeds", kernels::flop_balance(v.flops_per_rank, o.speeds));
    for (const double s : o.speeds) std::printf(" %.4g", s);
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int exit_code = 0;
  const std::optional<Options> parsed = parse_options(argc, argv, rank, ranks, exit_code);
  if (!parsed) {
    MPI_Finalize();
    return exit_code;
  }
  const Options& o = *parsed;
  Grid row{0, 1, ranks}, column{0, ranks, 1};
  for (Grid* g : {&row, &column}) {
    Cblacs_get(-1, 0, &g->context);
    Cblacs_gridinit(&g->context, "Row", g->nprow, g->npcol);
  }
  std::vector<double> cycle_times;
  for (const double s : o.speeds) cycle_times.push_back(1.0 / s);

  int all_correct = 1;
  for (const std::int64_t n : o.n) {
    std::vector<Variant> variants;
    variants.push_back(sweep("scalapack_1xP", row, n, o.nb, scalapack_factor, false, rank));
    variants.push_back(sweep("scalapack_Px1", column, n, o.nb, scalapack_factor, false, rank));
    variants.push_back(sweep("hetscal_1xP", row, n, o.nb, hetscal_factor, true, rank));
    variants.push_back(sweep("hetscal_Px1", column, n, o.nb, hetscal_factor, true, rank));
    const bool row_faster = variants[2].sweep_seconds <= variants[3].sweep_seconds;
    const std::int64_t cyclic_nb = variants[row_faster ? 2 : 3].nb;
    const std::int64_t planned_nb = bench::balanced_tile_size(cycle_times, n, cyclic_nb);
    const bench::PlannedGrid plan = bench::plan_grid(cycle_times, 0, 0, n, planned_nb);
    variants.push_back(Variant(
        "hetscal_planned",
        std::to_string(plan.choice.arrangement.rows) + "x" +
            std::to_string(plan.choice.arrangement.cols),
        planned_nb,
        [&plan, n, planned_nb, rank] {
          std::unique_ptr<layout::Distribution> d =
              bench::planned_distribution(plan, n, planned_nb);
          std::unique_ptr<layout::LocalLayout> s = layout::make_local_layout(*d, rank);
          return std::make_unique<Matrix>(n, std::move(d), std::move(s));
        },
        hetscal_factor, true));
    for (int r = 0; r < o.reps; ++r)
      for (Variant& v : variants) v.seconds.push_back(v.measure(r + 1 == o.reps));
    for (const Variant& v : variants) all_correct = all_correct && v.correct;
    if (rank == 0) report(variants, o, n, plan.predicted_speedup());
  }
  for (Grid* g : {&row, &column}) Cblacs_gridexit(g->context);
  MPI_Finalize();
  return all_correct ? 0 : 1;
}
