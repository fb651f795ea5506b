#include "core/time_models/tile_ownership.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <queue>
#include <sstream>
#include <string>
#include <utility>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

/// Tiles covering `extent` elements when the first tile is `offset` elements short.
std::size_t tile_count(std::size_t extent, std::size_t tile, std::size_t offset = 0) {
  return (extent + offset + tile - 1) / tile;
}

void require_sizes(MatrixShape shape, std::size_t tile, std::size_t rows, std::size_t cols,
                   std::size_t owners, const char* what) {
  std::ostringstream msg;
  if (shape.rows == 0 || shape.cols == 0 || tile == 0 || rows == 0 || cols == 0)
    msg << what << ": " << shape.rows << " x " << shape.cols << " matrix, tile = " << tile
        << ", " << rows << " x " << cols << " classes; every size must be >= 1";
  else if (owners != rows * cols)
    msg << what << ": " << owners << " owners for a " << rows << " x " << cols << " table";
  else return;
  throw InvalidArgument(msg.str());
}

std::vector<std::size_t> cyclic_classes(std::size_t count, std::size_t classes) {
  std::vector<std::size_t> out(count);
  for (std::size_t t = 0; t < count; ++t) out[t] = t % classes;
  return out;
}

/// One dimension of an ownership: how its elements fall into tiles and tiles into classes.
struct Axis {
  std::size_t extent;
  std::size_t block;
  std::size_t offset;
  const std::vector<std::size_t>& tile_class;
  std::size_t classes;
};

Axis row_axis(const TileOwnership& t) {
  return {t.row_extent(), t.row_block(), t.row_offset, t.row_class, t.rows};
}
Axis col_axis(const TileOwnership& t) { return {t.n, t.tile, t.col_offset, t.col_class, t.cols}; }

/// joint[u * to.classes + i] = elements e in [0, extent) with from class u and to class i.
std::vector<double> joint_counts(const Axis& from, const Axis& to) {
  std::vector<double> joint(from.classes * to.classes, 0.0);
  // Walk e in runs where neither tile index changes, the tiles' ends stepped along (no
  // division per run: a planner walks thousands of tiles per candidate).
  std::size_t e = 0, tf = from.offset / from.block, tt = to.offset / to.block;
  std::size_t from_end = (tf + 1) * from.block - from.offset, to_end = (tt + 1) * to.block - to.offset;
  while (e < from.extent) {
    const std::size_t end = std::min({from.extent, from_end, to_end});
    joint[from.tile_class[tf] * to.classes + to.tile_class[tt]] += static_cast<double>(end - e);
    e = end;
    if (e == from_end) ++tf, from_end += from.block;
    if (e == to_end) ++tt, to_end += to.block;
  }
  return joint;
}

void require_offset_inside_block(const BlockCyclicAxis& axis, const char* which) {
  if (axis.block == 0 || axis.offset < axis.block) return;
  std::ostringstream msg;
  msg << "block-cyclic layout: " << which << " offset " << axis.offset
      << " must be smaller than the block " << axis.block;
  throw InvalidArgument(msg.str());
}

}  // namespace

std::vector<std::size_t> proportional_sequence(std::size_t count, const std::vector<double>& shares) {
  if (shares.empty()) throw InvalidArgument("proportional_sequence: no share");
  for (double s : shares)
    if (!std::isfinite(s) || s <= 0.0)
      throw InvalidArgument("proportional_sequence: share " + std::to_string(s) +
                            " must be finite and > 0");
  // Each tile goes to the line whose next tile would end earliest, (dealt + 1) / share, the
  // lowest index on ties: a heap keyed on (that time, index) finds it in O(log lines).
  using Next = std::pair<double, std::size_t>;
  std::priority_queue<Next, std::vector<Next>, std::greater<Next>> next;
  std::vector<double> dealt(shares.size(), 0.0);
  for (std::size_t a = 0; a < shares.size(); ++a) next.push({1.0 / shares[a], a});
  std::vector<std::size_t> out(count);
  for (std::size_t t = 0; t < count; ++t) {
    const std::size_t best = next.top().second;
    next.pop();
    out[t] = best;
    dealt[best] += 1.0;
    next.push({(dealt[best] + 1.0) / shares[best], best});
  }
  return out;
}

TileOwnership block_cyclic_ownership(std::size_t n, std::size_t tile, std::size_t grid_rows,
                                     std::size_t grid_cols, std::vector<std::size_t> processor_at) {
  return block_cyclic_ownership(BlockCyclicAxis{n, tile, 0, grid_rows},
                                BlockCyclicAxis{n, tile, 0, grid_cols}, std::move(processor_at));
}

