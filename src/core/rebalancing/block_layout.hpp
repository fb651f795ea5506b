#pragma once
/// @file block_layout.hpp
/// A column-based partition laid over an N×N matrix of blocks (the paper's §4 works in whole
/// blocks: a column has a width in block columns, a rectangle a height in block rows).
#include <cstddef>
#include <vector>

#include "core/rebalancing/column_partition.hpp"

namespace hetscal::core {

/// One column of blocks: its width and its processors from the top down with their heights.
struct BlockColumn {
  std::size_t width = 0;                ///< block columns
  std::vector<std::size_t> processors;  ///< top to bottom
  std::vector<std::size_t> heights;     ///< block rows, same order; they add up to N
};

/// A column-based partition of an N×N block matrix; the widths add up to N.
struct BlockLayout {
  std::size_t blocks = 0;  ///< N
  std::vector<BlockColumn> columns;

  /// Number of rectangles (processors) over all columns.
  std::size_t processor_count() const;
};

/// One processor's rectangle of blocks: block column x .. x+width-1, block row y .. y+height-1.
struct BlockRectangle {
  std::size_t processor = 0;
  std::size_t x = 0;
  std::size_t y = 0;
  std::size_t width = 0;
  std::size_t height = 0;

  std::size_t area() const { return width * height; }
};

/// Rounds a partition of the unit square to whole blocks: widths and, in each column, heights
/// are rounded by largest remainder so that they add up to N, and none is below 1.
/// @param blocks N, the matrix side in blocks.
/// @throws InvalidArgument if N is smaller than the number of columns or than the number of
///         processors of some column (someone would get no block).
BlockLayout discretise(const ColumnPartition& partition, std::size_t blocks);

/// The same layout (same columns, same order) with other areas: the target of §4's
/// redistribution. Equivalent to discretise(partition_with_columns(groups, areas), N).
/// @throws InvalidArgument as partition_with_columns and discretise.
BlockLayout relayout(const BlockLayout& layout, const std::vector<double>& areas);

/// Every processor's rectangle, indexed by processor.
std::vector<BlockRectangle> block_rectangles(const BlockLayout& layout);

/// Blocks held by each processor, indexed by processor.
std::vector<std::size_t> block_loads(const BlockLayout& layout);

/// Blocks whose owner differs between two layouts of the same N (a full redistribution's
/// volume, e.g. when a new COL-PERI-SUM partition replaces the old one).
/// @throws InvalidArgument if N or the processor counts differ.
std::size_t blocks_changing_owner(const BlockLayout& from, const BlockLayout& to);

/// Checks the invariants above (widths and heights add up to N, no zero, processors
/// 0..P-1 once each).
/// @throws InvalidArgument naming the first broken invariant.
void require_valid(const BlockLayout& layout);

}  // namespace hetscal::core
