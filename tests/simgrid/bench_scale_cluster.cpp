// A heterogeneous cluster at scale (issue 32): nodes of several generations, many ranks each,
// every node's ranks sharing its one link into a switch (the platform tests/bench/scale/
// run_simgrid.sh writes). For each routine (GEMM, LU, QR, Cholesky) the run time's own planner
// (runtime::plan_gemm_layout, choose_lu_layout, choose_qr_layout, choose_cholesky_layout: the
// functions the shim calls) chooses a layout on the ranks' agreed speeds; hetscal's kernel then
// runs on that layout and on ScaLAPACK's 2D block-cyclic layout over all ranks (the squarest
// grid, the tile of 64, 128 or 256 the model prices fastest for it), flops injected
// (ComputeMode::Skip), matrices and the kernels' element buffers in SMPI shared memory. Both
// runs start with the data in place: the comparison is of the layouts, not of the moves.
//
// The time model is given the link's whole bandwidth and each rank's node: a rank alone on
// its link (a panel's chain) gets all of it, and the messages a node's ranks send or receive
// in one phase queue on it (core::Network::node_of). Before, it was given each rank's fair
// share (link / ranks per node), which charged the LU's gathered panel 16 times its time and
// kept the plans to few ranks.
//
// Planning runs once, on rank 0 (each simulated rank is a thread of this one process, so
// planning on every rank would cost P times its real time; simulated time does not count it),
// and the plan is sent to the others.
//
// Prints per routine the plan and the simulated and modelled seconds of both layouts (and the real
// seconds each simulation took: the 30-minute budget of issue 32), then,
// last, one line per routine:
//   scale: ranks=256 LU N=47104 hetscal vs 2DBC 1.93x, of theory 0.83, model/simulated 1.04
// theory = Σ speeds / (P × slowest speed): the speed-up perfect balance gives over an even
// split; model/simulated = the model's time of the kernel on hetscal's layout (compute,
// panels, broadcasts) over its simulated time.
//
// Usage (run_simgrid.sh): smpirun -np P -platform PLATFORM.xml -hostfile PLATFORM.hosts
//   --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global
//   bench_scale_cluster RANKS_PER_NODE LINK_BYTES_PER_S LATENCY_S N [ROUTINES]
// ROUTINES: a comma list of gemm, lu, qr, cholesky (default all four).
#include <mpi.h>
#include <simgrid/host.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/gemm.hpp"
#include "layout/candidate_distribution.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/local_storage.hpp"
#include "runtime/gemm_plan.hpp"
#include "runtime/geqrf_plan.hpp"
#include "runtime/getrf_plan.hpp"
#include "runtime/potrf_plan.hpp"
#include "runtime_gemm_plan.hpp"
#include "shared_workspace.hpp"
#include "simulated_cluster.hpp"
#include "simulated_factorization.hpp"
#include "simulation_support.hpp"

namespace {
using namespace hetscal;

/// Memory the planner may use per rank: a node of 64 GiB over 16 ranks. The simulated
/// matrices live in shared memory; this only has to admit the plans.
constexpr double kMemoryPerRank = 4.0 * 1024 * 1024 * 1024;
/// The 2DBC tile sizes tried (ScaLAPACK users' usual range), the fastest modelled kept.
const std::vector<std::size_t> kCyclicTiles{64, 128, 256};

struct Cluster {
  std::vector<double> flops;     ///< per rank: its host's core speed
  std::vector<double> relative;  ///< flops / the slowest's
  core::Platform platform;       ///< as the planner sees it
  int rank = 0, ranks = 0;

