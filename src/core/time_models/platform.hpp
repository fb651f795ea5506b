#pragma once
/// @file platform.hpp
/// The machine a time model prices a plan on: per-processor speed and memory, one network
/// (latency, bandwidth, shared bus or switched) and the local kernel's rate as a function of
/// the tile size. HeteroPBLAS (Reddy2009, §4.1) calls this "the performance model of the
/// executing network": speeds measured on the representative kernel, links by latency and
/// bandwidth, and whether a layer serialises packets or transfers them in parallel.
#include <cstddef>
#include <vector>

namespace hetscal::core {

/// Ethernet-like buses serialise every transfer (Boudet et al. 1999, §2.2); a switch lets
/// transfers between distinct pairs proceed at once (one processor still sends one message at
/// a time).
enum class NetworkKind { SharedBus, Switched };

struct Network {
  double latency_s = 0.0;             ///< start-up time of one message
  double bandwidth_bytes_per_s = 0.0; ///< per link (switched) or for the whole bus
  NetworkKind kind = NetworkKind::Switched;
  /// Time of one point-to-point message of `bytes`.
  double message_time(double bytes) const { return latency_s + bytes / bandwidth_bytes_per_s; }
};

/// The local kernel's rate at one inner dimension, measured (runtime/speed_probe.hpp): a
/// fraction of its peak.
struct TileRate {
  double tile = 0.0;        ///< the update's inner dimension (a tile's width)
  double efficiency = 0.0;  ///< rate / peak, in (0, 1]
};

/// Rate of the local update kernel on nb-wide tiles, as a fraction of its peak. Measured
/// where the run time calibrates (`measured`, by inner dimension): a DGEMM with an inner
/// dimension of 1 runs as a rank-1 update, memory-bound, at a few per cent of the peak, and
/// the pricing of skinny PDGEMMs planned with 1-wide tiles at the full rate predicted 0.15 s
/// for a call that took 5 s. Without measurements, the model nb/(nb + half_tile) (half_tile
/// = 0: the peak for every tile size; Boudet1999's simulated platforms).
struct KernelRate {
  double half_tile = 0.0;
  std::vector<TileRate> measured;  ///< ascending tiles; empty: the half_tile model
  /// The rate of updates made one tile per BLAS call (a pattern's tiles, stored apart), as a
  /// fraction of a grid's, whose local array is updated a tile column or more per call
  /// (TileOwnership::grouped_updates). 1 where the two run alike (SimGrid charges flops
  /// only); the run time measures it (runtime/machine.hpp): on two ranks at nb = 64 the same
  /// Cholesky flops ran at 3.3e10 flop/s tile by tile and 3.9e10 grouped.
  double per_tile_calls = 1.0;
  /// The measured efficiency interpolated linearly in log2(tile) (the nearest measurement
  /// beyond the table's ends), or the half_tile model.
  double efficiency(double tile) const;
  /// The rate factor of a layout's updates.
  double update_efficiency(double tile, bool grouped) const {
    return efficiency(tile) * (grouped ? 1.0 : per_tile_calls);
  }
  /// The smallest tile that runs at `fraction` of the peak or better: the smallest measured
  /// one (the largest measured when none does), or the half_tile model's. Planners do not
  /// choose tiles below it where the matrix allows larger ones.
  double smallest_efficient_tile(double fraction) const;
};

/// The fraction of the kernel's peak below which a tile is too narrow to plan where the
/// matrix allows a wider one (KernelRate::smallest_efficient_tile).
inline constexpr double kEfficientTileRate = 0.5;

struct Processor {
  double speed_flops = 0.0;   ///< peak rate of the local kernel, flop/s
  double memory_bytes = 0.0;  ///< memory available to hetscal's data, caller's arrays included
};

/// A processor slower than this fraction of the fastest is never planned: it would hold one
/// element for every 10⁹ the fastest holds, which no matrix that fits in memory gives it,
/// and shares and rates at such ratios lose their precision or underflow.
inline constexpr double kSmallestPlannedSpeedRatio = 1e-9;

struct Platform {
  std::vector<Processor> processors;
  Network network;
  KernelRate kernel;
  std::size_t size() const { return processors.size(); }
};

/// @throws InvalidArgument if there is no processor, or a speed, memory, latency, bandwidth or
///   half-tile value is not finite or out of range (speed, memory, bandwidth > 0; latency,
///   half_tile >= 0); the message names the value.
void require_valid(const Platform& platform);

/// Settings of nine_workstations_platform (defaults: 100 Mb/s shared Ethernet).
struct NineWorkstationsOptions {
  double latency_s = 1.0e-4;
  double bandwidth_bytes_per_s = 100.0e6 / 8.0;
  NetworkKind kind = NetworkKind::SharedBus;
  double memory_bytes = 512.0 * 1024.0 * 1024.0;
  double half_tile = 16.0;
  double flops_at_cycle_time_one = 100.0e6;  ///< speed of a processor of cycle-time 1
};

/// The 9 Sun workstations of Boudet, Petitet, Rastello & Robert (Boudet1999, Table 3), in
/// the table's order (smirnoff 7.8, guinness 1.0, farot 1.0, arquebuse 4.0, zelfde 1.0, loop
/// 6.3, isostar 7.8, arnica 7.95, ultrafuel 8.0), speed = flops_at_cycle_time_one / t_i.
Platform nine_workstations_platform(const NineWorkstationsOptions& options = {});

/// Table 3's cycle-times, in the table's order.
std::vector<double> nine_workstations_cycle_times();

}  // namespace hetscal::core
