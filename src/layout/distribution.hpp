#pragma once
/// @file distribution.hpp
/// Which rank owns which tile of a distributed matrix: the one interface that 2D
/// block-cyclic grids, heterogeneous Cartesian grids and patterns (G-2DBC, GCR&M,
/// heterogeneous) all implement, so every kernel and the redistribution work on all of them.
///
/// Ranks are 0..num_ranks()-1 in the communicator the distribution is used with.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace hetscal::layout {

/// Global tile coordinates (tile row, tile column), 0-based. Typed so that tile indices are
/// not confused with element indices or local indices.
struct GlobalTile {
  std::int64_t row = 0;
  std::int64_t col = 0;
  friend bool operator==(GlobalTile a, GlobalTile b) { return a.row == b.row && a.col == b.col; }
};

/// How one matrix dimension of `extent` elements is cut into tiles: the first tile has
/// `first` elements (ScaLAPACK's IMB/INB, already reduced by a submatrix offset), every
/// other tile `block` elements, except a shorter last one. `first` may exceed `block` (the
/// 11-entry descriptor allows IMB > MB); a `first` beyond a non-zero `extent` is clipped to
/// it (one tile), as PB_Cfirstnb clips, so first() <= extent() whenever extent() > 0.
class TileSplit {
 public:
  /// @pre extent >= 0, block >= 1, first >= 1. @throws InvalidArgument otherwise.
  TileSplit(std::int64_t extent, std::int64_t block, std::int64_t first);
  TileSplit(std::int64_t extent, std::int64_t block) : TileSplit(extent, block, block) {}

  std::int64_t extent() const { return extent_; }
  std::int64_t block() const { return block_; }
  std::int64_t first() const { return first_; }
  std::int64_t count() const;                          ///< number of tiles (0 if extent == 0)
  std::int64_t offset(std::int64_t tile) const;        ///< first element of `tile`
  std::int64_t size(std::int64_t tile) const;          ///< elements in `tile`
  std::int64_t tile_of(std::int64_t element) const;    ///< tile holding `element`

  /// Same tiles. Empty splits are all equal; block sizes may differ when what follows the
  /// first tile fits in one block of either size.
  friend bool operator==(const TileSplit& a, const TileSplit& b) {
    if (a.extent_ != b.extent_) return false;
    if (a.extent_ == 0) return true;
    return a.first_ == b.first_ &&
           (a.block_ == b.block_ || a.extent_ - a.first_ <= std::min(a.block_, b.block_));
  }
  friend bool operator!=(const TileSplit& a, const TileSplit& b) { return !(a == b); }

 private:
  std::int64_t extent_, block_, first_;
};

/// Marks a cell of an owner table whose tiles each have an owner of their own (owner() names it).
inline constexpr int kOwnerPerTile = -1;

/// The owner table behind a distribution: tile row I is of row class row_class[I], tile column J
/// of column class col_class[J], and owner(I, J) is cell (row_class[I], col_class[J]) of a
/// class_rows × class_cols table, unless that cell is kOwnerPerTile. A Cartesian grid's classes
/// are its grid rows and columns, a pattern's its rows and columns: what the ranks own along a
/// tile line is then known per class, in memory of the table's size, not per line and rank.
struct OwnerClasses {
  std::vector<int> row_class, col_class;
  int class_rows = 1, class_cols = 1;
  std::vector<int> cells{kOwnerPerTile};  ///< row-major, ranks or kOwnerPerTile

  int cell(int row, int col) const {
    return cells[static_cast<std::size_t>(row * class_cols + col)];
  }
  int class_of_row(std::int64_t i) const { return row_class[static_cast<std::size_t>(i)]; }
  int class_of_col(std::int64_t j) const { return col_class[static_cast<std::size_t>(j)]; }
};

/// Tile -> owner map of an M×N matrix.
class Distribution {
 public:
  Distribution(TileSplit rows, TileSplit cols, int num_ranks);
  virtual ~Distribution() = default;

  const TileSplit& rows() const { return rows_; }
  const TileSplit& cols() const { return cols_; }
  int num_ranks() const { return num_ranks_; }

  /// The rank that owns tile t. @pre 0 <= t.row < rows().count(), same for columns.
  virtual int owner(GlobalTile t) const = 0;

  /// Ranks owning at least one tile of tile row I (sorted, unique): the ranks a kernel must
  /// reach when it broadcasts along that row.
  virtual std::vector<int> row_group(std::int64_t tile_row) const;
  /// Ranks owning at least one tile of tile column J (sorted, unique).
  virtual std::vector<int> col_group(std::int64_t tile_col) const;

  /// True when owner(I,J) = grid(row_map(I), col_map(J)) for some process grid: the
  /// distribution is a (possibly heterogeneous) Cartesian grid, which allows the fast
  /// row/column-communicator paths and one column-major local array per rank.
  virtual bool is_cartesian() const { return false; }

  /// The classes of owner(). This default knows no structure: one class per dimension and one
  /// cell whose tiles each have their own owner.
  virtual OwnerClasses owner_classes() const;

 private:
  TileSplit rows_, cols_;
  int num_ranks_;
};

}  // namespace hetscal::layout
