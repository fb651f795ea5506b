#pragma once
/// @file column_partition.hpp
/// Column-based partitions of the unit square (Beaumont, Legrand, Rastello & Robert 2000, §2.3,
/// Figure 5): the square is cut into vertical columns, each column into stacked rectangles, one
/// per processor, of prescribed areas s_i (Σ s_i = 1). COL-PERI-SUM asks for the column-based
/// partition minimising Σ (h_i + v_i), the sum of half-perimeters, i.e. the total volume of the
/// matrix-product broadcasts.
///
/// A column of width w holding k rectangles costs k·w (their widths) + 1 (their heights add up
/// to the side of the square). With the areas sorted, an optimal partition puts consecutive
/// processors in each column, so a dynamic program over prefixes finds it in O(p²).
#include <cstddef>
#include <vector>

namespace hetscal::core {

/// One rectangle of a column: which processor, and its height (a fraction of the side).
struct ColumnCell {
  std::size_t processor = 0;
  double height = 0.0;
};

/// One column of the partition, cells listed from the top (y = 0) down.
struct PartitionColumn {
  double width = 0.0;
  std::vector<ColumnCell> cells;
};

/// A column-based partition of the unit square, columns listed from the left (x = 0).
struct ColumnPartition {
  std::vector<PartitionColumn> columns;
  double half_perimeter_sum = 0.0;  ///< Σ_i (w_i + h_i) over all rectangles

  /// Number of rectangles (processors) over all columns.
  std::size_t processor_count() const;
};

/// An axis-aligned rectangle of the unit square given to one processor.
struct Rectangle {
  std::size_t processor = 0;
  double x = 0.0;  ///< left edge
  double y = 0.0;  ///< top edge
  double width = 0.0;
  double height = 0.0;
};

/// Areas scaled to add up to 1.
/// @throws InvalidArgument if the list is empty or a value is not finite and > 0.
std::vector<double> normalised_areas(const std::vector<double>& areas);

/// Cost of one column holding `count` rectangles of total area `width`: count·width + 1.
double column_cost(std::size_t count, double width);

/// The optimal column-based partition (COL-PERI-SUM) by dynamic programming over the sorted
/// areas. Processors appear in non-decreasing order of area, left to right and top to bottom.
/// @param areas one value per processor; only ratios matter (normalised internally).
/// @return the partition and its half-perimeter sum.
/// @throws InvalidArgument if the list is empty or a value is not finite and > 0.
ColumnPartition col_peri_sum(const std::vector<double>& areas);

/// The column-based partition with the given grouping of processors into columns, in the
/// given order, each rectangle of area areas[i] (normalised). Used to keep a layout while the
/// areas change (§4) and to enumerate groupings.
/// @param groups processor indices per column, top to bottom; together a permutation of
///        0..areas.size()-1.
/// @throws InvalidArgument if the areas are bad, a group is empty, or the groups do not cover
///         every processor exactly once.
ColumnPartition partition_with_columns(const std::vector<std::vector<std::size_t>>& groups,
                                       const std::vector<double>& areas);

/// The processors of each column, top to bottom.
std::vector<std::vector<std::size_t>> column_groups(const ColumnPartition& partition);

/// Every processor's rectangle, indexed by processor.
std::vector<Rectangle> rectangles(const ColumnPartition& partition);

}  // namespace hetscal::core
