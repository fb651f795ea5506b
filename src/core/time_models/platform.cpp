#include "core/time_models/platform.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

void require_range(double value, bool zero_allowed, const std::string& what) {
  const bool ok = std::isfinite(value) && (zero_allowed ? value >= 0.0 : value > 0.0);
  if (ok) return;
  std::ostringstream msg;
  msg << "platform: " << what << " is " << value << "; it must be finite and "
      << (zero_allowed ? ">= 0" : "> 0");
  throw InvalidArgument(msg.str());
}

}  // namespace

double KernelRate::efficiency(double tile) const {
  if (measured.empty()) return tile / (tile + half_tile);
  if (tile <= measured.front().tile) return measured.front().efficiency;
  if (tile >= measured.back().tile) return measured.back().efficiency;
  std::size_t upper = 1;
  while (measured[upper].tile < tile) ++upper;
  const TileRate& a = measured[upper - 1];
  const TileRate& b = measured[upper];
  const double t = std::log2(tile / a.tile) / std::log2(b.tile / a.tile);
  return a.efficiency + t * (b.efficiency - a.efficiency);
}

double KernelRate::smallest_efficient_tile(double fraction) const {
  if (measured.empty()) return fraction >= 1.0 ? 0.0 : fraction * half_tile / (1.0 - fraction);
  for (const TileRate& rate : measured) {
    if (rate.efficiency >= fraction) return rate.tile;
  }
  return measured.back().tile;
}

double Network::busiest(const std::vector<double>& seconds) const {
  double busiest = 0.0;
  for (double t : seconds) busiest = std::max(busiest, t);
  if (node_of.empty()) return busiest;
  std::vector<double> per_link;
  for (std::size_t x = 0; x < seconds.size() && x < node_of.size(); ++x) {
    if (node_of[x] >= per_link.size()) per_link.resize(node_of[x] + 1, 0.0);
    per_link[node_of[x]] += seconds[x];
  }
  for (double t : per_link) busiest = std::max(busiest, t);
  return busiest;
}

void require_valid(const Platform& platform) {
  if (platform.processors.empty()) throw InvalidArgument("platform: no processor");
  for (std::size_t k = 0; k < platform.size(); ++k) {
    const std::string which = "processor " + std::to_string(k);
    require_range(platform.processors[k].speed_flops, false, which + " speed (flop/s)");
    require_range(platform.processors[k].memory_bytes, false, which + " memory (bytes)");
  }
  require_range(platform.network.latency_s, true, "network latency (s)");
  require_range(platform.network.bandwidth_bytes_per_s, false, "network bandwidth (bytes/s)");
  require_range(platform.kernel.half_tile, true, "kernel half-rate tile size");
  const std::vector<std::size_t>& node_of = platform.network.node_of;
  if (!node_of.empty() && node_of.size() != platform.size())
    throw InvalidArgument("platform: " + std::to_string(node_of.size()) + " node indexes for " +
                          std::to_string(platform.size()) + " processors");
  for (std::size_t node : node_of)
    if (node >= platform.size())
      throw InvalidArgument("platform: node index " + std::to_string(node) + " of " +
                            std::to_string(platform.size()) + " processors (at most one node each)");
  const std::vector<TileRate>& measured = platform.kernel.measured;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const bool ascending = i == 0 || measured[i].tile > measured[i - 1].tile;
    if (!(measured[i].tile >= 1.0 && std::isfinite(measured[i].tile) && ascending &&
          measured[i].efficiency > 0.0 && measured[i].efficiency <= 1.0))
      throw InvalidArgument("platform: measured kernel rate " + std::to_string(i) + " (tile " +
                            std::to_string(measured[i].tile) + ", efficiency " +
                            std::to_string(measured[i].efficiency) +
                            ") must have ascending tiles >= 1 and an efficiency in (0, 1]");
  }
  const double per_tile = platform.kernel.per_tile_calls;
  if (!(per_tile > 0.0 && per_tile <= 1.0))
    throw InvalidArgument("kernel rate of per-tile calls must be in (0, 1], got " +
                          std::to_string(per_tile));
}

std::vector<double> nine_workstations_cycle_times() {
  return {7.8, 1.0, 1.0, 4.0, 1.0, 6.3, 7.8, 7.95, 8.0};
}

Platform nine_workstations_platform(const NineWorkstationsOptions& options) {
  Platform platform;
  for (double t : nine_workstations_cycle_times())
    platform.processors.push_back({options.flops_at_cycle_time_one / t, options.memory_bytes});
  platform.network = {options.latency_s, options.bandwidth_bytes_per_s, options.kind, {}};
  platform.kernel.half_tile = options.half_tile;
  require_valid(platform);
  return platform;
}

}  // namespace hetscal::core
