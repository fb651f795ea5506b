#include "core/rebalancing/row_balancing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "core/common/error.hpp"
#include "core/rebalancing/row_balancing_detail.hpp"

namespace hetscal::core {

using detail::BorderAxis;
using detail::Run;

namespace {

std::string text(long long value) { return std::to_string(value); }

// Tolerance for "saves more than it costs": costs are sums of widths, so relative to them.
double tolerance(const RowImbalance& imbalance) {
  return 1e-9 * std::max(1.0, imbalance.full_row_cost);
}

}  // namespace

ColumnImbalance column_imbalance(double width, const std::vector<std::size_t>& heights,
                                 const std::vector<long long>& need) {
  if (heights.empty() || heights.size() != need.size())
    throw InvalidArgument("a column needs one need per processor: " + text(heights.size()) +
                          " heights, " + text(need.size()) + " needs");
  ColumnImbalance column;
  column.width = width;
  std::size_t row = 0;
  long long above = 0;
  for (std::size_t j = 0; j < heights.size(); ++j) {
    const long long height = static_cast<long long>(heights[j]);
    if (height == 0 || height + need[j] < 1)
      throw InvalidArgument("processor " + text(static_cast<long long>(j)) + " of the column has " +
                            text(height) + " rows and needs " + text(need[j]) +
                            "; it must keep one");
    row += heights[j];
    above += need[j];
    if (j + 1 < heights.size()) {
      column.border_rows.push_back(row);
      column.need_above.push_back(above);
    }
  }
  if (above != 0)
    throw InvalidArgument("the needs of a column add up to " + text(above) + ", not 0");
  return column;
}

void require_valid(const RowImbalance& imbalance) {
  if (!std::isfinite(imbalance.full_row_cost) || imbalance.full_row_cost <= 0.0)
    throw InvalidArgument("the price of a row migration must be finite and > 0");
  for (std::size_t k = 0; k < imbalance.columns.size(); ++k) {
    const auto& column = imbalance.columns[k];
    const std::string where = "imbalance column " + text(static_cast<long long>(k + 1));
    if (!std::isfinite(column.width) || column.width <= 0.0)
      throw InvalidArgument(where + ": the width must be finite and > 0");
    if (column.border_rows.size() != column.need_above.size())
      throw InvalidArgument(where + ": one need per border");
    for (std::size_t j = 0; j < column.border_rows.size(); ++j)
      if (column.border_rows[j] == 0 ||
          (j > 0 && column.border_rows[j] <= column.border_rows[j - 1]))
        throw InvalidArgument(where + ": border rows must be > 0 and increasing");
  }
}

long long RowPlan::residual(const RowImbalance& imbalance, std::size_t column,
                            std::size_t border) const {
  const auto& c = imbalance.columns.at(column);
  const auto at = std::lower_bound(positions.begin(), positions.end(), c.border_rows.at(border));
  return c.need_above[border] - shift.at(static_cast<std::size_t>(at - positions.begin()));
}

namespace detail {

BorderAxis::BorderAxis(const RowImbalance& imbalance) : full_row_cost_(imbalance.full_row_cost) {
  require_valid(imbalance);
  for (const auto& column : imbalance.columns) {
    column_widths_.push_back(column.width);
    positions_.insert(positions_.end(), column.border_rows.begin(), column.border_rows.end());
  }
  std::sort(positions_.begin(), positions_.end());
  positions_.erase(std::unique(positions_.begin(), positions_.end()), positions_.end());
  borders_at_.resize(positions_.size());
  column_positions_.resize(imbalance.columns.size());
  for (std::size_t k = 0; k < imbalance.columns.size(); ++k) {
    const auto& column = imbalance.columns[k];
    for (std::size_t j = 0; j < column.border_rows.size(); ++j) {
      const auto p = static_cast<std::size_t>(
          std::lower_bound(positions_.begin(), positions_.end(), column.border_rows[j]) -
          positions_.begin());
      borders_at_[p].push_back({k, column.width, column.need_above[j]});
      column_positions_[k].push_back(p);
    }
  }
}

double BorderAxis::price(std::size_t first, std::size_t last, RowMigrationCost pricing) const {
  if (pricing == RowMigrationCost::Constant) return full_row_cost_;
  double cost = 0.0;
  for (std::size_t k = 0; k < column_positions_.size(); ++k) {
    const auto& mine = column_positions_[k];
    const auto at = std::lower_bound(mine.begin(), mine.end(), first);
    if (at != mine.end() && *at <= last) cost += column_widths_[k];
  }
  return cost;
}

double BorderAxis::sliding_cost_at(std::size_t position, long long value) const {
  double cost = 0.0;
  for (const auto& border : borders_at_[position])
    cost += border.width * static_cast<double>(std::llabs(border.need - value));
  return cost;
}

double BorderAxis::sliding_cost(const std::vector<long long>& shift) const {
  double cost = 0.0;
  for (std::size_t p = 0; p < positions_.size(); ++p) cost += sliding_cost_at(p, shift[p]);
  return cost;
}

RowMigration BorderAxis::to_migration(const Run& run, RowMigrationCost pricing) const {
  const std::size_t above = positions_[run.first] - 1;  // last row above the first border
  const std::size_t below = positions_[run.last];       // first row below the last border
  RowMigration migration;
  migration.from_row = run.step > 0 ? below : above;
  migration.to_row = run.step > 0 ? above : below;
  migration.cost = price(run.first, run.last, pricing);
  return migration;
}

Run BorderAxis::to_run(const RowMigration& migration) const {
  if (migration.from_row == migration.to_row)
    throw InvalidArgument("a row migration from row " +
                          text(static_cast<long long>(migration.from_row)) + " to itself");
  const std::size_t low = std::min(migration.from_row, migration.to_row);
  const std::size_t high = std::max(migration.from_row, migration.to_row);
  // It crosses the borders y with low < y <= high.
  const auto first =
      std::upper_bound(positions_.begin(), positions_.end(), low) - positions_.begin();
  const auto end =
      std::upper_bound(positions_.begin(), positions_.end(), high) - positions_.begin();
  Run run;
  run.step = migration.to_row < migration.from_row ? +1 : -1;
  run.first = static_cast<std::size_t>(first);
  run.last = end > first ? static_cast<std::size_t>(end - 1) : run.first;
  if (end == first) run.first = run.last + 1;  // crosses nothing: an empty run
  return run;
}

RowPlan BorderAxis::make_plan(const std::vector<Run>& runs, RowMigrationCost pricing) const {
  RowPlan plan;
  plan.positions = positions_;
  plan.shift.assign(positions_.size(), 0);
  for (const Run& run : runs) {
    for (std::size_t p = run.first; p <= run.last && p < positions_.size(); ++p)
      plan.shift[p] += run.step;
    if (run.first <= run.last) {
      plan.migrations.push_back(to_migration(run, pricing));
      plan.migration_cost += plan.migrations.back().cost;
    }
  }
  plan.sliding_cost = sliding_cost(plan.shift);
  return plan;
}

std::pair<long long, long long> need_range(const RowImbalance& imbalance) {
  long long low = 0, high = 0;
  for (const auto& column : imbalance.columns) {
    for (long long b : column.need_above) {
      low = std::min(low, b);
      high = std::max(high, b);
    }
  }
  return {low, high};
}

std::vector<Run> decompose(const std::vector<long long>& shift) {
  std::vector<Run> runs;
  for (int step : {+1, -1}) {
    std::vector<std::size_t> open;  // start of every run still open, innermost last
    long long previous = 0;
    for (std::size_t p = 0; p <= shift.size(); ++p) {
      const long long value = p < shift.size() ? std::max(0LL, step * shift[p]) : 0;
      for (long long v = previous; v < value; ++v) open.push_back(p);
      for (long long v = value; v < previous; ++v) {
        runs.push_back({open.back(), p - 1, step});
        open.pop_back();
      }
      previous = value;
    }
  }
  return runs;
}

}  // namespace detail

RowPlan evaluate_row_plan(const RowImbalance& imbalance,
                          const std::vector<RowMigration>& migrations, RowMigrationCost pricing) {
  const BorderAxis axis(imbalance);
  RowPlan plan = axis.make_plan({}, pricing);
  for (const RowMigration& given : migrations) {
    const Run run = axis.to_run(given);
    RowMigration priced = given;
    priced.cost = run.first <= run.last
                      ? axis.price(run.first, run.last, pricing)
                      : (pricing == RowMigrationCost::Constant ? imbalance.full_row_cost : 0.0);
    for (std::size_t p = run.first; p <= run.last && p < axis.size(); ++p)
      plan.shift[p] += run.step;
    plan.migration_cost += priced.cost;
    plan.migrations.push_back(priced);
  }
  plan.sliding_cost = axis.sliding_cost(plan.shift);
  return plan;
}

RowPlan greedy_row_plan(const RowImbalance& imbalance, RowMigrationCost pricing) {
  const BorderAxis axis(imbalance);
  const std::size_t n = axis.size();
  const double eps = tolerance(imbalance);
  std::vector<long long> shift(n, 0);
  std::vector<Run> chosen;
  for (;;) {
    // change[s][p]: what moving m by step s at positions < p does to the sliding cost.
    std::vector<double> change_up(n + 1, 0.0), change_down(n + 1, 0.0);
    for (std::size_t p = 0; p < n; ++p) {
      const double here = axis.sliding_cost_at(p, shift[p]);
      change_up[p + 1] = change_up[p] + axis.sliding_cost_at(p, shift[p] + 1) - here;
      change_down[p + 1] = change_down[p] + axis.sliding_cost_at(p, shift[p] - 1) - here;
    }
    Run best;
    double best_change = -eps;
    for (std::size_t length = 1; length <= n; ++length) {
      for (std::size_t first = 0; first + length <= n; ++first) {
        const std::size_t last = first + length - 1;
        const double price = axis.price(first, last, pricing);
        for (int step : {+1, -1}) {
          const auto& change = step > 0 ? change_up : change_down;
          const double total = change[last + 1] - change[first] + price;
          if (total < best_change) {
            best_change = total;
            best = {first, last, step};
          }
        }
      }
    }
    if (best_change >= -eps) break;
    for (std::size_t p = best.first; p <= best.last; ++p) shift[p] += best.step;
    chosen.push_back(best);
  }
  return axis.make_plan(chosen, pricing);
}

RowPlan optimal_row_plan(const RowImbalance& imbalance) {
  const BorderAxis axis(imbalance);
  const std::size_t n = axis.size();
  const auto [low, high] = detail::need_range(imbalance);
  const auto values = static_cast<std::size_t>(high - low + 1);
  const double jump = imbalance.full_row_cost / 2.0;  // per unit of total variation
  const double inf = std::numeric_limits<double>::infinity();

  // cost[v]: cheapest plan of the positions seen so far ending with m = low + v.
  std::vector<double> cost(values, inf);
  cost[static_cast<std::size_t>(-low)] = 0.0;  // m = 0 above the first border
  std::vector<std::vector<std::size_t>> came_from(n, std::vector<std::size_t>(values));
  for (std::size_t p = 0; p < n; ++p) {
    // L1 distance transform: reach[v] = min_u cost[u] + jump·|v - u|, with its argmin.
    std::vector<double> reach = cost;
    std::vector<std::size_t> from(values);
    for (std::size_t v = 0; v < values; ++v) from[v] = v;
    for (std::size_t v = 1; v < values; ++v) {
      if (reach[v - 1] + jump < reach[v]) {
        reach[v] = reach[v - 1] + jump;
        from[v] = from[v - 1];
      }
    }
    for (std::size_t v = values - 1; v-- > 0;) {
      if (reach[v + 1] + jump < reach[v]) {
        reach[v] = reach[v + 1] + jump;
        from[v] = from[v + 1];
      }
    }
    for (std::size_t v = 0; v < values; ++v)
      cost[v] = reach[v] + axis.sliding_cost_at(p, low + static_cast<long long>(v));
    came_from[p] = std::move(from);
  }
  std::size_t end = 0;
  double best = inf;
  for (std::size_t v = 0; v < values; ++v) {
    const double total =
        cost[v] + jump * static_cast<double>(std::llabs(low + static_cast<long long>(v)));
    if (total < best) {
      best = total;
      end = v;
    }
  }
  std::vector<long long> shift(n);
  for (std::size_t p = n; p-- > 0;) {
    shift[p] = low + static_cast<long long>(end);
    end = came_from[p][end];
  }
  return axis.make_plan(detail::decompose(shift), RowMigrationCost::Constant);
}

}  // namespace hetscal::core
