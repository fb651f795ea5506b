#pragma once
/// @file rebalance.hpp
/// Redistribution of a column-based partition when processor speeds change (Beaumont, Legrand,
/// Rastello & Robert 2000, §4). The columns and the order of the processors in them stay; the
/// widths and heights change to the new speeds. Algorithm 1: column migrations until every
/// column holds its new width, then row migrations while they save more sliding than they
/// cost, then local slidings. Costs count elementary communications: one block (of A, B and C)
/// sent from one processor to another (§4.4). The column migrations come first, so slidings
/// and row migrations are priced with the new widths (the paper's costs assume one order).
///
/// Entry point for `hetscal-plan --rebalance OLD NEW`: plan_rebalance(old speeds, new speeds).
#include <cstddef>
#include <vector>

#include "core/common/speeds.hpp"
#include "core/rebalancing/block_layout.hpp"
#include "core/rebalancing/row_balancing.hpp"

namespace hetscal::core {

/// The elementary operations of §4.1 (Figure 6 (a), (b), (d)).
enum class OperationKind { ColumnMigration, RowMigration, LocalSliding };

/// How the row phase is chosen.
enum class RebalanceMethod {
  Greedy,   ///< Algorithm 1 (optimal under RowMigrationCost::Constant, Theorem 4)
  Optimal,  ///< exact: dynamic programming (Constant) or exhaustive search (SpannedColumns,
            ///< small cases only: it throws InvalidArgument when too large)
};

/// Blocks sent by one processor to another.
struct Transfer {
  std::size_t from = 0;
  std::size_t to = 0;
  std::size_t blocks = 0;
};

/// One elementary operation, or `count` identical ones in a row.
struct Operation {
  OperationKind kind = OperationKind::ColumnMigration;
  std::size_t count = 1;        ///< block columns migrated, 1 row, or block rows slid
  std::size_t from_column = 0;  ///< ColumnMigration: source column; LocalSliding: its column
  std::size_t to_column = 0;    ///< ColumnMigration: destination column; LocalSliding: same
  std::size_t from_row = 0;     ///< RowMigration: row handed over; LocalSliding: border row
  std::size_t to_row = 0;       ///< RowMigration: row whose owners receive; LocalSliding: same
  std::vector<Transfer> transfers;
  std::size_t blocks_moved = 0;  ///< Σ transfers
  double cost = 0.0;             ///< elementary communications under the chosen pricing
};

/// Totals of one kind of operation.
struct OperationTotals {
  std::size_t operations = 0;  ///< entries in the list
  std::size_t units = 0;       ///< Σ count
  std::size_t blocks = 0;
  double cost = 0.0;
};

/// What the tool prints. Columns and rows are 0-based; columns from the left, rows from the top.
struct RebalanceSummary {
  std::size_t blocks = 0;  ///< N: the matrix is N×N blocks
  BlockLayout old_layout;  ///< before (for plan_rebalance(Speeds…): COL-PERI-SUM of the old speeds)
  BlockLayout new_layout;                      ///< after: same columns, new widths and heights
  std::vector<BlockRectangle> old_rectangles;  ///< per processor
  std::vector<BlockRectangle> new_rectangles;  ///< per processor
  std::vector<std::size_t> old_loads;          ///< blocks per processor before
  std::vector<std::size_t> new_loads;          ///< blocks per processor after
  std::vector<Operation> operations;           ///< column migrations, row migrations, slidings
  OperationTotals column_migrations, row_migrations, local_slidings;
  double total_cost = 0.0;
  double slidings_only_cost = 0.0;  ///< the same column migrations, then slidings only
  /// The COL-PERI-SUM partition of the new speeds on N×N blocks, and the blocks changing owner
  /// if it replaced the old layout (what §4 avoids); empty and 0 from plan_rebalance(BlockLayout…).
  BlockLayout fresh_layout;
  std::size_t fresh_partition_blocks = 0;
  /// (ideal time) / (slowest processor's time) under the new speeds: 1 is perfect; 0 from
  /// plan_rebalance(BlockLayout…).
  double balance_before = 0.0;
  double balance_after = 0.0;
};

/// Options of a rebalancing plan.
struct RebalanceOptions {
  std::size_t blocks = 60;  ///< N
  RowMigrationCost pricing = RowMigrationCost::Constant;
  RebalanceMethod method = RebalanceMethod::Greedy;
};

/// Lays the old speeds out by COL-PERI-SUM on N×N blocks, keeps that layout for the new speeds
/// (§4), and plans the redistribution.
/// @param old_speeds speeds the current layout was built for.
/// @param new_speeds speeds now measured, same processors in the same order.
/// @throws InvalidArgument if the counts differ, N is too small for the layout, or an exact
///         plan is asked for a case too large to search.
RebalanceSummary plan_rebalance(const Speeds& old_speeds, const Speeds& new_speeds,
                                const RebalanceOptions& options = {});

/// Plans the redistribution between two layouts with the same columns holding the same
/// processors in the same order (e.g. new = relayout(old, areas)).
/// @throws InvalidArgument if a layout is invalid or the column structures differ.
RebalanceSummary plan_rebalance(const BlockLayout& old_layout, const BlockLayout& new_layout,
                                const RebalanceOptions& options = {});

/// The row phase's input: after the column migrations, every column has its new width and its
/// old heights, and needs the new ones. A row migration is priced at N.
RowImbalance row_imbalance(const BlockLayout& old_layout, const BlockLayout& new_layout);

}  // namespace hetscal::core
