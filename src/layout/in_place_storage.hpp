#pragma once
/// @file in_place_storage.hpp
/// A rank's part of a planned layout computed in the caller's memory (issue 28, item 2): the
/// tiles the plan leaves with their caller owner stay where ScaLAPACK keeps them, in the
/// caller's local array (leading dimension LLD); the tiles the rank receives (its surplus)
/// live in one overflow buffer. A TileLocation names its buffer (TileBase), so a kernel that
/// addresses tiles through DistributedMatrix::at works on both buffers unchanged.
///
/// The overflow holds each tile column's received tiles stacked top to bottom, column-major,
/// with their rows' sum as leading dimension: a received tile column of a Cholesky's triangle
/// is then one block, as in the caller's array.
///
/// Only the tiles of `stored` have a place: a Cholesky never reads or writes its other
/// triangle, which stays in the caller's array on its caller owner and is not moved.
/// Redistribution plans (mpi/redistribution_plan.hpp) take one-buffer storages, not this one.
#include <cstdint>
#include <vector>

#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"

namespace hetscal::layout {

/// The tiles of a matrix a storage holds.
enum class StoredTiles {
  All,
  LowerTriangle,  ///< tiles (I, J) with I >= J
  UpperTriangle,  ///< tiles (I, J) with I <= J
};

/// Whether tile t is among `stored`.
inline bool is_stored(StoredTiles stored, GlobalTile t) {
  switch (stored) {
    case StoredTiles::LowerTriangle: return t.row >= t.col;
    case StoredTiles::UpperTriangle: return t.row <= t.col;
    case StoredTiles::All: break;
  }
  return true;
}

/// One rank's part of `planned`, kept tiles in the caller's array, received ones in the overflow.
class InPlaceLocalLayout : public LocalLayout {
 public:
  /// @param planned the layout the kernel works on; @param caller the caller's, with the same
  ///        tiles; @param caller_storage this rank's caller array (caller_local_layout).
  /// @throws InvalidArgument when the tiles differ or caller_storage is another rank's.
  InPlaceLocalLayout(const Distribution& planned, const Distribution& caller, CartesianLocalLayout caller_storage,
                     StoredTiles stored);

  StorageKind kind() const override { return StorageKind::KeptAndOverflow; }
  /// The caller's array's elements (the overflow is apart: overflow_elements).
  std::int64_t local_elements() const override { return caller_.local_elements(); }
  /// True when the plan gives t to this rank (stored or not).
  bool owns(GlobalTile t) const override;
  /// Where stored tile t is: base Array (the caller's array) or Overflow.
  /// @throws InvalidArgument when this rank does not own t or t is not stored.
  TileLocation tile_location(GlobalTile t) const override;

  /// Elements the overflow buffer must hold.
  std::int64_t overflow_elements() const { return overflow_elements_; }
  /// The stored tiles this rank receives (they live in the overflow), column by column of tiles.
  const std::vector<GlobalTile>& received() const { return received_; }
  /// The stored tiles this rank's caller array holds that the plan gives to other ranks.
  const std::vector<GlobalTile>& given() const { return given_; }
  /// This rank's caller array.
  const CartesianLocalLayout& caller_storage() const { return caller_; }

 private:
  static constexpr std::int64_t kNotMine = -1, kKept = -2, kNotStored = -3;
  std::size_t index(GlobalTile t) const { return static_cast<std::size_t>(t.col * rows().count() + t.row); }

  CartesianLocalLayout caller_;
  std::vector<std::int64_t> slot_;       ///< per tile, column-major: an overflow offset or a kXxx code
  std::vector<std::int64_t> column_ld_;  ///< per tile column: the overflow's leading dimension there
  std::vector<GlobalTile> received_, given_;
  std::int64_t overflow_elements_ = 0;
};

}  // namespace hetscal::layout
