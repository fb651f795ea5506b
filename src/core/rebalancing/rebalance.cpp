#include "core/rebalancing/rebalance.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/common/error.hpp"
#include "core/rebalancing/column_partition.hpp"

namespace hetscal::core {

namespace {

std::string text(std::size_t value) { return std::to_string(value); }

void require_same_columns(const BlockLayout& a, const BlockLayout& b) {
  require_valid(a);
  require_valid(b);
  if (a.blocks != b.blocks)
    throw InvalidArgument("layouts of " + text(a.blocks) + " and " + text(b.blocks) +
                          " blocks per side");
  bool same = a.columns.size() == b.columns.size();
  for (std::size_t k = 0; same && k < a.columns.size(); ++k)
    same = a.columns[k].processors == b.columns[k].processors;
  if (!same)
    throw InvalidArgument(
        "a rebalancing keeps the columns and the order of their processors; "
        "these two layouts differ");
}

// The processor of `column` owning block row `row` (heights as in `column`).
std::size_t owner(const BlockColumn& column, std::size_t row) {
  std::size_t end = 0;
  for (std::size_t j = 0; j < column.heights.size(); ++j) {
    end += column.heights[j];
    if (row < end) return column.processors[j];
  }
  return column.processors.back();
}

// Who sends what when one block column of `from` (cut by its heights) lands in `to` (cut by
// its heights): the overlaps of their row intervals.
std::vector<Transfer> column_transfers(const BlockColumn& from, const BlockColumn& to,
                                       std::size_t count) {
  std::vector<Transfer> transfers;
  std::size_t i = 0, j = 0, top = 0;
  std::size_t end_i = from.heights[0], end_j = to.heights[0];
  while (i < from.heights.size() && j < to.heights.size()) {
    const std::size_t end = std::min(end_i, end_j);  // > top: every height is >= 1
    transfers.push_back({from.processors[i], to.processors[j], (end - top) * count});
    top = end;
    if (end_i == end && ++i < from.heights.size()) end_i += from.heights[i];
    if (end_j == end && ++j < to.heights.size()) end_j += to.heights[j];
  }
  return transfers;
}

void add(OperationTotals& totals, const Operation& op) {
  ++totals.operations;
  totals.units += op.count;
  totals.blocks += op.blocks_moved;
  totals.cost += op.cost;
}

Operation finished(Operation op) {
  op.blocks_moved = 0;
  for (const Transfer& t : op.transfers) op.blocks_moved += t.blocks;
  return op;
}

// Algorithm 1, lines 1–2: one block column at a time from the column with the most surplus
// width to the one with the largest deficit; runs between the same pair are merged.
std::vector<Operation> column_migrations(const BlockLayout& old_layout,
                                         const BlockLayout& new_layout) {
  std::vector<long long> deficit;
  for (std::size_t k = 0; k < old_layout.columns.size(); ++k)
    deficit.push_back(static_cast<long long>(new_layout.columns[k].width) -
                      static_cast<long long>(old_layout.columns[k].width));
  std::vector<Operation> operations;
  for (;;) {
    const auto from = static_cast<std::size_t>(std::min_element(deficit.begin(), deficit.end()) -
                                               deficit.begin());
    const auto to = static_cast<std::size_t>(std::max_element(deficit.begin(), deficit.end()) -
                                             deficit.begin());
    if (deficit[to] == 0) break;
    ++deficit[from];
    --deficit[to];
    if (!operations.empty() && operations.back().from_column == from &&
        operations.back().to_column == to) {
      ++operations.back().count;
      continue;
    }
    Operation op;
    op.kind = OperationKind::ColumnMigration;
    op.from_column = from;
    op.to_column = to;
    operations.push_back(op);
  }
  for (Operation& op : operations) {
    op.transfers = column_transfers(old_layout.columns[op.from_column],
                                    old_layout.columns[op.to_column], op.count);
    op = finished(op);
    op.cost = static_cast<double>(op.count * old_layout.blocks);
  }
  return operations;
}

std::vector<Operation> row_operations(const BlockLayout& old_layout, const BlockLayout& new_layout,
                                      const RowPlan& plan) {
  std::vector<Operation> operations;
  for (const RowMigration& migration : plan.migrations) {
    Operation op;
    op.kind = OperationKind::RowMigration;
    op.from_row = migration.from_row;
    op.to_row = migration.to_row;
    for (std::size_t k = 0; k < old_layout.columns.size(); ++k) {
      const std::size_t sender = owner(old_layout.columns[k], migration.from_row);
      const std::size_t receiver = owner(old_layout.columns[k], migration.to_row);
      if (sender != receiver)
        op.transfers.push_back({sender, receiver, new_layout.columns[k].width});
    }
    op = finished(op);
    op.cost = migration.cost;
    operations.push_back(op);
  }
  return operations;
}

std::vector<Operation> sliding_operations(const BlockLayout& old_layout,
                                          const BlockLayout& new_layout,
                                          const RowImbalance& imbalance, const RowPlan& plan) {
  std::vector<Operation> operations;
  for (std::size_t k = 0; k < imbalance.columns.size(); ++k) {
    const auto& processors = old_layout.columns[k].processors;
    for (std::size_t j = 0; j < imbalance.columns[k].border_rows.size(); ++j) {
      const long long rows = plan.residual(imbalance, k, j);
      if (rows == 0) continue;
      Operation op;
      op.kind = OperationKind::LocalSliding;
      op.count = static_cast<std::size_t>(std::llabs(rows));
      op.from_column = op.to_column = k;
      op.from_row = op.to_row = imbalance.columns[k].border_rows[j];
      const std::size_t above = processors[j], below = processors[j + 1];
      const std::size_t blocks = op.count * new_layout.columns[k].width;
      op.transfers.push_back(rows > 0 ? Transfer{below, above, blocks}
                                      : Transfer{above, below, blocks});
      op = finished(op);
      op.cost = static_cast<double>(blocks);
      operations.push_back(op);
    }
  }
  return operations;
}

RowPlan choose_row_plan(const RowImbalance& imbalance, const RebalanceOptions& options) {
  if (options.method == RebalanceMethod::Greedy) return greedy_row_plan(imbalance, options.pricing);
  if (options.pricing == RowMigrationCost::Constant) return optimal_row_plan(imbalance);
  return exhaustive_row_plan(imbalance, options.pricing);
}

// (ideal time) / (slowest time): loads in blocks, speeds in blocks per unit of time.
double balance(const std::vector<std::size_t>& loads, const Speeds& speeds) {
  double slowest = 0.0, total = 0.0;
  for (std::size_t p = 0; p < loads.size(); ++p) {
    slowest = std::max(slowest, static_cast<double>(loads[p]) / speeds.speed(p));
    total += static_cast<double>(loads[p]);
  }
  return total / speeds.total_speed() / slowest;
}

}  // namespace

RowImbalance row_imbalance(const BlockLayout& old_layout, const BlockLayout& new_layout) {
  require_same_columns(old_layout, new_layout);
  RowImbalance imbalance;
  imbalance.full_row_cost = static_cast<double>(old_layout.blocks);
  for (std::size_t k = 0; k < old_layout.columns.size(); ++k) {
    const auto& before = old_layout.columns[k];
    const auto& after = new_layout.columns[k];
    std::vector<long long> need;
    for (std::size_t j = 0; j < before.heights.size(); ++j)
      need.push_back(static_cast<long long>(after.heights[j]) -
                     static_cast<long long>(before.heights[j]));
    imbalance.columns.push_back(
        column_imbalance(static_cast<double>(after.width), before.heights, need));
  }
  return imbalance;
}

RebalanceSummary plan_rebalance(const BlockLayout& old_layout, const BlockLayout& new_layout,
                                const RebalanceOptions& options) {
  const RowImbalance imbalance = row_imbalance(old_layout, new_layout);
  const RowPlan plan = choose_row_plan(imbalance, options);

  RebalanceSummary summary;
  summary.blocks = old_layout.blocks;
  summary.old_layout = old_layout;
  summary.new_layout = new_layout;
  summary.old_rectangles = block_rectangles(old_layout);
  summary.new_rectangles = block_rectangles(new_layout);
  summary.old_loads = block_loads(old_layout);
  summary.new_loads = block_loads(new_layout);
  summary.operations = column_migrations(old_layout, new_layout);
  for (auto&& part : {row_operations(old_layout, new_layout, plan),
                      sliding_operations(old_layout, new_layout, imbalance, plan)})
    summary.operations.insert(summary.operations.end(), part.begin(), part.end());
  for (const Operation& op : summary.operations) {
    add(op.kind == OperationKind::ColumnMigration ? summary.column_migrations
        : op.kind == OperationKind::RowMigration  ? summary.row_migrations
                                                  : summary.local_slidings,
        op);
    summary.total_cost += op.cost;
  }
  summary.slidings_only_cost = summary.column_migrations.cost +
                               evaluate_row_plan(imbalance, {}, options.pricing).sliding_cost;
  return summary;
}

RebalanceSummary plan_rebalance(const Speeds& old_speeds, const Speeds& new_speeds,
                                const RebalanceOptions& options) {
  new_speeds.require_count(old_speeds.size(), "new speeds");
  const BlockLayout old_layout = discretise(col_peri_sum(old_speeds.speeds()), options.blocks);
  const BlockLayout new_layout = relayout(old_layout, new_speeds.speeds());
  RebalanceSummary summary = plan_rebalance(old_layout, new_layout, options);
  summary.fresh_layout = discretise(col_peri_sum(new_speeds.speeds()), options.blocks);
  summary.fresh_partition_blocks = blocks_changing_owner(old_layout, summary.fresh_layout);
  summary.balance_before = balance(summary.old_loads, new_speeds);
  summary.balance_after = balance(summary.new_loads, new_speeds);
  return summary;
}

}  // namespace hetscal::core
