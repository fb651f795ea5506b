// Simulated LU benchmark (DESIGN.md, instrument 2) on the 9 workstations of Boudet, Petitet,
// Rastello & Robert (1999), Table 3, on their 3×3 and 2×4 grids (Figures 12 and 13):
// kernels::lu on the heterogeneous grid the LU planner prices for that shape
// (core::choose_lu_plan: the grid planner's shares, tile columns in seed 000's LU order)
// versus the same kernel on 2D block-cyclic over a grid of the same shape (ScaLAPACK's
// distribution), each the candidate (tile size, panel rank) the model predicts fastest. The
// heterogeneous grid runs twice: panels factorised by the diagonal tile's owner, and by the
// fastest rank of the panel's tile column (the paper's suggestion, PanelRank::Fastest); 2DBC
// pivots on the diagonal owner, as ScaLAPACK does.
// S_W = W(hetero) / W(2DBC) is the speedup the steady-state work rate W of seed 000 predicts
// (the paper's 3.34 on 3×3 and 3.63 on 2×4 for its rational shares); the theoretical time is
// 2DBC's divided by S_W, and the fraction achieved/S_W is the figure of merit (target
// >= 0.8 at N = 8000; the paper measured about 0.6). Speeds and network: as the Cholesky and
// GEMM benchmarks (bench::nine_workstations_model). Data start in place, so the simulated
// times are the factorisation's alone, and "model" is the planner's prediction of it.
//
// Usage (tests/bench/lu/run_simgrid.sh): smpirun -np 9 -platform nine_workstations.xml
//   -hostfile nine_workstations.hosts --cfg=smpi/simulate-computation:no
//   --cfg=smpi/shared-malloc:global bench_lu_nine_workstations [OUTPUT_PREFIX [N_LIST]]
// Writes OUTPUT_PREFIX.csv (default prefix: nine_workstations_lu); tests/report plots it.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "../bench/real_bench_support.hpp"
#include "core/lu_plan.hpp"
#include "kernels/flop_counter.hpp"
#include "layout/candidate_distribution.hpp"
#include "simulated_factorization.hpp"
#include "simulation_support.hpp"

namespace {
using namespace hetscal;

/// One grid shape at one N: the three priced candidates and their simulated runs.
struct Row {
  std::string grid;
  std::int64_t n = 0;
  core::LuCandidate cyclic, hetero, hetero_fastest;  ///< hetero_fastest: PanelRank::Fastest
  bench::SimulatedRun cyclic_run, hetero_run, hetero_fastest_run;
  double w_speedup = 0.0;  ///< S_W

