#pragma once
/// @file row_balancing.hpp
/// The row phase of the redistribution of Beaumont, Legrand, Rastello & Robert 2000 (§4.4–4.6,
/// §5): once column migrations have balanced every column of processors, the processors of a
/// column are balanced by row migrations (a whole block row of the matrix changes owner in
/// every column at once) and local slidings (the border between two neighbours of one column
/// moves by one block row).
///
/// Model (§5.1). Column k has width w_k and borders at block-row positions y (a border at y
/// separates rows y-1 and y; rows are 0-based). b, here `need_above`, is the number of block
/// rows the processors above the border still have to receive from below (negative: to give
/// down). Sliding them costs w_k·|b| (formula 5.1). A row migration moving a row up from row s
/// to row t < s lowers b by 1 at every border t < y <= s of every column; moving down raises
/// it. Under §4.3 a row migration costs the whole matrix width, whatever the rows
/// (RowMigrationCost::Constant); §4.6 relaxes this: a column where one processor holds both
/// rows costs nothing (RowMigrationCost::SpannedColumns).
///
/// Operations commute and, under §4.3, their cost does not depend on their order, so a plan
/// is a net shift m(y) (rows moved up across position y) plus the slidings of what remains.
#include <cstddef>
#include <vector>

namespace hetscal::core {

/// How a row migration is priced.
enum class RowMigrationCost {
  Constant,        ///< §4.3: always the full matrix width
  SpannedColumns,  ///< §4.6: the widths of the columns where the two rows have different owners
};

/// One column of processors, its width and the imbalance at each of its borders.
struct ColumnImbalance {
  double width = 0.0;
  std::vector<std::size_t> border_rows;  ///< increasing, each in 1..rows-1
  std::vector<long long> need_above;     ///< b at each border (same order)
};

/// The imbalance left after the column migrations.
struct RowImbalance {
  std::vector<ColumnImbalance> columns;
  double full_row_cost = 0.0;  ///< price of a row migration under RowMigrationCost::Constant
};

/// A row migration: block row `from_row` is handed to the owners of block row `to_row`.
struct RowMigration {
  std::size_t from_row = 0;
  std::size_t to_row = 0;
  double cost = 0.0;
};

/// A set of row migrations and the slidings that complete them.
struct RowPlan {
  std::vector<RowMigration> migrations;
  std::vector<std::size_t> positions;  ///< the distinct border rows of all columns, increasing
  std::vector<long long> shift;        ///< m at each position: net rows moved up across it
  double migration_cost = 0.0;
  double sliding_cost = 0.0;

  double total_cost() const { return migration_cost + sliding_cost; }
  /// b - m at border `border` of column `column`: block rows its sliding still moves up.
  long long residual(const RowImbalance& imbalance, std::size_t column, std::size_t border) const;
};

/// A column of stacked processors (heights in block rows, top down) that must receive
/// need[j] rows each (Σ need = 0).
/// @throws InvalidArgument if the sizes differ, a height is 0, Σ need != 0 or a processor
///         would end with no row.
ColumnImbalance column_imbalance(double width, const std::vector<std::size_t>& heights,
                                 const std::vector<long long>& need);

/// Checks borders increasing and > 0, one need per border, widths finite and > 0.
/// @throws InvalidArgument naming the first problem.
void require_valid(const RowImbalance& imbalance);

/// The plan made of the given migrations (rows as in RowMigration) and the slidings that
/// complete them; costs priced with `pricing`.
/// @throws InvalidArgument if a migration has from_row == to_row.
RowPlan evaluate_row_plan(const RowImbalance& imbalance,
                          const std::vector<RowMigration>& migrations, RowMigrationCost pricing);

/// Algorithm 1, lines 3–5: while some row migration saves more sliding than it costs, perform
/// the one that saves most (ties: fewest positions crossed, then topmost, then upward); then
/// slide. Optimal under RowMigrationCost::Constant (Theorem 4); a heuristic otherwise.
RowPlan greedy_row_plan(const RowImbalance& imbalance, RowMigrationCost pricing);

/// The cheapest plan under RowMigrationCost::Constant, by dynamic programming over the net
/// shift m: it costs full_row_cost·TV(m)/2 in migrations (TV: total variation, m = 0 outside
/// the borders) plus its slidings. O(positions·values²).
RowPlan optimal_row_plan(const RowImbalance& imbalance);

/// The cheapest plan under any pricing, by a shortest-path search over net shifts (each
/// migration moves m by ±1 on a run of positions), restricted to shifts between the smallest
/// and largest need (and 0). Exponential: for small cases and for checking the others.
/// @throws InvalidArgument if the search would visit more than `max_states` shifts.
RowPlan exhaustive_row_plan(const RowImbalance& imbalance, RowMigrationCost pricing,
                            std::size_t max_states = 100'000);

}  // namespace hetscal::core
