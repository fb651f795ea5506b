#include "core/grids/heuristic_arrangement.hpp"

#include <sstream>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

std::size_t distance(std::size_t a, std::size_t b) { return a > b ? a - b : b - a; }

/// Writes ranks first_rank, first_rank+1, … into the block [row0, row0+rows) ×
/// [col0, col0+cols) of a grid with `grid_cols` columns, following the border fill.
void fill_block(std::vector<std::size_t>& ranks, std::size_t grid_cols, std::size_t row0,
                std::size_t col0, std::size_t rows, std::size_t cols, std::size_t first_rank,
                BorderOrder order) {
  std::size_t next = first_rank;
  auto put = [&](std::size_t i, std::size_t j) { ranks[(row0 + i) * grid_cols + col0 + j] = next++; };
  const bool column_first = order == BorderOrder::ColumnFirst;
  for (std::size_t d = 0; d < rows && d < cols; ++d) {
    put(d, d);
    // Below the corner (column) and right of it (row), taken alternately.
    std::size_t down = d + 1;
    std::size_t right = d + 1;
    while (down < rows || right < cols) {
      if (column_first && down < rows) put(down++, d);
      if (right < cols) put(d, right++);
      if (!column_first && down < rows) put(down++, d);
    }
  }
}

}  // namespace

std::vector<std::size_t> border_fill_ranks(std::size_t rows, std::size_t cols, BorderOrder order) {
  std::vector<std::size_t> ranks(rows * cols);
  fill_block(ranks, cols, 0, 0, rows, cols, 0, order);
  return ranks;
}

std::vector<std::size_t> split_fill_ranks(std::size_t p, std::size_t q, GridSplit split,
                                          FillVariant variant) {
  const BorderOrder order =
      variant == FillVariant::Paper ? BorderOrder::ColumnFirst : BorderOrder::RowFirst;
  std::vector<std::size_t> ranks(p * q);
  if (split.direction == SplitDirection::None) {
    fill_block(ranks, q, 0, 0, p, q, 0, order);
    return ranks;
  }
  const std::size_t lines = split.direction == SplitDirection::Rows ? p : q;
  if (split.fast_lines == 0 || split.fast_lines >= lines) {
    std::ostringstream msg;
    msg << "split with " << split.fast_lines << " fast lines out of " << lines
        << ": both regions must be non-empty";
    throw InvalidArgument(msg.str());
  }
  if (split.direction == SplitDirection::Rows) {
    // The transpose of the column split of the transposed grid (see the file comment).
    const std::vector<std::size_t> by_columns =
        split_fill_ranks(q, p, GridSplit{SplitDirection::Columns, split.fast_lines}, variant);
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = 0; j < q; ++j) ranks[i * q + j] = by_columns[j * p + i];
    return ranks;
  }
  fill_block(ranks, q, 0, 0, p, split.fast_lines, 0, order);
  fill_block(ranks, q, 0, split.fast_lines, p, q - split.fast_lines, p * split.fast_lines, order);
  return ranks;
}

std::vector<GridSplit> fewest_misplaced_splits(std::size_t p, std::size_t q,
                                               std::size_t fast_count) {
  std::vector<GridSplit> best;
  std::size_t fewest = p * q + 1;
  // Columns first, so that ties keep the paper's column layouts first.
  for (SplitDirection direction : {SplitDirection::Columns, SplitDirection::Rows}) {
    const std::size_t lines = direction == SplitDirection::Rows ? p : q;
    const std::size_t line_length = direction == SplitDirection::Rows ? q : p;
    for (std::size_t fast_lines = 1; fast_lines < lines; ++fast_lines) {
      const std::size_t misplaced = distance(fast_lines * line_length, fast_count);
      if (misplaced < fewest) {
        fewest = misplaced;
        best.clear();
      }
      if (misplaced == fewest) best.push_back({direction, fast_lines});
    }
  }
  return best;
}

Arrangement arrange_sorted(const SortedProcessors& sorted, std::size_t p, std::size_t q,
                           GridSplit split, FillVariant variant) {
  const std::vector<std::size_t> ranks = split_fill_ranks(p, q, split, variant);
  Arrangement a;
  a.rows = p;
  a.cols = q;
  a.cycle_time.resize(p * q);
  a.processor.resize(p * q);
  for (std::size_t cell = 0; cell < p * q; ++cell) {
    a.cycle_time[cell] = sorted.cycle_time[ranks[cell]];
    a.processor[cell] = sorted.index[ranks[cell]];
  }
  return a;
}

}  // namespace hetscal::core
