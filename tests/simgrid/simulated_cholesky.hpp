#pragma once
/// @file simulated_cholesky.hpp
/// Shared by the simulated Cholesky benchmarks: the work per time unit W a planned candidate
/// (core::Candidate) promises, the planner's candidates picked by modelled time, and one
/// flop-injected run of kernels::cholesky with its flop balance.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cholesky_plan.hpp"
#include "kernels/cholesky.hpp"
#include "kernels/flop_counter.hpp"
#include "layout/local_storage.hpp"
#include "simulation_support.hpp"

namespace hetscal::bench {

/// W of seed 000 for any candidate: the matrix elements done per second in steady state when
/// every processor works on its share, 1 / max_k(share_k / speed_k). share_k is the fraction
/// of the R×C pattern cells processor k owns, or Σ r_i·c_j / (Σr·Σc) over its cells of a
/// Cartesian grid. On a symmetric pattern every cell covers as much of the lower triangle
/// as of the whole matrix, so the same shares hold for Cholesky.
inline double work_per_time(const core::Candidate& c, const core::Platform& platform) {
  std::vector<double> share(platform.size(), 0.0);
  const bool cartesian = c.kind == core::CandidateKind::Cartesian;
  double row_total = 0.0, col_total = 0.0;
  for (std::size_t i = 0; i < c.rows; ++i) row_total += cartesian ? c.row_share[i] : 1.0;
  for (std::size_t j = 0; j < c.cols; ++j) col_total += cartesian ? c.col_share[j] : 1.0;
  for (std::size_t i = 0; i < c.rows; ++i)
    for (std::size_t j = 0; j < c.cols; ++j)
      share[c.owner[i * c.cols + j]] +=
          cartesian ? c.row_share[i] * c.col_share[j] / (row_total * col_total)
                    : 1.0 / (row_total * col_total);
  double slowest = 0.0;  // max_k share_k / speed_k: the time of one unit of work
  for (std::size_t k = 0; k < share.size(); ++k)
    slowest = std::max(slowest, share[k] / platform.processors[k].speed_flops);
  return 1.0 / slowest;
}

/// The model's time of the factorisation itself (compute, panels, broadcasts), without
/// moving the caller's data in and out: what a run on data already in place measures.
inline double kernel_seconds(const core::Prediction& p) {
  return p.time.compute + p.time.panel + p.time.communication;
}

/// The candidate of `kind` priced in `choice` whose processors satisfy `wanted` (a predicate
/// on the candidate's processor list) with the lowest kernel_seconds.
/// @throws std::runtime_error when the planner priced no such candidate.
template <typename Wanted>
const core::CholeskyCandidate& fastest_priced(const core::CholeskyChoice& choice,
                                              core::CholeskyLayoutKind kind, Wanted wanted) {
  const core::CholeskyCandidate* best = nullptr;
  for (const auto& c : choice.priced)
    if (c.kind == kind && wanted(c.prediction.candidate.processors()) &&
        (best == nullptr || kernel_seconds(c.prediction) < kernel_seconds(best->prediction)))
      best = &c;
  if (best == nullptr)
    throw std::runtime_error(std::string("the planner priced no ") +
                             core::cholesky_layout_name(kind) + " wanted here");
  return *best;
}

/// Flops of a real Cholesky factorisation of order n (LAWN 41: n³/6 + n²/2 + n/3
/// multiplications and n³/6 − n/6 additions), independent of the kernel's tally.
inline double cholesky_flops(std::int64_t n) {
  const double x = static_cast<double>(n);
  return x * x * x / 3.0 + x * x / 2.0 + x / 6.0;
}

struct SimulatedCholesky {
  double seconds = 0.0;
  double balance = 1.0;  ///< kernels::flop_balance over the host speeds
};

/// Factorises (UPLO = L) a meaningless N×N matrix on distribution `d` with flops injected
/// (ComputeMode::Skip), collective over `comm` whose rank k runs on a host of speed
/// speeds[k]; the matrix lives in SMPI shared memory.
/// @throws std::runtime_error when the ranks' flops do not add up to cholesky_flops(N) or
///   INFO != 0: the simulation would then not have priced one whole factorisation.
inline SimulatedCholesky simulate_cholesky(const layout::Distribution& d, MPI_Comm comm,
                                           const std::vector<double>& speeds) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::unique_ptr<layout::LocalLayout> storage = layout::make_local_layout(d, rank);
  const SharedLocalMatrix a(*storage);
  kernels::reset_flops();
  std::int64_t info = 0;
  SimulatedCholesky run;
  run.seconds = simulated_seconds(comm, [&] {
    info = kernels::cholesky<double>(kernels::Uplo::Lower, {&d, storage.get(), a.data()}, comm);
  });
  const kernels::FlopBalance flops = kernels::gather_flop_balance(comm, speeds);
  double total = 0.0;
  for (double f : flops.flops) total += f;
  const double expected = cholesky_flops(d.rows().extent());
  if (info != 0 || std::abs(total - expected) > 1e-9 * expected)
    throw std::runtime_error("simulated Cholesky: INFO " + std::to_string(info) + ", " +
                             std::to_string(total) + " flops counted, " + std::to_string(expected) +
                             " expected");
  run.balance = flops.balance;
  return run;
}

}  // namespace hetscal::bench
