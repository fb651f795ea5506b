#pragma once
/// @file pattern_resolve.hpp
/// A pattern laid over an actual tile matrix: the owner of every tile, with the unassigned
/// diagonal cells of a pattern (GCR&M) resolved per replica. Following the paper (§V, after
/// the extended SBC), each replica of an unassigned cell goes to the least-loaded node of its
/// colrow, replicas taken in row-major tile order, load = tiles owned in the region the
/// factorisation touches, ties to the lowest node id. The result is deterministic.
#include <cstdint>
#include <vector>

#include "core/patterns/pattern.hpp"

namespace hetscal::core {

/// The tiles a factorisation works on: LU the full matrix, Cholesky the lower triangle
/// (I >= J, diagonal included).
enum class TileRegion { Full, LowerTriangle };

/// The region of `f`: Full for LU, LowerTriangle for Cholesky.
TileRegion region_of(Factorization f);

/// True when tile (I, J) is in `region`.
inline bool in_region(TileRegion region, std::int64_t tile_row, std::int64_t tile_col) {
  return region == TileRegion::Full || tile_row >= tile_col;
}

/// Tile -> owner of a pattern laid over a tile_rows × tile_cols matrix. Stores the pattern
/// plus one owner per replica of each unassigned cell, so memory stays small.
class OwnerMap {
 public:
  const Pattern& pattern() const { return pattern_; }
  std::int64_t tile_rows() const { return tile_rows_; }
  std::int64_t tile_cols() const { return tile_cols_; }
  TileRegion region() const { return region_; }

  /// Owner of tile (I, J). @pre 0 <= I < tile_rows(), 0 <= J < tile_cols().
  int owner(std::int64_t tile_row, std::int64_t tile_col) const;

  /// Tiles of `region` owned by each node (size P).
  std::vector<std::int64_t> tiles_per_node(TileRegion region) const;

 private:
  friend OwnerMap resolve(const Pattern&, std::int64_t, std::int64_t, TileRegion);
  OwnerMap(Pattern pattern, std::int64_t tile_rows, std::int64_t tile_cols, TileRegion region);
  std::size_t replica_slot(std::int64_t tile_row, std::int64_t tile_col) const;

  Pattern pattern_;
  std::int64_t tile_rows_, tile_cols_;
  TileRegion region_;
  std::vector<int> cell_slot_;  ///< per pattern cell: index among unassigned cells, or -1
  int unassigned_cells_ = 0;
  std::int64_t replica_cols_ = 0;   ///< ceil(tile_cols / pattern cols)
  std::vector<int> replica_owner_;  ///< [(replica_row*replica_cols + replica_col)*U + slot]
};

/// Lays `pattern` over a tile_rows × tile_cols tile matrix, resolving unassigned cells per
/// replica to balance the tiles of `region`.
/// @throws InvalidArgument if tile_rows or tile_cols < 0.
OwnerMap resolve(const Pattern& pattern, std::int64_t tile_rows, std::int64_t tile_cols,
                 TileRegion region = TileRegion::Full);

/// What a picture of the distribution needs: the owner of every tile of an n×n tile matrix,
/// row-major, and kOutsideRegion for tiles the region excludes (upper triangle for Cholesky).
struct TilePicture {
  static constexpr int kOutsideRegion = -2;
  std::int64_t n = 0;
  int num_nodes = 0;
  std::vector<int> owner;  ///< owner[I * n + J]
};

/// The picture of `pattern` laid over an n×n tile matrix for `region`.
/// @throws InvalidArgument if n < 0.
TilePicture tile_picture(const Pattern& pattern, std::int64_t n, TileRegion region);

}  // namespace hetscal::core
