#pragma once
/// @file pattern_distribution.hpp
/// An R×C owner table laid over the tiles cyclically: owner(I,J) = table(I mod R, J mod C).
/// This is how 2DBC, G-2DBC and heterogeneous patterns (Beaumont2023) distribute a matrix. A
/// table cell may be left unassigned (GCR&M's diagonal cells are resolved per replica of the
/// pattern): a resolver then names the owner of each tile falling on such a cell.
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "core/patterns/pattern.hpp"
#include "core/patterns/pattern_resolve.hpp"
#include "layout/distribution.hpp"

namespace hetscal::layout {

/// Marks a pattern cell whose owner depends on the replica (resolved per tile).
inline constexpr int kUnassigned = core::Pattern::kUnassigned;

/// Owner of a tile that falls on an unassigned cell; must return a rank in [0, num_ranks).
using OwnerResolver = std::function<int(GlobalTile)>;

class PatternDistribution : public Distribution {
 public:
  /// @param pattern_rows,pattern_cols R and C, >= 1.
  /// @param table row-major R×C table of ranks in [0, num_ranks) or kUnassigned.
  /// @param resolver called once per tile on an unassigned cell, at construction; may be
  ///        empty when no cell is unassigned.
  /// @throws InvalidArgument on a bad shape or table entry, a missing resolver, or a
  ///         resolver answer outside [0, num_ranks).
  PatternDistribution(TileSplit rows, TileSplit cols, int pattern_rows, int pattern_cols,
                      std::vector<int> table, int num_ranks, const OwnerResolver& resolver = {});

  int owner(GlobalTile t) const override;
  /// Always false: a pattern's tiles are stored as tiles (TiledLocalLayout). A Cartesian
  /// grid should be built as a CartesianDistribution, which gives the fast paths.
  bool is_cartesian() const override { return false; }
  /// The pattern's rows and columns as classes, its table as the table (an unassigned cell's
  /// tiles have owners of their own).
  OwnerClasses owner_classes() const override;

  int pattern_rows() const { return pattern_rows_; }
  int pattern_cols() const { return pattern_cols_; }
  /// Table entry (rank or kUnassigned) of cell (r, c). @pre inside the table.
  int cell(int r, int c) const { return table_[static_cast<std::size_t>(r * pattern_cols_ + c)]; }

 private:
  std::int64_t tile_key(GlobalTile t) const { return t.col * rows().count() + t.row; }

  int pattern_rows_, pattern_cols_;
  std::vector<int> table_;
  std::unordered_map<std::int64_t, int> resolved_;  // tiles on unassigned cells
};

/// A core pattern (2DBC, G-2DBC, GCR&M, heterogeneous) laid over the tiles; its unassigned
/// cells are resolved per replica by core::resolve (least-loaded node of the colrow, counted
/// over `region`). Ranks are the pattern's nodes 0..P-1.
/// @throws InvalidArgument as PatternDistribution's constructor.
PatternDistribution lay_over(const core::Pattern& pattern, TileSplit rows, TileSplit cols,
                             core::TileRegion region = core::TileRegion::Full);

}  // namespace hetscal::layout
