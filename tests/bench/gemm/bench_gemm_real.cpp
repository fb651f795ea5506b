// Real-run GEMM benchmark (DESIGN.md, instrument 3): hetscal's distributed kernel against
// Debian's ScaLAPACK pdgemm_ (pzgemm_ with --precision z: complex double data, issue 13) on a
// 1×P grid, C = A·B, n×n, under `mpirun -np 2`,
// OPENBLAS_NUM_THREADS=1. Heterogeneity comes from libhetscal-slowdown.so (preloaded by
// run_real.sh, identically for every variant); --speeds tells the planner about it.
//
// Usage: bench_gemm_real --n N [--reps R] [--speeds 1,0.3333] [--forward-check 1]
//                        [--scalapack-nb 32,64,128,256] [--hetscal-nb 32,64,128,256]
//                        [--precision d|z]
// Each list is swept once (one run per block size), the fastest kept; then the kept variants
// run R times, interleaved, and the medians are printed. With unequal speeds the planned
// heterogeneous distribution joins (its tile size near the cyclic kernel's best, so that n
// fills whole panels: balanced_tile_size), with its flop balance against the planner's prediction.
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/common/error.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/gemm.hpp"
#include "kernels/local_blas.hpp"
#include "layout/block_cyclic_distribution.hpp"
#include "layout/local_storage.hpp"
#include "planned_grid.hpp"
#include "real_bench_support.hpp"
#include "scalapack_abi.hpp"

namespace {
using namespace hetscal;

/// A's and B's elements in scalar type T: on complex data an imaginary part of its own formula.
template <typename T>
T a_value(std::int64_t i, std::int64_t j) {
  const double re = double((i * 7 + j * 13) % 17) / 17.0 - 0.5;
  if constexpr (std::is_same_v<T, double>) return re;
  else return T(re, double((i * 3 + j * 11) % 13) / 13.0 - 0.5);
}
template <typename T>
T b_value(std::int64_t i, std::int64_t j) {
  const double re = double((i * 11 + j * 5) % 19) / 19.0 - 0.5;
  if constexpr (std::is_same_v<T, double>) return re;
  else return T(re, double((i * 5 + j * 7) % 23) / 23.0 - 0.5);
}

struct Options {
  std::int64_t n = 4000;
  int reps = 3;
  std::vector<double> speeds;
  std::vector<std::int64_t> scalapack_nb{32, 64, 128, 256}, hetscal_nb{32, 64, 128, 256};
  /// Only ScaLAPACK, called through the symbol pdgemm_ (libhetscal.so's when preloaded) and
  /// straight into libscalapack: the forwarding cost within one process.
  bool forward_check = false;
  char precision = 'd';  ///< 'd': double and pdgemm_, 'z': std::complex<double> and pzgemm_
};

template <typename T>
using Pxgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*,
                        const T*, const int*, const int*, const int*, const T*, const int*,
                        const int*, const int*, const T*, T*, const int*, const int*, const int*);

/// PDGEMM or PZGEMM as the program links it (libhetscal.so's when preloaded).
Pxgemm<double> linked_pxgemm(double*) { return pdgemm_; }
Pxgemm<std::complex<double>> linked_pxgemm(std::complex<double>*) { return pzgemm_; }

/// ScaLAPACK's own pdgemm_ or pzgemm_, whatever is preloaded.
/// @throws hetscal::Error when not found.
template <typename T>
Pxgemm<T> scalapack_pxgemm() {
  const char* symbol_name = std::is_same_v<T, double> ? "pdgemm_" : "pzgemm_";
  for (const char* name : {"libscalapack-openmpi.so.2.2", "libscalapack-openmpi.so", "libscalapack.so"}) {
    if (void* handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD))
      if (void* symbol = dlsym(handle, symbol_name)) return reinterpret_cast<Pxgemm<T>>(symbol);
  }
  throw Error(std::string("bench_gemm_real: ScaLAPACK's ") + symbol_name +
              " not found among the loaded libraries");
}

Options parse_options(int argc, char** argv, int ranks) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--n") o.n = std::stoll(value);
    else if (key == "--reps") o.reps = std::stoi(value);
    else if (key == "--speeds") o.speeds = bench::parse_list<double>(value);
    else if (key == "--scalapack-nb") o.scalapack_nb = bench::parse_list<std::int64_t>(value);
    else if (key == "--hetscal-nb") o.hetscal_nb = bench::parse_list<std::int64_t>(value);
    else if (key == "--forward-check") o.forward_check = value == "1";
    else if (key == "--precision" && (value == "d" || value == "z")) o.precision = value[0];
    else throw InvalidArgument("bench_gemm_real: unknown option " + key);
  }
  if (o.speeds.empty()) o.speeds.assign(static_cast<std::size_t>(ranks), 1.0);
  if (o.speeds.size() != static_cast<std::size_t>(ranks))
    throw InvalidArgument("bench_gemm_real: --speeds needs one value per rank");
  return o;
}

