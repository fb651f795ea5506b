#pragma once
/// @file factorization_bench.hpp
/// Shared by the real-run factorisation benchmarks (bench_cholesky_real, bench_lu_real,
/// bench_qr_real): the command line, the 1×P and P×1 BLACS grids, and a kept variant (how
/// to make its matrix, how to factorise it, its timings and flops per rank) with the
/// block-size sweep that picks it. `Matrix` is the benchmark's own matrix type:
/// constructible by the variant's maker, with a `check()` of the factorisation it holds.
/// `--precision z` runs the same benchmark on COMPLEX*16 data (issue 13): every matrix, check
/// and ScaLAPACK call is a template over the scalar type, instantiated for double and
/// std::complex<double>.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "gemm/planned_grid.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/flop_counter.hpp"
#include "layout/block_cyclic_distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/mpi_type.hpp"
#include "real_bench_support.hpp"
#include "scalapack_abi.hpp"

namespace hetscal::bench {

struct FactorizationOptions {
  std::vector<std::int64_t> n{4000, 8000};
  std::vector<std::int64_t> nb{32, 64, 128, 256};
  int reps = 3;
  std::vector<double> speeds;
  char precision = 'd';  ///< 'd': double, 'z': std::complex<double> (ScaLAPACK's PZ routines)
};

/// The command line, or nullopt after --help or an error (printed by rank 0; `exit_code` is
/// then CLI11's: 0 for --help).
inline std::optional<FactorizationOptions> parse_factorization_options(const char* title, int argc,
                                                                       char** argv, int rank,
                                                                       int ranks, int& exit_code) {
  FactorizationOptions o;
  CLI::App app(title);
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
  app.add_option("--precision", o.precision, "d (double) or z (complex double)")
      ->check(CLI::IsMember({'d', 'z'}))
      ->envname("HETSCAL_BENCH_PRECISION");  // how run_real.sh passes it
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

/// A BLACS context of a block-cyclic grid (1×P or P×1 here).
struct Grid {
  int context = 0, nprow = 1, npcol = 1;
  std::string name() const { return std::to_string(nprow) + "x" + std::to_string(npcol); }
};

/// The BLACS contexts of the two block-cyclic grids, 1×P and P×1, released with the object.
struct BlacsGrids {
  Grid row, column;
  explicit BlacsGrids(int ranks) : row{0, 1, ranks}, column{0, ranks, 1} {
    for (Grid* g : {&row, &column}) {
      Cblacs_get(-1, 0, &g->context);
      Cblacs_gridinit(&g->context, "Row", g->nprow, g->npcol);
    }
  }
  ~BlacsGrids() {
    for (Grid* g : {&row, &column}) Cblacs_gridexit(g->context);
  }
  BlacsGrids(const BlacsGrids&) = delete;
  BlacsGrids& operator=(const BlacsGrids&) = delete;
};

/// A hashed value in [-0.5, 0.5) for element (i, j): no structure, so pivoting and
/// Householder reflections work as on random matrices (bench_lu_real, bench_qr_real).
inline double hashed_value(std::int64_t i, std::int64_t j) {
  std::uint64_t x = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL ^
                    static_cast<std::uint64_t>(j + 1) * 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ULL;
  x ^= x >> 29;
  return static_cast<double>(x >> 11) / static_cast<double>(1ULL << 53) - 0.5;
}

/// Element (i, j) of the benchmarks' unstructured matrix in scalar type T: hashed_value, and
/// on complex data an imaginary part hashed from another row index (-1 - i, used by no row).
template <typename T>
T hashed_element(std::int64_t i, std::int64_t j) {
  if constexpr (std::is_same_v<T, double>) {
    return hashed_value(i, j);
  } else {
    return T(hashed_value(i, j), hashed_value(-1 - i, j));
  }
}

/// The vector the factorisations' checks multiply by: x_j = 1 + j mod 3 (‖x‖_∞ = 3).
inline std::vector<double> check_vector(std::int64_t n) {
  std::vector<double> x(static_cast<std::size_t>(n));
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = 1.0 + static_cast<double>(j % 3);
  return x;
}

/// A·x and ‖A‖_∞ of the N×N matrix of hashed_element<T> elements, from the formula: the
/// independent side of a factorisation's check.
template <typename T>
struct HashedProduct {
  std::vector<T> ax;
  double norm = 0.0;
};
template <typename T>
HashedProduct<T> hashed_product(const std::vector<double>& x) {
  HashedProduct<T> p;
  p.ax.assign(x.size(), T(0));
  for (std::size_t i = 0; i < x.size(); ++i) {
    double row = 0.0;
    for (std::size_t j = 0; j < x.size(); ++j) {
      const T a = hashed_element<T>(static_cast<std::int64_t>(i), static_cast<std::int64_t>(j));
      p.ax[i] += a * x[j];
      row += std::abs(a);
    }
    p.norm = std::max(p.norm, row);
  }
  return p;
}

/// Whether ‖computed − expected‖_∞ <= ‖A‖_∞·‖x‖_∞·N·ε·16 (check_vector's x): a backward
/// stable factorisation's residual, with room for the summation order (twice that on complex
/// data, whose operations err up to twice as much).
template <typename T>
bool within_backward_error(const std::vector<T>& computed, const std::vector<T>& expected,
                           double norm) {
  double error = 0.0;
  for (std::size_t i = 0; i < computed.size(); ++i)
    error = std::max(error, std::abs(computed[i] - expected[i]));
  const double room = std::is_same_v<T, double> ? 16.0 : 32.0;
  return error <= norm * 3.0 * static_cast<double>(computed.size()) * 2.2e-16 * room;
}

/// Sums `values` over MPI_COMM_WORLD, in place.
template <typename T>
void sum_over_ranks(std::vector<T>& values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), mpi::mpi_type<T>(),
                MPI_SUM, MPI_COMM_WORLD);
}

