// Simulated adaptive scenario (issue 12; README, "Speeds learnt at run time"): the 9
// workstations of Boudet, Petitet, Rastello & Robert (1999, Table 3) on their shared
// Ethernet, a loop of CALLS GEMMs (C = A·B + C, N×N) in which guinness (rank 1) turns 3x
// slower after a quarter of the loop. Four variants, each a full loop:
//   static    hetscal's GEMM plan (runtime::plan_gemm_layout, the shim's) for the starting
//             speeds, kept throughout;
//   adaptive  the run time's step at the start of every call: each rank observes itself
//             (runtime::observe_self: its kernels' flops over the simulated seconds they took),
//             the ranks agree (runtime::agree_on_observations: one MPI_Allgather, then
//             core::SpeedTracker's smoothing and core::replanning_gain's rule), and the call
//             computes on a new plan when the step says so;
//   oracle    planned for the speeds the hosts really have at the start of each call;
//   2dbc      ScaLAPACK's 2D block-cyclic distribution on a 3×3 grid, tiles of NB.
// Each variant runs in its own period of the platform's speed profile
// (platforms/nine_workstations_slowing.xml: guinness slows kChangeSeconds into every
// kPeriodSeconds). Calls 1..C-1 (C = CALLS/4 + 1) run at full speed; the program then idles
// (simulated time, outside every call) until the change, so that guinness is 3x slower from
// call C on in every variant: the change lands between two calls, as the real scenario's
// oracle assumes (tests/bench/adaptive/run_real.sh). Only the kernels are timed (flops
// injected, matrices in SMPI shared memory): moving a caller's operands in and out, which the
// shim does on every call whichever plan it uses, is left out.
//
// Usage (tests/bench/adaptive/run_simgrid.sh): smpirun -np 9 -platform
//   nine_workstations_slowing.xml -hostfile nine_workstations_slowing.hosts
//   --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global
//   bench_adaptive_nine_workstations [OUTPUT_PREFIX [N [CALLS [NB]]]]
// Prints the time of every call and the summary; writes OUTPUT_PREFIX.csv (default
// nine_workstations_adaptive): routine, n, scenario, change_call, call, seconds,
// planned_speed (the slowing rank's speed in the plan the call used, flop/s; empty for 2dbc),
// actual_speed (its host's speed during the call). tests/report draws the time per call.
#include <mpi.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/adaptation/speed_tracking.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/gemm.hpp"
#include "layout/local_storage.hpp"
#include "runtime/gemm_plan.hpp"
#include "runtime/speed_observation.hpp"
#include "simulation_support.hpp"

