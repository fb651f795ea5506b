#pragma once
/// @file cluster_experiment.hpp
/// Beaumont2023's experiment on a homogeneous switched cluster, for any factorisation: for each
/// P, a factorisation on the paper's pattern over all P nodes (G-2DBC for LU, GCR&M for
/// Cholesky) versus 2D block-cyclic on P nodes and on fewer nodes, as the factorisation's
/// planner priced them; a table and a CSV (tests/report plots it). The benchmarks say what differs
/// (ClusterExperiment) and parse their command lines.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/time_models/time_model.hpp"
#include "kernels/flop_counter.hpp"
#include "layout/candidate_distribution.hpp"
#include "simulated_cluster.hpp"
#include "simulated_factorization.hpp"

namespace hetscal::bench {

/// A layout the planner priced: the prediction and the pattern's communication cost T.
struct PricedLayout {
  core::Prediction prediction;
  double pattern_cost = 0.0;
};

/// What differs between the factorisations.
struct ClusterExperiment {
  std::string pattern;      /// the paper's pattern on all P: "G-2DBC", "GCR&M"
  std::string csv_pattern;  ///< its CSV column prefix: "g2dbc", "gcrm"
  std::string paper_table;  ///< where the paper's costs come from: "Table I(a)"
  std::map<std::int64_t, double> paper_pattern_cost;  ///< P → T of the paper's pattern
  /// Prices the N×N factorisation on the cluster's P nodes; returns the pattern on all P,
  /// the fastest-modelled 2DBC on all P and the fastest-modelled 2DBC on fewer nodes.
  std::function<std::vector<PricedLayout>(const core::Platform&, std::int64_t n)> plan;
  /// One flop-injected factorisation on `d`, the distribution of the priced `candidate`, over
  /// `comm` (ranks' relative speeds given).
  std::function<SimulatedRun(const core::Candidate& candidate, const layout::Distribution& d,
                             MPI_Comm comm, const std::vector<double>& speeds)>
      simulate;
};

/// A case's layouts from a planner's choice (CholeskyChoice, LuChoice) on P nodes: the
/// fastest-modelled `pattern` on all P, then `block_cyclic` on all P and on fewer nodes.
/// @throws std::runtime_error when the choice priced none of one of them.
template <typename Choice, typename Kind>
std::vector<PricedLayout> case_layouts(const Choice& choice, Kind pattern, Kind block_cyclic,
                                       std::size_t nodes) {
  const auto all = [&](const core::Candidate& c) { return c.processors().size() == nodes; };
  const auto fewer = [&](const core::Candidate& c) { return c.processors().size() < nodes; };
  std::vector<PricedLayout> layouts;
  for (const auto* c :
       {&fastest_priced(choice, pattern, all), &fastest_priced(choice, block_cyclic, all),
        &fastest_priced(choice, block_cyclic, fewer)})
    layouts.push_back({c->prediction, c->pattern_cost});
  return layouts;
}

/// One layout of one case: what the planner says of it and what the simulation measured.
struct MeasuredLayout {
  PricedLayout priced;
  SimulatedRun run;
};

/// One P: the pattern on P, 2DBC on P, 2DBC on fewer nodes.
struct ClusterCase {
  std::int64_t nodes = 0;
  std::vector<MeasuredLayout> layouts;

