#pragma once
/// @file nine_workstations_factorization.hpp
/// Shared by the simulated LU and QR benchmarks on the 9 workstations of Boudet, Petitet,
/// Rastello & Robert (1999), Table 3, on their 3×3 and 2×4 grids (Boudet1999's Figures 12-15):
/// the factorisation kernel on the heterogeneous grid its planner prices for that shape (the
/// grid planner's shares, tile columns in Boudet1999's LU/QR order) versus the same kernel on
/// 2D block-cyclic over a grid of the same shape (ScaLAPACK's distribution), each the
/// candidate (tile size, panel rank) the model predicts fastest. The heterogeneous grid runs
/// twice: panels factorised by the diagonal tile's owner, and by the fastest rank of the
/// panel's tile column (the paper's suggestion, PanelRank::Fastest); 2DBC factorises its
/// panels on the diagonal owner, as ScaLAPACK does.
/// S_W = W(hetero) / W(2DBC) is the speedup the steady-state work rate W of Boudet1999 predicts
/// (the paper's 3.34 on 3×3 and 3.63 on 2×4 for its rational shares); the theoretical time is
/// 2DBC's divided by S_W, and the fraction achieved/S_W ("of_S_W") is the issues' figure of
/// merit (target >= 0.8 at N = 8000; the paper measured about 0.6). Speeds and network: as the
/// Cholesky and GEMM benchmarks (nine_workstations_model). Data start in place, so the
/// simulated times are the factorisation's alone, and "model" is the planner's prediction of
/// it. Writes PREFIX.csv (tests/report draws the figure).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "../bench/real_bench_support.hpp"
#include "core/planners/lu_plan.hpp"
#include "layout/candidate_distribution.hpp"
#include "simulated_factorization.hpp"
#include "simulation_support.hpp"

namespace hetscal::bench {

/// What differs between the LU and the QR benchmark.
struct NineWorkstationsFactorization {
  const char* program;  ///< the executable, for the message on a wrong rank count
  const char* default_prefix;
  /// The planner: core::choose_lu_plan or core::choose_qr_plan.
  core::LuChoice (*plan)(const core::Platform&, std::int64_t, std::int64_t,
                         const core::CallerLayout&, const core::LuPlanOptions&);
  /// One flop-injected run: simulate_lu or simulate_qr.
  SimulatedRun (*simulate)(const layout::Distribution&, MPI_Comm, const std::vector<double>&,
                           core::PanelRank);
};

/// One grid shape at one N: the three priced candidates and their simulated runs.
struct NineWorkstationsRow {
  std::string grid;
  std::int64_t n = 0;
  core::LuCandidate cyclic, hetero, hetero_fastest;  ///< hetero_fastest: PanelRank::Fastest
  SimulatedRun cyclic_run, hetero_run, hetero_fastest_run;
  double w_speedup = 0.0;  ///< S_W

