#include "core/grids/grid_planner.hpp"

#include <algorithm>
#include <utility>

#include "core/common/error.hpp"
#include "core/grids/exact_grid.hpp"

namespace hetscal::core {
namespace {

/// The heuristic plan of one shape, replaced by the exact one when the grid is small
/// enough and the exact W is larger beyond rounding.
GridChoice plan_sorted_shape(const std::vector<double>& cycle_times,
                             const SortedProcessors& sorted, std::size_t p, std::size_t q,
                             const PlannerOptions& options) {
  HeuristicGridResult heuristic = plan_grid_heuristic_sorted(sorted, p, q, options.heuristic);
  GridChoice choice;
  choice.candidate.rows = p;
  choice.candidate.cols = q;
  choice.candidate.split = heuristic.split;
  choice.candidate.fast_count = heuristic.fast_count;
  choice.candidate.refinement_half_steps = heuristic.refinement_half_steps;
  choice.arrangement = std::move(heuristic.arrangement);
  choice.shares = std::move(heuristic.shares);
  if (p * q <= options.exact_max_processors) {
    ExactGridResult exact = best_grid_exact(cycle_times, p, q);
    if (exact.work_per_time > heuristic.work_per_time * (1.0 + 1e-12)) {
      choice.candidate.method = PlanMethod::Exact;
      choice.arrangement = std::move(exact.arrangement);
      choice.shares = std::move(exact.shares);
    }
  }
  choice.candidate.figures = grid_figures(choice.arrangement, choice.shares);
  return choice;
}

}  // namespace

double score_by_work_per_time(const GridCandidate& candidate) {
  return candidate.figures.work_per_time;
}

std::vector<GridCandidate> list_grid_shapes(const std::vector<double>& cycle_times,
                                            const PlannerOptions& options) {
  const SortedProcessors sorted = sort_processors(cycle_times);
  const std::size_t n = sorted.size();
  std::vector<GridCandidate> candidates;
  candidates.reserve(n);
  for (std::size_t p = 1; p <= n; ++p)
    candidates.push_back(plan_sorted_shape(cycle_times, sorted, p, n / p, options).candidate);
  return candidates;
}

std::vector<GridCandidate> list_bounded_grid_shapes(const std::vector<double>& cycle_times, std::size_t longest_side,
                                                    const PlannerOptions& options) {
  if (longest_side == 0) throw InvalidArgument("list_bounded_grid_shapes: a longest side of 0");
  const SortedProcessors sorted = sort_processors(cycle_times);
  const std::size_t n = sorted.size();
  std::vector<GridCandidate> candidates;
  for (std::size_t p = 1; p <= std::min(n, longest_side); ++p)
    candidates.push_back(plan_sorted_shape(cycle_times, sorted, p, std::min(longest_side, n / p), options).candidate);
  return candidates;
}

const GridCandidate& best_candidate(const std::vector<GridCandidate>& candidates,
                                    const GridScore& score) {
  if (candidates.empty()) throw InvalidArgument("no grid candidate to choose from");
  if (!score) throw InvalidArgument("no scoring function given");
  std::size_t best = 0;
  double best_score = score(candidates[0]);
  for (std::size_t k = 1; k < candidates.size(); ++k) {
    const double s = score(candidates[k]);
    if (s > best_score) {
      best = k;
      best_score = s;
    }
  }
  return candidates[best];
}

GridChoice plan_grid_shape(const std::vector<double>& cycle_times, std::size_t p, std::size_t q,
                           const PlannerOptions& options) {
  const SortedProcessors sorted = sort_processors(cycle_times);
  return plan_sorted_shape(cycle_times, sorted, p, q, options);
}

GridChoice plan_grid_shape(const std::vector<double>& cycle_times, const SortedProcessors& sorted, std::size_t p,
                           std::size_t q, const PlannerOptions& options) {
  return plan_sorted_shape(cycle_times, sorted, p, q, options);
}

GridChoice choose_grid(const std::vector<double>& cycle_times, const PlannerOptions& options,
                       const GridScore& score) {
  const std::vector<GridCandidate> candidates = list_grid_shapes(cycle_times, options);
  const GridCandidate& best = best_candidate(candidates, score);
  return plan_grid_shape(cycle_times, best.rows, best.cols, options);
}

}  // namespace hetscal::core