/// One N×N matrix of scalar type T on one layout, filled from a formula, with its ScaLAPACK
/// descriptor when it is a caller's layout. A benchmark's Matrix adds its own check().
template <typename T>
struct LaidOutMatrix {
  using Scalar = T;
  std::int64_t n;
  std::unique_ptr<layout::Distribution> distribution;
  std::unique_ptr<layout::LocalLayout> storage;
  std::vector<int> descriptor;
  std::vector<T> data;

  LaidOutMatrix(std::int64_t order, std::unique_ptr<layout::Distribution> d,
                std::unique_ptr<layout::LocalLayout> s,
                const std::function<T(std::int64_t, std::int64_t)>& value)
      : n(order),
        distribution(std::move(d)),
        storage(std::move(s)),
        data(static_cast<std::size_t>(std::max<std::int64_t>(1, storage->local_elements()))) {
    for_each_owned([&](std::int64_t i, std::int64_t j, T& x) { x = value(i, j); });
  }
  /// Calls visit(i, j, element) for every element this rank owns.
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
  /// Tile column `t` of A, all N rows (column-major, leading dimension N), on every rank:
  /// each rank writes the tiles it owns and MPI_COMM_WORLD sums them.
  std::vector<T> gathered_tile_column(std::int64_t t) {
    const layout::Distribution& d = *distribution;
    const std::int64_t width = d.cols().size(t);
    std::vector<T> column(static_cast<std::size_t>(n * width), T(0));
    for (const layout::GlobalTile& tile : storage->owned_tiles()) {
      if (tile.col != t) continue;
      const layout::TileLocation where = storage->tile_location(tile);
      const std::int64_t first_row = d.rows().offset(tile.row);
      for (std::int64_t jj = 0; jj < width; ++jj)
        for (std::int64_t ii = 0; ii < d.rows().size(tile.row); ++ii)
          column[static_cast<std::size_t>(first_row + ii + jj * n)] =
              data[static_cast<std::size_t>(where.offset + ii + jj * where.ld)];
    }
    sum_over_ranks(column);
    return column;
  }
  kernels::DistributedMatrix<T> view() { return {distribution.get(), storage.get(), data.data()}; }
};

/// The complex conjugate of x; x itself on real data.
template <typename T>
T conjugate(const T& x) {
  if constexpr (std::is_same_v<T, double>) {
    return x;
  } else {
    return std::conj(x);
  }
}

/// The caller's block-cyclic layout of A on `grid` (LLD = LOCr), as a ScaLAPACK program
/// holds it. Matrix is constructible from (n, distribution, storage).
template <typename Matrix>
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

/// A on the planned heterogeneous grid, in hetscal's own local layout.
template <typename Matrix>
std::unique_ptr<Matrix> planned_matrix(const PlannedGrid& plan, std::int64_t n, std::int64_t nb,
                                       int rank) {
  std::unique_ptr<layout::Distribution> d = planned_distribution(plan, n, nb);
  std::unique_ptr<layout::LocalLayout> s = layout::make_local_layout(*d, rank);
  return std::make_unique<Matrix>(n, std::move(d), std::move(s));
}

/// "2x3": the planned grid's shape.
inline std::string shape_of(const PlannedGrid& plan) {
  return std::to_string(plan.choice.arrangement.rows) + "x" +
         std::to_string(plan.choice.arrangement.cols);
}

/// A kept variant: how to make its matrix, how to factorise it, and its measurements.
template <typename Matrix>
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
    const double t = timed([&] { info = factor(*a); });
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