TileOwnership block_cyclic_ownership(const BlockCyclicAxis& rows, const BlockCyclicAxis& cols,
                                     std::vector<std::size_t> processor_at) {
  if (processor_at.empty()) {
    processor_at.resize(rows.grid * cols.grid);
    std::iota(processor_at.begin(), processor_at.end(), std::size_t{0});
  }
  require_sizes({rows.extent, cols.extent}, std::min(rows.block, cols.block), rows.grid,
                cols.grid, processor_at.size(), "block-cyclic layout");
  require_offset_inside_block(rows, "row");
  require_offset_inside_block(cols, "column");
  TileOwnership t{cols.extent, cols.block, rows.grid, cols.grid, std::move(processor_at),
                  cyclic_classes(tile_count(rows.extent, rows.block, rows.offset), rows.grid),
                  cyclic_classes(tile_count(cols.extent, cols.block, cols.offset), cols.grid)};
  t.m = rows.extent;
  t.row_tile = rows.block;
  t.row_offset = rows.offset;
  t.col_offset = cols.offset;
  t.grouped_updates = true;
  return t;
}

TileOwnership cartesian_ownership(std::size_t n, std::size_t tile, std::size_t grid_rows,
                                  std::size_t grid_cols, std::vector<std::size_t> processor_at,
                                  const std::vector<double>& row_share,
                                  const std::vector<double>& col_share) {
  return cartesian_ownership(MatrixShape{n, n}, tile, grid_rows, grid_cols,
                             std::move(processor_at), row_share, col_share);
}

TileOwnership cartesian_ownership(MatrixShape shape, std::size_t tile, std::size_t grid_rows,
                                  std::size_t grid_cols, std::vector<std::size_t> processor_at,
                                  const std::vector<double>& row_share,
                                  const std::vector<double>& col_share) {
  require_sizes(shape, tile, grid_rows, grid_cols, processor_at.size(), "Cartesian grid");
  if (row_share.size() != grid_rows || col_share.size() != grid_cols) {
    std::ostringstream msg;
    msg << "Cartesian grid " << grid_rows << " x " << grid_cols << ": " << row_share.size()
        << " row shares and " << col_share.size() << " column shares";
    throw InvalidArgument(msg.str());
  }
  TileOwnership t{shape.cols, tile, grid_rows, grid_cols, std::move(processor_at),
                  proportional_sequence(tile_count(shape.rows, tile), row_share),
                  proportional_sequence(tile_count(shape.cols, tile), col_share)};
  t.m = shape.rows;
  t.grouped_updates = true;
  return t;
}

TileOwnership ordered_cartesian_ownership(MatrixShape shape, std::size_t tile,
                                          std::size_t grid_rows, std::size_t grid_cols,
                                          std::vector<std::size_t> processor_at,
                                          const std::vector<std::size_t>& row_order,
                                          const std::vector<std::size_t>& col_order) {
  require_sizes(shape, tile, grid_rows, grid_cols, processor_at.size(), "ordered Cartesian grid");
  const auto repeat = [](const std::vector<std::size_t>& order, std::size_t count,
                         std::size_t classes, const char* which) {
    if (order.empty()) throw InvalidArgument(std::string("ordered Cartesian grid: empty ") + which + " order");
    for (std::size_t c : order)
      if (c >= classes) {
        std::ostringstream msg;
        msg << "ordered Cartesian grid: " << which << " order names " << c << " of " << classes;
        throw InvalidArgument(msg.str());
      }
    std::vector<std::size_t> out;  // the order again and again, copied whole (no division per tile)
    out.reserve(count);
    while (out.size() < count)
      out.insert(out.end(), order.begin(), order.begin() + static_cast<long>(std::min(order.size(), count - out.size())));
    return out;
  };
  TileOwnership t{shape.cols, tile, grid_rows, grid_cols, std::move(processor_at),
                  repeat(row_order, tile_count(shape.rows, tile), grid_rows, "row"),
                  repeat(col_order, tile_count(shape.cols, tile), grid_cols, "column")};
  t.m = shape.rows;
  t.grouped_updates = true;
  return t;
}

TileOwnership pattern_ownership(std::size_t n, std::size_t tile, std::size_t rows, std::size_t cols,
                                std::vector<std::size_t> owner) {
  return pattern_ownership(MatrixShape{n, n}, tile, rows, cols, std::move(owner));
}

TileOwnership pattern_ownership(MatrixShape shape, std::size_t tile, std::size_t rows,
                                std::size_t cols, std::vector<std::size_t> owner) {
  require_sizes(shape, tile, rows, cols, owner.size(), "pattern");
  TileOwnership t{shape.cols, tile, rows, cols, std::move(owner),
                  cyclic_classes(tile_count(shape.rows, tile), rows),
                  cyclic_classes(tile_count(shape.cols, tile), cols)};
  t.m = shape.rows;
  return t;
}

