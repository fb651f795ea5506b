// Planning a native API context's layout: the heterogeneous Cartesian grid of the grid
// planner, or the pattern the core time model predicts fastest for the context's routine.
#include "api/context_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/error.hpp"
#include "core/model_candidates.hpp"
#include "core/pattern_2dbc.hpp"
#include "core/pattern_gcrm.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/pattern_distribution.hpp"
#include "runtime/pricing.hpp"

namespace hetscal::api {
namespace {

std::size_t size_of(std::int64_t extent) { return static_cast<std::size_t>(extent); }

/// The factorisation a pattern is judged for: Cholesky's colrows, else rows and columns.
core::Factorization factorization_of(core::Routine routine) {
  return routine == core::Routine::Cholesky ? core::Factorization::Cholesky
                                            : core::Factorization::LU;
}

/// Tile sizes to try: the time model's list, those above the matrix's smaller dimension
/// left out (the smallest always kept), as generate_candidates does.
std::vector<std::size_t> tile_sizes(const core::Problem& problem) {
  const std::vector<std::size_t> all = core::CandidateOptions{}.tile_sizes;
  std::vector<std::size_t> kept;
  for (const std::size_t tile : all)
    if (tile <= std::min(problem.rows(), problem.n) || kept.empty()) kept.push_back(tile);
  return kept;
}

/// Pattern candidates for the request: the generator's G-2DBC and heterogeneous patterns,
/// plus the best 2DBC pattern on every process and, for Cholesky, the best GCR&M.
std::vector<core::Candidate> pattern_candidates(const LayoutRequest& request,
                                                const core::Platform& platform) {
  const core::Problem problem = request.problem();
  core::CandidateOptions options;
  options.families = {core::CandidateFamily::G2dbcPattern,
                      core::CandidateFamily::HeterogeneousPattern};
  std::vector<core::Candidate> candidates = core::generate_candidates(platform, problem, options);
  const int nodes = static_cast<int>(platform.size());
  std::vector<std::size_t> every_rank(platform.size());
  std::iota(every_rank.begin(), every_rank.end(), std::size_t{0});
  std::vector<core::Pattern> extra{
      core::best_block_cyclic(nodes, factorization_of(request.routine))};
  if (request.routine == core::Routine::Cholesky) {
    try {
      // Fewer runs per size than the paper's 100 (hetscal-plan's offline search): creating a
      // context stays short (the search takes 0.5 s for P = 64, 1.3 s for P = 128 here).
      core::GcrmSearchOptions search;
      search.seeds_per_size = 10;
      extra.push_back(core::best_gcrm(nodes, search).pattern);
    } catch (const InvalidArgument&) {  // no GCR&M size for this P: 2DBC and the others remain
    }
  }
  for (const std::size_t tile : tile_sizes(problem)) {
    candidates.push_back(core::pattern_candidate("2DBC pattern", tile, extra.front(), every_rank));
    if (extra.size() > 1)
      candidates.push_back(core::pattern_candidate("GCR&M", tile, extra.back(), every_rank));
  }
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
  planned.grid = std::make_shared<const runtime::GemmLayout>(
      runtime::plan_gemm_layout(speeds, request.m, request.n, inner));
  planned.candidate = planned.grid->candidate;
  planned.description = planned.grid->description;
  planned.num_ranks = static_cast<int>(speeds.size());
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
  return problem;
}

std::unique_ptr<layout::Distribution> ContextLayout::distribution(std::int64_t rows,
                                                                  std::int64_t cols) const {
  if (grid) return runtime::aligned_distribution(*grid->c, rows, cols);
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

ContextLayout plan_context_layout(const LayoutRequest& request, const std::vector<double>& speeds,
                                  const core::Platform& platform) {
  const core::Problem problem = request.problem();
  core::require_valid(problem);
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
    core::Candidate even = planned;
    std::fill(even.row_share.begin(), even.row_share.end(), 1.0);
    std::fill(even.col_share.begin(), even.col_share.end(), 1.0);
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
