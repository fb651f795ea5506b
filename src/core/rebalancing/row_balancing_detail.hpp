#pragma once
/// @file row_balancing_detail.hpp
/// Internals shared by row_balancing.cpp and row_balancing_search.cpp (not a public header).
#include <cstddef>
#include <utility>
#include <vector>

#include "core/rebalancing/row_balancing.hpp"

namespace hetscal::core::detail {

/// A migration seen on the positions: m moves by `step` (+1: a row moves up) on the
/// positions first..last.
struct Run {
  std::size_t first = 0;
  std::size_t last = 0;
  int step = +1;
};

/// Where the borders of all columns lie on the common axis of positions.
class BorderAxis {
 public:
  explicit BorderAxis(const RowImbalance& imbalance);

  const std::vector<std::size_t>& positions() const { return positions_; }
  std::size_t size() const { return positions_.size(); }
  /// Price of a migration crossing positions first..last.
  double price(std::size_t first, std::size_t last, RowMigrationCost pricing) const;
  /// Σ_k w_k |b - m| over every border, for the shift m given per position.
  double sliding_cost(const std::vector<long long>& shift) const;
  /// Σ_borders at `position` of w_k(|b - v| ): the sliding cost there if m = v.
  double sliding_cost_at(std::size_t position, long long value) const;
  /// The rows of a run, as RowMigration expects them.
  RowMigration to_migration(const Run& run, RowMigrationCost pricing) const;
  /// The positions a migration crosses (empty run: first > last).
  Run to_run(const RowMigration& migration) const;
  /// Completes a plan from its runs: shift, costs.
  RowPlan make_plan(const std::vector<Run>& runs, RowMigrationCost pricing) const;

 private:
  struct Border {
    std::size_t column;
    double width;
    long long need;
  };
  double full_row_cost_;
  std::vector<double> column_widths_;
  std::vector<std::size_t> positions_;
  std::vector<std::vector<Border>> borders_at_;             ///< per position
  std::vector<std::vector<std::size_t>> column_positions_;  ///< per column, increasing
};

/// The smallest and largest need over all borders, widened to include 0.
std::pair<long long, long long> need_range(const RowImbalance& imbalance);

/// Runs of ±1 whose sum is `shift`, as few as possible (total variation / 2).
std::vector<Run> decompose(const std::vector<long long>& shift);

}  // namespace hetscal::core::detail
