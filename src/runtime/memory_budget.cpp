#include "runtime/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "mpi/agreement.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::runtime {

std::optional<double> mem_available_bytes(const std::string& meminfo) {
  std::istringstream lines(meminfo);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string key, unit;
    double value = -1.0;
    if (!(fields >> key) || key != "MemAvailable:") continue;
    if (!(fields >> value >> unit) || !(value >= 0.0) || unit != "kB") return std::nullopt;
    return value * 1024.0;
  }
  return std::nullopt;
}

std::optional<double> host_available_bytes() {
  std::ifstream file("/proc/meminfo");
  if (file) {
    std::ostringstream text;
    text << file.rdbuf();
    if (std::optional<double> available = mem_available_bytes(text.str())) return available;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return static_cast<double>(pages) * static_cast<double>(page);
  return std::nullopt;
}

std::optional<double> fresh_bytes_allowed(std::int64_t memory_setting, std::optional<double> host_available,
                                          int ranks_on_host, double operand_bytes, double held_bytes) {
  if (memory_setting > 0) return static_cast<double>(memory_setting) - operand_bytes - held_bytes;
  if (!host_available) return std::nullopt;
  // MemAvailable counts neither the operands nor hetscal's buffers: both are allocated already.
  return *host_available / std::max(ranks_on_host, 1);
}

std::string mebibytes_text(double bytes) {
  char text[40];
  std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1 << 20));
  return text;
}

MemoryFit agree_memory_fit(MPI_Comm comm, double needed_bytes, std::optional<double> allowed,
                           const std::string& limit_name) {
  constexpr double kUnlimited = std::numeric_limits<double>::max();
  const double room = allowed ? *allowed : kUnlimited;
  // MPI_MAX of each: the shortfall, the need, and the negated room (its minimum).
  double mine[3] = {allowed ? needed_bytes - *allowed : -kUnlimited, needed_bytes, -room};
  double most[3] = {0.0, 0.0, 0.0};
  mpi::check_mpi(MPI_Allreduce(mine, most, 3, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce of the memory needs");
  MemoryFit fit;
  fit.worst_shortfall_bytes = most[0];
  fit.most_needed_bytes = most[1];
  fit.least_allowed_bytes = -most[2];
  fit.fits = !(most[0] > 0.0);
  if (!fit.fits) {  // global: every rank or none joins the stage that writes the reason
    // The reason allocates: agreed, so that a rank short of memory for it sends every rank to
    // ScaLAPACK instead of leaving the others in the route's next collective.
    mpi::run_agreed(comm, "price", [&] {
      fit.reason = "needs up to " + mebibytes_text(fit.most_needed_bytes) + " of new memory on a rank, " +
                   mebibytes_text(fit.worst_shortfall_bytes) + " more than it has (" + limit_name + ": " +
                   mebibytes_text(std::max(fit.least_allowed_bytes, 0.0)) + " free on the tightest rank)";
    });
  }
  return fit;
}

}  // namespace hetscal::runtime