/// One matrix triple of scalar type T on one distribution, filled from the formulas.
template <typename T>
struct Operands {
  std::unique_ptr<layout::Distribution> distribution;
  std::unique_ptr<layout::LocalLayout> storage;
  std::vector<T> a, b, c;

  Operands(std::unique_ptr<layout::Distribution> d, int rank)
      : distribution(std::move(d)), storage(layout::make_local_layout(*distribution, rank)) {
    const auto size = static_cast<std::size_t>(storage->local_elements());
    a.assign(size, T(0)), b.assign(size, T(0)), c.assign(size, T(0));
    for_each_owned([&](std::int64_t i, std::int64_t j, std::int64_t at) {
      a[at] = a_value<T>(i, j), b[at] = b_value<T>(i, j);
    });
  }
  template <typename F>
  void for_each_owned(F visit) const {
    const layout::Distribution& d = *distribution;
    for (const layout::GlobalTile& t : storage->owned_tiles()) {
      const layout::TileLocation where = storage->tile_location(t);
      for (std::int64_t jj = 0; jj < d.cols().size(t.col); ++jj)
        for (std::int64_t ii = 0; ii < d.rows().size(t.row); ++ii)
          visit(d.rows().offset(t.row) + ii, d.cols().offset(t.col) + jj, where.offset + ii + jj * where.ld);
    }
  }
  template <typename Element>
  kernels::DistributedMatrix<Element> view(std::vector<T>& data) {
    return {distribution.get(), storage.get(), data.data()};
  }
  /// Checks a sample of C's entries against the formulas' product.
  bool check(std::int64_t n) const {
    bool ok = true;
    for_each_owned([&](std::int64_t i, std::int64_t j, std::int64_t at) {
      if (i % 89 != 0 || j % 97 != 0) return;  // a sample keeps this O(n²)
      T exact(0);
      for (std::int64_t k = 0; k < n; ++k) exact += a_value<T>(i, k) * b_value<T>(k, j);
      ok = ok && std::abs(c[static_cast<std::size_t>(at)] - exact) <= 1e-10 * double(n);
    });
    return ok;
  }
};

template <typename T>
struct Variant {
  std::string name;
  std::int64_t nb = 0;
  std::function<void()> run;
  std::shared_ptr<Operands<T>> operands;
  std::vector<double> seconds;
  double median() const { return bench::median(seconds); }
};

