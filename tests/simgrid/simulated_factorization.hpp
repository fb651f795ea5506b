#pragma once
/// @file simulated_factorization.hpp
/// Shared by the simulated factorisation benchmarks (Cholesky, LU and QR): the work per time
/// unit W a planned candidate (core::Candidate) promises, the planner's candidates picked by
/// modelled time, and one flop-injected run of a factorisation kernel with its flop balance,
/// checked against the factorisation's flop count.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/planners/cholesky_plan.hpp"
#include "core/planners/lu_plan.hpp"
#include "kernels/cholesky.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/lu.hpp"
#include "kernels/qr.hpp"
#include "layout/local_storage.hpp"
#include "simulation_support.hpp"

namespace hetscal::bench {

/// The planner's platform for the simulated 9 workstations
/// (tests/simgrid/platforms/nine_workstations.xml): Table 3's speeds on a shared 100 Mb/s
/// Ethernet, no tile-size penalty (injected flops run at peak for every tile size).
inline core::Platform nine_workstations_model() {
  core::NineWorkstationsOptions options;
  options.half_tile = 0.0;
  return core::nine_workstations_platform(options);
}

/// Starts a benchmark on one simulated host per processor of `platform`: flops injected from
/// now on (ComputeMode::Skip). @return the processors' speeds, rank k's at k; empty when the
/// world has another size (rank 0 says so, naming `program`).
inline std::vector<double> start_on_hosts_of(const core::Platform& platform, const char* program,
                                             int rank) {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks != static_cast<int>(platform.size())) {
    if (rank == 0) std::printf("%s needs %zu ranks\n", program, platform.size());
    return {};
  }
  std::vector<double> speeds;
  for (const auto& p : platform.processors) speeds.push_back(p.speed_flops);
  kernels::set_compute_mode(kernels::ComputeMode::Skip);
  return speeds;
}

/// W of Boudet1999 for any candidate: the matrix elements done per second in steady state when
/// every processor works on its share, 1 / max_k(share_k / speed_k). share_k is the fraction
/// of the R×C pattern cells processor k owns, or Σ r_i·c_j / (Σr·Σc) over its cells of a
/// Cartesian grid. LU's and QR's trailing matrices cover whole patterns; on a symmetric
/// pattern every cell covers as much of the lower triangle as of the whole matrix, so the
/// same shares hold for Cholesky.
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

inline const char* layout_name(core::CholeskyLayoutKind kind) {
  return core::cholesky_layout_name(kind);
}
inline const char* layout_name(core::LuLayoutKind kind) { return core::lu_layout_name(kind); }

/// The candidate of `kind` priced in `choice` (a CholeskyChoice or an LuChoice) that
/// satisfies `wanted` (a predicate on its core::Candidate) with the lowest kernel_seconds.
/// @throws std::runtime_error when the planner priced no such candidate.
template <typename Choice, typename Kind, typename Wanted>
const typename decltype(Choice::priced)::value_type& fastest_priced(const Choice& choice, Kind kind,
                                                                    Wanted wanted) {
  const typename decltype(Choice::priced)::value_type* best = nullptr;
  for (const auto& c : choice.priced)
    if (c.kind == kind && wanted(c.prediction.candidate) &&
        (best == nullptr || kernel_seconds(c.prediction) < kernel_seconds(best->prediction)))
      best = &c;
  if (best == nullptr)
    throw std::runtime_error(std::string("the planner priced no ") + layout_name(kind) +
                             " wanted here");
  return *best;
}

/// Flops of a real Cholesky factorisation of order n (LAWN 41: n³/6 + n²/2 + n/3
/// multiplications and n³/6 − n/6 additions), independent of the kernel's tally.
inline double cholesky_flops(std::int64_t n) {
  const double x = static_cast<double>(n);
  return x * x * x / 3.0 + x * x / 2.0 + x / 6.0;
}

