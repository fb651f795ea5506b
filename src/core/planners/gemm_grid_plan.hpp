#pragma once
/// @file gemm_grid_plan.hpp
/// PxGEMM's plan of one call shape, the pure part (runtime/gemm_plan.hpp turns it into
/// distributions): on which ranks, in which grid arrangement (Boudet1999's heuristic on the
/// shapes of bounded sides), with which tile and integer block panel. The fastest k ranks are
/// tried for k at the largest speed drops as well as all ranks, as the factorization planners
/// do: a grid gives each of its lines at least one tile line per panel, so a rank far slower
/// than the others gets far more than its share of C, and the plan without it is faster.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/grids/grid_planner.hpp"
#include "core/grids/panel_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// The plan of C's maps (op(A) and op(B) reuse them).
struct GemmGridPlan {
  std::int64_t tile = 1;
  GridChoice choice;  ///< arrangement.processor indexes the planner's speeds (every rank)
  PanelPlan panel;
  std::vector<std::int64_t> rows;  ///< C's rows per grid row
  std::vector<std::int64_t> cols;  ///< C's columns per grid column
  /// max over grid cells of rows_i·cols_j / speed_ij: the slowest cell's time per unit of
  /// work, at the tile's kernel rate (the quantity the planner minimises).
  double slowest = 0.0;
};

/// Tile size of the planned layout for an M×N result on `ranks` processes: large enough for
/// efficient local BLAS (at most 256), small enough to leave several tiles per process.
std::int64_t planned_tile(std::int64_t m, std::int64_t n, int ranks);

/// Process counts tried at most besides all ranks: the largest speed drops.
inline constexpr std::size_t kMaxGemmSpeedDrops = 7;

/// The process counts PxGEMM's planner tries, decreasing: every rank within
/// kSmallestPlannedSpeedRatio of the fastest, and the fastest k below each of the
/// kMaxGemmSpeedDrops largest drops of speed (between classes of equal speed).
/// @param speeds relative speed per rank, finite and > 0.
std::vector<std::size_t> gemm_process_counts(const std::vector<double>& speeds);

/// Plans C's maps for an M×N result.
/// @param speeds relative speed per rank, finite and > 0.
/// @param largest_tile the largest tile size tried (a few smaller ones are tried too);
///        0: planned_tile(m, n, ranks) or the kernel's smallest efficient tile if wider.
/// @param kernel the local kernel's rate by tile width: tiles are not planned below
///        kEfficientTileRate of its peak where the matrix allows wider ones, and tiles are
///        compared at their rates.
/// @throws InvalidArgument when no grid has as many tile rows and columns as it needs, or a
///         speed is not finite and > 0.
GemmGridPlan plan_gemm_grid(const std::vector<double>& speeds, std::int64_t m, std::int64_t n,
                            std::int64_t largest_tile = 0, const KernelRate& kernel = {});

/// The plan as the core time model prices it: a Cartesian grid ("hetero pxq") with the
/// panel's integer row and column counts as shares, on the plan's ranks.
Candidate gemm_candidate(const GemmGridPlan& plan);

}  // namespace hetscal::core