/// The benchmark on T data on the 1×P grid `context`.
/// @return whether every kept variant's C was checked correct on this rank
template <typename T>
bool run_bench(const Options& o, int context, int rank, int ranks) {
  using Variant = ::Variant<T>;
  using Operands = ::Operands<T>;
  const int n = static_cast<int>(o.n), one = 1;
  const T alpha(1.0), beta(0.0);

  // Operands live as long as a variant holds them: only the kept block sizes stay in memory.
  const auto cyclic = [&](std::int64_t nb) {
    const auto desc = layout::Descriptor::block_cyclic(context, n, n, nb, nb, 0, 0, std::max<std::int64_t>(1, n));
    return std::make_shared<Operands>(
        std::make_unique<layout::BlockCyclicDistribution>(desc, layout::ProcessGrid::row_major(1, ranks)), rank);
  };
  const auto scalapack_call = [&](const char* name, Pxgemm<T> routine, std::int64_t nb) {
    std::shared_ptr<Operands> x = cyclic(nb);
    const std::vector<int> desc = static_cast<const layout::BlockCyclicDistribution&>(*x->distribution).descriptor().to_array();
    return Variant{name, nb, [routine, x, desc, n, one, alpha, beta] {
      routine("N", "N", &n, &n, &n, &alpha, x->a.data(), &one, &one, desc.data(), x->b.data(), &one, &one,
              desc.data(), &beta, x->c.data(), &one, &one, desc.data());
    }, x, {}};
  };
  const auto scalapack = [&](std::int64_t nb) {
    return scalapack_call(std::is_same_v<T, double> ? "scalapack_pdgemm" : "scalapack_pzgemm",
                          linked_pxgemm(static_cast<T*>(nullptr)), nb);
  };
  const auto hetscal_kernel = [&](const char* name, std::shared_ptr<Operands> x, std::int64_t nb) {
    return Variant{name, nb, [x] {
      kernels::gemm<T>(kernels::Op::NoTrans, kernels::Op::NoTrans, T(1.0), x->template view<const T>(x->a),
                       x->template view<const T>(x->b), T(0.0), x->template view<T>(x->c), MPI_COMM_WORLD);
    }, x, {}};
  };
  // Sweeps one run per block size and keeps the fastest (its operands checked).
  const auto best_of = [&](const std::vector<std::int64_t>& sizes, const std::function<Variant(std::int64_t)>& make) {
    Variant best;
    double best_time = 1e300;
    for (std::int64_t nb : sizes) {
      Variant v = make(nb);
      const double t = bench::timed(v.run);
      if (rank == 0) std::printf("sweep %-18s nb=%-4lld %9.3f s\n", v.name.c_str(), (long long)nb, t);
      if (t < best_time) best_time = t, best = v;
    }
    return best;
  };

  std::vector<Variant> variants;
  variants.push_back(best_of(o.scalapack_nb, scalapack));
  if (o.forward_check) {
    variants.push_back(scalapack_call("scalapack_direct", scalapack_pxgemm<T>(), variants[0].nb));
    // Alternate which path runs first: the first of two back-to-back calls is measurably
    // slower here, which would otherwise be charged to one path only.
    for (int r = 0; r < o.reps; ++r)
      for (std::size_t i = 0; i < variants.size(); ++i) {
        Variant& v = variants[r % 2 == 0 ? i : variants.size() - 1 - i];
        v.seconds.push_back(bench::timed(v.run));
      }
    if (rank == 0)
      std::printf("forward-check N=%lld nb=%lld: via pdgemm_ %.3f s, direct %.3f s, ratio direct/via %.4f\n",
                  (long long)o.n, (long long)variants[0].nb, variants[0].median(), variants[1].median(),
                  variants[1].median() / variants[0].median());
    return true;
  }
  variants.push_back(best_of(o.hetscal_nb, [&](std::int64_t nb) { return hetscal_kernel("hetscal_cyclic", cyclic(nb), nb); }));
  const bool heterogeneous = std::adjacent_find(o.speeds.begin(), o.speeds.end(), std::not_equal_to<>()) != o.speeds.end();
  std::vector<double> cycle_times;
  for (double s : o.speeds) cycle_times.push_back(1.0 / s);
  bench::PlannedGrid plan;
  std::shared_ptr<Operands> planned;
  if (heterogeneous) {
    const std::int64_t planned_nb = bench::balanced_tile_size(cycle_times, o.n, variants[1].nb);
    plan = bench::plan_grid(cycle_times, 0, 0, o.n, planned_nb);
    planned = std::make_shared<Operands>(bench::planned_distribution(plan, o.n, planned_nb), rank);
    variants.push_back(hetscal_kernel("hetscal_planned", planned, planned_nb));
  }
  for (int r = 0; r < o.reps; ++r)
    for (Variant& v : variants) {
      if (heterogeneous && r + 1 == o.reps && v.name == "hetscal_planned") kernels::reset_flops();
      v.seconds.push_back(bench::timed(v.run));
    }

  int ok = 1;
  for (const Variant& v : variants) ok = ok && v.operands->check(o.n);
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const double flops = kernels::gemm_flops<T>(o.n, o.n, o.n);
  if (rank == 0) {
    std::printf("N=%lld ranks=%d reps=%d results %s\n", (long long)o.n, ranks, o.reps, ok ? "checked" : "WRONG");
    std::printf("%-18s %5s %10s %9s\n", "variant", "nb", "median_s", "GFLOP/s");
    for (const Variant& v : variants)
      std::printf("%-18s %5lld %10.3f %9.2f\n", v.name.c_str(), (long long)v.nb, v.median(), flops / v.median() / 1e9);
    std::printf("ratio hetscal_cyclic/scalapack   %.3f\n", variants[0].median() / variants[1].median());
  }
  if (heterogeneous) {
    const kernels::FlopBalance measured = kernels::gather_flop_balance(MPI_COMM_WORLD, o.speeds);
    const auto* storage = static_cast<const layout::CartesianLocalLayout*>(planned->storage.get());
    const double mine = kernels::gemm_flops<T>(storage->local_rows(), storage->local_cols(), o.n);
    std::vector<double> predicted(static_cast<std::size_t>(ranks));
    MPI_Allgather(&mine, 1, MPI_DOUBLE, predicted.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("ratio hetscal_planned/scalapack  %.3f\n", variants[0].median() / variants[2].median());
      std::printf("ratio hetscal_planned/cyclic     %.3f (ideal %.3f)\n", variants[1].median() / variants[2].median(),
                  plan.predicted_speedup());
      for (int k = 0; k < ranks; ++k)
        std::printf("flops rank %d: measured %.4g, planned %.4g\n", k, measured.flops[std::size_t(k)], predicted[std::size_t(k)]);
      std::printf("flop balance measured %.4f, planned at N %.4f, planner's panel prediction %.4f\n", measured.balance,
                  kernels::flop_balance(predicted, o.speeds), plan.predicted_balance());
    }
  }
  return ok != 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const Options o = parse_options(argc, argv, ranks);
  int context = 0;
  Cblacs_get(-1, 0, &context);
  Cblacs_gridinit(&context, "Row", 1, ranks);
  const bool ok = o.precision == 'z' ? run_bench<std::complex<double>>(o, context, rank, ranks)
                                     : run_bench<double>(o, context, rank, ranks);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return ok ? 0 : 1;
}
