#pragma once
/// @file cartesian_distribution.hpp
/// Heterogeneous Cartesian grids: tile row I lives in grid row row_map[I mod B_p], tile column
/// J in grid column col_map[J mod B_q], and owner(I,J) = grid.rank(those two). With
/// row_map = (RSRC, RSRC+1, ..., RSRC+p-1) mod p it is ScaLAPACK's 2D block-cyclic layout;
/// with r_i entries equal to i in a panel of B_p tile rows it is Boudet et al.'s
/// heterogeneous grid (Boudet1999).
#include <cstdint>
#include <optional>
#include <vector>

#include "layout/distribution.hpp"

namespace hetscal::layout {

/// Coordinates of a cell of a process grid.
struct GridCoord {
  int row = 0;
  int col = 0;
  friend bool operator==(GridCoord a, GridCoord b) { return a.row == b.row && a.col == b.col; }
};

/// A p×q process grid: which rank (of the communicator the distribution is used with) sits at
/// each cell. Any placement (BLACS row-major, column-major, any gridmap) is a table.
class ProcessGrid {
 public:
  /// @param nprow,npcol grid shape, >= 1.
  /// @param ranks row-major table: ranks[r*npcol + c] is the rank at cell (r, c); distinct
  ///        values in [0, num_ranks).
  /// @param num_ranks size of the communicator (may exceed nprow*npcol: ranks outside the
  ///        grid own nothing). 0 means nprow*npcol.
  /// @throws InvalidArgument on a bad shape, table size, or a repeated / out-of-range rank.
  ProcessGrid(int nprow, int npcol, std::vector<int> ranks, int num_ranks = 0);

  /// Ranks 0..p*q-1 placed row by row (BLACS's default "Row" order).
  static ProcessGrid row_major(int nprow, int npcol);
  /// Ranks 0..p*q-1 placed column by column (BLACS's "Col" order).
  static ProcessGrid column_major(int nprow, int npcol);

  int nprow() const { return nprow_; }
  int npcol() const { return npcol_; }
  int num_ranks() const { return num_ranks_; }
  /// @pre 0 <= row < nprow, 0 <= col < npcol.
  int rank(int row, int col) const { return ranks_[static_cast<std::size_t>(row * npcol_ + col)]; }
  int rank(GridCoord c) const { return rank(c.row, c.col); }
  /// Where `rank` sits; nullopt when it is not in the grid.
  std::optional<GridCoord> coordinates(int rank) const;
  /// The row-major table.
  const std::vector<int>& ranks() const { return ranks_; }

 private:
  int nprow_, npcol_, num_ranks_;
  std::vector<int> ranks_;
  std::vector<int> cell_of_rank_;  // rank -> row*npcol+col, or -1
};

/// Tile -> grid cell through periodic row and column maps.
class CartesianDistribution : public Distribution {
 public:
  /// @param row_map grid row of tile rows 0..B_p-1 of each panel (B_p = row_map.size() >= 1),
  ///        values in [0, nprow).
  /// @param col_map grid column of tile columns 0..B_q-1, values in [0, npcol).
  /// @throws InvalidArgument on an empty map or a value outside the grid.
  CartesianDistribution(TileSplit rows, TileSplit cols, std::vector<int> row_map,
                        std::vector<int> col_map, ProcessGrid grid);

  int owner(GlobalTile t) const override { return grid_.rank(grid_row(t.row), grid_col(t.col)); }
  std::vector<int> row_group(std::int64_t tile_row) const override;
  std::vector<int> col_group(std::int64_t tile_col) const override;
  bool is_cartesian() const override { return true; }
  /// Grid rows and columns as classes, the grid as the table.
  OwnerClasses owner_classes() const override;

  const ProcessGrid& grid() const { return grid_; }
  const std::vector<int>& row_map() const { return row_map_; }
  const std::vector<int>& col_map() const { return col_map_; }
  /// Grid row holding tile row I. @pre I >= 0.
  int grid_row(std::int64_t tile_row) const {
    return row_map_[static_cast<std::size_t>(tile_row % static_cast<std::int64_t>(row_map_.size()))];
  }
  /// Grid column holding tile column J. @pre J >= 0.
  int grid_col(std::int64_t tile_col) const {
    return col_map_[static_cast<std::size_t>(tile_col % static_cast<std::int64_t>(col_map_.size()))];
  }

 private:
  std::vector<int> row_map_, col_map_;
  ProcessGrid grid_;
};

}  // namespace hetscal::layout
