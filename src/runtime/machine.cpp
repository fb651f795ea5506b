#include "runtime/machine.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>

#include "kernels/flop_counter.hpp"
#include "mpi/agreement.hpp"
#include "mpi/fresh_pages.hpp"
#include "mpi/message_tags.hpp"
#include "mpi/mpi_error.hpp"
#include "runtime/speed_probe.hpp"

namespace hetscal::runtime {
namespace {

using mpi::check_mpi;

constexpr int kLatencyRounds = 20;
constexpr int kBandwidthRounds = 4;
// 1 MiB is well past the latency's share on shared memory and on a network alike; 4 MiB made
// the first call of a context pay 25 ms of round trips here.
constexpr int kBandwidthBytes = 1 << 20;

// Round-trip time of `bytes` between ranks 0 and `partner` (the median of `rounds`), on
// rank 0. `times` is reserved for `rounds` beforehand (in the agreed stage): nothing here
// allocates between the messages, so no rank can leave its partner waiting.
double ping_pong_seconds(MPI_Comm comm, int me, int partner, std::vector<char>& buffer, std::vector<double>& times,
                         int bytes, int rounds) {
  times.clear();
  for (int round = 0; round < rounds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    if (me == 0) {
      check_mpi(MPI_Send(buffer.data(), bytes, MPI_CHAR, partner, mpi::tag::kPingPong, comm), "MPI_Send");
      check_mpi(
          MPI_Recv(buffer.data(), bytes, MPI_CHAR, partner, mpi::tag::kPingPong, comm, MPI_STATUS_IGNORE),
          "MPI_Recv");
    } else if (me == partner) {
      check_mpi(
          MPI_Recv(buffer.data(), bytes, MPI_CHAR, 0, mpi::tag::kPingPong, comm, MPI_STATUS_IGNORE),
          "MPI_Recv");
      check_mpi(MPI_Send(buffer.data(), bytes, MPI_CHAR, 0, mpi::tag::kPingPong, comm), "MPI_Send");
    }
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(times.begin(), times.begin() + rounds / 2, times.end());
  return times[static_cast<std::size_t>(rounds / 2)];
}

double host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 1e9;
}

// Collective over comm: writes into leaders[r] the lowest rank of comm on rank r's host (the
// ranks that share memory with it), and returns the number of comm's ranks on this host.
// @pre leaders has room for comm's size (allocated in an agreed stage).
int gather_host_leaders(MPI_Comm comm, int me, int* leaders) {
  MPI_Comm host = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host),
            "MPI_Comm_split_type");
  int size = 1, leader = me;
  int code = MPI_Comm_size(host, &size);
  if (code == MPI_SUCCESS) code = MPI_Allreduce(&me, &leader, 1, MPI_INT, MPI_MIN, host);
  (void)MPI_Comm_free(&host);  // a failed free only leaks the communicator
  check_mpi(code, "host communicator");
  check_mpi(MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, comm), "MPI_Allgather");
  return size;
}

}  // namespace

std::vector<std::size_t> node_indexes(const std::vector<int>& host_leaders) {
  std::vector<std::size_t> node_of(host_leaders.size());
  std::vector<std::size_t> index_of_leader(host_leaders.size(), host_leaders.size());
  std::size_t nodes = 0;
  for (std::size_t r = 0; r < host_leaders.size(); ++r) {
    const auto leader = static_cast<std::size_t>(host_leaders[r]);
    if (index_of_leader[leader] == host_leaders.size()) index_of_leader[leader] = nodes++;
    node_of[r] = index_of_leader[leader];
  }
  return node_of;
}

int ping_pong_partner(const std::vector<std::size_t>& node_of) {
  for (std::size_t r = 1; r < node_of.size(); ++r)
    if (node_of[r] != node_of[0]) return static_cast<int>(r);
  return 1;
}

