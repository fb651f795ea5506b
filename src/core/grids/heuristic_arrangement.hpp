#pragma once
/// @file heuristic_arrangement.hpp
/// Where the polynomial heuristic of Boudet, Petitet, Rastello & Robert 1999 (§4.4.1,
/// §4.4.2) puts each processor on a p×q grid.
///
/// Border fill (§4.4.1): with the values sorted, the fastest goes to the corner of the
/// (remaining) sub-grid, then the next ones alternately down its first column and along its
/// first row; when one of the two runs out the rest go to the other. The sub-grid then
/// shrinks by its first row and column and the process repeats.
///
/// Slow processors (§4.4.2): the grid is split into two regions made of whole grid lines,
/// a fast region (top rows or left columns) and a slow region (the rest), each filled by
/// the border fill; the fast region takes the fastest processors. The paper gives
/// examples but no rule for the number and direction of the lines; ours:
///  - candidates: direction (columns or rows) × number L of fast lines, 1 <= L < lines,
///    so that both regions are whole grid lines (each processor talks to its four
///    neighbours as in the paper, and the r/c rule can treat the fast block first);
///  - keep the candidates that misplace the fewest processors, |L·line − fast_count| (slow
///    processors padded into the fast region, or fast ones padded into the slow region):
///    the point of the split is to keep the two kinds apart;
///  - the caller breaks the remaining ties by the best W after the r/c rule and the
///    refinement, and among equal W prefers columns (the paper's 3×3 examples put the
///    slow processors in the right column and the fast ones in the left column).
/// A row split is laid out as the transpose of the column split of the transposed grid (the
/// border fill itself starts down the column, so filling the row split directly would not
/// be its mirror image): on a square grid the two directions are then exact transposes
/// with the same W, and the preference for columns decides, as in the paper's 3×3
/// examples. This reproduces the paper's three examples (see the tests).
/// Filled directly, the row split of (1,…,7,100,100) would be [[1,3,4],[2,5,6],[7,100,100]],
/// whose W (2.4225, the exact optimum) beats the paper's column layout (2.3683):
/// FillVariant::Mirrored gives that layout (or its transpose, with the same W), and
/// HeuristicOptions::fills can try both variants.
#include <cstddef>
#include <vector>

#include "core/grids/grid_shares.hpp"
#include "core/grids/separation.hpp"

namespace hetscal::core {

/// Which whole grid lines form the fast region.
enum class SplitDirection {
  None,     ///< all values close: one region, the whole grid
  Columns,  ///< fast region = the first `fast_lines` grid columns
  Rows,     ///< fast region = the first `fast_lines` grid rows
};

/// A split of the p×q grid into a fast region (top-left) and a slow region.
struct GridSplit {
  SplitDirection direction = SplitDirection::None;
  std::size_t fast_lines = 0;

  /// Number of grid rows of the fast region on a p×q grid.
  std::size_t fast_rows(std::size_t p) const {
    return direction == SplitDirection::Rows ? fast_lines : p;
  }
  /// Number of grid columns of the fast region on a p×q grid.
  std::size_t fast_cols(std::size_t q) const {
    return direction == SplitDirection::Columns ? fast_lines : q;
  }
};

/// Which border line of the sub-grid receives the value after the corner.
enum class BorderOrder {
  ColumnFirst,  ///< the paper's: corner, column, row, column, …
  RowFirst,     ///< corner, row, column, row, …
};

/// Orientation of the whole fill.
enum class FillVariant {
  /// The paper's: column first, a row split being the mirror image of a column split.
  Paper,
  /// The transpose-equivalent alternative: row first, a row split filled column first
  /// (the row split filled directly, as the border fill would do it without mirroring).
  Mirrored,
};

/// Rank (0 = fastest) of the processor that the border fill puts in each cell of a
/// rows×cols block, row-major.
/// @param rows, cols block size (0 gives an empty result).
/// @param order which line follows the corner.
/// @return rows·cols ranks, a permutation of 0 … rows·cols−1.
std::vector<std::size_t> border_fill_ranks(std::size_t rows, std::size_t cols,
                                           BorderOrder order = BorderOrder::ColumnFirst);

/// Rank of the processor in each cell (row-major) of the p×q grid under `split`: the fast
/// region takes ranks 0 … |fast region|−1, the slow region the next ones, each region
/// filled by the border fill (ColumnFirst for the Paper variant and no split or a column
/// split; a row split is the transpose of the column split of the transposed grid).
/// @throws InvalidArgument if the split's lines do not leave both regions non-empty.
std::vector<std::size_t> split_fill_ranks(std::size_t p, std::size_t q, GridSplit split,
                                          FillVariant variant = FillVariant::Paper);

/// The splits with the fewest misplaced processors (see the file comment), columns first.
/// @param p, q grid size.
/// @param fast_count number of fast processors among the p·q used, 1 … p·q.
/// @return empty when no split into whole lines exists (a 1×1 grid).
std::vector<GridSplit> fewest_misplaced_splits(std::size_t p, std::size_t q,
                                               std::size_t fast_count);

/// The arrangement of the p·q fastest processors of `sorted` under `split`.
/// @pre p·q <= sorted.size().
Arrangement arrange_sorted(const SortedProcessors& sorted, std::size_t p, std::size_t q,
                           GridSplit split, FillVariant variant = FillVariant::Paper);

}  // namespace hetscal::core
