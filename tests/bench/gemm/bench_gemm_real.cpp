// Real-run GEMM benchmark (DESIGN.md, instrument 3): hetscal's distributed kernel against
// Debian's ScaLAPACK pdgemm_ on a 1×P grid, C = A·B, n×n, under `mpirun -np 2`,
// OPENBLAS_NUM_THREADS=1. Heterogeneity comes from libhetscal-slowdown.so (preloaded by
// run_real.sh, identically for every variant); --speeds tells the planner about it.
//
// Usage: bench_gemm_real --n N [--reps R] [--speeds 1,0.3333] [--forward-check 1]
//                        [--scalapack-nb 32,64,128,256] [--hetscal-nb 32,64,128,256]
// Each list is swept once (one run per block size), the fastest kept; then the kept variants
// run R times, interleaved, and the medians are printed. With unequal speeds the planned
// heterogeneous distribution joins (its tile size near the cyclic kernel's best, so that n
// fills whole panels: balanced_tile_size), with its flop balance against the planner's prediction.
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/gemm.hpp"
#include "layout/block_cyclic_distribution.hpp"
#include "layout/local_storage.hpp"
#include "planned_grid.hpp"
#include "real_bench_support.hpp"

#include "scalapack_abi.hpp"

namespace {
using namespace hetscal;

double a_value(std::int64_t i, std::int64_t j) { return double((i * 7 + j * 13) % 17) / 17.0 - 0.5; }
double b_value(std::int64_t i, std::int64_t j) { return double((i * 11 + j * 5) % 19) / 19.0 - 0.5; }

struct Options {
  std::int64_t n = 4000;
  int reps = 3;
  std::vector<double> speeds;
  std::vector<std::int64_t> scalapack_nb{32, 64, 128, 256}, hetscal_nb{32, 64, 128, 256};
  /// Only ScaLAPACK, called through the symbol pdgemm_ (libhetscal.so's when preloaded) and
  /// straight into libscalapack: the forwarding cost within one process.
  bool forward_check = false;
};

using Pdgemm = decltype(&pdgemm_);

/// ScaLAPACK's own pdgemm_, whatever is preloaded. @throws hetscal::Error when not found.
Pdgemm scalapack_pdgemm() {
  for (const char* name : {"libscalapack-openmpi.so.2.2", "libscalapack-openmpi.so", "libscalapack.so"}) {
    if (void* handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD))
      if (void* symbol = dlsym(handle, "pdgemm_")) return reinterpret_cast<Pdgemm>(symbol);
  }
  throw Error("bench_gemm_real: ScaLAPACK's pdgemm_ not found among the loaded libraries");
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
    else throw InvalidArgument("bench_gemm_real: unknown option " + key);
  }
  if (o.speeds.empty()) o.speeds.assign(static_cast<std::size_t>(ranks), 1.0);
  if (o.speeds.size() != static_cast<std::size_t>(ranks))
    throw InvalidArgument("bench_gemm_real: --speeds needs one value per rank");
  return o;
}

/// One matrix triple on one distribution, filled from the formulas.
struct Operands {
  std::unique_ptr<layout::Distribution> distribution;
  std::unique_ptr<layout::LocalLayout> storage;
  std::vector<double> a, b, c;

  Operands(std::unique_ptr<layout::Distribution> d, int rank)
      : distribution(std::move(d)), storage(layout::make_local_layout(*distribution, rank)) {
    const auto size = static_cast<std::size_t>(storage->local_elements());
    a.assign(size, 0.0), b.assign(size, 0.0), c.assign(size, 0.0);
    for_each_owned([&](std::int64_t i, std::int64_t j, std::int64_t at) {
      a[at] = a_value(i, j), b[at] = b_value(i, j);
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
  template <typename T>
  kernels::DistributedMatrix<T> view(std::vector<double>& data) {
    return {distribution.get(), storage.get(), data.data()};
  }
  /// Checks a sample of C's entries against the formulas' product.
  bool check(std::int64_t n) const {
    bool ok = true;
    for_each_owned([&](std::int64_t i, std::int64_t j, std::int64_t at) {
      if (i % 89 != 0 || j % 97 != 0) return;  // a sample keeps this O(n²)
      double exact = 0.0;
      for (std::int64_t k = 0; k < n; ++k) exact += a_value(i, k) * b_value(k, j);
      ok = ok && std::fabs(c[static_cast<std::size_t>(at)] - exact) <= 1e-10 * double(n);
    });
    return ok;
  }
};

struct Variant {
  std::string name;
  std::int64_t nb = 0;
  std::function<void()> run;
  std::shared_ptr<Operands> operands;
  std::vector<double> seconds;
  double median() const { return bench::median(seconds); }
};

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
  const int n = static_cast<int>(o.n), one = 1;
  const double alpha = 1.0, beta = 0.0;

  // Operands live as long as a variant holds them: only the kept block sizes stay in memory.
  const auto cyclic = [&](std::int64_t nb) {
    const auto desc = layout::Descriptor::block_cyclic(context, n, n, nb, nb, 0, 0, std::max<std::int64_t>(1, n));
    return std::make_shared<Operands>(
        std::make_unique<layout::BlockCyclicDistribution>(desc, layout::ProcessGrid::row_major(1, ranks)), rank);
  };
  const auto scalapack_call = [&](const char* name, Pdgemm routine, std::int64_t nb) {
    std::shared_ptr<Operands> x = cyclic(nb);
    const std::vector<int> desc = static_cast<const layout::BlockCyclicDistribution&>(*x->distribution).descriptor().to_array();
    return Variant{name, nb, [routine, x, desc, n, one, alpha, beta] {
      routine("N", "N", &n, &n, &n, &alpha, x->a.data(), &one, &one, desc.data(), x->b.data(), &one, &one,
              desc.data(), &beta, x->c.data(), &one, &one, desc.data());
    }, x, {}};
  };
  const auto scalapack = [&](std::int64_t nb) { return scalapack_call("scalapack_pdgemm", &pdgemm_, nb); };
  const auto hetscal_kernel = [&](const char* name, std::shared_ptr<Operands> x, std::int64_t nb) {
    return Variant{name, nb, [x] {
      kernels::gemm<double>(kernels::Op::NoTrans, kernels::Op::NoTrans, 1.0, x->view<const double>(x->a),
                            x->view<const double>(x->b), 0.0, x->view<double>(x->c), MPI_COMM_WORLD);
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
    variants.push_back(scalapack_call("scalapack_direct", scalapack_pdgemm(), variants[0].nb));
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
    Cblacs_gridexit(context);
    MPI_Finalize();
    return 0;
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
  const double flops = 2.0 * double(o.n) * double(o.n) * double(o.n);
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
    const double mine = 2.0 * double(o.n) * double(storage->local_rows()) * double(storage->local_cols());
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
  Cblacs_gridexit(context);
  MPI_Finalize();
  return ok ? 0 : 1;
}