  void print(double paper_cost) const {
    std::printf("%3lld", (long long)nodes);
    for (const MeasuredLayout& m : layouts)
      std::printf(" %-9s %6.3f %9.4g %9.4g |", shape_of(m.priced.prediction.candidate).c_str(),
                  m.priced.pattern_cost, m.run.seconds, kernel_seconds(m.priced.prediction));
    std::printf(" %6.3f %6.3f %6.3f\n", paper_cost, layouts[1].run.seconds / layouts[0].run.seconds,
                layouts[2].run.seconds / layouts[0].run.seconds);
  }
  void write(std::FILE* csv, double paper_cost) const {
    std::fprintf(csv, "%lld", (long long)nodes);
    for (const MeasuredLayout& m : layouts)
      std::fprintf(csv, ",%s,%.4f,%.6f,%.6f,%.4f", shape_of(m.priced.prediction.candidate).c_str(),
                   m.priced.pattern_cost, m.run.seconds, kernel_seconds(m.priced.prediction),
                   m.run.balance);
    std::fprintf(csv, ",%.3f\n", paper_cost);
  }
};

inline void print_cluster_header(const ClusterExperiment& e, std::FILE* csv) {
  std::printf("%3s", "P");
  for (const char* name : {e.pattern.c_str(), "2DBC_P", "2DBC_k<P"})
    std::printf(" %-9s %6s %9s %9s |", name, "T", "sim_s", "model_s");
  std::printf(" %6s %6s %6s\n", "T_pap", "vs_P", "vs_k<P");
  if (csv == nullptr) return;
  std::fprintf(csv, "p");
  for (const std::string& layout :
       {e.csv_pattern, std::string("cyclic_p"), std::string("cyclic_fewer")})
    for (const char* field : {"shape", "T", "s", "model_s", "balance"})
      std::fprintf(csv, ",%s_%s", layout.c_str(), field);
  std::fprintf(csv, ",paper_%s_T\n", e.csv_pattern.c_str());
}

/// Plans one P on rank 0 and simulates its three layouts on the first P ranks of the world
/// (the others only split). @return true on world rank 0, whose `result` is filled.
inline bool run_cluster_case(const ClusterExperiment& e, const ClusterModel& cluster,
                             std::int64_t nodes, std::int64_t n, ClusterCase& result) {
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm comm = first_ranks(nodes);
  if (comm == MPI_COMM_NULL) return false;
  std::vector<PricedLayout> layouts(3);
  if (world_rank == 0) layouts = e.plan(cluster.platform(nodes), n);
  const std::vector<double> speeds(static_cast<std::size_t>(nodes), 1.0);  // only ratios count
  result.nodes = nodes;
  for (PricedLayout& layout : layouts) {
    std::vector<double> cost{layout.pattern_cost};
    broadcast_vector(cost, comm);
    layout.pattern_cost = cost[0];
    broadcast_prediction(layout.prediction, comm);
    const auto d = layout::distribution_of(layout.prediction.candidate, n, int(nodes));
    result.layouts.push_back({layout, e.simulate(layout.prediction.candidate, *d, comm, speeds)});
  }
  MPI_Comm_free(&comm);
  return world_rank == 0;
}

/// The whole experiment: every P of `node_counts` (each one of the paper's, at most the
/// world's size) on `cluster`, N = n; prints the table, writes PREFIX.csv.
/// @return the exit status: 0, 1 when the files cannot be written, 2 for a bad P.
inline int run_cluster_experiment(const ClusterExperiment& e, const std::string& prefix,
                                  const ClusterModel& cluster, std::int64_t n,
                                  const std::vector<std::int64_t>& node_counts, int rank) {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  for (std::int64_t nodes : node_counts)
    if (e.paper_pattern_cost.count(nodes) == 0 || nodes > ranks) {
      if (rank == 0)
        std::printf("P = %lld: not one of %s's 23, 31, 35, 39, or more than the %d ranks\n",
                    (long long)nodes, e.paper_table.c_str(), ranks);
      return 2;
    }
  require_host_of(cluster);
  kernels::set_compute_mode(kernels::ComputeMode::Skip);

  std::FILE* csv = rank == 0 ? std::fopen((prefix + ".csv").c_str(), "w") : nullptr;
  if (rank == 0) print_cluster_header(e, csv);
  for (std::int64_t nodes : node_counts) {
    ClusterCase c;
    if (!run_cluster_case(e, cluster, nodes, n, c)) continue;
    c.print(e.paper_pattern_cost.at(nodes));
    if (csv != nullptr) c.write(csv, e.paper_pattern_cost.at(nodes));
    std::fflush(stdout);
  }
  if (rank != 0) return 0;
  return finish_outputs(csv, prefix);
}

}  // namespace hetscal::bench