  static std::string describe(const core::LuCandidate& c) {
    return c.prediction.candidate.label + "/" + std::to_string(c.prediction.candidate.tile);
  }
  double best_hetero_s() const { return std::min(hetero_run.seconds, hetero_fastest_run.seconds); }
  double speedup() const { return cyclic_run.seconds / best_hetero_s(); }
  void print() const {
    std::printf("%-4s %5lld %-18s %-12s %8.1f %8.1f %8.1f %7.3f %5.3f %6.3f", grid.c_str(),
                (long long)n, describe(hetero).c_str(), describe(cyclic).c_str(),
                cyclic_run.seconds, hetero_run.seconds, hetero_fastest_run.seconds, speedup(),
                w_speedup, speedup() / w_speedup);
    for (const core::LuCandidate* c : {&cyclic, &hetero, &hetero_fastest})
      std::printf(" %8.1f", kernel_seconds(c->prediction));
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
      std::fprintf(csv, ",%.6f", kernel_seconds(priced->prediction));
    std::fprintf(csv, ",%.6f,%.6f,%.6f\n", cyclic_run.balance, hetero_run.balance,
                 hetero_fastest_run.balance);
  }
};

/// The table's header on stdout and the CSV's (when open).
inline void print_nine_workstations_header(std::FILE* csv) {
  std::printf("%-4s %5s %-18s %-12s %8s %8s %8s %7s %5s %6s %8s %8s %8s %5s %5s %5s\n", "grid", "N",
              "hetero/nb", "2DBC/nb", "2dbc_s", "het_s", "hetfst_s", "speedup", "S_W", "of_S_W",
              "mod_2dbc", "mod_het", "mod_hfst", "b2dbc", "bhet", "bhfst");
  if (csv != nullptr)
    std::fprintf(csv,
                 "grid,n,hetero,hetero_nb,hetero_fastest_nb,cyclic,cyclic_nb,cyclic_s,hetero_s,"
                 "hetero_fastest_s,speedup,w_speedup,fraction,model_cyclic_s,model_hetero_s,"
                 "model_hetero_fastest_s,cyclic_balance,hetero_balance,hetero_fastest_balance\n");
}

/// Prices the N×N factorisation on the 9 workstations (the caller's data block-cyclic on
/// 3×3, nb = 64: only the redistribution, which kernel_seconds leaves out, depends on it)
/// and simulates the fastest-modelled p×q grids: 2DBC with panels on the diagonal owner
/// (ScaLAPACK's way), the heterogeneous grid with either panel rank.
inline NineWorkstationsRow simulate_nine_workstations_grid(const NineWorkstationsFactorization& f,
                                                           std::size_t p, std::size_t q,
                                                           std::int64_t n,
                                                           const core::Platform& platform,
                                                           const std::vector<double>& speeds) {
  core::LuPlanOptions options;
  options.kinds = {core::LuLayoutKind::BlockCyclic, core::LuLayoutKind::HeterogeneousGrid};
  options.search.exhaustive = true;  // the rows compare candidates the pruned search may skip
  const core::LuChoice choice =  // deterministic: the same on every rank
      f.plan(platform, n, n, core::CallerLayout{3, 3, 64, {}}, options);
  const auto shaped = [&](core::PanelRank panel_rank) {
    return [=](const core::Candidate& c) {
      return c.rows == p && c.cols == q && c.panel_rank == panel_rank;
    };
  };
  NineWorkstationsRow row;
  row.grid = std::to_string(p) + "x" + std::to_string(q);
  row.n = n;
  row.cyclic = fastest_priced(choice, core::LuLayoutKind::BlockCyclic,
                              shaped(core::PanelRank::DiagonalOwner));
  row.hetero = fastest_priced(choice, core::LuLayoutKind::HeterogeneousGrid,
                              shaped(core::PanelRank::DiagonalOwner));
  row.hetero_fastest = fastest_priced(choice, core::LuLayoutKind::HeterogeneousGrid,
                                      shaped(core::PanelRank::Fastest));
  row.w_speedup = work_per_time(row.hetero.prediction.candidate, platform) /
                  work_per_time(row.cyclic.prediction.candidate, platform);
  const auto simulate = [&](const core::LuCandidate& priced) {
    const core::Candidate& c = priced.prediction.candidate;
    return f.simulate(*layout::distribution_of(c, n, static_cast<int>(speeds.size())),
                      MPI_COMM_WORLD, speeds, c.panel_rank);
  };
  row.cyclic_run = simulate(row.cyclic);
  row.hetero_run = simulate(row.hetero);
  row.hetero_fastest_run = simulate(row.hetero_fastest);
  return row;
}

/// The benchmark's run (for run_simulation): arguments [OUTPUT_PREFIX [N_LIST]], N_LIST
/// 1000..8000 by default; every N on 3×3 then on 2×4.
/// @return 0, 1 when an output could not be written, 2 on a wrong rank count.
inline int run_nine_workstations(const NineWorkstationsFactorization& f, int argc, char** argv,
                                 int rank) {
  const std::string prefix = argc > 1 ? argv[1] : f.default_prefix;
  const std::vector<std::int64_t> sizes =
      parse_list<std::int64_t>(argc > 2 ? argv[2] : "1000,2000,3000,4000,5000,6000,7000,8000");
  const core::Platform platform = nine_workstations_model();
  const std::vector<double> speeds = start_on_hosts_of(platform, f.program, rank);
  if (speeds.empty()) return 2;

  std::FILE* csv = rank == 0 ? std::fopen((prefix + ".csv").c_str(), "w") : nullptr;
  if (rank == 0) print_nine_workstations_header(csv);
  for (const auto& shape : std::vector<std::pair<std::size_t, std::size_t>>{{3, 3}, {2, 4}})
    for (std::int64_t n : sizes)
      report_row(simulate_nine_workstations_grid(f, shape.first, shape.second, n, platform, speeds),
                 rank, csv);
  if (rank != 0) return 0;
  return finish_outputs(csv, prefix);
}

}  // namespace hetscal::bench