/// Flops of a real LU factorisation of an m×n matrix (LAWN 41's xGETRF, for m >= n:
/// mn²/2 − n³/6 + mn/2 − n²/2 + 2n/3 multiplications and mn²/2 − n³/6 − mn/2 + n/6
/// additions; m < n counts as the transposed shape), independent of the kernel's tally.
inline double lu_flops(std::int64_t m, std::int64_t n) {
  const double rows = static_cast<double>(std::max(m, n)), k = static_cast<double>(std::min(m, n));
  return rows * k * k - k * k * k / 3.0 - k * k / 2.0 + 5.0 * k / 6.0;
}

/// What a blocked LU on `d`'s tiles tallies beyond lu_flops: the flop counter charges every
/// xTRSM LAWN 41's n·m² whatever its diagonal, and step k's unit lower solve of the U row
/// block (b_k pivots, the c_k columns right of the panel) does n·m² − n·m of them, so the
/// tally exceeds the factorisation's count by Σ_k b_k·c_k.
inline double unit_solve_excess(const layout::Distribution& d) {
  const layout::TileSplit &rows = d.rows(), &cols = d.cols();
  double excess = 0.0;
  for (std::int64_t k = 0; k < std::min(rows.count(), cols.count()); ++k) {
    const std::int64_t pivots = std::min(rows.size(k), cols.size(k));
    excess += double(pivots) * double(cols.extent() - cols.offset(k) - cols.size(k));
  }
  return excess;
}

/// LAWN 41's GEQRF count for an m×n matrix, real: mn² − n³/3 + mn + n²/2 + 23n/6
/// multiplications and mn² − n³/3 + n²/2 + 5n/6 additions for m >= n; for m < n,
/// nm² − m³/3 + 2nm − m²/2 + 23m/6 and nm² − m³/3 + nm − m²/2 + 5m/6.
inline double lawn_geqrf_flops(std::int64_t rows, std::int64_t cols) {
  const double m = static_cast<double>(rows), n = static_cast<double>(cols);
  if (m >= n) return 2.0 * (m * n * n - n * n * n / 3.0 + n * n / 2.0) + m * n + 14.0 * n / 3.0;
  return 2.0 * (n * m * m - m * m * m / 3.0 - m * m / 2.0) + 3.0 * n * m + 14.0 * m / 3.0;
}

/// Flops of the blocked Householder QR (compact WY) on `d`'s tiles, real: step k factorises
/// tile column k from its diagonal down (h = M − offset rows, b columns, r = min(h, b)
/// reflectors) with LAWN 41's GEQRF count, builds T (xLARFT: column i costs 2i(h − i) + i²),
/// and updates each trailing column block of width w by W = Vᴴ·A (2hwr), W = Tᴴ·W (wr²)
/// and A −= V·W (2hwr). Counted from the algorithm, independent of the kernel's tally.
inline double blocked_qr_flops(const layout::Distribution& d) {
  const layout::TileSplit &rows = d.rows(), &cols = d.cols();
  double flops = 0.0;
  for (std::int64_t k = 0; k < std::min(rows.count(), cols.count()); ++k) {
    const std::int64_t h = rows.extent() - rows.offset(k), r = std::min(h, cols.size(k));
    flops += lawn_geqrf_flops(h, cols.size(k));
    for (std::int64_t i = 0; i < r; ++i) flops += double(2 * i * (h - i) + i * i);
    const double trailing = double(cols.extent() - cols.offset(k) - cols.size(k));
    flops += trailing * (4.0 * double(h) * double(r) + double(r) * double(r));
  }
  return flops;
}

struct SimulatedRun {
  double seconds = 0.0;
  double balance = 1.0;  ///< kernels::flop_balance over the host speeds
};

