#pragma once
/// @file panel_rank_bench.hpp
/// The main of the real-run benchmarks whose panels are factorised on one rank
/// (bench_lu_real, bench_qr_real): for each N, ScaLAPACK's routine and hetscal's kernel on
/// the 1×P and P×1 block-cyclic grids (cyclic_variants), then hetscal's kernel on the grid
/// planned for --speeds with the panels factorised by the diagonal tile's owner
/// (hetscal_planned_diagonal) and by the fastest rank of the panel (hetscal_planned_fastest),
/// interleaved repetitions and print_report's table; on double or complex double data.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dgemm_ceiling.hpp"
#include "factorization_bench.hpp"
#include "factorization_report.hpp"
#include "kernels/lu.hpp"

namespace hetscal::bench {

/// What a panel-rank benchmark compares.
template <typename Matrix>
struct PanelRankBench {
  const char* title;                      ///< the --help line
  std::function<int(Matrix&)> scalapack;  ///< ScaLAPACK's routine on a.descriptor
  /// hetscal's kernel with these options (LuOptions, which QrOptions names too)
  std::function<std::function<int(Matrix&)>(const kernels::LuOptions&)> hetscal;
  std::function<double(std::int64_t)> flops;  ///< LAWN 41's count for order N
  std::string homogeneous_target;             ///< "target >= …" of hetscal/ScaLAPACK
};

/// One precision's run of the benchmark for options `o` (every N of o.n).
/// @return whether every kept variant's last factorisation passed its check
template <typename Matrix>
bool run_panel_rank_bench(const PanelRankBench<Matrix>& bench, const FactorizationOptions& o,
                          const BlacsGrids& grids, int rank) {
  kernels::LuOptions diagonal, fastest;
  fastest.panel_rank = kernels::LuPanelRank::Fastest;
  fastest.rank_speeds = o.speeds;
  const ReportLines lines{bench.homogeneous_target,
                          bench.homogeneous_target,
                          {"hetscal_planned_diagonal", "hetscal_planned_fastest"}};
  const double dgemm_peak = concurrent_dgemm_peak(MPI_COMM_WORLD);
  bool all_correct = true;
  for (const std::int64_t n : o.n) {
    std::vector<Variant<Matrix>> variants =
        cyclic_variants<Matrix>(grids, n, o.nb, bench.scalapack, bench.hetscal(diagonal), rank);
    const PlannedLayout plan = plan_for(variants, o.speeds, n);
    const auto planned = [&plan, n, rank] {
      return planned_matrix<Matrix>(plan.grid, n, plan.nb, rank);
    };
    for (const auto& [name, options] :
         {std::pair(lines.planned[0], diagonal), std::pair(lines.planned[1], fastest)})
      variants.emplace_back(name, shape_of(plan.grid), plan.nb, planned, bench.hetscal(options),
                            true);
    all_correct = run_interleaved(variants, o.reps) && all_correct;
    if (rank == 0)
      print_report(variants, o, n, bench.flops(n), lines, plan.grid.predicted_speedup(),
                   dgemm_peak);
  }
  return all_correct;
}

/// The whole main: factorization_bench_main running `real` (double data) or, with
/// --precision z, `complex` (std::complex<double> data).
/// @return the exit code: 1 when some kept variant's last factorisation failed its check.
template <typename RealMatrix, typename ComplexMatrix>
int panel_rank_bench_main(const PanelRankBench<RealMatrix>& real,
                          const PanelRankBench<ComplexMatrix>& complex, int argc, char** argv) {
  return factorization_bench_main(
      real.title, argc, argv, [&](const FactorizationOptions& o, const BlacsGrids& grids, int rank) {
        return o.precision == 'z' ? run_panel_rank_bench(complex, o, grids, rank)
                                  : run_panel_rank_bench(real, o, grids, rank);
      });
}

}  // namespace hetscal::bench
