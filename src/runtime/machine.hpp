#pragma once
/// @file machine.hpp
/// The machine figures the time model prices a call with, measured once per context and
/// agreed on every rank: each rank's DGEMM rate (the speed probe), each rank's host, and the
/// latency and bandwidth of the context's communicator (a short ping-pong between rank 0 and
/// the first rank on another host, or rank 1). Relative speeds (given or probed) say how the ranks compare; the probe says how
/// fast a unit of speed is: the rate of rank i is speed_i · (the lower median over ranks of
/// probe_j / speed_j), so that a rank slowed by another user, whose given speed already
/// says so, is not counted twice.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "core/time_models/platform.hpp"
#include "kernels/flop_counter.hpp"

namespace hetscal::runtime {

/// The first-touch rate a context prices with when no rank could probe one (nothing could be
/// mapped), and under the emulator's clock (tests only), whose plans must not depend on the
/// machine's load: a mid-range figure for a Linux host's page faults.
inline constexpr double kAssumedFreshMemoryBytesPerS = 2e9;

/// Allocations smaller than this are not timed as a rate: the allocation stage's fixed part
/// (plans, agreements) would weigh more than the pages.
inline constexpr double kMinLearntFirstTouchBytes = 4.0 * (1 << 20);

/// The first-touch rate the ranks agree on at calibration: the slowest rank's probe
/// (mpi::fresh_pages_rate; the ranks of a host fill their memory at once in an allocate
/// stage, as when they probe, and the stage waits for the slowest), or
/// kAssumedFreshMemoryBytesPerS when no rank could probe. Pure.
/// @param slowest_probe the minimum over the ranks of their probes, a rank that could not
///        probe counting as +infinity.
double agreed_first_touch_rate(double slowest_probe);

/// The first-touch rate a computed call's allocation stage showed: `bytes` (the most any rank
/// newly allocated, as priced) over the slowest rank's seconds in the stage, or nothing when
/// the allocation was too small to time (kMinLearntFirstTouchBytes) or not timed. Pure.
std::optional<double> observed_first_touch_rate(double bytes, double slowest_s);

struct MachineFigures {
  std::vector<double> flops;           ///< per rank of the context, flop/s of the local kernel
  double latency_s = 0.0;              ///< one small message
  double bandwidth_bytes_per_s = 0.0;  ///< one large message
  double memory_bytes = 0.0;           ///< per rank: the host's memory over its ranks
  int ranks_on_host = 1;               ///< the context's ranks on this rank's host
  /// How fast the ranks fill memory they have just allocated (page faults included): a call
  /// that needs larger planned copies pays for them at this rate. Probed at calibration
  /// (agreed_first_touch_rate) until a computed call's allocation stage measures it
  /// (observed_first_touch_rate, runtime/route.cpp), then the rate of the context's latest
  /// allocation that grew.
  double fresh_memory_bytes_per_s = kAssumedFreshMemoryBytesPerS;
  /// The rate of hetscal's kernels on a pattern's tiles, updated one BLAS call each, as a
  /// fraction of their rate on a grid's local array (core::KernelRate::per_tile_calls).
  /// Measured on the kernels themselves, not probed: the same Cholesky flops (N = 8,000,
  /// tiles of 64, two ranks) took rank 0 3.86 s of BLAS on the heterogeneous symmetric
  /// pattern and 3.31 s on the heterogeneous 1x2 grid. A micro-benchmark of 64³ DGEMMs
  /// runs them at the grouped rate once its memory is warm, so it cannot stand in: the loss
  /// is the tiles' scattered storage and per-tile work around the calls. Without it the
  /// model priced the two alike and chose the pattern, which then ran 1.3x slower.
  double per_tile_calls = 0.85;
  /// The local kernel's rate by inner dimension, a fraction of `flops` (probed_tile_rates,
  /// agreed; empty under the emulator's clock, whose made-up rates ignore the shape).
  std::vector<core::TileRate> tile_rates;
  /// Per rank, its host (0, 1, … in the order of each host's first rank): a host's ranks
  /// share its link into the network (core::Network::node_of). The latency and bandwidth
  /// are measured between rank 0 and the first rank on another host, if any.
  std::vector<std::size_t> node_of;

  /// The hosts the context spans.
  std::size_t hosts() const;
  /// The platform the core time model prices on (a switched network; its links per host
  /// where the context spans more than one).
  core::Platform platform() const;
  /// Its local kernel's rates (platform().kernel).
  core::KernelRate kernel() const;
  /// The platform on which the core time model, which counts real flops and 8-byte
  /// elements, prices a call on scalar type T: each processor's rate divided by the flops a
  /// multiply-add of T counts against a real one (kernels::flops_of: 4 for complex, 1 for
  /// real; the probe measures DGEMM, and xGEMM on complex data runs at about its real flop
  /// rate), the bandwidth and each processor's memory by sizeof(T) / 8 (an element of T
  /// moves and occupies that many times a double's bytes). Latencies stay.
  template <typename T>
  core::Platform platform_for() const {
    const kernels::OperationCount multiply_add{1.0, 1.0};
    const double flop_weight =
        kernels::flops_of<T>(multiply_add) / kernels::flops_of<double>(multiply_add);
    const double size_weight = static_cast<double>(sizeof(T)) / static_cast<double>(sizeof(double));
    core::Platform scaled = platform();
    for (core::Processor& processor : scaled.processors) {
      processor.speed_flops /= flop_weight;
      processor.memory_bytes /= size_weight;
    }
    scaled.network.bandwidth_bytes_per_s /= size_weight;
    return scaled;
  }
  /// "rates 3.1e+09-3.3e+09 flop/s, latency 2.1e-06 s, bandwidth 5.2e+09 B/s, of the peak by
  /// tile 1:0.05 2:0.09 ..." (HETSCAL_VERBOSE).
  std::string text() const;
};

/// Collective over `comm`: measures the figures (about 25 ms per rank with the probes) the
/// first time a communicator over these processes asks, then reuses the measurement.
/// @param speeds the context's agreed relative speeds, one per rank of `comm`.
/// @throws mpi::StageFailed on every rank when a rank cannot measure (memory).
MachineFigures measure_machine(MPI_Comm comm, const std::vector<double>& speeds);

/// Host indexes from each rank's host leader (any rank of its host, the same for all its
/// host's ranks; < host_leaders.size()): 0, 1, … in the order of the hosts' first ranks.
std::vector<std::size_t> node_indexes(const std::vector<int>& host_leaders);

/// The rank the network is measured against from rank 0: the first on another host, or rank 1
/// when every rank shares rank 0's.
int ping_pong_partner(const std::vector<std::size_t>& node_of);

/// The rate per unit of relative speed: the lower median of probe_i / speed_i.
/// @pre probes and speeds of equal, non-zero length, speeds > 0.
double rate_per_unit_speed(const std::vector<double>& probes, const std::vector<double>& speeds);

/// Each rank's modelled rate, flop/s: its speed relative to the fastest (no ratio overflows)
/// times rate_per_unit_speed of the ranks within core::kSmallestPlannedSpeedRatio of the
/// fastest. A slower rank is modelled at that fraction of the fastest's rate: no plan gives
/// it work, and the model's sums stay finite (HETSCAL_SPEEDS=1e300,1e-300 made its rate 0).
/// @pre probes and speeds of equal, non-zero length, speeds finite and > 0.
std::vector<double> modelled_rates(const std::vector<double>& probes, const std::vector<double>& speeds);

}  // namespace hetscal::runtime