/// Runs `factorize(matrix)` (a kernels::DistributedMatrix<double> on `d`, returning INFO) on
/// a meaningless matrix with flops injected (ComputeMode::Skip), collective over `comm`
/// whose rank k runs on a host of speed speeds[k]; the matrix lives in SMPI shared memory.
/// @param what the factorisation's name, for the error.
/// @param expected_flops the factorisation's flop count (all ranks together).
/// @throws std::runtime_error when the ranks' flops do not add up to expected_flops or
///   INFO != 0: the simulation would then not have priced one whole factorisation.
template <typename Factorize>
SimulatedRun simulate_factorization(const char* what, const layout::Distribution& d, MPI_Comm comm,
                                    const std::vector<double>& speeds, double expected_flops,
                                    Factorize factorize) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::unique_ptr<layout::LocalLayout> storage = layout::make_local_layout(d, rank);
  const SharedLocalMatrix a(*storage);
  kernels::reset_flops();
  std::int64_t info = 0;
  SimulatedRun run;
  run.seconds = simulated_seconds(comm, [&] { info = factorize({&d, storage.get(), a.data()}); });
  const kernels::FlopBalance flops = kernels::gather_flop_balance(comm, speeds);
  double total = 0.0;
  for (double f : flops.flops) total += f;
  if (info != 0 || std::abs(total - expected_flops) > 1e-9 * expected_flops)
    throw std::runtime_error(std::string("simulated ") + what + ": INFO " + std::to_string(info) +
                             ", " + std::to_string(total) + " flops counted, " +
                             std::to_string(expected_flops) + " expected");
  run.balance = flops.balance;
  return run;
}

/// simulate_factorization of kernels::cholesky (UPLO = L) on the N×N distribution `d`.
inline SimulatedRun simulate_cholesky(const layout::Distribution& d, MPI_Comm comm,
                                      const std::vector<double>& speeds) {
  return simulate_factorization("Cholesky", d, comm, speeds, cholesky_flops(d.rows().extent()),
                                [&](kernels::DistributedMatrix<double> a) {
                                  return kernels::cholesky<double>(kernels::Uplo::Lower, a, comm);
                                });
}

/// The kernels' options (LU's, which QR's name too) for panels factorised where the planner
/// priced them: `panel_rank`, Fastest reading `speeds`.
inline kernels::LuOptions planned_panel_options(core::PanelRank panel_rank,
                                                const std::vector<double>& speeds) {
  kernels::LuOptions options;
  options.panel_rank = panel_rank == core::PanelRank::Fastest ? kernels::LuPanelRank::Fastest
                                                              : kernels::LuPanelRank::DiagonalOwner;
  options.rank_speeds = speeds;
  return options;
}

/// One entry per factored column of `d`'s M×N matrix (at least one): pivots, τ.
template <typename T>
std::vector<T> per_factored_column(const layout::Distribution& d) {
  return std::vector<T>(static_cast<std::size_t>(
      std::max<std::int64_t>(1, std::min(d.rows().extent(), d.cols().extent()))));
}

/// simulate_factorization of kernels::lu on the M×N distribution `d` (pivots discarded),
/// panels factorised where the planner priced them (planned_panel_options).
inline SimulatedRun simulate_lu(const layout::Distribution& d, MPI_Comm comm,
                                const std::vector<double>& speeds, core::PanelRank panel_rank) {
  const kernels::LuOptions options = planned_panel_options(panel_rank, speeds);
  std::vector<std::int64_t> pivots = per_factored_column<std::int64_t>(d);
  return simulate_factorization(
      "LU", d, comm, speeds, lu_flops(d.rows().extent(), d.cols().extent()) + unit_solve_excess(d),
      [&](kernels::DistributedMatrix<double> a) {
        return kernels::lu<double>(a, pivots.data(), comm, options);
      });
}

/// simulate_factorization of kernels::qr on the M×N distribution `d` (τ discarded), panels
/// factorised where the planner priced them (planned_panel_options). INFO is 0 unless
/// kernels::qr throws.
inline SimulatedRun simulate_qr(const layout::Distribution& d, MPI_Comm comm,
                                const std::vector<double>& speeds, core::PanelRank panel_rank) {
  const kernels::QrOptions options = planned_panel_options(panel_rank, speeds);
  std::vector<double> tau = per_factored_column<double>(d);
  return simulate_factorization("QR", d, comm, speeds, blocked_qr_flops(d),
                                [&](kernels::DistributedMatrix<double> a) {
                                  kernels::qr<double>(a, tau.data(), comm, options);
                                  return std::int64_t{0};
                                });
}

}  // namespace hetscal::bench
