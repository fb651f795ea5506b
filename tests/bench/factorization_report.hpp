#pragma once
/// @file factorization_report.hpp
/// The table a real-run factorisation benchmark prints for one N (bench_cholesky_real,
/// bench_lu_real, bench_qr_real), in the lines its run_real.sh reads: the kept variants'
/// medians and GFLOP/s, hetscal against ScaLAPACK on each block-cyclic grid, each planned
/// variant against the best ScaLAPACK and the best of hetscal's block-cyclic runs, and the
/// flops per rank with their balance.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "factorization_bench.hpp"

namespace hetscal::bench {

/// What a benchmark's table says beyond its timings.
struct ReportLines {
  std::string row_target;            ///< e.g. "target >= 1.2 on 2 equal ranks", for 1×P
  std::string column_target;         ///< the same for P×1
  std::vector<std::string> planned;  ///< the names of the variants on the planned grid
};

/// Prints the table for order n (rank 0 calls it).
/// @param variants the kept variants: cyclic_variants' four, then the planned ones.
/// @param flops the factorisation's flop count (LAWN 41), for GFLOP/s.
/// @param planned_speedup what the GEMM planner predicts the planned grid gains over 2DBC.
/// @param dgemm_peak the ranks' DGEMM peak together (flop/s, concurrent_dgemm_peak).
template <typename Matrix>
void print_report(const std::vector<Variant<Matrix>>& variants, const FactorizationOptions& o,
                  std::int64_t n, double flops, const ReportLines& lines, double planned_speedup,
                  double dgemm_peak) {
  bool ok = true;
  for (const Variant<Matrix>& v : variants) ok = ok && v.correct;
  std::printf("N=%lld reps=%d results %s\n", static_cast<long long>(n), o.reps,
              ok ? "checked" : "WRONG");
  std::printf("%-24s %5s %5s %10s %9s\n", "variant", "grid", "nb", "median_s", "GFLOP/s");
  for (const Variant<Matrix>& v : variants)
    std::printf("%-24s %5s %5lld %10.3f %9.2f\n", v.name.c_str(), v.grid.c_str(),
                static_cast<long long>(v.nb), median(v.seconds), flops / median(v.seconds) / 1e9);
  const auto ratio = [&](const std::string& base, const std::string& candidate) {
    return median_of(variants, base) / median_of(variants, candidate);
  };
  std::printf("ratio hetscal_1xP/scalapack_1xP   %.3f  (%s)\n",
              ratio("scalapack_1xP", "hetscal_1xP"), lines.row_target.c_str());
  std::printf("ratio hetscal_Px1/scalapack_Px1   %.3f  (%s)\n",
              ratio("scalapack_Px1", "hetscal_Px1"), lines.column_target.c_str());
  // No kernel beats every flop at the DGEMM peak: a target above this ratio is out of reach.
  for (const char* grid : {"1xP", "Px1"})
    std::printf("ceiling hetscal_%s/scalapack_%s %.3f  (all flops at the ranks' DGEMM peak, %.1f GFLOP/s)\n",
                grid, grid, median_of(variants, std::string("scalapack_") + grid) / (flops / dgemm_peak),
                dgemm_peak / 1e9);
  const std::string best_scalapack =
      ratio("scalapack_1xP", "scalapack_Px1") <= 1.0 ? "scalapack_1xP" : "scalapack_Px1";
  const std::string best_cyclic =
      ratio("hetscal_1xP", "hetscal_Px1") <= 1.0 ? "hetscal_1xP" : "hetscal_Px1";
  for (const std::string& planned : lines.planned) {
    std::printf("ratio %s/best_scalapack %.3f\n", planned.c_str(), ratio(best_scalapack, planned));
    std::printf("ratio %s/best_cyclic    %.3f  (ideal by the GEMM planner %.3f)\n", planned.c_str(),
                ratio(best_cyclic, planned), planned_speedup);
  }
  print_flop_balance(variants, o.speeds);
}

}  // namespace hetscal::bench