  static std::string describe(const core::LuCandidate& c) {
    return c.prediction.candidate.label + "/" + std::to_string(c.prediction.candidate.tile);
  }
  double best_hetero_s() const { return std::min(hetero_run.seconds, hetero_fastest_run.seconds); }
  double speedup() const { return cyclic_run.seconds / best_hetero_s(); }
  void print() const {
    std::printf("%-4s %5lld %-18s %-12s %8.1f %8.1f %8.1f %7.3f %5.3f %8.3f", grid.c_str(),
                (long long)n, describe(hetero).c_str(), describe(cyclic).c_str(),
                cyclic_run.seconds, hetero_run.seconds, hetero_fastest_run.seconds, speedup(),
                w_speedup, speedup() / w_speedup);
    for (const core::LuCandidate* c : {&cyclic, &hetero, &hetero_fastest})
      std::printf(" %8.1f", bench::kernel_seconds(c->prediction));
    std::printf(" %5.3f %5.3f %5.3f\n", cyclic_run.balance, hetero_run.balance,
                hetero_fastest_run.balance);
  }
  void write(std::FILE* csv) const {
    const core::Candidate &h = hetero.prediction.candidate, &c = cyclic.prediction.candidate;
    std::fprintf(csv, "%s,%lld,%s,%zu,%zu,%s,%zu,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", grid.c_str(),
                 (long long)n, h.label.c_str(), h.tile, hetero_fastest.prediction.candidate.tile,
                 c.label.c_str(), c.tile, cyclic_run.seconds, hetero_run.seconds,
                 hetero_fastest_run.seconds, speedup(), w_speedup, speedup() / w_speedup);
    for (const core::LuCandidate* priced : {&cyclic, &hetero, &hetero_fastest})
      std::fprintf(csv, ",%.6f", bench::kernel_seconds(priced->prediction));
    std::fprintf(csv, ",%.6f,%.6f,%.6f\n", cyclic_run.balance, hetero_run.balance,
                 hetero_fastest_run.balance);
  }
};

void print_header(std::FILE* csv) {
  std::printf("%-4s %5s %-18s %-12s %8s %8s %8s %7s %5s %8s %8s %8s %8s %5s %5s %5s\n", "grid", "N",
              "hetero/nb", "2DBC/nb", "2dbc_s", "het_s", "hetfst_s", "speedup", "S_W", "fraction",
              "mod_2dbc", "mod_het", "mod_hfst", "b2dbc", "bhet", "bhfst");
  if (csv != nullptr)
    std::fprintf(csv,
                 "grid,n,hetero,hetero_nb,hetero_fastest_nb,cyclic,cyclic_nb,cyclic_s,hetero_s,"
                 "hetero_fastest_s,speedup,w_speedup,fraction,model_cyclic_s,model_hetero_s,"
                 "model_hetero_fastest_s,cyclic_balance,hetero_balance,hetero_fastest_balance\n");
}

/// A priced LU candidate's flop-injected run on all the world's ranks.
bench::SimulatedRun simulate(const core::LuCandidate& priced, std::int64_t n,
                             const std::vector<double>& speeds) {
  const core::Candidate& c = priced.prediction.candidate;
  return bench::simulate_lu(*layout::distribution_of(c, n, static_cast<int>(speeds.size())),
                            MPI_COMM_WORLD, speeds, c.panel_rank);
}

/// Prices the N×N LU on the 9 workstations (the caller's data block-cyclic on 3×3, nb = 64:
/// only the redistribution, which kernel_seconds leaves out, depends on it) and simulates
/// the fastest-modelled p×q grids: 2DBC with the diagonal owner pivoting (ScaLAPACK's way),
/// the heterogeneous grid with either panel rank.
Row simulate_grid(std::size_t p, std::size_t q, std::int64_t n, const core::Platform& platform,
                  const std::vector<double>& speeds) {
  core::LuPlanOptions options;
  options.kinds = {core::LuLayoutKind::BlockCyclic, core::LuLayoutKind::HeterogeneousGrid};
  const core::LuChoice choice =  // deterministic: the same on every rank
      core::choose_lu_plan(platform, n, n, core::CallerLayout{3, 3, 64, {}}, options);
  const auto shaped = [&](core::PanelRank panel_rank) {
    return [=](const core::Candidate& c) {
      return c.rows == p && c.cols == q && c.panel_rank == panel_rank;
    };
  };
  Row row;
  row.grid = std::to_string(p) + "x" + std::to_string(q);
  row.n = n;
  row.cyclic = bench::fastest_priced(choice, core::LuLayoutKind::BlockCyclic,
                                     shaped(core::PanelRank::DiagonalOwner));
  row.hetero = bench::fastest_priced(choice, core::LuLayoutKind::HeterogeneousGrid,
                                     shaped(core::PanelRank::DiagonalOwner));
  row.hetero_fastest = bench::fastest_priced(choice, core::LuLayoutKind::HeterogeneousGrid,
                                             shaped(core::PanelRank::Fastest));
  row.w_speedup = bench::work_per_time(row.hetero.prediction.candidate, platform) /
                  bench::work_per_time(row.cyclic.prediction.candidate, platform);
  row.cyclic_run = simulate(row.cyclic, n, speeds);
  row.hetero_run = simulate(row.hetero, n, speeds);
  row.hetero_fastest_run = simulate(row.hetero_fastest, n, speeds);
  return row;
}

int run(int argc, char** argv, int rank) {
  const std::string prefix = argc > 1 ? argv[1] : "nine_workstations_lu";
  const std::vector<std::int64_t> sizes = bench::parse_list<std::int64_t>(
      argc > 2 ? argv[2] : "1000,2000,3000,4000,5000,6000,7000,8000");
  const core::Platform platform = bench::nine_workstations_model();
  const std::vector<double> speeds =
      bench::start_on_hosts_of(platform, "bench_lu_nine_workstations", rank);
  if (speeds.empty()) return 2;

  std::FILE* csv = rank == 0 ? std::fopen((prefix + ".csv").c_str(), "w") : nullptr;
  if (rank == 0) print_header(csv);
  for (const auto& shape : std::vector<std::pair<std::size_t, std::size_t>>{{3, 3}, {2, 4}})
    for (std::int64_t n : sizes)
      bench::report_row(simulate_grid(shape.first, shape.second, n, platform, speeds), rank, csv);
  if (rank != 0) return 0;
  return bench::finish_outputs(csv, prefix);
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
