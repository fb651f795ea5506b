// Simulated Cholesky on a homogeneous switched cluster, the experiment of seed 002 (Beaumont
// et al. 2023, Table I(b), Figures 7b, 11, 12): for P = 23, 31, 35, 39 nodes, kernels::cholesky
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
#include <mpi.h>
#include <simgrid/host.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "../bench/real_bench_support.hpp"
#include "core/cholesky_plan.hpp"
#include "kernels/flop_counter.hpp"
#include "layout/candidate_distribution.hpp"
#include "simulated_cholesky.hpp"
#include "simulation_support.hpp"
#include "svg_time_plot.hpp"

namespace {
using namespace hetscal;

/// Table I(b) of seed 002: the cost T of the GCR&M pattern the paper used for P nodes.
const std::map<std::int64_t, double> kPaperGcrmCost{
    {23, 6.045}, {31, 7.065}, {35, 7.4}, {39, 7.926}};

/// A homogeneous cluster of tests/simgrid/platforms/ as the planner models it: node speed,
/// link bandwidth, node-to-node latency (link, backbone, link) of the XML file; no tile-size
/// penalty (injected flops run at peak).
struct ClusterModel {
  std::string name;
  double speed_flops, bandwidth_bytes_per_s, latency_s;

  core::Platform platform(std::int64_t nodes) const {
    core::Platform p;
    p.processors.assign(static_cast<std::size_t>(nodes), core::Processor{speed_flops, 64.0e9});
    p.network = {latency_s, bandwidth_bytes_per_s, core::NetworkKind::Switched};
    return p;
  }
};

const std::vector<ClusterModel> kClusters{{"switched_cluster_64", 10.0e9, 10.0e9 / 8.0, 5.0e-6},
                                          {"omnipath_cluster_44", 400.0e9, 100.0e9 / 8.0, 3.0e-6}};

/// @throws std::invalid_argument for a cluster not in kClusters.
const ClusterModel& cluster_named(const std::string& name) {
  for (const ClusterModel& c : kClusters)
    if (c.name == name) return c;
  throw std::invalid_argument("unknown platform '" + name +
                              "' (switched_cluster_64 or omnipath_cluster_44)");
}

/// Sends `values` from rank 0 of `comm` to the others (resized there). T: plain data.
template <typename T>
void broadcast_vector(std::vector<T>& values, MPI_Comm comm) {
  unsigned long long count = values.size();
  MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  values.resize(count);
  MPI_Bcast(values.data(), static_cast<int>(count * sizeof(T)), MPI_BYTE, 0, comm);
}

/// Sends rank 0's priced candidate to the others: the GCR&M search costs about a second per
/// case, and every simulated rank running it would cost P seconds of real time.
void broadcast_priced(core::CholeskyCandidate& priced, MPI_Comm comm) {
  core::Candidate& c = priced.prediction.candidate;
  std::vector<std::size_t> sizes{static_cast<std::size_t>(priced.kind),
                                 static_cast<std::size_t>(c.kind), c.tile, c.rows, c.cols};
  std::vector<double> numbers{priced.pattern_cost, priced.prediction.time.compute,
                              priced.prediction.time.panel, priced.prediction.time.communication,
                              priced.prediction.time.redistribution};
  std::vector<char> label(c.label.begin(), c.label.end());
  broadcast_vector(sizes, comm), broadcast_vector(numbers, comm), broadcast_vector(label, comm);
  broadcast_vector(c.owner, comm), broadcast_vector(c.row_share, comm),
      broadcast_vector(c.col_share, comm);
  broadcast_vector(c.row_order, comm), broadcast_vector(c.col_order, comm);
  priced.kind = static_cast<core::CholeskyLayoutKind>(sizes[0]);
  c.kind = static_cast<core::CandidateKind>(sizes[1]);
  c.tile = sizes[2], c.rows = sizes[3], c.cols = sizes[4];
  priced.pattern_cost = numbers[0];
  priced.prediction.time = {numbers[1], numbers[2], numbers[3], numbers[4]};
  c.label.assign(label.begin(), label.end());
}

/// One layout of one case: what the planner says of it and what the simulation measured.
struct Measured {
  core::CholeskyCandidate priced;
  bench::SimulatedCholesky run;
  std::string shape() const {
    const core::Candidate& c = priced.prediction.candidate;
    return std::to_string(c.processors().size()) + ":" + std::to_string(c.rows) + "x" +
           std::to_string(c.cols);
  }
};

struct Case {
  std::int64_t nodes = 0;
  Measured gcrm, cyclic_all, cyclic_fewer;

