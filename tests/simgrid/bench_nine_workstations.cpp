// Simulated GEMM benchmark (DESIGN.md, instrument 2): the 9 workstations of Boudet, Petitet,
// Rastello & Robert (1999), Table 3, on their 3×3 and 2×4 grids (Figures 10 and 11).
// hetscal's kernel on the planner's heterogeneous distribution versus the same kernel on
// ScaLAPACK's 2D block-cyclic distribution over the same grid, next to the theoretical time
// cyclic / S with S = W_hetero / W_cyclic of the rational shares (the paper's 3.34 and 3.63);
// S_plan is the same ratio for the integer panel plan actually used at that N.
// Flops are injected (ComputeMode::Skip) and the matrices live in SMPI shared memory, so
// N = 8000 costs little real memory or time.
//
// Usage (run_simgrid.sh): smpirun -np 9 -platform nine_workstations.xml
//   -hostfile nine_workstations.hosts --cfg=smpi/simulate-computation:no
//   --cfg=smpi/shared-malloc:global bench_nine_workstations [OUTPUT_PREFIX [NB [N_LIST]]]
// Writes OUTPUT_PREFIX.csv (default prefix: nine_workstations_gemm); tests/report plots it.
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "../bench/real_bench_support.hpp"
#include "../bench/gemm/planned_grid.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/gemm.hpp"
#include "layout/local_storage.hpp"
#include "simulation_support.hpp"

namespace {
using namespace hetscal;

/// Table 3's cycle-times, in the order of nine_workstations.hosts (rank i on host i).
const std::vector<double> kCycleTimes{7.8, 1.0, 1.0, 4.0, 1.0, 6.3, 7.8, 7.95, 8.0};

/// Simulated seconds of C = A·B + C on distribution `d` (one call, all ranks of the world).
/// beta = 1 keeps the kernel from writing C.
double simulated_gemm(const layout::Distribution& d, int rank) {
  const std::unique_ptr<layout::LocalLayout> storage = layout::make_local_layout(d, rank);
  const bench::SharedLocalMatrix a(*storage), b(*storage), c(*storage);
  return bench::simulated_seconds(MPI_COMM_WORLD, [&] {
    kernels::gemm<double>(kernels::Op::NoTrans, kernels::Op::NoTrans, 1.0, {&d, storage.get(), a.data()},
                          {&d, storage.get(), b.data()}, 1.0, {&d, storage.get(), c.data()}, MPI_COMM_WORLD);
  });
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::string prefix = argc > 1 ? argv[1] : "nine_workstations_gemm";
  const std::int64_t nb = argc > 2 ? std::stoll(argv[2]) : 64;  // the paper's r = 64
  const std::vector<std::int64_t> sizes =
      bench::parse_list<std::int64_t>(argc > 3 ? argv[3] : "1000,2000,3000,4000,5000,6000,7000,8000");
  if (ranks != static_cast<int>(kCycleTimes.size())) {
    if (rank == 0) std::printf("bench_nine_workstations needs 9 ranks\n");
    MPI_Finalize();
    return 2;
  }
  kernels::set_compute_mode(kernels::ComputeMode::Skip);

  std::FILE* csv = rank == 0 ? std::fopen((prefix + ".csv").c_str(), "w") : nullptr;
  if (rank == 0) {
    if (csv == nullptr) std::printf("cannot write %s.csv\n", prefix.c_str());
    else std::fprintf(csv, "grid,n,nb,cyclic_s,hetero_s,theoretical_s,speedup,theoretical_speedup,plan_speedup,fraction\n");
    std::printf("%-5s %6s %10s %10s %14s %8s %8s %8s %8s\n", "grid", "N", "cyclic_s", "hetero_s",
                "theoretical_s", "speedup", "S_W", "S_plan", "fraction");
  }
  for (const auto& shape : std::vector<std::pair<std::size_t, std::size_t>>{{3, 3}, {2, 4}}) {
    const std::string grid = std::to_string(shape.first) + "x" + std::to_string(shape.second);
    for (std::int64_t n : sizes) {
      const bench::PlannedGrid plan = bench::plan_grid(kCycleTimes, shape.first, shape.second, n, nb);
      const double s = plan.rational_speedup(), s_plan = plan.predicted_speedup();
      const double cyclic_s = simulated_gemm(*bench::cyclic_distribution(plan, n, nb), rank);
      const double hetero_s = simulated_gemm(*bench::planned_distribution(plan, n, nb), rank);
      if (rank != 0) continue;
      const double speedup = cyclic_s / hetero_s;
      std::printf("%-5s %6lld %10.1f %10.1f %14.1f %8.3f %8.3f %8.3f %8.3f\n", grid.c_str(), (long long)n,
                  cyclic_s, hetero_s, cyclic_s / s, speedup, s, s_plan, speedup / s);
      if (csv != nullptr)
        std::fprintf(csv, "%s,%lld,%lld,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", grid.c_str(), (long long)n,
                     (long long)nb, cyclic_s, hetero_s, cyclic_s / s, speedup, s, s_plan, speedup / s);
      std::fflush(stdout);
    }
  }
  const int status = rank == 0 ? bench::finish_outputs(csv, prefix) : 0;
  MPI_Finalize();
  return status;
}