std::vector<double> elements_held(const TileOwnership& layout, std::size_t processors) {
  // Elements per row class and per column class, then one product per cell: O(tiles + cells),
  // where elements_kept(layout, layout) pairs every cell with its owner's other cells.
  const auto per_class = [](const Axis& axis) {
    std::vector<double> count(axis.classes, 0.0);
    for (std::size_t t = 0; t < axis.tile_class.size(); ++t) {
      const std::size_t first = t == 0 ? 0 : t * axis.block - axis.offset;
      if (first >= axis.extent) break;
      const std::size_t end = std::min(axis.extent, (t + 1) * axis.block - axis.offset);
      count[axis.tile_class[t]] += static_cast<double>(end - first);
    }
    return count;
  };
  const std::vector<double> rows = per_class(row_axis(layout)), cols = per_class(col_axis(layout));
  std::vector<double> held(processors, 0.0);
  for (std::size_t a = 0; a < layout.rows; ++a)
    for (std::size_t b = 0; b < layout.cols; ++b) held.at(layout.at(a, b)) += rows[a] * cols[b];
  return held;
}

std::size_t distinct_owner_count(const TileOwnership& layout) {
  if (layout.owner.empty()) return 0;
  // Flags by processor, not a sort: 16,384 cells are checked once per candidate bound.
  std::vector<char> seen(*std::max_element(layout.owner.begin(), layout.owner.end()) + 1, 0);
  std::size_t distinct = 0;
  for (std::size_t x : layout.owner)
    if (!seen[x]) seen[x] = 1, ++distinct;
  return distinct;
}

bool has_distinct_owners(const TileOwnership& layout) { return distinct_owner_count(layout) == layout.owner.size(); }

std::vector<double> elements_kept(const TileOwnership& from, const TileOwnership& to,
                                  std::size_t processors) {
  if (from.row_extent() != to.row_extent() || from.n != to.n) {
    std::ostringstream msg;
    msg << "elements_kept: matrix shapes differ (" << from.row_extent() << " x " << from.n
        << " and " << to.row_extent() << " x " << to.n << ")";
    throw InvalidArgument(msg.str());
  }
  const auto rows = joint_counts(row_axis(from), row_axis(to));
  const auto cols = joint_counts(col_axis(from), col_axis(to));
  // The cells of `to` each processor owns, row-major: a cell of `from` meets only its own
  // owner's, so the work is O(cells of from × cells per processor of to), not of both tables.
  // One array, processor after processor (first_cell[x] … first_cell[x + 1]): a vector per
  // processor was a thousand allocations per candidate priced.
  std::vector<std::size_t> first_cell(processors + 1, 0), cells(to.owner.size());
  for (std::size_t x : to.owner) ++first_cell.at(x + 1);
  for (std::size_t x = 0; x < processors; ++x) first_cell[x + 1] += first_cell[x];
  std::vector<std::size_t> next(first_cell.begin(), first_cell.end() - 1);
  for (std::size_t cell = 0; cell < to.owner.size(); ++cell) cells[next[to.owner[cell]]++] = cell;
  std::vector<double> kept(processors, 0.0);
  for (std::size_t u = 0; u < from.rows; ++u)
    for (std::size_t v = 0; v < from.cols; ++v) {
      const std::size_t x = from.at(u, v);
      for (std::size_t c = first_cell.at(x); c < first_cell[x + 1]; ++c) {
        const std::size_t cell = cells[c];
        const std::size_t i = cell / to.cols, j = cell % to.cols;
        const double r = rows[u * to.rows + i];
        if (r != 0.0) kept[x] += r * cols[v * to.cols + j];
      }
    }
  return kept;
}

std::vector<std::vector<std::size_t>> positions_by_class(const std::vector<std::size_t>& classes,
                                                         std::size_t num_classes, std::size_t tiles) {
  tiles = std::min(tiles, classes.size());
  std::vector<std::size_t> sizes(num_classes, 0);
  for (std::size_t t = 0; t < tiles; ++t) ++sizes[classes[t]];
  std::vector<std::vector<std::size_t>> positions(num_classes);
  for (std::size_t c = 0; c < num_classes; ++c) positions[c].reserve(sizes[c]);
  for (std::size_t t = 0; t < tiles; ++t) positions[classes[t]].push_back(t);
  return positions;
}

SuffixClassCounts::SuffixClassCounts(const std::vector<std::size_t>& classes, std::size_t num_classes,
                                     std::size_t tiles)
    : positions_(positions_by_class(classes, num_classes, tiles)) {}

std::size_t SuffixClassCounts::count(std::size_t s, std::size_t a) const {
  const std::vector<std::size_t>& at = positions_[a];
  return static_cast<std::size_t>(at.end() - std::lower_bound(at.begin(), at.end(), s));
}

std::vector<std::size_t> SuffixClassCounts::from(std::size_t s) const {
  std::vector<std::size_t> counts(positions_.size());
  for (std::size_t a = 0; a < positions_.size(); ++a) counts[a] = count(s, a);
  return counts;
}

}  // namespace hetscal::core
