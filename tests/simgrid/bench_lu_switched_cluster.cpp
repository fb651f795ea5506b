// Simulated LU on a homogeneous switched cluster, the experiment of Beaumont et al.
// (Beaumont2023, Table I(a), Figures 5, 6, 7a): for P = 23, 31, 35, 39 nodes, kernels::lu on the
// G-2DBC pattern over all P nodes versus 2D block-cyclic on all P nodes (23×1, 31×1, 7×5,
// 13×3 …) and on fewer nodes (4×5, 7×3, 6×5, 6×6 …). The pattern and the grids are those
// core::choose_lu_plan prices (G-2DBC on P; 2DBC on every p×q = k, the one with the lowest
// modelled time kept for k = P and for k < P). Next to the simulated times: the planner's
// cost T = x̄ + ȳ of each pattern (2DBC p×q: p + q) and the paper's G-2DBC T, and the
// planner's modelled time of the factorisation (data in place: compute + panels +
// broadcasts). Panels are factorised by the diagonal tile's owner (the nodes are equal).
// Two platforms of tests/simgrid/platforms/ (their files say why): switched_cluster_64
// (10 Gflop/s, 10 Gb/s: a tile update costs 4 transfers of a tile of 125) and
// omnipath_cluster_44 (the paper's ratio, one update per transfer).
//
// Usage (tests/bench/lu/run_simgrid.sh): smpirun -np 39 -platform PLATFORM.xml
//   -hostfile PLATFORM.hosts --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global
//   bench_lu_switched_cluster [OUTPUT_PREFIX [PLATFORM [N [NB [P_LIST]]]]]
// Defaults: switched_cluster_lu, switched_cluster_64, N = 10000, NB = 125, P = 23,31,35,39
// (each at most the number of ranks; ranks beyond P sit out that case). 80 tiles keep a run
// of the four cases within minutes of real time (tile operations and messages, not flops,
// cost simulation time); the paper's matrices had 100 to 600 tiles of 500, so its G-2DBC
// patterns (20×23 to 30×39) repeated more often over the matrix than they do here.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../bench/real_bench_support.hpp"
#include "cluster_experiment.hpp"
#include "core/planners/lu_plan.hpp"
#include "simulated_factorization.hpp"
#include "simulation_support.hpp"

namespace {
using namespace hetscal;

/// G-2DBC versus 2DBC in tiles of nb, LU's simulated runs, and Table I(a) of Beaumont2023: the
/// cost T of the G-2DBC pattern for P nodes.
bench::ClusterExperiment lu_experiment(std::size_t nb) {
  bench::ClusterExperiment e;
  e.pattern = "G-2DBC", e.csv_pattern = "g2dbc";
  e.paper_table = "Table I(a)";
  e.paper_pattern_cost = {{23, 9.261}, {31, 11.194}, {35, 11.857}, {39, 12.615}};
  e.plan = [nb](const core::Platform& platform, std::int64_t n) {
    core::LuPlanOptions options;
    options.kinds = {core::LuLayoutKind::BlockCyclic, core::LuLayoutKind::G2dbc};
    options.tile_sizes = {nb};
    options.search.exhaustive = true;  // 2DBC on fewer nodes may be a candidate the pruned search skips
    const core::CallerLayout caller{1, 1, nb, {0}};  // unused: data start in place
    const core::LuChoice choice = core::choose_lu_plan(platform, n, n, caller, options);
    return bench::case_layouts(choice, core::LuLayoutKind::G2dbc, core::LuLayoutKind::BlockCyclic,
                               platform.size());
  };
  e.simulate = [](const core::Candidate& c, const layout::Distribution& d, MPI_Comm comm,
                  const std::vector<double>& speeds) {
    return bench::simulate_lu(d, comm, speeds, c.panel_rank);
  };
  return e;
}

int run(int argc, char** argv, int rank) {
  const std::string prefix = argc > 1 ? argv[1] : "switched_cluster_lu";
  const bench::ClusterModel& cluster =
      bench::cluster_named(argc > 2 ? argv[2] : "switched_cluster_64");
  const std::int64_t n = argc > 3 ? bench::parse_list<std::int64_t>(argv[3]).at(0) : 10000;
  const std::int64_t nb = argc > 4 ? bench::parse_list<std::int64_t>(argv[4]).at(0) : 125;
  const std::vector<std::int64_t> node_counts =
      bench::parse_list<std::int64_t>(argc > 5 ? argv[5] : "23,31,35,39");
  return bench::run_cluster_experiment(lu_experiment(static_cast<std::size_t>(nb)), prefix, cluster,
                                       n, node_counts, rank);
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
