#include "kernels/flop_counter.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"
#include "mpi/mpi_error.hpp"

#ifdef HETSCAL_SIMGRID
#include <simgrid/engine.h>
#include <smpi/smpi.h>
#endif

namespace hetscal::kernels {
namespace {
// One tally per process: hetscal's kernels call BLAS from one thread per rank.
double g_local_flops = 0.0;
ComputeTally g_computed;  // the calls that really ran, timed
ComputeMode g_mode = ComputeMode::Execute;
int g_batch_depth = 0;         // FlopBatch nesting
double g_batched_flops = 0.0;  // accounted inside the open batch, not injected yet

// Injects `flops` on this rank's host (SimGrid builds) and tallies the time they took.
void inject(double flops) {
#ifdef HETSCAL_SIMGRID
  // Simulated, a rank computes for the simulated time its flops take on its host (its speed
  // profile included), in either mode: that is the work the run time observes. The engine's
  // clock is read, not MPI_Wtime, which SMPI may charge time for.
  const double start = simgrid_get_clock();
  smpi_execute_flops(flops);
  g_computed.flops += flops;
  g_computed.seconds += simgrid_get_clock() - start;
#else
  if (g_mode == ComputeMode::Execute) g_computed.flops += flops;
#endif
}
}  // namespace

void set_compute_mode(ComputeMode mode) {
#ifndef HETSCAL_SIMGRID
  if (mode == ComputeMode::Skip)
    throw InvalidArgument("compute mode Skip exists only in SimGrid builds (HETSCAL_SIMGRID)");
#endif
  g_mode = mode;
}

ComputeMode compute_mode() { return g_mode; }

void account_flops(double flops) {
  g_local_flops += flops;
#ifdef HETSCAL_SIMGRID
  if (g_batch_depth > 0) {
    g_batched_flops += flops;
    return;
  }
#endif
  inject(flops);
}

FlopBatch::FlopBatch() { ++g_batch_depth; }

FlopBatch::~FlopBatch() {
  if (--g_batch_depth > 0 || g_batched_flops == 0.0) return;
  const double flops = g_batched_flops;
  g_batched_flops = 0.0;
  inject(flops);
}

double local_flops() { return g_local_flops; }
void reset_flops() { g_local_flops = 0.0; }

void account_compute_seconds(double seconds) {
#ifndef HETSCAL_SIMGRID  // simulated builds count simulated seconds (account_flops)
  g_computed.seconds += seconds;
#else
  static_cast<void>(seconds);
#endif
}
ComputeTally compute_tally() { return g_computed; }

namespace {
using EmulatedClock = double (*)();

// The emulator's charged seconds when HETSCAL_TEST_EMULATED_CLOCK=1 asks for them (looked up
// once), else nullptr: the wall clock.
EmulatedClock emulated_clock() {
  static const EmulatedClock clock = []() -> EmulatedClock {
    const char* asked = std::getenv("HETSCAL_TEST_EMULATED_CLOCK");
    if (asked == nullptr || std::strcmp(asked, "1") != 0) return nullptr;
    auto found = reinterpret_cast<EmulatedClock>(dlsym(RTLD_DEFAULT, "hetscal_slowdown_charged_seconds"));
    if (found == nullptr)
      std::fprintf(stderr, "hetscal: HETSCAL_TEST_EMULATED_CLOCK=1 without the emulator "
                           "(libhetscal-slowdown.so) preloaded: compute is timed by the wall clock\n");
    return found;
  }();
  return clock;
}
}  // namespace

bool compute_clock_is_emulated() { return emulated_clock() != nullptr; }

double compute_clock_seconds() {
  if (const EmulatedClock clock = emulated_clock()) return clock();
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double flop_balance(const std::vector<double>& flops, const std::vector<double>& speeds) {
  if (flops.size() != speeds.size())
    throw InvalidArgument("flop balance: " + std::to_string(flops.size()) + " counts but " +
                          std::to_string(speeds.size()) + " speeds");
  core::require_positive_finite(speeds, "flop balance speeds");
  double slowest_finish = 0.0;
  for (std::size_t i = 0; i < flops.size(); ++i)
    slowest_finish = std::max(slowest_finish, flops[i] / speeds[i]);
  if (slowest_finish == 0.0) return 1.0;  // no work at all is perfectly balanced
  const double ideal_finish = std::accumulate(flops.begin(), flops.end(), 0.0) /
                              std::accumulate(speeds.begin(), speeds.end(), 0.0);
  return ideal_finish / slowest_finish;
}

FlopBalance gather_flop_balance(MPI_Comm comm, const std::vector<double>& speeds) {
  int size = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  FlopBalance result;
  result.flops.resize(static_cast<std::size_t>(size));
  double mine = g_local_flops;
  mpi::check_mpi(MPI_Allgather(&mine, 1, MPI_DOUBLE, result.flops.data(), 1, MPI_DOUBLE, comm), "MPI_Allgather");
  result.speeds = speeds;
  result.balance = flop_balance(result.flops, speeds);
  return result;
}

}  // namespace hetscal::kernels