  double theory() const {
    double sum = 0.0;
    for (double s : relative) sum += s;
    return sum / static_cast<double>(relative.size());  // relative: the slowest is 1
  }
};

/// The speed agreement: every rank's host speed, gathered on every rank.
Cluster agree_on_cluster(double link_bytes_per_s, double latency_s) {
  Cluster c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.ranks);
  double mine = sg_host_get_speed(sg_host_self());
  c.flops.resize(static_cast<std::size_t>(c.ranks));
  MPI_Allgather(&mine, 1, MPI_DOUBLE, c.flops.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
  const double slowest = *std::min_element(c.flops.begin(), c.flops.end());
  for (double f : c.flops) {
    c.relative.push_back(f / slowest);
    c.platform.processors.push_back({f, kMemoryPerRank});
  }
  // Each rank's node, from its host ("node-<i>", write_platform.py): the model queues the
  // messages of a node's ranks on its one link (core::Network::node_of).
  const std::string host = sg_host_get_name(sg_host_self());
  const unsigned long my_node = std::stoul(host.substr(host.rfind('-') + 1));
  std::vector<unsigned long> nodes(static_cast<std::size_t>(c.ranks));
  MPI_Allgather(&my_node, 1, MPI_UNSIGNED_LONG, nodes.data(), 1, MPI_UNSIGNED_LONG, MPI_COMM_WORLD);
  c.platform.network = {latency_s, link_bytes_per_s, core::NetworkKind::Switched, {}};
  c.platform.network.node_of.assign(nodes.begin(), nodes.end());
  return c;  // kernel: injected flops run at peak for every tile size (KernelRate defaults)
}

/// The squarest p×q = P with p <= q (ScaLAPACK users' usual grid).
std::pair<int, int> squarest_grid(int ranks) {
  int p = static_cast<int>(std::sqrt(static_cast<double>(ranks)));
  while (ranks % p != 0) --p;
  return {p, ranks / p};
}

/// 2DBC on the squarest grid, ranks row-major (BLACS's default), as the model's candidate.
core::Candidate cyclic_candidate(int ranks, std::size_t tile) {
  const auto [p, q] = squarest_grid(ranks);
  core::Candidate c;
  c.kind = core::CandidateKind::Cartesian;
  c.label = "2DBC " + std::to_string(p) + "x" + std::to_string(q);
  c.tile = tile;
  c.rows = static_cast<std::size_t>(p), c.cols = static_cast<std::size_t>(q);
  for (int r = 0; r < ranks; ++r) c.owner.push_back(static_cast<std::size_t>(r));
  c.row_share.assign(c.rows, 1.0), c.col_share.assign(c.cols, 1.0);
  for (std::size_t i = 0; i < c.rows; ++i) c.row_order.push_back(i);
  for (std::size_t j = 0; j < c.cols; ++j) c.col_order.push_back(j);
  return c;
}

std::unique_ptr<layout::CartesianDistribution> cyclic_distribution(const core::Candidate& c,
                                                                   std::int64_t n) {
  const auto tile = static_cast<std::int64_t>(c.tile);
  std::vector<int> rows(c.rows), cols(c.cols);
  for (std::size_t i = 0; i < c.rows; ++i) rows[i] = static_cast<int>(i);
  for (std::size_t j = 0; j < c.cols; ++j) cols[j] = static_cast<int>(j);
  return std::make_unique<layout::CartesianDistribution>(
      layout::TileSplit(n, tile), layout::TileSplit(n, tile), rows, cols,
      layout::ProcessGrid::row_major(static_cast<int>(c.rows), static_cast<int>(c.cols)));
}

/// The caller's layout as the run time would read it from a ScaLAPACK descriptor: 2DBC on
/// the squarest grid in tiles of `block`, the matrix starting at (1, 1).
core::CallerLayout caller_of(int ranks, std::size_t block) {
  const auto [p, q] = squarest_grid(ranks);
  core::CallerLayout caller;
  caller.grid_rows = static_cast<std::size_t>(p), caller.grid_cols = static_cast<std::size_t>(q);
  caller.block = block;
  for (int r = 0; r < ranks; ++r) caller.processor_at.push_back(static_cast<std::size_t>(r));
  return caller;
}

core::Problem problem_of(core::Routine routine, std::int64_t n, const core::CallerLayout& caller) {
  core::Problem problem;
  problem.routine = routine;
  problem.n = static_cast<std::size_t>(n);
  problem.caller = caller;
  return problem;
}

/// The 2DBC candidate of the squarest grid with the tile the model prices fastest.
core::Prediction best_cyclic(const Cluster& c, core::Routine routine, std::int64_t n) {
  core::Prediction best;
  double best_s = 0.0;
  for (std::size_t tile : kCyclicTiles) {
    const core::Candidate candidate = cyclic_candidate(c.ranks, tile);
    const core::Prediction p =
        core::predict(c.platform, problem_of(routine, n, caller_of(c.ranks, tile)), candidate);
    if (best_s == 0.0 || bench::kernel_seconds(p) < best_s) best = p, best_s = bench::kernel_seconds(p);
  }
  return best;
}

/// What one routine's comparison measured (rank 0's figures).
struct RoutineResult {
  std::string routine, plan;
  std::int64_t n = 0;
  std::size_t tile = 0, plan_ranks = 0;
  double planning_s = 0.0;  ///< real seconds of the run time's planner on rank 0
  double real_s = 0.0;      ///< real seconds of planning and both simulations
  double hetscal_real_s = 0.0, cyclic_real_s = 0.0;  ///< real seconds of each simulation
  double hetscal_s = 0.0, hetscal_model_s = 0.0, hetscal_balance = 1.0;
  core::TimeBreakdown hetscal_model, cyclic_model;  ///< the model's parts of the two
  std::string cyclic;
  std::size_t cyclic_tile = 0;
  double cyclic_s = 0.0, cyclic_model_s = 0.0, cyclic_balance = 1.0;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Rank 0 says which plan it is about to simulate: at scale a simulation lasts minutes, and
/// a run that fails in it should still tell what it was running.
void announce_plan(const Cluster& c, const RoutineResult& r) {
  if (c.rank != 0) return;
  std::printf("%-8s N=%lld simulating plan %s, tile %zu, %zu ranks (planned in %.2f s)\n",
              r.routine.c_str(), (long long)r.n, r.plan.c_str(), r.tile, r.plan_ranks,
              r.planning_s);
  std::fflush(stdout);
}

/// C = A·B + C on three distributions (one call, every rank); the flop count checked.
bench::SimulatedRun simulate_gemm(const layout::Distribution& a, const layout::Distribution& b,
                                  const layout::Distribution& c, std::int64_t n,
                                  const std::vector<double>& speeds) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto sa = layout::make_local_layout(a, rank), sb = layout::make_local_layout(b, rank),
             sc = layout::make_local_layout(c, rank);
  const bench::SharedLocalMatrix ma(*sa), mb(*sb), mc(*sc);
  kernels::reset_flops();
  bench::SimulatedRun run;
  run.seconds = bench::simulated_seconds(MPI_COMM_WORLD, [&] {
    kernels::gemm<double>(kernels::Op::NoTrans, kernels::Op::NoTrans, 1.0, {&a, sa.get(), ma.data()},
                          {&b, sb.get(), mb.data()}, 1.0, {&c, sc.get(), mc.data()}, MPI_COMM_WORLD);
  });
  const kernels::FlopBalance flops = kernels::gather_flop_balance(MPI_COMM_WORLD, speeds);
  double total = 0.0;
  for (double f : flops.flops) total += f;
  const double expected = 2.0 * double(n) * double(n) * double(n);
  if (std::abs(total - expected) > 1e-9 * expected)
    throw std::runtime_error("simulated GEMM: " + std::to_string(total) + " flops counted, " +
                             std::to_string(expected) + " expected");
  run.balance = flops.balance;
  return run;
}

/// The run time's GEMM plan against 2DBC.
RoutineResult compare_gemm(const Cluster& c, std::int64_t n) {
  RoutineResult r;
  r.routine = "GEMM", r.n = n;
  const bench::PlannedGemm plan = bench::planned_gemm(c.relative, n, r.planning_s);
  const core::Prediction cyclic = best_cyclic(c, core::Routine::Gemm, n);
  const core::Problem problem = problem_of(core::Routine::Gemm, n, caller_of(c.ranks, cyclic.candidate.tile));
  r.plan = plan.candidate.label, r.tile = plan.candidate.tile;
  r.plan_ranks = plan.candidate.processors().size();
  announce_plan(c, r);
  const core::Prediction mine_predicted = core::predict(c.platform, problem, plan.candidate);
  r.hetscal_model_s = bench::kernel_seconds(mine_predicted), r.hetscal_model = mine_predicted.time;
  auto start = std::chrono::steady_clock::now();
  const bench::SimulatedRun mine = simulate_gemm(*plan.a, *plan.b, *plan.c, n, c.relative);
  r.hetscal_real_s = seconds_since(start);
  r.hetscal_s = mine.seconds, r.hetscal_balance = mine.balance;
  r.cyclic = cyclic.candidate.label, r.cyclic_tile = cyclic.candidate.tile;
  r.cyclic_model_s = bench::kernel_seconds(cyclic), r.cyclic_model = cyclic.time;
  const auto d = cyclic_distribution(cyclic.candidate, n);
  start = std::chrono::steady_clock::now();
  const bench::SimulatedRun theirs = simulate_gemm(*d, *d, *d, n, c.relative);
  r.cyclic_real_s = seconds_since(start);
  r.cyclic_s = theirs.seconds, r.cyclic_balance = theirs.balance;
  return r;
}

/// Every kind but the caller's own layout (the comparison is against 2DBC, run below).
template <typename Kind>
std::vector<Kind> computed_kinds(std::initializer_list<Kind> kinds) {
  return std::vector<Kind>(kinds);
}

/// The run time's plan of one factorisation on rank 0, sent to the others: the candidate it
/// chose and the model's prediction of it with the data in place.
core::Prediction planned_factorization(const Cluster& c, core::Routine routine, std::int64_t n,
                                       const core::CallerLayout& caller, double& planning_s) {
  core::Prediction prediction;
  if (c.rank == 0) {
    const core::Problem problem = problem_of(routine, n, caller);
    const auto start = std::chrono::steady_clock::now();
    core::Candidate chosen;
    using core::LuLayoutKind;
    const std::vector<LuLayoutKind> lu_kinds =
        computed_kinds({LuLayoutKind::BlockCyclic, LuLayoutKind::HeterogeneousGrid,
                        LuLayoutKind::G2dbc, LuLayoutKind::HeteroPattern});
    if (routine == core::Routine::LU) {
      chosen = runtime::choose_lu_layout(c.platform, problem, lu_kinds).candidate;
    } else if (routine == core::Routine::QR) {
      chosen = runtime::choose_qr_layout(c.platform, problem, lu_kinds).candidate;
    } else {
      using core::CholeskyLayoutKind;
      chosen = runtime::choose_cholesky_layout(
                   c.platform, problem,
                   computed_kinds({CholeskyLayoutKind::BlockCyclic, CholeskyLayoutKind::HeterogeneousGrid,
                                   CholeskyLayoutKind::G2dbc, CholeskyLayoutKind::Gcrm,
                                   CholeskyLayoutKind::HeteroSymmetric}))
                   .candidate;
    }
    planning_s = seconds_since(start);
    prediction = core::predict(c.platform, problem, chosen);
  }
  bench::broadcast_prediction(prediction, MPI_COMM_WORLD);
  return prediction;
}

bench::SimulatedRun simulate_factorization(core::Routine routine, const core::Candidate& candidate,
                                           const layout::Distribution& d, const std::vector<double>& speeds) {
  if (routine == core::Routine::LU) return bench::simulate_lu(d, MPI_COMM_WORLD, speeds, candidate.panel_rank);
  if (routine == core::Routine::QR) return bench::simulate_qr(d, MPI_COMM_WORLD, speeds, candidate.panel_rank);
  return bench::simulate_cholesky(d, MPI_COMM_WORLD, speeds);
}

RoutineResult compare_factorization(const Cluster& c, core::Routine routine, std::int64_t n) {
  RoutineResult r;
  r.routine = core::routine_name(routine), r.n = n;
  const core::Prediction cyclic = best_cyclic(c, routine, n);
  const core::Prediction planned =
      planned_factorization(c, routine, n, caller_of(c.ranks, cyclic.candidate.tile), r.planning_s);
  r.plan = planned.candidate.label, r.tile = planned.candidate.tile;
  r.plan_ranks = planned.candidate.processors().size();
  announce_plan(c, r);
  r.hetscal_model_s = bench::kernel_seconds(planned), r.hetscal_model = planned.time;
  const auto d = layout::distribution_of(planned.candidate, n, c.ranks);
  auto start = std::chrono::steady_clock::now();
  const bench::SimulatedRun mine = simulate_factorization(routine, planned.candidate, *d, c.relative);
  r.hetscal_real_s = seconds_since(start);
  r.hetscal_s = mine.seconds, r.hetscal_balance = mine.balance;
  r.cyclic = cyclic.candidate.label, r.cyclic_tile = cyclic.candidate.tile;
  r.cyclic_model_s = bench::kernel_seconds(cyclic), r.cyclic_model = cyclic.time;
  const auto cd = cyclic_distribution(cyclic.candidate, n);
  start = std::chrono::steady_clock::now();
  const bench::SimulatedRun theirs = simulate_factorization(routine, cyclic.candidate, *cd, c.relative);
  r.cyclic_real_s = seconds_since(start);
  r.cyclic_s = theirs.seconds, r.cyclic_balance = theirs.balance;
  return r;
}

core::Routine routine_named(const std::string& name) {
  if (name == "gemm") return core::Routine::Gemm;
  if (name == "lu") return core::Routine::LU;
  if (name == "qr") return core::Routine::QR;
  if (name == "cholesky") return core::Routine::Cholesky;
  throw std::invalid_argument("unknown routine '" + name + "' (gemm, lu, qr, cholesky)");
}

void print_details(const RoutineResult& r) {
  std::printf("%-8s N=%lld plan: %s, tile %zu, %zu ranks, planned in %.2f s (real, rank 0; %.0f s real in all)\n",
              r.routine.c_str(), (long long)r.n, r.plan.c_str(), r.tile, r.plan_ranks, r.planning_s, r.real_s);
  const auto parts = [](const core::TimeBreakdown& t) {
    char text[96];
    std::snprintf(text, sizeof text, "compute %.4g + panel %.4g + messages %.4g", t.compute,
                  t.panel, t.communication);
    return std::string(text);
  };
  std::printf("%-8s   hetscal simulated %.6g s, model %.4g s (%s), flop balance %.3f; %.0f s real\n", "",
              r.hetscal_s, r.hetscal_model_s, parts(r.hetscal_model).c_str(), r.hetscal_balance,
              r.hetscal_real_s);
  std::printf("%-8s   %s tile %zu simulated %.6g s, model %.4g s (%s), flop balance %.3f; %.0f s real\n", "",
              r.cyclic.c_str(), r.cyclic_tile, r.cyclic_s, r.cyclic_model_s,
              parts(r.cyclic_model).c_str(), r.cyclic_balance, r.cyclic_real_s);
  std::fflush(stdout);
}

void print_summary(const RoutineResult& r, int ranks, double theory) {
  const double speedup = r.cyclic_s / r.hetscal_s;
  std::printf("scale: ranks=%d %s N=%lld hetscal vs 2DBC %.2fx, of theory %.2f, model/simulated %.2f\n",
              ranks, r.routine.c_str(), (long long)r.n, speedup, speedup / theory,
              r.hetscal_model_s / r.hetscal_s);
}

int run(int argc, char** argv, int rank) {
  if (argc < 5) {
    if (rank == 0)
      std::printf("usage: bench_scale_cluster RANKS_PER_NODE LINK_BYTES_PER_S LATENCY_S N [ROUTINES]\n");
    return 2;
  }
  const int ranks_per_node = std::stoi(argv[1]);
  const double link = std::stod(argv[2]), latency = std::stod(argv[3]);
  const std::int64_t n = std::stoll(argv[4]);
  std::vector<std::string> names;
  std::stringstream list(argc > 5 ? argv[5] : "gemm,lu,qr,cholesky");
  for (std::string name; std::getline(list, name, ',');) names.push_back(name);
  const Cluster cluster = agree_on_cluster(link, latency);
  kernels::set_compute_mode(kernels::ComputeMode::Skip);
  bench::share_kernel_buffers();
  if (rank == 0)
    std::printf("%d ranks, %d per node, speeds %g-%g (relative), theory %.3f; model link %.3g B/s, shared by a node's ranks\n",
                cluster.ranks, ranks_per_node, 1.0,
                *std::max_element(cluster.relative.begin(), cluster.relative.end()), cluster.theory(),
                cluster.platform.network.bandwidth_bytes_per_s);
  std::fflush(stdout);
  std::vector<RoutineResult> results;
  for (const std::string& name : names) {
    const core::Routine routine = routine_named(name);
    const auto start = std::chrono::steady_clock::now();
    results.push_back(routine == core::Routine::Gemm ? compare_gemm(cluster, n)
                                                     : compare_factorization(cluster, routine, n));
    results.back().real_s = seconds_since(start);
    if (rank == 0) print_details(results.back());
  }
  if (rank == 0)
    for (const RoutineResult& r : results) print_summary(r, cluster.ranks, cluster.theory());
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return hetscal::bench::run_simulation(argc, argv, run); }
