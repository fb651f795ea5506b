#pragma once
/// @file planned_grid.hpp
/// Shared by the GEMM benchmarks (real and simulated): hetscal's heterogeneous Cartesian
/// distribution from the grid planner, and the 2D block-cyclic distribution on the same grid
/// (same placement of ranks, equal shares) that it is compared with.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/grids/grid_planner.hpp"
#include "core/grids/panel_plan.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/local_storage.hpp"

namespace hetscal::bench {

/// A planned grid: the planner's choice and its panel plan.
struct PlannedGrid {
  core::GridChoice choice;
  core::PanelPlan panel;
  int num_ranks = 0;

  /// The ranks on the grid (row-major): arrangement positions index the cycle-time list,
  /// whose i-th entry is rank i's.
  layout::ProcessGrid process_grid() const {
    const core::Arrangement& a = choice.arrangement;
    std::vector<int> ranks(a.processor.begin(), a.processor.end());
    return layout::ProcessGrid(static_cast<int>(a.rows), static_cast<int>(a.cols), ranks, num_ranks);
  }
  /// W of the integer panel plan divided by W of block-cyclic on the same grid (p·q / max t):
  /// the speedup pure computation predicts.
  double predicted_speedup() const {
    return panel.work_per_time / core::cyclic_work_per_time(choice.arrangement);
  }
  /// The paper's theoretical speedup: W of the rational shares over W of block-cyclic
  /// (Boudet et al. 1999, §5.3: 3.34 on the 3×3 grid, 3.63 on the 2×4 grid).
  double rational_speedup() const {
    return core::work_per_time(choice.arrangement, choice.shares) /
           core::cyclic_work_per_time(choice.arrangement);
  }
  /// W of the integer plan over Σ 1/t of the processors on the grid: the predicted balance.
  double predicted_balance() const {
    double total_speed = 0.0;
    for (double t : choice.arrangement.cycle_time) total_speed += 1.0 / t;
    return panel.work_per_time / total_speed;
  }
};

/// Plans `cycle_times` (one per rank) on a p×q grid, or on the planner's choice when p = 0,
/// for an n×n matrix of nb×nb tiles.
inline PlannedGrid plan_grid(const std::vector<double>& cycle_times, std::size_t p, std::size_t q,
                             std::int64_t n, std::int64_t nb) {
  PlannedGrid g;
  g.num_ranks = static_cast<int>(cycle_times.size());
  g.choice = p == 0 ? core::choose_grid(cycle_times) : core::plan_grid_shape(cycle_times, p, q);
  core::PanelSizeOptions options;
  options.tile_rows = options.tile_cols = (n + nb - 1) / nb;
  g.panel = core::default_panel_plan(g.choice.arrangement, g.choice.shares, options);
  return g;
}

/// The heterogeneous distribution of the plan.
inline std::unique_ptr<layout::CartesianDistribution> planned_distribution(
    const PlannedGrid& g, std::int64_t n, std::int64_t nb) {
  const std::vector<int> rows(g.panel.row_of_panel_row.begin(), g.panel.row_of_panel_row.end());
  const std::vector<int> cols(g.panel.col_of_panel_col.begin(), g.panel.col_of_panel_col.end());
  return std::make_unique<layout::CartesianDistribution>(layout::TileSplit(n, nb), layout::TileSplit(n, nb),
                                                         rows, cols, g.process_grid());
}

/// 2D block-cyclic on the same grid: row_map = 0..p-1, col_map = 0..q-1.
inline std::unique_ptr<layout::CartesianDistribution> cyclic_distribution(
    const PlannedGrid& g, std::int64_t n, std::int64_t nb) {
  std::vector<int> rows(g.choice.arrangement.rows), cols(g.choice.arrangement.cols);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int>(i);
  for (std::size_t j = 0; j < cols.size(); ++j) cols[j] = static_cast<int>(j);
  return std::make_unique<layout::CartesianDistribution>(layout::TileSplit(n, nb), layout::TileSplit(n, nb),
                                                         rows, cols, g.process_grid());
}

/// The tile size in [3·nb/4, nb] whose planned distribution of an n×n matrix has the
/// smallest slowest-rank time max_k (elements_k · t_k), the largest among equals: when n is
/// not a whole number of panels, the leftover tiles break the planned balance, and a slightly
/// smaller tile that fills whole panels restores it (n = 4000, nb = 256, panel 4 → 250).
inline std::int64_t balanced_tile_size(const std::vector<double>& cycle_times, std::int64_t n,
                                       std::int64_t nb) {
  std::int64_t best = nb;
  double best_time = 0.0;
  for (std::int64_t candidate = nb; candidate >= std::max<std::int64_t>(1, 3 * nb / 4); --candidate) {
    const PlannedGrid g = plan_grid(cycle_times, 0, 0, n, candidate);
    const auto d = planned_distribution(g, n, candidate);
    double slowest = 0.0;
    for (int rank = 0; rank < g.num_ranks; ++rank) {
      const layout::CartesianLocalLayout local(*d, rank);
      slowest = std::max(slowest, double(local.local_rows()) * double(local.local_cols()) *
                                      cycle_times[static_cast<std::size_t>(rank)]);
    }
    if (candidate == nb || slowest < best_time) best = candidate, best_time = slowest;
  }
  return best;
}

}  // namespace hetscal::bench
