/// @file local_storage.cpp
#include "layout/local_storage.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::layout {

namespace {

std::string tile_name(GlobalTile t) {
  return "(" + std::to_string(t.row) + ", " + std::to_string(t.col) + ")";
}

/// Local start of every tile of a split whose tiles go to grid coordinate `coord(tile)`:
/// the tiles of `mine` are stacked in global order from `base`, the others get -1.
template <typename CoordOf>
std::vector<std::int64_t> stack_tiles(const TileSplit& split, int mine, std::int64_t base,
                                      CoordOf coord, std::int64_t& local_total) {
  std::vector<std::int64_t> start(static_cast<std::size_t>(split.count()), -1);
  local_total = 0;
  for (std::int64_t t = 0; t < split.count(); ++t) {
    if (coord(t) != mine) continue;
    start[static_cast<std::size_t>(t)] = base + local_total;
    local_total += split.size(t);
  }
  return start;
}

}  // namespace

void LocalLayout::require_inside(GlobalTile t) const {
  if (t.row < 0 || t.row >= rows_.count() || t.col < 0 || t.col >= cols_.count()) {
    throw InvalidArgument("LocalLayout: tile " + tile_name(t) + " is outside the " +
                          std::to_string(rows_.count()) + "x" + std::to_string(cols_.count()) +
                          " tile grid");
  }
}

std::int64_t LocalLayout::element_offset(std::int64_t i, std::int64_t j) const {
  if (i < 0 || i >= rows_.extent() || j < 0 || j >= cols_.extent()) {
    throw InvalidArgument("LocalLayout: element (" + std::to_string(i) + ", " + std::to_string(j) +
                          ") is outside the matrix");
  }
  const GlobalTile t{rows_.tile_of(i), cols_.tile_of(j)};
  const TileLocation where = tile_location(t);
  return where.offset + (i - rows_.offset(t.row)) + (j - cols_.offset(t.col)) * where.ld;
}

std::vector<GlobalTile> LocalLayout::owned_tiles() const {
  std::vector<GlobalTile> tiles;
  for (std::int64_t j = 0; j < cols_.count(); ++j) {
    for (std::int64_t i = 0; i < rows_.count(); ++i) {
      if (owns({i, j})) tiles.push_back({i, j});
    }
  }
  return tiles;
}

CartesianLocalLayout::CartesianLocalLayout(const CartesianDistribution& d, int rank,
                                           std::int64_t ld, std::int64_t row_base,
                                           std::int64_t col_base)
    : LocalLayout(d.rows(), d.cols(), rank), row_base_(row_base), col_base_(col_base) {
  if (row_base < 0 || col_base < 0) {
    throw InvalidArgument("CartesianLocalLayout: bases (" + std::to_string(row_base) + ", " +
                          std::to_string(col_base) + ") must be >= 0");
  }
  // A rank outside the grid sits at no coordinate: -1 matches no tile.
  const auto cell = d.grid().coordinates(rank);
  const int my_row = cell ? cell->row : -1, my_col = cell ? cell->col : -1;
  row_start_ = stack_tiles(
      d.rows(), my_row, row_base, [&d](std::int64_t t) { return d.grid_row(t); }, local_rows_);
  col_start_ = stack_tiles(
      d.cols(), my_col, col_base, [&d](std::int64_t t) { return d.grid_col(t); }, local_cols_);
  ld_ = ld == 0 ? std::max<std::int64_t>(1, row_base + local_rows_) : ld;
  if (ld_ < std::max<std::int64_t>(1, row_base + local_rows_)) {
    throw InvalidArgument("CartesianLocalLayout: ld " + std::to_string(ld) + " < " +
                          std::to_string(row_base + local_rows_) + " local rows of rank " +
                          std::to_string(rank));
  }
}

std::int64_t CartesianLocalLayout::local_elements() const {
  if (local_rows_ == 0 || local_cols_ == 0) return 0;
  return ld_ * (col_base_ + local_cols_);
}

std::int64_t CartesianLocalLayout::local_row_of_tile(std::int64_t tile_row) const {
  return row_start_.at(static_cast<std::size_t>(tile_row));
}

std::int64_t CartesianLocalLayout::local_col_of_tile(std::int64_t tile_col) const {
  return col_start_.at(static_cast<std::size_t>(tile_col));
}

bool CartesianLocalLayout::owns(GlobalTile t) const {
  require_inside(t);
  return local_row_of_tile(t.row) >= 0 && local_col_of_tile(t.col) >= 0;
}

TileLocation CartesianLocalLayout::tile_location(GlobalTile t) const {
  if (!owns(t)) {
    throw InvalidArgument("CartesianLocalLayout: rank " + std::to_string(rank()) +
                          " does not own tile " + tile_name(t));
  }
  return {local_row_of_tile(t.row) + local_col_of_tile(t.col) * ld_, ld_};
}

CartesianLocalLayout caller_local_layout(const BlockCyclicDistribution& d, int rank) {
  const auto cell = d.grid().coordinates(rank);
  if (!cell) return CartesianLocalLayout(d, rank, d.descriptor().lld);
  const SubmatrixExtent& sub = d.submatrix();
  const std::int64_t ii = local_count_before(d.matrix_row_axis(), sub.row, cell->row);
  const std::int64_t jj = local_count_before(d.matrix_col_axis(), sub.col, cell->col);
  return CartesianLocalLayout(d, rank, d.descriptor().lld, ii, jj);
}

TiledLocalLayout::TiledLocalLayout(const Distribution& d, int rank)
    : LocalLayout(d.rows(), d.cols(), rank) {
  offset_.assign(static_cast<std::size_t>(rows().count() * cols().count()), -1);
  for (std::int64_t j = 0; j < cols().count(); ++j) {
    for (std::int64_t i = 0; i < rows().count(); ++i) {
      if (d.owner({i, j}) != rank) continue;
      offset_[index({i, j})] = total_;
      total_ += rows().size(i) * cols().size(j);
    }
  }
}

bool TiledLocalLayout::owns(GlobalTile t) const {
  require_inside(t);
  return offset_[index(t)] >= 0;
}

TileLocation TiledLocalLayout::tile_location(GlobalTile t) const {
  if (!owns(t)) {
    throw InvalidArgument("TiledLocalLayout: rank " + std::to_string(rank()) +
                          " does not own tile " + tile_name(t));
  }
  return {offset_[index(t)], std::max<std::int64_t>(1, rows().size(t.row))};
}

std::unique_ptr<LocalLayout> make_local_layout(const Distribution& d, int rank) {
  if (const auto* cartesian = dynamic_cast<const CartesianDistribution*>(&d)) {
    return std::make_unique<CartesianLocalLayout>(*cartesian, rank);
  }
  return std::make_unique<TiledLocalLayout>(d, rank);
}

}  // namespace hetscal::layout
