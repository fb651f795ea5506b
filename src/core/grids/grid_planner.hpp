#pragma once
/// @file grid_planner.hpp
/// Which grid shape to use for n processors: every shape p×⌊n/p⌋ planned with the
/// polynomial heuristic (Boudet, Petitet, Rastello & Robert 1999, §4.4) — or exactly when
/// the grid is small — with its figures of merit, and a choice among them.
///
/// The choice is made by a scoring function over the candidates. For now it is W, the work
/// per unit of time (pure computation). A time model (communication, redistribution,
/// memory) plugs in by passing another GridScore; nothing else changes.
#include <cstddef>
#include <functional>
#include <vector>

#include "core/grids/grid_quality.hpp"
#include "core/grids/grid_shares.hpp"
#include "core/grids/heuristic_grid.hpp"

namespace hetscal::core {

/// How a candidate's arrangement and shares were found.
enum class PlanMethod {
  Heuristic,  ///< §4.4 heuristic with refinement
  Exact,      ///< best_grid_exact (exhaustive), when it beat the heuristic
};

/// Options of the planner.
struct PlannerOptions {
  HeuristicOptions heuristic;
  /// Grids of at most this many processors are also solved exactly (exact_grid.hpp) and
  /// the better plan kept; 0 turns this off. 9 costs well under a millisecond per shape
  /// (3×3: 42 arrangements); 16 (4×4, 24,024 arrangements) is the practical limit.
  std::size_t exact_max_processors = 9;
};

/// One grid shape with the figures of its plan (no per-processor data, so that listing
/// every shape of a large machine stays O(n) in memory per shape).
struct GridCandidate {
  std::size_t rows = 0;  ///< p
  std::size_t cols = 0;  ///< q = ⌊n/p⌋; the fastest p·q processors are used
  PlanMethod method = PlanMethod::Heuristic;
  GridSplit split;             ///< heuristic only: fast/slow regions
  std::size_t fast_count = 0;  ///< heuristic only: fast processors among the p·q
  std::size_t refinement_half_steps = 0;
  GridFigures figures;
};

/// The chosen grid with its full plan.
struct GridChoice {
  GridCandidate candidate;
  Arrangement arrangement;  ///< processor[] indexes the caller's list
  Shares shares;            ///< rational shares, max r_i·t_ij·c_j = 1
};

/// Higher is better.
using GridScore = std::function<double(const GridCandidate&)>;

/// The default score: W (figures.work_per_time).
double score_by_work_per_time(const GridCandidate& candidate);

/// Every shape p×⌊n/p⌋ for p = 1 … n (the largest grid with p rows), each planned.
/// @param cycle_times t_k > 0 per processor.
/// @param options heuristic options and the exact-search limit.
/// @return n candidates, by increasing p.
/// @throws InvalidArgument on a bad cycle-time.
std::vector<GridCandidate> list_grid_shapes(const std::vector<double>& cycle_times,
                                            const PlannerOptions& options = {});

/// The shapes with no side longer than `longest_side`: p × min(longest_side, ⌊n/p⌋) for
/// p = 1 … min(n, longest_side), each planned on the fastest p·q processors. list_grid_shapes'
/// n shapes cost O(n²) or more (9 s at n = 16,384), and beyond longest_side² processors none
/// of them is short enough for a panel plan of that side; these are at most longest_side.
/// @return by increasing p; the same as list_grid_shapes' first entries where ⌊n/p⌋ <= longest_side.
/// @throws InvalidArgument on a bad cycle-time or longest_side = 0.
std::vector<GridCandidate> list_bounded_grid_shapes(const std::vector<double>& cycle_times, std::size_t longest_side,
                                                    const PlannerOptions& options = {});

/// The candidate with the highest score (the first, i.e. fewest rows, among equals).
/// @throws InvalidArgument if `candidates` is empty or `score` is empty.
const GridCandidate& best_candidate(const std::vector<GridCandidate>& candidates,
                                    const GridScore& score = score_by_work_per_time);

/// Plans one shape (the same computation as list_grid_shapes does for it), full plan.
/// @throws InvalidArgument on a bad cycle-time, p or q = 0, or p·q > cycle_times.size().
GridChoice plan_grid_shape(const std::vector<double>& cycle_times, std::size_t p, std::size_t q,
                           const PlannerOptions& options = {});

/// plan_grid_shape with the processors sorted once (sort_processors(cycle_times)) for many
/// shapes: a planner that tries every shape of thousands of processors sorted them for each.
/// @pre sorted == sort_processors(cycle_times).
GridChoice plan_grid_shape(const std::vector<double>& cycle_times, const SortedProcessors& sorted, std::size_t p,
                           std::size_t q, const PlannerOptions& options = {});

/// list_grid_shapes, best_candidate, then the full plan of the winner.
/// @throws InvalidArgument as list_grid_shapes and best_candidate.
GridChoice choose_grid(const std::vector<double>& cycle_times, const PlannerOptions& options = {},
                       const GridScore& score = score_by_work_per_time);

}  // namespace hetscal::core
