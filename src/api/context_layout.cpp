// Planning a native API context's layout: Cholesky's, LU's and QR's by the runtime's planners
// (the shim's PDPOTRF, PDGETRF and PDGEQRF choices); for GEMM the heterogeneous Cartesian grid
// of the grid planner, or the pattern the core time model predicts fastest.
#include "api/context_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/common/error.hpp"
#include "core/patterns/pattern_2dbc.hpp"
#include "core/planners/model_candidates.hpp"
#include "layout/pattern_distribution.hpp"
#include "runtime/gemm_plan.hpp"
#include "runtime/geqrf_plan.hpp"
#include "runtime/getrf_plan.hpp"
#include "runtime/potrf_plan.hpp"
#include "runtime/pricing.hpp"

namespace hetscal::api {
namespace {

std::size_t size_of(std::int64_t extent) { return static_cast<std::size_t>(extent); }

/// Tile sizes to try: the time model's list, those above the matrix's smaller dimension
/// left out (the smallest always kept), as generate_candidates does.
std::vector<std::size_t> tile_sizes(const core::Problem& problem) {
  const std::vector<std::size_t> all = core::CandidateOptions{}.tile_sizes;
  std::vector<std::size_t> kept;
  for (const std::size_t tile : all)
    if (tile <= std::min(problem.rows(), problem.n) || kept.empty()) kept.push_back(tile);
  return kept;
}

/// Pattern candidates of a GEMM request: the generator's G-2DBC and heterogeneous
/// patterns, plus the best 2DBC pattern on every process.
std::vector<core::Candidate> pattern_candidates(const LayoutRequest& request,
                                                const core::Platform& platform) {
  const core::Problem problem = request.problem();
  core::CandidateOptions options;
  options.families = {core::CandidateFamily::G2dbcPattern,
                      core::CandidateFamily::HeterogeneousPattern};
  std::vector<core::Candidate> candidates = core::generate_candidates(platform, problem, options);
  std::vector<std::size_t> every_rank(platform.size());
  std::iota(every_rank.begin(), every_rank.end(), std::size_t{0});
  const core::Pattern block_cyclic =
      core::best_block_cyclic(static_cast<int>(platform.size()), core::Factorization::LU);
  for (const std::size_t tile : tile_sizes(problem))
    candidates.push_back(core::pattern_candidate("2DBC pattern", tile, block_cyclic, every_rank));
  return candidates;
}

/// The candidate of least predicted time, with its time; candidates the model refuses are
/// left out. @throws InvalidArgument when none can be priced.
std::pair<core::Candidate, double> fastest(const std::vector<core::Candidate>& candidates,
                                           const core::Problem& problem,
                                           const core::Platform& platform) {
  const core::Candidate* best = nullptr;
  double best_s = std::numeric_limits<double>::infinity();
  for (const core::Candidate& candidate : candidates) {
    try {
      const double s = runtime::predicted_compute_seconds(platform, problem, candidate);
      if (s < best_s) {
        best_s = s;
        best = &candidate;
      }
    } catch (const InvalidArgument&) {
    }
  }
  if (best == nullptr) throw InvalidArgument("hetscal: no pattern layout fits the problem");
  return {*best, best_s};
}

ContextLayout cartesian_layout(const LayoutRequest& request, const std::vector<double>& speeds) {
  ContextLayout planned;
  const std::int64_t inner =
      request.routine == core::Routine::Gemm ? request.k : std::min(request.m, request.n);
  runtime::GemmLayout gemm = runtime::plan_gemm_layout(speeds, request.m, request.n, inner);
  planned.grid = std::move(gemm.c);
  planned.candidate = std::move(gemm.candidate);
  planned.description = std::move(gemm.description);
  planned.num_ranks = static_cast<int>(speeds.size());
  return planned;
}

/// One process: every pattern is the 1×1 owner table, which the planners price as the 1×1
/// 2DBC grid (their patterns need two processes); the context keeps a pattern's tile
/// storage, at the tile size the planner chose for that grid.
/// @param grid the planner's layout restricted to 2DBC (CholeskyLayout, LuLayout).
template <typename Layout>
Layout one_process_pattern(Layout grid, core::Factorization factorization) {
  grid.candidate = core::pattern_candidate("2DBC pattern", grid.candidate.tile,
                                           core::best_block_cyclic(1, factorization), {0});
  grid.a.reset();
  grid.description = "2DBC pattern 1x1 (one process), tile " + std::to_string(grid.tile);
  return grid;
}

/// A layout chosen by a runtime planner (CholeskyLayout, LuLayout) as a context's.
template <typename Layout>
ContextLayout adopted(Layout chosen, const core::Platform& platform) {
  ContextLayout planned;
  // A Cartesian choice keeps its tile orders: its distribution is the prototype of the
  // context's matrices. A pattern's owner table is its candidate's (layout::distribution_of).
  if (dynamic_cast<const layout::CartesianDistribution*>(chosen.a.get()) != nullptr)
    planned.grid.reset(static_cast<const layout::CartesianDistribution*>(chosen.a.release()));
  planned.candidate = std::move(chosen.candidate);
  planned.description = std::move(chosen.description);
  planned.num_ranks = static_cast<int>(platform.size());
  return planned;
}

/// The layout the shim's PDPOTRF would choose among the request's kinds.
ContextLayout cholesky_layout(const LayoutRequest& request, const core::Platform& platform) {
  const core::Problem problem = request.problem();
  if (request.kind == LayoutKind::Pattern && platform.size() == 1)
    return adopted(one_process_pattern(runtime::choose_cholesky_layout(platform, problem, {core::CholeskyLayoutKind::BlockCyclic}),
                                       core::Factorization::Cholesky),
                   platform);
  return adopted(runtime::choose_cholesky_layout(platform, problem, cholesky_kinds(request.kind)), platform);
}

/// The layout the shim's PDGETRF (LU) or PDGEQRF (QR) would choose among the request's
/// kinds, with its panel rank: the same families, each routine's time model.
ContextLayout lu_family_layout(const LayoutRequest& request, const core::Platform& platform) {
  const core::Problem problem = request.problem();
  const auto choose = request.routine == core::Routine::QR ? runtime::choose_qr_layout : runtime::choose_lu_layout;
  runtime::LuLayout chosen = request.kind == LayoutKind::Pattern && platform.size() == 1
                                 ? one_process_pattern(choose(platform, problem, {core::LuLayoutKind::BlockCyclic}, {}),
                                                       core::Factorization::LU)
                                 : choose(platform, problem, lu_kinds(request.kind), {});
  kernels::LuOptions options = chosen.options;
  ContextLayout planned = adopted(std::move(chosen), platform);
  planned.lu_options = std::move(options);
  return planned;
}

ContextLayout pattern_layout(const core::Candidate& candidate, int num_ranks) {
  ContextLayout planned;
  planned.candidate = candidate;
  planned.description = candidate.label + " " + std::to_string(candidate.rows) + "x" +
                        std::to_string(candidate.cols) + " pattern, tile " +
                        std::to_string(candidate.tile);
  planned.num_ranks = num_ranks;
  return planned;
}

}  // namespace

core::Problem LayoutRequest::problem() const {
  core::Problem problem;
  problem.routine = routine;
  problem.m = size_of(m);
  problem.n = size_of(n);
  problem.k = size_of(routine == core::Routine::Gemm ? k : n);
  problem.caller = caller;
  return problem;
}

std::unique_ptr<layout::Distribution> ContextLayout::distribution(std::int64_t rows,
                                                                  std::int64_t cols) const {
  if (grid) return runtime::aligned_distribution(*grid, rows, cols);
  std::vector<int> table;
  for (const std::size_t owner : candidate.owner) table.push_back(static_cast<int>(owner));
  return std::make_unique<layout::PatternDistribution>(
      layout::TileSplit(rows, tile()), layout::TileSplit(cols, tile()),
      static_cast<int>(candidate.rows), static_cast<int>(candidate.cols), std::move(table),
      num_ranks);
}

std::unique_ptr<layout::LocalLayout> ContextLayout::storage(const layout::Distribution& d, int rank,
                                                            std::int64_t lld) const {
  if (!grid) return std::make_unique<layout::TiledLocalLayout>(d, rank);
  const auto& cartesian = dynamic_cast<const layout::CartesianDistribution&>(d);
  return std::make_unique<layout::CartesianLocalLayout>(cartesian, rank, lld);
}

std::vector<core::CholeskyLayoutKind> cholesky_kinds(LayoutKind kind) {
  using core::CholeskyLayoutKind;
  const std::vector<CholeskyLayoutKind> grids{CholeskyLayoutKind::BlockCyclic,
                                              CholeskyLayoutKind::HeterogeneousGrid};
  const std::vector<CholeskyLayoutKind> patterns{
      CholeskyLayoutKind::G2dbc, CholeskyLayoutKind::Gcrm, CholeskyLayoutKind::HeteroSymmetric};
  if (kind == LayoutKind::Cartesian) return grids;
  if (kind == LayoutKind::Pattern) return patterns;
  std::vector<CholeskyLayoutKind> every = grids;
  every.insert(every.end(), patterns.begin(), patterns.end());
  return every;
}

std::vector<core::LuLayoutKind> lu_kinds(LayoutKind kind) {
  using core::LuLayoutKind;
  const std::vector<LuLayoutKind> grids{LuLayoutKind::BlockCyclic, LuLayoutKind::HeterogeneousGrid};
  const std::vector<LuLayoutKind> patterns{LuLayoutKind::G2dbc, LuLayoutKind::HeteroPattern};
  if (kind == LayoutKind::Cartesian) return grids;
  if (kind == LayoutKind::Pattern) return patterns;
  std::vector<LuLayoutKind> every = grids;
  every.insert(every.end(), patterns.begin(), patterns.end());
  return every;
}

ContextLayout plan_context_layout(const LayoutRequest& request, const std::vector<double>& speeds,
                                  const core::Platform& platform) {
  const core::Problem problem = request.problem();
  core::require_valid(problem);
  if (request.routine == core::Routine::Cholesky) return cholesky_layout(request, platform);
  if (request.routine == core::Routine::LU || request.routine == core::Routine::QR)
    return lu_family_layout(request, platform);
  const int ranks = static_cast<int>(speeds.size());
  if (request.kind == LayoutKind::Cartesian) return cartesian_layout(request, speeds);
  const auto [pattern, pattern_s] =
      fastest(pattern_candidates(request, platform), problem, platform);
  if (request.kind == LayoutKind::Pattern) return pattern_layout(pattern, ranks);
  try {  // Any: the grid unless the pattern is predicted faster
    ContextLayout grid = cartesian_layout(request, speeds);
    if (runtime::predicted_compute_seconds(platform, problem, grid.candidate) <= pattern_s)
      return grid;
  } catch (const InvalidArgument&) {  // no grid fits: the pattern does
  }
  return pattern_layout(pattern, ranks);
}

core::Candidate scalapack_candidate(const core::Candidate& planned, std::size_t ranks) {
  if (planned.kind == core::CandidateKind::Cartesian) {
    core::Candidate even = planned;  // tile orders (Cholesky's grids) would override the shares
    std::fill(even.row_share.begin(), even.row_share.end(), 1.0);
    std::fill(even.col_share.begin(), even.col_share.end(), 1.0);
    even.row_order.clear();
    even.col_order.clear();
    return even;
  }
  std::size_t rows = static_cast<std::size_t>(std::sqrt(static_cast<double>(ranks)));
  while (ranks % rows != 0) --rows;
  std::vector<std::size_t> row_major(ranks);
  std::iota(row_major.begin(), row_major.end(), std::size_t{0});
  return core::cartesian_candidate("2DBC", planned.tile, rows, ranks / rows, std::move(row_major),
                                   std::vector<double>(rows, 1.0),
                                   std::vector<double>(ranks / rows, 1.0));
}

double layout_balance(const ContextLayout& planned, const LayoutRequest& request,
                      const std::vector<double>& speeds) {
  const bool triangle = request.routine == core::Routine::Cholesky;
  const std::unique_ptr<layout::Distribution> d = planned.distribution(request.m, request.n);
  std::vector<double> work(speeds.size(), 0.0);
  for (std::int64_t j = 0; j < d->cols().count(); ++j) {
    for (std::int64_t i = triangle ? j : 0; i < d->rows().count(); ++i) {
      const double rows = static_cast<double>(d->rows().size(i)),
                   cols = static_cast<double>(d->cols().size(j));
      const double elements = triangle && i == j ? rows * (rows + 1) / 2 : rows * cols;
      work[static_cast<std::size_t>(d->owner({i, j}))] += elements;
    }
  }
  double slowest = 0.0;
  for (std::size_t r = 0; r < speeds.size(); ++r) slowest = std::max(slowest, work[r] / speeds[r]);
  const double total_work = std::accumulate(work.begin(), work.end(), 0.0);
  const double total_speed = std::accumulate(speeds.begin(), speeds.end(), 0.0);
  return slowest > 0.0 ? (total_work / total_speed) / slowest : 1.0;
}

}  // namespace hetscal::api