/// Runs each block size once with `make(grid, nb)` and keeps the fastest as a variant.
template <typename Matrix, typename Make>
Variant<Matrix> sweep(const std::string& name, const Grid& grid,
                      const std::vector<std::int64_t>& sizes, Make make,
                      const std::function<int(Matrix&)>& factor, bool hetscal_kernel, int rank) {
  Variant<Matrix> best;
  double best_time = 1e300;
  for (const std::int64_t nb : sizes) {
    Variant<Matrix> v(
        name, grid.name(), nb, [=] { return make(grid, nb); }, factor, hetscal_kernel);
    const double t = v.measure(false);
    if (rank == 0)
      std::printf("sweep %-24s nb=%-4lld %9.3f s\n", name.c_str(), static_cast<long long>(nb), t);
    if (t < best_time) best_time = t, best = v;
  }
  best.sweep_seconds = best_time;
  return best;
}

/// ScaLAPACK's routine and hetscal's kernel on the caller's block-cyclic layout of the 1×P
/// and P×1 grids, each swept over the block sizes: scalapack_1xP, scalapack_Px1,
/// hetscal_1xP, hetscal_Px1, in this order.
template <typename Matrix>
std::vector<Variant<Matrix>> cyclic_variants(const BlacsGrids& grids, std::int64_t n,
                                             const std::vector<std::int64_t>& sizes,
                                             const std::function<int(Matrix&)>& scalapack,
                                             const std::function<int(Matrix&)>& hetscal, int rank) {
  const auto cyclic = [n, rank](const Grid& grid, std::int64_t nb) {
    return block_cyclic<Matrix>(grid, n, nb, rank);
  };
  std::vector<Variant<Matrix>> variants;
  variants.push_back(
      sweep<Matrix>("scalapack_1xP", grids.row, sizes, cyclic, scalapack, false, rank));
  variants.push_back(
      sweep<Matrix>("scalapack_Px1", grids.column, sizes, cyclic, scalapack, false, rank));
  variants.push_back(sweep<Matrix>("hetscal_1xP", grids.row, sizes, cyclic, hetscal, true, rank));
  variants.push_back(
      sweep<Matrix>("hetscal_Px1", grids.column, sizes, cyclic, hetscal, true, rank));
  return variants;
}

/// The heterogeneous grid the planner makes for `speeds`, its tile size near the block size
/// of hetscal's faster block-cyclic variant (balanced_tile_size). @pre cyclic_variants first.
struct PlannedLayout {
  PlannedGrid grid;
  std::int64_t nb = 0;
};
template <typename Matrix>
PlannedLayout plan_for(const std::vector<Variant<Matrix>>& variants,
                       const std::vector<double>& speeds, std::int64_t n) {
  std::vector<double> cycle_times;
  for (const double s : speeds) cycle_times.push_back(1.0 / s);
  const bool row_faster = variants[2].sweep_seconds <= variants[3].sweep_seconds;
  const std::int64_t nb = balanced_tile_size(cycle_times, n, variants[row_faster ? 2 : 3].nb);
  return {plan_grid(cycle_times, 0, 0, n, nb), nb};
}

/// Runs every variant `reps` times, interleaved; returns whether every last run was checked
/// correct.
template <typename Matrix>
bool run_interleaved(std::vector<Variant<Matrix>>& variants, int reps) {
  for (int r = 0; r < reps; ++r)
    for (Variant<Matrix>& v : variants) v.seconds.push_back(v.measure(r + 1 == reps));
  bool correct = true;
  for (const Variant<Matrix>& v : variants) correct = correct && v.correct;
  return correct;
}

/// Median seconds of the variant called `name`.
template <typename Matrix>
double median_of(const std::vector<Variant<Matrix>>& variants, const std::string& name) {
  for (const Variant<Matrix>& v : variants)
    if (v.name == name) return median(v.seconds);
  return 0.0;
}

/// One line per hetscal variant: its flops per rank and their balance for `speeds`.
template <typename Matrix>
void print_flop_balance(const std::vector<Variant<Matrix>>& variants,
                        const std::vector<double>& speeds) {
  for (const Variant<Matrix>& v : variants) {
    if (!v.counts_flops) continue;
    std::printf("flops %-24s", v.name.c_str());
    for (const double f : v.flops_per_rank) std::printf(" %.4g", f);
    std::printf("  balance %.4f for speeds", kernels::flop_balance(v.flops_per_rank, speeds));
    for (const double s : speeds) std::printf(" %.4g", s);
    std::printf("\n");
  }
}

/// The whole main of a factorisation benchmark: MPI_Init, the command line, then
/// body(options, grids, rank) with the BLACS grids alive, MPI_Finalize. Returns the exit
/// code: CLI11's after --help or an error, 1 when body returned false (a wrong result).
template <typename Body>
int factorization_bench_main(const char* title, int argc, char** argv, Body body) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int exit_code = 0;
  const std::optional<FactorizationOptions> options =
      parse_factorization_options(title, argc, argv, rank, ranks, exit_code);
  if (options) {
    const BlacsGrids grids(ranks);
    exit_code = body(*options, grids, rank) ? 0 : 1;
  }
  MPI_Finalize();
  return exit_code;
}

}  // namespace hetscal::bench