namespace {
using namespace hetscal;

constexpr int kRanks = 9;
constexpr int kSlowingRank = 1;              // guinness
constexpr double kSlowdown = 3.0;            // guinness_slowing.profile: 1/3 of its peak
constexpr double kChangeSeconds = 100000.0;  // into each period of the profile
constexpr double kPeriodSeconds = 1000000.0;

enum class Variant { Static, Adaptive, Oracle, BlockCyclic };
constexpr Variant kVariants[] = {Variant::Static, Variant::Adaptive, Variant::Oracle,
                                 Variant::BlockCyclic};

const char* name_of(Variant v) {
  switch (v) {
    case Variant::Static:
      return "static";
    case Variant::Adaptive:
      return "adaptive";
    case Variant::Oracle:
      return "oracle";
    case Variant::BlockCyclic:
      return "2dbc";
  }
  return "?";
}

struct Scenario {
  std::int64_t n = 3000, nb = 64;
  int calls = 20;
  int change_call() const { return calls / 4 + 1; }
};

struct CallResult {
  double seconds = 0.0;
  double planned_speed = 0.0;  ///< the slowing rank's, in the plan the call used (0: no plan)
  double actual_speed = 0.0;   ///< the slowing rank's host, during the call
};

/// Every rank's host speed now (peak times the profile's fraction), flop/s; collective.
std::vector<double> host_speeds(MPI_Comm comm) {
  const sg_host_t host = sg_host_self();
  const double mine = sg_host_get_speed(host) * sg_host_get_available_speed(host);
  std::vector<double> speeds(kRanks);
  MPI_Allgather(&mine, 1, MPI_DOUBLE, speeds.data(), 1, MPI_DOUBLE, comm);
  return speeds;
}

/// The simulated clock, the same on every rank (the latest rank's), so that the checks of the
/// loop's timing below decide alike everywhere; collective.
double agreed_clock(MPI_Comm comm) {
  const double mine = simgrid_get_clock();
  double latest = 0.0;
  MPI_Allreduce(&mine, &latest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return latest;
}

/// ScaLAPACK's distribution of the three operands: 3×3 grid, ranks row-major, nb×nb tiles.
runtime::GemmLayout block_cyclic_layout(const Scenario& s) {
  runtime::GemmLayout l;
  l.tile = s.nb;
  l.c = std::make_unique<layout::CartesianDistribution>(
      layout::TileSplit(s.n, s.nb), layout::TileSplit(s.n, s.nb), std::vector<int>{0, 1, 2},
      std::vector<int>{0, 1, 2}, layout::ProcessGrid(3, 3, {0, 1, 2, 3, 4, 5, 6, 7, 8}, kRanks));
  l.a = runtime::aligned_distribution(*l.c, s.n, s.n);
  l.b = runtime::aligned_distribution(*l.c, s.n, s.n);
  return l;
}

/// One simulated C = A·B + C on the layout (beta = 1 keeps the kernel from writing C); the
/// grid's communicators are built by the layout's first call and kept, as the run time does.
void multiply(const runtime::GemmLayout& l, MPI_Comm comm, int rank) {
  const auto sa = layout::make_local_layout(*l.a, rank), sb = layout::make_local_layout(*l.b, rank),
             sc = layout::make_local_layout(*l.c, rank);
  const bench::SharedLocalMatrix a(*sa), b(*sb), c(*sc);
  kernels::gemm<double>(kernels::Op::NoTrans, kernels::Op::NoTrans, 1.0,
                        {l.a.get(), sa.get(), a.data()}, {l.b.get(), sb.get(), b.data()}, 1.0,
                        {l.c.get(), sc.get(), c.data()}, comm, l.grid_communicators(comm));
}

/// What one variant computes on, and for the adaptive one what it has learnt.
class VariantState {
 public:
  VariantState(Variant variant, const Scenario& s, const std::vector<double>& speeds)
      : variant_(variant), scenario_(s) {
    if (variant == Variant::BlockCyclic) {
      layout_ = block_cyclic_layout(s);
      return;
    }
    plan_for(speeds);
    if (variant == Variant::Adaptive) {
      tracker_.emplace(speeds);
      step_ = runtime::AdaptationStep::for_ranks(speeds.size());
      mark_ = kernels::compute_tally();
    }
  }

  /// Before a call, outside its time: the oracle plans for the hosts' speeds of the moment.
  void before_call(const std::vector<double>& speeds) {
    if (variant_ == Variant::Oracle && speeds != planned_) plan_for(speeds);
  }

  /// The call: the adaptive variant's step (collective), then the GEMM.
  void call(MPI_Comm comm, int rank) {
    if (variant_ == Variant::Adaptive) {
      const double mine = runtime::observe_self(mark_, 0);  // no probe: every rank computes
      runtime::agree_on_observations(comm, *tracker_, mine, 0.0, planned_, step_);
      if (step_.replan) plan_for(step_.speeds);
    }
    multiply(*layout_, comm, rank);
  }

  double planned_speed() const {
    return variant_ == Variant::BlockCyclic ? 0.0 : planned_[kSlowingRank];
  }

 private:
  void plan_for(const std::vector<double>& speeds) {
    planned_ = speeds;
    layout_ = runtime::plan_gemm_layout(speeds, scenario_.n, scenario_.n, scenario_.n);
  }

  Variant variant_;
  Scenario scenario_;
  std::vector<double> planned_;
  std::optional<runtime::GemmLayout> layout_;
  std::optional<core::SpeedTracker> tracker_;
  runtime::AdaptationStep step_;
  kernels::ComputeTally mark_;
};

/// Idles until the profile's change in the period that began at `start`, and checks that the
/// calls before it ended in time and that the slowing host did slow down.
void wait_for_change(double start, const std::vector<double>& starting_speeds, MPI_Comm comm) {
  if (agreed_clock(comm) >= start + kChangeSeconds)
    throw std::runtime_error("the calls before the change outlast the profile's " +
                             std::to_string(kChangeSeconds) + " s: use a smaller N");
  sg_actor_sleep_until(start + kChangeSeconds + 1e-3);
  MPI_Barrier(comm);
  const double now = host_speeds(comm)[kSlowingRank], before = starting_speeds[kSlowingRank];
  if (std::fabs(now * kSlowdown / before - 1.0) > 1e-9)
    throw std::runtime_error("rank 1's host runs at " + std::to_string(now) +
                             " flop/s after the change, not " + std::to_string(before / kSlowdown) +
                             ": run on platforms/nine_workstations_slowing.xml");
}

/// One variant's loop in period `period` of the speed profile; collective.
std::vector<CallResult> run_loop(Variant variant, const Scenario& s, int period, MPI_Comm comm,
                                 int rank) {
  const double start = period * kPeriodSeconds;
  sg_actor_sleep_until(start);
  MPI_Barrier(comm);
  const std::vector<double> starting_speeds = host_speeds(comm);
  VariantState state(variant, s, starting_speeds);
  std::vector<CallResult> results;
  for (int call = 1; call <= s.calls; ++call) {
    if (call == s.change_call()) wait_for_change(start, starting_speeds, comm);
    const std::vector<double> speeds = host_speeds(comm);
    state.before_call(speeds);
    CallResult r;
    r.seconds = bench::simulated_seconds(comm, [&] { state.call(comm, rank); });
    r.planned_speed = state.planned_speed();
    r.actual_speed = speeds[kSlowingRank];
    results.push_back(r);
  }
  if (agreed_clock(comm) >= start + kPeriodSeconds)
    throw std::runtime_error(
        "the loop outlasts the profile's period: use a smaller N or fewer calls");
  return results;
}

using Results = std::vector<std::vector<CallResult>>;  // per variant (kVariants' order), per call

double seconds_from(const std::vector<CallResult>& loop, int first_call) {
  double total = 0.0;
  for (std::size_t i = static_cast<std::size_t>(first_call - 1); i < loop.size(); ++i)
    total += loop[i].seconds;
  return total;
}

void print_table(const Results& results, const Scenario& s) {
  std::printf(
      "seconds per call; rank 1's speed (Mflop/s): its host's, and in each variant's plan\n");
  std::printf("%4s %10s %10s %10s %10s %9s %9s %9s %9s\n", "call", "static", "adaptive", "oracle",
              "2dbc", "r1 host", "r1 stat.", "r1 adapt.", "r1 orac.");
  for (int call = 1; call <= s.calls; ++call) {
    const auto at = [&](Variant v) { return results[static_cast<std::size_t>(v)][call - 1]; };
    std::printf("%4d %10.2f %10.2f %10.2f %10.2f %9.1f %9.1f %9.1f %9.1f%s\n", call,
                at(Variant::Static).seconds, at(Variant::Adaptive).seconds,
                at(Variant::Oracle).seconds, at(Variant::BlockCyclic).seconds,
                at(Variant::Static).actual_speed / 1e6, at(Variant::Static).planned_speed / 1e6,
                at(Variant::Adaptive).planned_speed / 1e6, at(Variant::Oracle).planned_speed / 1e6,
                call == s.change_call() ? "  <- 3x slower" : "");
  }
}

/// The first call whose plan gives the slowing rank another speed than call 1's (0: none).
int replanned_call(const std::vector<CallResult>& loop) {
  for (std::size_t i = 1; i < loop.size(); ++i)
    if (loop[i].planned_speed != loop[0].planned_speed) return static_cast<int>(i + 1);
  return 0;
}

void print_summary(const Results& results, const Scenario& s) {
  const auto loop = [&](Variant v) -> const std::vector<CallResult>& {
    return results[static_cast<std::size_t>(v)];
  };
  const int change = s.change_call();
  const auto after = [&](Variant v) { return seconds_from(loop(v), change); };
  const auto whole = [&](Variant v) { return seconds_from(loop(v), 1); };
  const int replanned = replanned_call(loop(Variant::Adaptive));
  std::printf("adaptive: rank 1 planned at %.1f Mflop/s from call %d (3x slower from call %d)\n",
              replanned ? loop(Variant::Adaptive)[replanned - 1].planned_speed / 1e6 : 0.0,
              replanned, change);
  std::printf("after the change (calls %d-%d): adaptive/oracle x%.3f, static/oracle x%.3f\n",
              change, s.calls, after(Variant::Adaptive) / after(Variant::Oracle),
              after(Variant::Static) / after(Variant::Oracle));
  std::printf(
      "whole loop: 2DBC/adaptive x%.3f, static/adaptive x%.3f (adaptive %.1f s, static %.1f s, "
      "oracle %.1f s, 2DBC %.1f s)\n",
      whole(Variant::BlockCyclic) / whole(Variant::Adaptive),
      whole(Variant::Static) / whole(Variant::Adaptive), whole(Variant::Adaptive),
      whole(Variant::Static), whole(Variant::Oracle), whole(Variant::BlockCyclic));
}

/// Writes PREFIX.csv; false when it could not be written.
bool write_csv(const Results& results, const Scenario& s, const std::string& prefix) {
  std::FILE* csv = std::fopen((prefix + ".csv").c_str(), "w");
  if (csv == nullptr) return bench::finish_outputs(csv, prefix) == 0;
  std::fprintf(csv, "routine,n,scenario,change_call,call,seconds,planned_speed,actual_speed\n");
  for (Variant v : kVariants) {
    const std::vector<CallResult>& loop = results[static_cast<std::size_t>(v)];
    for (std::size_t i = 0; i < loop.size(); ++i) {
      const std::string planned =
          v == Variant::BlockCyclic ? "" : std::to_string(std::llround(loop[i].planned_speed));
      std::fprintf(csv, "gemm,%lld,%s,%d,%zu,%.6f,%s,%lld\n", (long long)s.n, name_of(v),
                   s.change_call(), i + 1, loop[i].seconds, planned.c_str(),
                   (long long)std::llround(loop[i].actual_speed));
    }
  }
  return bench::finish_outputs(csv, prefix) == 0;
}

int run(int argc, char** argv, int rank) {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::string prefix = argc > 1 ? argv[1] : "nine_workstations_adaptive";
  Scenario s;
  if (argc > 2) s.n = std::stoll(argv[2]);
  if (argc > 3) s.calls = std::stoi(argv[3]);
  if (argc > 4) s.nb = std::stoll(argv[4]);
  if (ranks != kRanks || s.n < 1 || s.calls < 4 || s.nb < 1) {
    if (rank == 0)
      std::printf(
          "usage: smpirun -np 9 ... bench_adaptive_nine_workstations [PREFIX [N [CALLS >= 4 "
          "[NB]]]]\n");
    return 2;
  }
  kernels::set_compute_mode(kernels::ComputeMode::Skip);
  Results results;
  for (Variant v : kVariants)
    results.push_back(run_loop(v, s, static_cast<int>(results.size()), MPI_COMM_WORLD, rank));
  if (rank != 0) return 0;
  std::printf("GEMM N = %lld, %d calls, rank 1 (guinness) 3x slower from call %d\n", (long long)s.n,
              s.calls, s.change_call());
  print_table(results, s);
  print_summary(results, s);
  return write_csv(results, s, prefix) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