double rate_per_unit_speed(const std::vector<double>& probes, const std::vector<double>& speeds) {
  std::vector<double> per_unit;
  for (std::size_t i = 0; i < probes.size(); ++i) per_unit.push_back(probes[i] / speeds[i]);
  const std::size_t lower_median = (per_unit.size() - 1) / 2;
  std::nth_element(per_unit.begin(), per_unit.begin() + static_cast<std::ptrdiff_t>(lower_median),
                   per_unit.end());
  return per_unit[lower_median];
}

std::vector<double> modelled_rates(const std::vector<double>& probes, const std::vector<double>& speeds) {
  const double fastest = *std::max_element(speeds.begin(), speeds.end());
  std::vector<double> planned_probes, planned_speeds, relative;
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    relative.push_back(std::max(speeds[i] / fastest, core::kSmallestPlannedSpeedRatio));
    if (speeds[i] / fastest < core::kSmallestPlannedSpeedRatio) continue;
    planned_probes.push_back(probes[i]);
    planned_speeds.push_back(relative.back());
  }
  const double unit = rate_per_unit_speed(planned_probes, planned_speeds);
  std::vector<double> rates;
  for (double r : relative) rates.push_back(r * unit);
  return rates;
}

double agreed_first_touch_rate(double slowest_probe) {
  return std::isfinite(slowest_probe) && slowest_probe > 0.0 ? slowest_probe : kAssumedFreshMemoryBytesPerS;
}

std::optional<double> observed_first_touch_rate(double bytes, double slowest_s) {
  if (!(bytes >= kMinLearntFirstTouchBytes) || !std::isfinite(bytes) || !(slowest_s > 0.0)) return std::nullopt;
  return bytes / slowest_s;
}

core::Platform MachineFigures::platform() const {
  core::Platform platform;
  for (double rate : flops) platform.processors.push_back({rate, memory_bytes});
  platform.network.latency_s = latency_s;
  platform.network.bandwidth_bytes_per_s = bandwidth_bytes_per_s;
  platform.network.kind = core::NetworkKind::Switched;
  if (hosts() > 1) platform.network.node_of = node_of;
  platform.kernel = kernel();
  return platform;
}

core::KernelRate MachineFigures::kernel() const {
  core::KernelRate kernel;
  kernel.per_tile_calls = per_tile_calls;
  kernel.measured = tile_rates;
  return kernel;
}

std::size_t MachineFigures::hosts() const {
  return node_of.empty() ? 1 : 1 + *std::max_element(node_of.begin(), node_of.end());
}

std::string MachineFigures::text() const {
  const auto [slowest, fastest] = std::minmax_element(flops.begin(), flops.end());
  char line[160];
  std::snprintf(line, sizeof line, "rates %.2g-%.2g flop/s, latency %.2g s, bandwidth %.2g B/s, first touch %.2g GB/s",
                flops.empty() ? 0.0 : *slowest, flops.empty() ? 0.0 : *fastest, latency_s,
                bandwidth_bytes_per_s, fresh_memory_bytes_per_s / 1e9);
  std::string text = line;
  if (hosts() > 1) text += ", " + std::to_string(hosts()) + " hosts (the bandwidth between hosts)";
  for (std::size_t i = 0; i < tile_rates.size(); ++i) {
    std::snprintf(line, sizeof line, "%s%g:%.2f", i == 0 ? ", of the peak by tile " : " ",
                  tile_rates[i].tile, tile_rates[i].efficiency);
    text += line;
  }
  return text;
}

