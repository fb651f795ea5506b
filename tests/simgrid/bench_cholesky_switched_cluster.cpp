// Simulated Cholesky on a homogeneous switched cluster, the experiment of Beaumont et al.
// (Beaumont2023, Table I(b), Figures 7b, 11, 12): for P = 23, 31, 35, 39 nodes, kernels::cholesky
// on the GCR&M pattern over all P nodes versus 2D block-cyclic on P nodes and on fewer nodes.
// The pattern and the 2DBC grids are those core::choose_cholesky_plan prices (GCR&M search:
// sizes r <= 6·√P, SEEDS runs each; 2DBC: every p×q = k, the one with the lowest modelled
// time kept for k = P and for k < P). Next to the simulated times: the planner's cost T of
// each pattern (2DBC p×q: p + q − 1) and the paper's GCR&M T, and the planner's modelled
// time of the factorisation (data in place: compute + panels + broadcasts).
// The paper compares GCR&M with SBC on fewer nodes; hetscal's planner has no SBC, so its
// 2DBC stands in (Table I(b) lists SBC's T: 6 on 21 nodes, 7 on 28, 8 on 32 and 36).
// Two platforms of tests/simgrid/platforms/ (their files say why): switched_cluster_64
// (10 Gflop/s, 10 Gb/s: a tile update costs 4 transfers of a tile of 125) and
// omnipath_cluster_44 (the paper's ratio, one update per transfer).
//
// Usage (tests/bench/cholesky/run_simgrid.sh): smpirun -np 39 -platform PLATFORM.xml
//   -hostfile PLATFORM.hosts --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global
//   bench_cholesky_switched_cluster [OUTPUT_PREFIX [PLATFORM [N [NB [SEEDS [P_LIST]]]]]]
// Defaults: switched_cluster_cholesky, switched_cluster_64, N = 10000, NB = 125, 25 seeds,
// P = 23,31,35,39 (each at most the number of ranks; ranks beyond P sit out that case).
// 80 tiles keep one run of the four cases within a few minutes of real time (the tile
// operations and copies, not the flops, cost simulation time); the paper's matrices had 100
// to 600 tiles, so its larger patterns (30×30 or 35×35 here) repeat fewer times over the
// matrix and balance less well than there.
#include <cstdio>
#include <string>
#include <vector>

#include "../bench/real_bench_support.hpp"
#include "cluster_experiment.hpp"
#include "core/planners/cholesky_plan.hpp"
#include "simulated_factorization.hpp"
#include "simulation_support.hpp"

namespace {
using namespace hetscal;

/// GCR&M (searched with `options`) versus 2DBC, Cholesky's simulated runs, and Table I(b) of
/// Beaumont2023: the cost T of the GCR&M pattern the paper used for P nodes.
bench::ClusterExperiment cholesky_experiment(const core::CholeskyPlanOptions& options) {
  bench::ClusterExperiment e;
  e.pattern = "GCR&M", e.csv_pattern = "gcrm";
  e.paper_table = "Table I(b)";
  e.paper_pattern_cost = {{23, 6.045}, {31, 7.065}, {35, 7.4}, {39, 7.926}};
  e.plan = [options](const core::Platform& platform, std::int64_t n) {
    const core::CallerLayout caller{
        1, 1, options.tile_sizes.front(), {0}};  // unused: data start in place
    core::CholeskyPlanOptions every = options;
    every.search.exhaustive = true;  // 2DBC on fewer nodes may be a candidate the pruned search skips
    const core::CholeskyChoice choice = core::choose_cholesky_plan(platform, n, caller, every);
    return bench::case_layouts(choice, core::CholeskyLayoutKind::Gcrm,
                               core::CholeskyLayoutKind::BlockCyclic, platform.size());
  };
  e.simulate = [](const core::Candidate&, const layout::Distribution& d, MPI_Comm comm,
                  const std::vector<double>& speeds) {
    return bench::simulate_cholesky(d, comm, speeds);
  };
  return e;
}

int run(int argc, char** argv, int rank) {
  const std::string prefix = argc > 1 ? argv[1] : "switched_cluster_cholesky";
  const bench::ClusterModel& cluster =
      bench::cluster_named(argc > 2 ? argv[2] : "switched_cluster_64");
  const std::int64_t n = argc > 3 ? bench::parse_list<std::int64_t>(argv[3]).at(0) : 10000;
  const std::int64_t nb = argc > 4 ? bench::parse_list<std::int64_t>(argv[4]).at(0) : 125;
  core::CholeskyPlanOptions options;
  options.kinds = {core::CholeskyLayoutKind::BlockCyclic, core::CholeskyLayoutKind::Gcrm};
  options.tile_sizes = {static_cast<std::size_t>(nb)};
  options.gcrm.seeds_per_size =
      argc > 5 ? static_cast<int>(bench::parse_list<std::int64_t>(argv[5]).at(0)) : 25;
  const std::vector<std::int64_t> node_counts =
      bench::parse_list<std::int64_t>(argc > 6 ? argv[6] : "23,31,35,39");
  return bench::run_cluster_experiment(cholesky_experiment(options), prefix, cluster, n,
                                       node_counts, rank);
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
