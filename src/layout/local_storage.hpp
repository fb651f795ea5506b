#pragma once
/// @file local_storage.hpp
/// Where a rank keeps the tiles it owns. Two layouts behind one interface, so that the
/// redistribution and the kernels only ask "where does tile (I,J) start, with which leading
/// dimension":
/// - CartesianLocalLayout: one column-major array per rank, as ScaLAPACK stores a
///   block-cyclic matrix (tile rows of the rank's grid row stacked in global order, same for
///   columns); a step's update is then a few large BLAS calls. Also describes a caller's own
///   ScaLAPACK array (caller_local_layout).
/// - TiledLocalLayout: the owned tiles one after the other (column by column of tiles), each
///   column-major with its own height as leading dimension: for patterns, which are not
///   Cartesian.
/// - InPlaceLocalLayout (in_place_storage.hpp): an in-place take-over's tiles, in the caller's
///   array or in one overflow buffer (a location says which).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "layout/block_cyclic_distribution.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/distribution.hpp"
#include "layout/local_index.hpp"

namespace hetscal::layout {

enum class StorageKind {
  ColumnMajorArray,  ///< CartesianLocalLayout
  Tiles,             ///< TiledLocalLayout
  KeptAndOverflow,   ///< InPlaceLocalLayout: two buffers
};

/// Which of a storage's buffers holds a tile. Every layout but InPlaceLocalLayout has one,
/// the Array.
enum class TileBase : std::uint8_t {
  Array,     ///< the local array (for an in-place take-over: the caller's)
  Overflow,  ///< the overflow buffer of an in-place take-over (the tiles a rank received)
};

/// Start of a tile in a rank's local buffer `base`: element (r, c) of the tile (0-based,
/// within the tile) is at offset + r + c * ld of that buffer.
struct TileLocation {
  std::int64_t offset = 0;
  std::int64_t ld = 1;
  TileBase base = TileBase::Array;
  friend bool operator==(TileLocation a, TileLocation b) {
    return a.offset == b.offset && a.ld == b.ld && a.base == b.base;
  }
};

/// One rank's local storage of a distributed matrix.
class LocalLayout {
 public:
  virtual ~LocalLayout() = default;

  virtual StorageKind kind() const = 0;
  int rank() const { return rank_; }
  const TileSplit& rows() const { return rows_; }
  const TileSplit& cols() const { return cols_; }

  /// Number of elements the local buffer must hold (every offset + 1 is <= this).
  virtual std::int64_t local_elements() const = 0;
  /// True when this rank owns tile t. @pre t inside the tile grid.
  virtual bool owns(GlobalTile t) const = 0;
  /// Where tile t starts. @throws InvalidArgument when this rank does not own t.
  virtual TileLocation tile_location(GlobalTile t) const = 0;

  /// Offset of global element (i, j) (0-based, relative to the distributed matrix).
  /// @throws InvalidArgument when (i, j) is outside the matrix or not owned here.
  std::int64_t element_offset(std::int64_t i, std::int64_t j) const;
  /// The tiles this rank owns, column of tiles by column of tiles, top to bottom.
  std::vector<GlobalTile> owned_tiles() const;

 protected:
  LocalLayout(TileSplit rows, TileSplit cols, int rank) : rows_(rows), cols_(cols), rank_(rank) {}
  /// @throws InvalidArgument naming t when it is outside the tile grid.
  void require_inside(GlobalTile t) const;

 private:
  TileSplit rows_, cols_;
  int rank_;
};

/// ScaLAPACK-style local array of one rank of a Cartesian distribution.
class CartesianLocalLayout : public LocalLayout {
 public:
  /// @param ld leading dimension; 0 chooses max(1, row_base + local_rows()).
  /// @param row_base,col_base local index of the first local row / column of the matrix
  ///        (non-zero when the matrix is a submatrix of a larger local array).
  /// @throws InvalidArgument when ld < row_base + local_rows() or a base is negative.
  CartesianLocalLayout(const CartesianDistribution& d, int rank, std::int64_t ld = 0,
                       std::int64_t row_base = 0, std::int64_t col_base = 0);

  StorageKind kind() const override { return StorageKind::ColumnMajorArray; }
  std::int64_t local_elements() const override;
  bool owns(GlobalTile t) const override;
  TileLocation tile_location(GlobalTile t) const override;

  /// LOCr: rows of the matrix held by this rank's grid row (0 if the rank is not in the grid).
  std::int64_t local_rows() const { return local_rows_; }
  /// LOCc: columns held by this rank's grid column.
  std::int64_t local_cols() const { return local_cols_; }
  std::int64_t ld() const { return ld_; }
  /// The matrix's first local row and column (non-zero for a submatrix of a larger array).
  LocalRow row_base() const { return LocalRow(row_base_); }
  LocalCol col_base() const { return LocalCol(col_base_); }
  /// One past the matrix's last local row and column.
  LocalRow row_end() const { return row_base() + local_rows_; }
  LocalCol col_end() const { return col_base() + local_cols_; }
  /// Local row of the first row of global tile row `tile_row`, or nothing when tile row
  /// lives in another grid row.
  std::optional<LocalRow> local_row_of_tile(std::int64_t tile_row) const;
  /// Local column of the first column of global tile column `tile_col`, or nothing.
  std::optional<LocalCol> local_col_of_tile(std::int64_t tile_col) const;
  /// Offset of local element (row, col) in the array.
  std::int64_t offset(LocalRow row, LocalCol col) const { return local_offset(row, col, ld_); }

 private:
  std::vector<std::int64_t> row_start_, col_start_;  // per tile row/col: local index or -1
  std::int64_t local_rows_ = 0, local_cols_ = 0;
  std::int64_t ld_ = 1, row_base_ = 0, col_base_ = 0;
};

/// The caller's own ScaLAPACK local array for sub(A), as `rank` holds it: leading dimension
/// LLD_A, and sub(A) starting at A's local indices (II, JJ) from PB_Cinfog2l. Offsets are
/// relative to the caller's local array A (its element (1,1)).
CartesianLocalLayout caller_local_layout(const BlockCyclicDistribution& d, int rank);

/// Owned tiles stored one after the other.
class TiledLocalLayout : public LocalLayout {
 public:
  TiledLocalLayout(const Distribution& d, int rank);

  StorageKind kind() const override { return StorageKind::Tiles; }
  std::int64_t local_elements() const override { return total_; }
  bool owns(GlobalTile t) const override;
  TileLocation tile_location(GlobalTile t) const override;

 private:
  std::size_t index(GlobalTile t) const {
    return static_cast<std::size_t>(t.col * rows().count() + t.row);
  }
  std::vector<std::int64_t> offset_;  // per tile, column-major over tiles; -1 if not owned
  std::int64_t total_ = 0;
};

/// The layout hetscal uses for its own data: CartesianLocalLayout (ld = LOCr) when `d` is a
/// CartesianDistribution, TiledLocalLayout otherwise.
std::unique_ptr<LocalLayout> make_local_layout(const Distribution& d, int rank);

}  // namespace hetscal::layout