namespace {

// What is measured of a set of processes, whatever their relative speeds.
struct Calibration {
  std::vector<double> probes;  // per rank, flop/s of the probe
  double latency_s = 1e-6;     // one process: nothing crosses a network
  double bandwidth_bytes_per_s = 1e10;
  double memory_bytes = 0.0;
  int ranks_on_host = 1;  // this rank's own host
  double fresh_memory_bytes_per_s = kAssumedFreshMemoryBytesPerS;  ///< agreed_first_touch_rate
  std::vector<core::TileRate> tile_rates;  ///< agreed: the mean over ranks, made ascending
  std::vector<std::size_t> node_of;        ///< per rank, its host (node_indexes)
};

// Every rank's efficiency by inner dimension, averaged (every rank plans with the same
// table), and made non-decreasing in the tile: a wider update never runs slower, and a noisy
// reading must not make the planners prefer a narrower tile.
// `sum` has room for one entry per rate (allocated in the agreed stage: nothing here can fail
// for memory on one rank alone).
void agree_on_tile_rates(MPI_Comm comm, std::vector<core::TileRate>& mine, std::vector<double>& sum, int size) {
  for (std::size_t i = 0; i < mine.size(); ++i) sum[i] = mine[i].efficiency;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, sum.data(), static_cast<int>(sum.size()), MPI_DOUBLE, MPI_SUM, comm),
            "MPI_Allreduce");
  double floor = 0.0;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    floor = std::max(floor, sum[i] / size);
    mine[i].efficiency = floor;
  }
}