  void print() const {
    std::printf(
        "%3lld %-9s %6.3f %6.3f %9.4g %9.4g | %-8s %3.0f %9.4g %9.4g | %-8s %3.0f %9.4g %9.4g | "
        "%6.3f %6.3f\n",
        (long long)nodes, gcrm.shape().c_str(), gcrm.priced.pattern_cost, kPaperGcrmCost.at(nodes),
        gcrm.run.seconds, bench::kernel_seconds(gcrm.priced.prediction), cyclic_all.shape().c_str(),
        cyclic_all.priced.pattern_cost, cyclic_all.run.seconds,
        bench::kernel_seconds(cyclic_all.priced.prediction), cyclic_fewer.shape().c_str(),
        cyclic_fewer.priced.pattern_cost, cyclic_fewer.run.seconds,
        bench::kernel_seconds(cyclic_fewer.priced.prediction),
        cyclic_all.run.seconds / gcrm.run.seconds, cyclic_fewer.run.seconds / gcrm.run.seconds);
  }
  void write(std::FILE* csv) const {
    std::fprintf(csv, "%lld", (long long)nodes);
    for (const Measured* m : {&gcrm, &cyclic_all, &cyclic_fewer})
      std::fprintf(csv, ",%s,%.4f,%.6f,%.6f,%.4f", m->shape().c_str(), m->priced.pattern_cost,
                   m->run.seconds, bench::kernel_seconds(m->priced.prediction), m->run.balance);
    std::fprintf(csv, ",%.3f\n", kPaperGcrmCost.at(nodes));
  }
};

void print_header(std::FILE* csv) {
  std::printf("%3s %-9s %6s %6s %9s %9s | %-8s %3s %9s %9s | %-8s %3s %9s %9s | %6s %6s\n", "P",
              "GCR&M", "T", "T_pap", "sim_s", "model_s", "2DBC_P", "T", "sim_s", "model_s",
              "2DBC_k<P", "T", "sim_s", "model_s", "vs_P", "vs_k<P");
  if (csv == nullptr) return;
  std::fprintf(csv, "p");
  for (const char* layout : {"gcrm", "cyclic_p", "cyclic_fewer"})
    std::fprintf(csv, ",%s_shape,%s_T,%s_s,%s_model_s,%s_balance", layout, layout, layout, layout,
                 layout);
  std::fprintf(csv, ",paper_gcrm_T\n");
}

Measured simulate(const core::CholeskyCandidate& c, std::int64_t n, MPI_Comm comm,
                  std::int64_t nodes) {
  const std::vector<double> speeds(static_cast<std::size_t>(nodes),
                                   1.0);  // equal: only ratios count
  return {c, bench::simulate_cholesky(
                 *layout::distribution_of(c.prediction.candidate, n, int(nodes)), comm, speeds)};
}

/// Plans and simulates one P on the first P ranks of the world (the others only split).
bool run_case(const ClusterModel& cluster, std::int64_t nodes, std::int64_t n,
              const core::CholeskyPlanOptions& options, Case& result) {
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank < nodes ? 0 : MPI_UNDEFINED, world_rank, &comm);
  if (comm == MPI_COMM_NULL) return false;
  // Rank 0 plans; the three layouts of the case go to the others.
  std::vector<core::CholeskyCandidate> layouts(3);
  if (world_rank == 0) {
    const core::CallerLayout caller{
        1, 1, options.tile_sizes.front(), {0}};  // unused: data start in place
    const core::CholeskyChoice choice =
        core::choose_cholesky_plan(cluster.platform(nodes), n, caller, options);
    const auto all = [&](const std::vector<std::size_t>& used) {
      return used.size() == std::size_t(nodes);
    };
    const auto fewer = [&](const std::vector<std::size_t>& used) {
      return used.size() < std::size_t(nodes);
    };
    layouts = {bench::fastest_priced(choice, core::CholeskyLayoutKind::Gcrm, all),
               bench::fastest_priced(choice, core::CholeskyLayoutKind::BlockCyclic, all),
               bench::fastest_priced(choice, core::CholeskyLayoutKind::BlockCyclic, fewer)};
  }
  for (auto& layout : layouts) broadcast_priced(layout, comm);
  result.nodes = nodes;
  result.gcrm = simulate(layouts[0], n, comm, nodes);
  result.cyclic_all = simulate(layouts[1], n, comm, nodes);
  result.cyclic_fewer = simulate(layouts[2], n, comm, nodes);
  MPI_Comm_free(&comm);
  return world_rank == 0;
}

