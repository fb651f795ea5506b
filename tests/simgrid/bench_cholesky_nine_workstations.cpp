// Simulated Cholesky benchmark (DESIGN.md, instrument 2) on the 9 workstations of Boudet,
// Petitet, Rastello & Robert (1999), Table 3: kernels::cholesky on the distribution hetscal's
// planner chooses (core::choose_cholesky_plan; the caller holds A block-cyclic on a 3×3 grid,
// nb = 64) versus the same kernel on 2D block-cyclic over the same ranks (the 2DBC grid and
// tile the model predicts fastest there). S_W = W(plan) / W(2DBC) is the speedup the
// steady-state work rate W of Boudet1999 predicts; the fraction achieved/S_W is the issue's
// figure of merit (target >= 0.85 at N = 8000).
// The platform model matches tests/simgrid/platforms/nine_workstations.xml, with the kernel
// at peak for every tile size (injected flops have no cache effects). Data start in place:
// the simulated times are the factorisation's alone, and "model" is the planner's prediction
// of it (compute + panels + broadcasts, without the redistribution it also prices).
//
// Usage (tests/bench/cholesky/run_simgrid.sh): smpirun -np 9 -platform nine_workstations.xml
//   -hostfile nine_workstations.hosts --cfg=smpi/simulate-computation:no
//   --cfg=smpi/shared-malloc:global bench_cholesky_nine_workstations [OUTPUT_PREFIX [N_LIST]]
// Writes OUTPUT_PREFIX.csv (default prefix: nine_workstations_cholesky); tests/report plots it.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../bench/real_bench_support.hpp"
#include "core/planners/cholesky_plan.hpp"
#include "kernels/flop_counter.hpp"
#include "layout/candidate_distribution.hpp"
#include "simulated_factorization.hpp"
#include "simulation_support.hpp"

namespace {
using namespace hetscal;

struct Row {
  std::int64_t n = 0;
  const core::CholeskyCandidate* plan = nullptr;
  const core::CholeskyCandidate* cyclic = nullptr;
  bench::SimulatedRun plan_run, cyclic_run;
  double w_speedup = 0.0;  ///< S_W

  std::string describe(const core::CholeskyCandidate& c) const {
    return c.prediction.candidate.label + "/" + std::to_string(c.prediction.candidate.tile);
  }
  double speedup() const { return cyclic_run.seconds / plan_run.seconds; }
  void print() const {
    std::printf("%6lld %-26s %-14s %9.1f %9.1f %8.3f %6.3f %8.3f %9.1f %9.1f %6.3f %6.3f\n",
                (long long)n, describe(*plan).c_str(), describe(*cyclic).c_str(),
                cyclic_run.seconds, plan_run.seconds, speedup(), w_speedup, speedup() / w_speedup,
                bench::kernel_seconds(cyclic->prediction), bench::kernel_seconds(plan->prediction),
                cyclic_run.balance, plan_run.balance);
  }
  void write(std::FILE* csv) const {
    std::fprintf(csv, "%lld,%s,%zu,%zu,%s,%zu,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n",
                 (long long)n, plan->prediction.candidate.label.c_str(),
                 plan->prediction.candidate.tile, plan->prediction.candidate.processors().size(),
                 cyclic->prediction.candidate.label.c_str(), cyclic->prediction.candidate.tile,
                 cyclic_run.seconds, plan_run.seconds, speedup(), w_speedup, speedup() / w_speedup,
                 bench::kernel_seconds(cyclic->prediction), bench::kernel_seconds(plan->prediction),
                 cyclic_run.balance, plan_run.balance);
  }
};

void print_header(std::FILE* csv) {
  std::printf("%6s %-26s %-14s %9s %9s %8s %6s %8s %9s %9s %6s %6s\n", "N", "plan/nb", "2DBC/nb",
              "2dbc_s", "plan_s", "speedup", "S_W", "fraction", "model_2dbc", "model_plan",
              "bal_2dbc", "bal_plan");
  if (csv != nullptr)
    std::fprintf(
        csv,
        "n,plan,plan_nb,plan_ranks,cyclic,cyclic_nb,cyclic_s,plan_s,speedup,w_speedup,fraction,"
        "model_cyclic_s,model_plan_s,cyclic_balance,plan_balance\n");
}

int run(int argc, char** argv, int rank) {
  const std::string prefix = argc > 1 ? argv[1] : "nine_workstations_cholesky";
  const std::vector<std::int64_t> sizes = bench::parse_list<std::int64_t>(
      argc > 2 ? argv[2] : "1000,2000,3000,4000,5000,6000,7000,8000");
  const core::Platform platform = bench::nine_workstations_model();
  const std::vector<double> speeds =
      bench::start_on_hosts_of(platform, "bench_cholesky_nine_workstations", rank);
  if (speeds.empty()) return 2;
  const int ranks = static_cast<int>(speeds.size());

  std::FILE* csv = rank == 0 ? std::fopen((prefix + ".csv").c_str(), "w") : nullptr;
  if (rank == 0) print_header(csv);
  const core::CallerLayout caller{3, 3, 64, {}};
  core::CholeskyPlanOptions options;
  options.search.exhaustive = true;  // the rows compare candidates the pruned search may skip
  for (std::int64_t n : sizes) {
    const core::CholeskyChoice choice =  // deterministic: the same on every rank
        core::choose_cholesky_plan(platform, n, caller, options);
    Row row;
    row.n = n;
    row.plan = &choice.priced[choice.chosen];
    row.cyclic = &bench::fastest_priced(
        choice, core::CholeskyLayoutKind::BlockCyclic,
        [&](const core::Candidate& c) { return c.processors() == choice.processors; });
    row.w_speedup = bench::work_per_time(row.plan->prediction.candidate, platform) /
                    bench::work_per_time(row.cyclic->prediction.candidate, platform);
    row.cyclic_run = bench::simulate_cholesky(
        *layout::distribution_of(row.cyclic->prediction.candidate, n, ranks), MPI_COMM_WORLD,
        speeds);
    row.plan_run = bench::simulate_cholesky(
        *layout::distribution_of(row.plan->prediction.candidate, n, ranks), MPI_COMM_WORLD, speeds);
    bench::report_row(row, rank, csv);
  }
  if (rank != 0) return 0;
  return bench::finish_outputs(csv, prefix);
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
