/// @file cartesian_distribution.cpp
#include "layout/cartesian_distribution.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::layout {

ProcessGrid::ProcessGrid(int nprow, int npcol, std::vector<int> ranks, int num_ranks)
    : nprow_(nprow), npcol_(npcol), num_ranks_(num_ranks), ranks_(std::move(ranks)) {
  if (nprow < 1 || npcol < 1) {
    throw InvalidArgument("ProcessGrid: shape " + std::to_string(nprow) + "x" +
                          std::to_string(npcol) + " must be at least 1x1");
  }
  const std::size_t cells = static_cast<std::size_t>(nprow) * static_cast<std::size_t>(npcol);
  if (ranks_.size() != cells) {
    throw InvalidArgument("ProcessGrid: rank table has " + std::to_string(ranks_.size()) +
                          " entries, grid has " + std::to_string(cells) + " cells");
  }
  if (num_ranks_ == 0) num_ranks_ = static_cast<int>(cells);
  if (num_ranks_ < 0) {
    throw InvalidArgument("ProcessGrid: num_ranks " + std::to_string(num_ranks_) + " is negative");
  }
  cell_of_rank_.assign(static_cast<std::size_t>(num_ranks_), -1);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    const int r = ranks_[cell];
    if (r < 0 || r >= num_ranks_) {
      throw InvalidArgument("ProcessGrid: rank " + std::to_string(r) + " at cell " +
                            std::to_string(cell) + " is outside [0, " + std::to_string(num_ranks_) +
                            ")");
    }
    if (cell_of_rank_[static_cast<std::size_t>(r)] != -1) {
      throw InvalidArgument("ProcessGrid: rank " + std::to_string(r) +
                            " appears twice in the grid");
    }
    cell_of_rank_[static_cast<std::size_t>(r)] = static_cast<int>(cell);
  }
}

ProcessGrid ProcessGrid::row_major(int nprow, int npcol) {
  std::vector<int> ranks(static_cast<std::size_t>(std::max(0, nprow * npcol)));
  for (std::size_t k = 0; k < ranks.size(); ++k) ranks[k] = static_cast<int>(k);
  return ProcessGrid(nprow, npcol, std::move(ranks));
}

ProcessGrid ProcessGrid::column_major(int nprow, int npcol) {
  std::vector<int> ranks(static_cast<std::size_t>(std::max(0, nprow * npcol)));
  for (int r = 0; r < nprow; ++r) {
    for (int c = 0; c < npcol; ++c) ranks[static_cast<std::size_t>(r * npcol + c)] = c * nprow + r;
  }
  return ProcessGrid(nprow, npcol, std::move(ranks));
}

std::optional<GridCoord> ProcessGrid::coordinates(int rank) const {
  if (rank < 0 || rank >= num_ranks_) return std::nullopt;
  const int cell = cell_of_rank_[static_cast<std::size_t>(rank)];
  if (cell < 0) return std::nullopt;
  return GridCoord{cell / npcol_, cell % npcol_};
}

namespace {
void check_map(const std::vector<int>& map, int limit, const char* name) {
  if (map.empty())
    throw InvalidArgument(std::string("CartesianDistribution: ") + name + " is empty");
  for (std::size_t k = 0; k < map.size(); ++k) {
    if (map[k] < 0 || map[k] >= limit) {
      throw InvalidArgument(std::string("CartesianDistribution: ") + name + "[" +
                            std::to_string(k) + "] = " + std::to_string(map[k]) +
                            " is outside [0, " + std::to_string(limit) + ")");
    }
  }
}

/// Map values used by the first `tiles` tiles of a periodic map, sorted and unique.
std::vector<int> used_values(const std::vector<int>& map, std::int64_t tiles) {
  const std::size_t n = static_cast<std::size_t>(
      std::min<std::int64_t>(tiles, static_cast<std::int64_t>(map.size())));
  std::vector<int> used(map.begin(), map.begin() + static_cast<std::ptrdiff_t>(n));
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  return used;
}

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}
}  // namespace

CartesianDistribution::CartesianDistribution(TileSplit rows, TileSplit cols,
                                             std::vector<int> row_map, std::vector<int> col_map,
                                             ProcessGrid grid)
    : Distribution(rows, cols, grid.num_ranks()),
      row_map_(std::move(row_map)),
      col_map_(std::move(col_map)),
      grid_(std::move(grid)) {
  check_map(row_map_, grid_.nprow(), "row_map");
  check_map(col_map_, grid_.npcol(), "col_map");
}

std::vector<int> CartesianDistribution::row_group(std::int64_t tile_row) const {
  const int r = grid_row(tile_row);
  std::vector<int> ranks;
  for (int c : used_values(col_map_, cols().count())) ranks.push_back(grid_.rank(r, c));
  return sorted(std::move(ranks));
}

std::vector<int> CartesianDistribution::col_group(std::int64_t tile_col) const {
  const int c = grid_col(tile_col);
  std::vector<int> ranks;
  for (int r : used_values(row_map_, rows().count())) ranks.push_back(grid_.rank(r, c));
  return sorted(std::move(ranks));
}

OwnerClasses CartesianDistribution::owner_classes() const {
  OwnerClasses classes;
  for (std::int64_t i = 0; i < rows().count(); ++i) classes.row_class.push_back(grid_row(i));
  for (std::int64_t j = 0; j < cols().count(); ++j) classes.col_class.push_back(grid_col(j));
  classes.class_rows = grid_.nprow();
  classes.class_cols = grid_.npcol();
  classes.cells = grid_.ranks();
  return classes;
}

}  // namespace hetscal::layout