bool write_plot(const std::string& path, const std::vector<Case>& cases,
                const std::string& platform, std::int64_t n) {
  bench::Panel times{
      "Cholesky N = " + std::to_string(n) + ", " + platform + " (simulated)", {}, {}, "nodes P"};
  bench::Panel costs{"communication cost T (seed 002, Table I(b))", {}, {}, "nodes P", "T"};
  bench::Series gcrm_s{"GCR&M on P", "#1f77b4", {}}, all_s{"best 2DBC on P", "#d62728", {}},
      fewer_s{"best 2DBC on fewer", "#ff7f0e", {}};
  bench::Series gcrm_t{"GCR&M (planner)", "#1f77b4", {}}, paper_t{"GCR&M (paper)", "#2ca02c", {}},
      all_t{"best 2DBC on P", "#d62728", {}}, fewer_t{"best 2DBC on fewer", "#ff7f0e", {}};
  for (const Case& c : cases) {
    times.x.push_back(double(c.nodes)), costs.x.push_back(double(c.nodes));
    gcrm_s.y.push_back(c.gcrm.run.seconds), all_s.y.push_back(c.cyclic_all.run.seconds);
    fewer_s.y.push_back(c.cyclic_fewer.run.seconds);
    gcrm_t.y.push_back(c.gcrm.priced.pattern_cost), paper_t.y.push_back(kPaperGcrmCost.at(c.nodes));
    all_t.y.push_back(c.cyclic_all.priced.pattern_cost),
        fewer_t.y.push_back(c.cyclic_fewer.priced.pattern_cost);
  }
  times.series = {gcrm_s, all_s, fewer_s};
  costs.series = {gcrm_t, paper_t, all_t, fewer_t};
  return bench::write_time_plot(path, {times, costs});
}

int run(int argc, char** argv, int rank) {
  const std::string prefix = argc > 1 ? argv[1] : "switched_cluster_cholesky";
  const ClusterModel& cluster = cluster_named(argc > 2 ? argv[2] : "switched_cluster_64");
  const std::int64_t n = argc > 3 ? bench::parse_list<std::int64_t>(argv[3]).at(0) : 10000;
  const std::int64_t nb = argc > 4 ? bench::parse_list<std::int64_t>(argv[4]).at(0) : 125;
  core::CholeskyPlanOptions options;
  options.kinds = {core::CholeskyLayoutKind::BlockCyclic, core::CholeskyLayoutKind::Gcrm};
  options.tile_sizes = {static_cast<std::size_t>(nb)};
  options.gcrm.seeds_per_size =
      argc > 5 ? static_cast<int>(bench::parse_list<std::int64_t>(argv[5]).at(0)) : 25;
  const std::vector<std::int64_t> node_counts =
      bench::parse_list<std::int64_t>(argc > 6 ? argv[6] : "23,31,35,39");
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  for (std::int64_t nodes : node_counts)
    if (kPaperGcrmCost.count(nodes) == 0 || nodes > ranks) {
      if (rank == 0)
        std::printf("P = %lld: not one of Table I(b)'s 23, 31, 35, 39, or more than the %d ranks\n",
                    (long long)nodes, ranks);
      return 2;
    }
  if (sg_host_get_speed(sg_host_self()) != cluster.speed_flops)
    throw std::invalid_argument(
        "this host runs at " + std::to_string(sg_host_get_speed(sg_host_self())) + " flop/s, not " +
        cluster.name + "'s: pass the platform smpirun was given");
  kernels::set_compute_mode(kernels::ComputeMode::Skip);

  std::FILE* csv = rank == 0 ? std::fopen((prefix + ".csv").c_str(), "w") : nullptr;
  if (rank == 0) print_header(csv);
  std::vector<Case> cases;
  for (std::int64_t nodes : node_counts) {
    Case c;
    if (!run_case(cluster, nodes, n, options, c)) continue;
    c.print();
    if (csv != nullptr) c.write(csv);
    std::fflush(stdout);
    cases.push_back(c);
  }
  if (rank == 0) {
    const bool written = csv != nullptr && std::fclose(csv) == 0 &&
                         write_plot(prefix + ".svg", cases, cluster.name, n);
    std::printf("%s %s.csv and %s.svg\n", written ? "wrote" : "could not write", prefix.c_str(),
                prefix.c_str());
    if (!written) return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
