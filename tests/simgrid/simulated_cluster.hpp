#pragma once
/// @file simulated_cluster.hpp
/// Shared by the simulated benchmarks on a homogeneous switched cluster (Beaumont2023's
/// experiments, Cholesky and LU): the clusters of tests/simgrid/platforms/ as the planner
/// models them, the communicator of the first P simulated nodes, and a priced candidate sent
/// from the rank that planned it to the others.
#include <mpi.h>
#include <simgrid/host.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::bench {

/// A homogeneous cluster of tests/simgrid/platforms/ as the planner models it: node speed,
/// link bandwidth, node-to-node latency (link, backbone, link) of the XML file; no tile-size
/// penalty (injected flops run at peak).
struct ClusterModel {
  std::string name;
  double speed_flops, bandwidth_bytes_per_s, latency_s;

  core::Platform platform(std::int64_t nodes) const {
    core::Platform p;
    p.processors.assign(static_cast<std::size_t>(nodes), core::Processor{speed_flops, 64.0e9});
    p.network = {latency_s, bandwidth_bytes_per_s, core::NetworkKind::Switched, {}};
    return p;
  }
};

/// switched_cluster_64 (10 Gflop/s, 10 Gb/s: a tile update of 125 costs 4 tile transfers)
/// and omnipath_cluster_44 (Beaumont2023's ratio, one update per transfer); their XML files say
/// why.
/// @throws std::invalid_argument for another name.
inline const ClusterModel& cluster_named(const std::string& name) {
  static const std::vector<ClusterModel> clusters{
      {"switched_cluster_64", 10.0e9, 10.0e9 / 8.0, 5.0e-6},
      {"omnipath_cluster_44", 400.0e9, 100.0e9 / 8.0, 3.0e-6}};
  for (const ClusterModel& c : clusters)
    if (c.name == name) return c;
  throw std::invalid_argument("unknown platform '" + name +
                              "' (switched_cluster_64 or omnipath_cluster_44)");
}

/// @throws std::invalid_argument unless this simulated host runs at the cluster's speed, i.e.
///   smpirun was given the cluster's platform file.
inline void require_host_of(const ClusterModel& cluster) {
  if (sg_host_get_speed(sg_host_self()) != cluster.speed_flops)
    throw std::invalid_argument(
        "this host runs at " + std::to_string(sg_host_get_speed(sg_host_self())) + " flop/s, not " +
        cluster.name + "'s: pass the platform smpirun was given");
}

/// Collective over MPI_COMM_WORLD: a communicator of its first `nodes` ranks, in order;
/// MPI_COMM_NULL on the others. The caller frees it.
inline MPI_Comm first_ranks(std::int64_t nodes) {
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank < nodes ? 0 : MPI_UNDEFINED, world_rank, &comm);
  return comm;
}

/// Sends `values` from rank 0 of `comm` to the others (resized there). T: plain data.
template <typename T>
void broadcast_vector(std::vector<T>& values, MPI_Comm comm) {
  unsigned long long count = values.size();
  MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  values.resize(count);
  MPI_Bcast(values.data(), static_cast<int>(count * sizeof(T)), MPI_BYTE, 0, comm);
}

/// Sends rank 0's prediction (its candidate and time breakdown) to the others: planning a
/// case on every simulated rank would cost P times its real time.
inline void broadcast_prediction(core::Prediction& prediction, MPI_Comm comm) {
  core::Candidate& c = prediction.candidate;
  std::vector<std::size_t> sizes{static_cast<std::size_t>(c.kind), c.tile, c.rows, c.cols,
                                 static_cast<std::size_t>(c.panel_rank)};
  const core::TimeBreakdown& t = prediction.time;
  std::vector<double> times{t.compute, t.panel, t.communication, t.redistribution};
  std::vector<char> label(c.label.begin(), c.label.end());
  broadcast_vector(sizes, comm), broadcast_vector(times, comm), broadcast_vector(label, comm);
  broadcast_vector(c.owner, comm), broadcast_vector(c.row_share, comm),
      broadcast_vector(c.col_share, comm);
  broadcast_vector(c.row_order, comm), broadcast_vector(c.col_order, comm);
  c.kind = static_cast<core::CandidateKind>(sizes[0]);
  c.tile = sizes[1], c.rows = sizes[2], c.cols = sizes[3];
  c.panel_rank = static_cast<core::PanelRank>(sizes[4]);
  prediction.time = {times[0], times[1], times[2], times[3]};
  c.label.assign(label.begin(), label.end());
}

/// "k:RxC": the processors a candidate uses and its grid or pattern dimensions.
inline std::string shape_of(const core::Candidate& c) {
  return std::to_string(c.processors().size()) + ":" + std::to_string(c.rows) + "x" +
         std::to_string(c.cols);
}

}  // namespace hetscal::bench