Calibration calibrate(MPI_Comm comm) {
  int me = 0, size = 1;
  check_mpi(MPI_Comm_rank(comm, &me), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  double probe = 0.0, fresh_pages = 0.0;
  std::vector<char> buffer;
  std::vector<core::TileRate> tile_rates;
  std::vector<double> rate_sums;
  std::vector<double> times;
  std::vector<int> leaders;
  Calibration measured;
  // Under the emulator's clock (tests only) the network is not measured either: load on the
  // machine stretches a ping-pong as it stretches the wall clock, and a test's plan must not
  // depend on it. The figures of one process stand in, agreed so that no rank pings alone.
  // Nor are the kernel's rates by tile width: the emulator charges every flop alike.
  int emulated = kernels::compute_clock_is_emulated() ? 1 : 0, everywhere = 0;
  check_mpi(MPI_Allreduce(&emulated, &everywhere, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  // The hosts: which ranks share one (and its memory), so that the time model counts a
  // node's ranks on one link, and the network is measured between two hosts where the
  // context spans several (ranks 0 and 1 usually share one, and memory copies are not the
  // network's bandwidth).
  mpi::run_agreed(comm, "calibration", [&] { leaders.resize(static_cast<std::size_t>(size)); });
  measured.ranks_on_host = gather_host_leaders(comm, me, leaders.data());
  int partner = 1;
  mpi::run_agreed(comm, "calibration", [&] {
    measured.node_of = node_indexes(leaders);
    partner = ping_pong_partner(measured.node_of);
    probe = probed_speed();
    if (everywhere == 0) tile_rates = probed_tile_rates();
    // Mapped and unmapped, not allocated: nothing here can fail for memory but the probe.
    if (everywhere == 0) fresh_pages = mpi::fresh_pages_rate();
    rate_sums.resize(tile_rates.size());
    if (size > 1 && (me == 0 || me == partner)) buffer.resize(kBandwidthBytes);
    times.reserve(std::max(kLatencyRounds, kBandwidthRounds));
    measured.probes.resize(static_cast<std::size_t>(size));
  });
  check_mpi(MPI_Allgather(&probe, 1, MPI_DOUBLE, measured.probes.data(), 1, MPI_DOUBLE, comm),
            "MPI_Allgather");
  if (everywhere == 0) {
    agree_on_tile_rates(comm, tile_rates, rate_sums, size);
    measured.tile_rates = std::move(tile_rates);
    double mine = fresh_pages > 0.0 ? fresh_pages : std::numeric_limits<double>::infinity(), slowest = 0.0;
    check_mpi(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MIN, comm), "MPI_Allreduce");
    measured.fresh_memory_bytes_per_s = agreed_first_touch_rate(slowest);
  }
  if (size > 1 && everywhere == 0) {
    double network[2] = {0.0, 0.0};
    const double small = ping_pong_seconds(comm, me, partner, buffer, times, 1, kLatencyRounds);
    const double large = ping_pong_seconds(comm, me, partner, buffer, times, kBandwidthBytes, kBandwidthRounds);
    if (me == 0) {
      network[0] = small / 2.0;
      network[1] = kBandwidthBytes / std::max(large / 2.0 - network[0], 1e-9);
    }
    check_mpi(MPI_Bcast(network, 2, MPI_DOUBLE, 0, comm), "MPI_Bcast");
    measured.latency_s = network[0];
    measured.bandwidth_bytes_per_s = network[1];
  }
  // Each rank's share of its host's memory; the smallest share is what every rank assumes.
  double share = host_memory_bytes() / measured.ranks_on_host;
  check_mpi(MPI_Allreduce(&share, &measured.memory_bytes, 1, MPI_DOUBLE, MPI_MIN, comm),
            "MPI_Allreduce");
  return measured;
}

// MPI_COMM_WORLD ranks of comm's ranks, in comm's order: the same list on every rank.
std::vector<int> world_ranks(MPI_Comm comm) {
  MPI_Group group, world;
  check_mpi(MPI_Comm_group(comm, &group), "MPI_Comm_group");
  check_mpi(MPI_Comm_group(MPI_COMM_WORLD, &world), "MPI_Comm_group");
  int size = 0;
  check_mpi(MPI_Group_size(group, &size), "MPI_Group_size");
  std::vector<int> mine(static_cast<std::size_t>(size)), theirs(mine.size());
  for (int r = 0; r < size; ++r) mine[static_cast<std::size_t>(r)] = r;
  const int code = MPI_Group_translate_ranks(group, size, mine.data(), world, theirs.data());
  (void)MPI_Group_free(&group);  // a failed free only leaks a group
  (void)MPI_Group_free(&world);
  check_mpi(code, "MPI_Group_translate_ranks");
  return theirs;
}

}  // namespace

MachineFigures measure_machine(MPI_Comm comm, const std::vector<double>& speeds) {
  // One calibration per set of processes: every context over the same processes prices
  // with the same figures (two contexts with equal speeds predict equal times), and the
  // probe's few milliseconds are paid once. Every rank of comm took part in the same earlier
  // calibrations, so every rank finds (or misses) the entry alike.
  // Every step that allocates is agreed, so that a rank short of memory throws the same
  // StageFailed as the others (and the cache stays alike on every rank).
  static std::map<std::vector<int>, Calibration> calibrations;
  std::vector<int> key;
  const Calibration* measured = nullptr;
  mpi::run_agreed(comm, "calibration", [&] {
    key = world_ranks(comm);  // local: MPI's group calls do not communicate
    const auto found = calibrations.find(key);
    if (found != calibrations.end()) measured = &found->second;
  });
  if (!measured) {
    Calibration fresh = calibrate(comm);
    try {
      mpi::run_agreed(comm, "calibration", [&] { measured = &calibrations.emplace(key, std::move(fresh)).first->second; });
    } catch (const mpi::StageFailed&) {
      calibrations.erase(key);  // on every rank: all calibrate again next time
      throw;
    }
  }
  MachineFigures figures;
  mpi::run_agreed(comm, "calibration", [&] {
    figures.flops = modelled_rates(measured->probes, speeds);
    figures.tile_rates = measured->tile_rates;
    figures.node_of = measured->node_of;
  });
  figures.latency_s = measured->latency_s;
  figures.bandwidth_bytes_per_s = measured->bandwidth_bytes_per_s;
  figures.memory_bytes = measured->memory_bytes;
  figures.ranks_on_host = measured->ranks_on_host;
  figures.fresh_memory_bytes_per_s = measured->fresh_memory_bytes_per_s;
  return figures;
}

}  // namespace hetscal::runtime
