// The per-call overhead of a cached-plan call against P (issue 32): what an intercepted PDGEMM
// does around its kernel once its plan is cached, on P simulated ranks of the heterogeneous
// cluster of tests/bench/scale/ (write_platform.py), for an N×N×N GEMM whose every rank holds
// the same share (N = 1024·√(P/16)·4: 16 MiB of each matrix per rank on average):
//   agreement      the speed agreement of an observed call (runtime::agree_on_observations:
//                  one MPI_Allgather of two doubles per rank, then O(P) local work);
//   lookup         the plan cache's hit (runtime::PlanCache::find_or_make);
//   redistribution the two redistribution plans the take-over builds every call
//                  (mpi::RedistributionPlan, A, B and C moved in from ScaLAPACK's 2DBC, C out);
//   stages         the three agreed stages of the take-over (allocate, move in, compute:
//                  mpi::agree_on_stage, one reduction each);
//   communicators  the grid's row and column communicators (mpi::GridCommunicators): built
//                  once per plan and kept with it (runtime::GemmLayout::grid_communicators),
//                  not per call; shown for scale.
// Local work is timed in CPU seconds of this process's thread while the rank runs (SimGrid
// runs one rank at a time, so it is that rank's), the largest over the ranks; collectives in
// simulated seconds. The plan is the run time's (runtime::plan_gemm_layout), made once on
// rank 0 and sent to the others (runtime_gemm_plan.hpp), then cached as the run time caches it.
//
// Usage (tests/bench/scale/run_overhead.sh): smpirun -np P -platform … bench_call_overhead
//   RANKS_PER_NODE
// Prints one row: P N agreement_s lookup_cpu_s redistribution_cpu_s stages_s communicators_s
// (once per plan). The agreement's local part (O(P): the tracker's rule per rank) runs inside
// its collective, whose simulation would count in a CPU time: it is not timed apart.
#include <mpi.h>
#include <simgrid/host.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/adaptation/speed_tracking.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/agreement.hpp"
#include "mpi/grid_communicators.hpp"
#include "mpi/redistribution_plan.hpp"
#include "runtime/gemm_plan.hpp"
#include "runtime/plan_cache.hpp"
#include "runtime/speed_observation.hpp"
#include "runtime_gemm_plan.hpp"
#include "simulation_support.hpp"

namespace {
using namespace hetscal;

/// CPU seconds of this thread (SimGrid runs every rank in it, one at a time). The system
/// call itself: SMPI replaces clock_gettime with the simulated clock, which local work does
/// not advance under smpi/simulate-computation:no.
double cpu_seconds() {
  timespec t{};
  syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// The largest over the ranks of this rank's CPU seconds of `local` (no MPI inside).
double slowest_cpu(const std::function<void()>& local) {
  const double start = cpu_seconds();
  local();
  double mine = cpu_seconds() - start, most = 0.0;
  MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

/// The ScaLAPACK caller's 2DBC in tiles of `tile` on the squarest grid, ranks row-major.
std::unique_ptr<layout::CartesianDistribution> caller_layout(int ranks, std::int64_t n, std::int64_t tile) {
  int p = static_cast<int>(std::sqrt(static_cast<double>(ranks)));
  while (ranks % p != 0) --p;
  const int q = ranks / p;
  std::vector<int> rows(static_cast<std::size_t>(p)), cols(static_cast<std::size_t>(q));
  for (int i = 0; i < p; ++i) rows[static_cast<std::size_t>(i)] = i;
  for (int j = 0; j < q; ++j) cols[static_cast<std::size_t>(j)] = j;
  return std::make_unique<layout::CartesianDistribution>(layout::TileSplit(n, tile), layout::TileSplit(n, tile),
                                                         rows, cols, layout::ProcessGrid::row_major(p, q));
}

int run(int argc, char** argv, int rank) {
  if (argc < 2) {
    if (rank == 0) std::printf("usage: bench_call_overhead RANKS_PER_NODE\n");
    return 2;
  }
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const auto n = static_cast<std::int64_t>(4096.0 * std::sqrt(ranks / 16.0));
  // The context's agreed speeds (its first call's agreement; the host speeds here).
  double mine = sg_host_get_speed(sg_host_self());
  std::vector<double> speeds(static_cast<std::size_t>(ranks));
  MPI_Allgather(&mine, 1, MPI_DOUBLE, speeds.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
  const double slowest = *std::min_element(speeds.begin(), speeds.end());
  for (double& s : speeds) s /= slowest;

  // The cached plan, made once (planning is not per call).
  runtime::PlanCache cache;
  const runtime::PlanKey key{{core::Routine::Gemm, runtime::ScalarType::Double}, {n, n, n}, 0, 1, {}};
  double planning_s = 0.0;
  const std::function<bench::PlannedGemm()> make = [&] { return bench::planned_gemm(speeds, n, planning_s); };
  std::shared_ptr<const bench::PlannedGemm> plan = cache.find_or_make<bench::PlannedGemm>(key, make);
  const auto caller = caller_layout(ranks, n, 64);
  const auto caller_storage = layout::make_local_layout(*caller, rank);
  std::optional<mpi::GridCommunicators> communicators;
  const double communicators_s =
      bench::simulated_seconds(MPI_COMM_WORLD, [&] { communicators.emplace(MPI_COMM_WORLD, plan->c->grid()); });

  // One cached-plan call's work around the kernel.
  core::SpeedTracker tracker(speeds);
  runtime::AdaptationStep step = runtime::AdaptationStep::for_ranks(speeds.size());
  const double agreement_s = bench::simulated_seconds(MPI_COMM_WORLD, [&] {
    runtime::agree_on_observations(MPI_COMM_WORLD, tracker, speeds[static_cast<std::size_t>(rank)], 1.0,
                                   speeds, step);
  });
  const double lookup_cpu = slowest_cpu([&] { plan = cache.find_or_make<bench::PlannedGemm>(key, make); });
  const auto a_storage = layout::make_local_layout(*plan->a, rank);
  const auto b_storage = layout::make_local_layout(*plan->b, rank);
  const auto c_storage = layout::make_local_layout(*plan->c, rank);
  const double redistribution_cpu = slowest_cpu([&] {
    const mpi::RedistributionPlan in(
        MPI_COMM_WORLD, {{caller.get(), caller_storage.get(), plan->a.get(), a_storage.get()},
                         {caller.get(), caller_storage.get(), plan->b.get(), b_storage.get()},
                         {caller.get(), caller_storage.get(), plan->c.get(), c_storage.get()}});
    const mpi::RedistributionPlan out(MPI_COMM_WORLD,
                                      {{plan->c.get(), c_storage.get(), caller.get(), caller_storage.get()}});
  });
  const double stages_s = bench::simulated_seconds(MPI_COMM_WORLD, [&] {
    for (const char* stage : {"allocate", "move-in", "compute"}) mpi::agree_on_stage(MPI_COMM_WORLD, stage, "");
  });
  if (rank == 0) {
    std::printf("%6d %7lld %12.3g %13.3g %20.3g %10.3g %16.3g\n", ranks, (long long)n, agreement_s, lookup_cpu,
                redistribution_cpu, stages_s, communicators_s);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
