#include "core/grids/panel_plan.hpp"

#include <algorithm>
#include <sstream>

#include "core/common/error.hpp"
#include "core/grids/allocation_1d.hpp"
#include "core/grids/share_rules.hpp"

namespace hetscal::core {
namespace {

std::int64_t capped(std::int64_t panel, std::int64_t tiles) {
  return tiles > 0 ? std::min(panel, tiles) : panel;
}

void require_panel_options(const Arrangement& a, const PanelSizeOptions& o) {
  std::ostringstream msg;
  const auto lines = static_cast<std::int64_t>(std::max(a.rows, a.cols));
  if (o.tile_rows > 0 && o.tile_rows < static_cast<std::int64_t>(a.rows))
    msg << "matrix of " << o.tile_rows << " tile rows on a grid of " << a.rows << " rows";
  else if (o.tile_cols > 0 && o.tile_cols < static_cast<std::int64_t>(a.cols))
    msg << "matrix of " << o.tile_cols << " tile columns on a grid of " << a.cols << " columns";
  else if (o.max_panel < lines)
    msg << "max_panel = " << o.max_panel << " is smaller than the grid side " << lines;
  else if (!(o.target_fraction > 0.0 && o.target_fraction <= 1.0))
    msg << "target_fraction = " << o.target_fraction << ": it must lie in (0, 1]";
  if (!msg.str().empty()) throw InvalidArgument(msg.str());
}

}  // namespace

std::vector<double> column_equivalent_cycle_times(const Arrangement& a,
                                                  const std::vector<std::int64_t>& r) {
  std::vector<double> speed(a.cols, 0.0);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) speed[j] += static_cast<double>(r[i]) / a.t(i, j);
  for (double& s : speed) s = 1.0 / s;
  return speed;
}

std::vector<double> row_equivalent_cycle_times(const Arrangement& a,
                                               const std::vector<std::int64_t>& c) {
  // A grid row of the arrangement is a grid column of its transpose.
  return column_equivalent_cycle_times(transposed(a), c);
}

PanelPlan make_panel_plan(const Arrangement& a, const Shares& rational, std::int64_t panel_rows,
                          std::int64_t panel_cols, const IntegerPlanOptions& options) {
  IntegerPlan integer = plan_panel_counts(a, rational, panel_rows, panel_cols, options);
  PanelPlan plan;
  plan.panel_rows = panel_rows;
  plan.panel_cols = panel_cols;
  plan.search = integer.search;
  plan.work_per_time = integer.work_per_time;
  plan.rational_work_per_time = work_per_time(a, rational);
  plan.row_of_panel_row =
      lu_order_with_counts(row_equivalent_cycle_times(a, integer.counts.c), integer.counts.r);
  plan.col_of_panel_col =
      lu_order_with_counts(column_equivalent_cycle_times(a, integer.counts.r), integer.counts.c);
  plan.counts = std::move(integer.counts);
  return plan;
}

PanelPlan default_panel_plan(const Arrangement& a, const Shares& rational,
                             const PanelSizeOptions& options) {
  require_panel_options(a, options);
  const double rational_w = work_per_time(a, rational);
  PanelPlan best;
  std::int64_t last_rows = 0;
  std::int64_t last_cols = 0;
  for (auto side = static_cast<std::int64_t>(std::max(a.rows, a.cols)); side <= options.max_panel;
       ++side) {
    // A single grid line owns every block of its dimension whatever the panel size:
    // one block suffices there.
    const std::int64_t rows = a.rows == 1 ? 1 : capped(side, options.tile_rows);
    const std::int64_t cols = a.cols == 1 ? 1 : capped(side, options.tile_cols);
    if (rows == last_rows && cols == last_cols) break;  // both sides capped: nothing new
    last_rows = rows;
    last_cols = cols;
    PanelPlan plan = make_panel_plan(a, rational, rows, cols, options.search);
    if (plan.work_per_time >= options.target_fraction * rational_w) return plan;
    if (best.panel_rows == 0 || plan.work_per_time > best.work_per_time) best = std::move(plan);
  }
  return best;
}

}  // namespace hetscal::core
