#pragma once
/// @file rebalanced_layout.hpp
/// A context's layout re-planned for new speeds the way Beaumont, Legrand, Rastello & Robert
/// (Beaumont2000, §4) redistribute a column-based partition: the structure stays, only the
/// widths and heights change. A heterogeneous Cartesian grid is a column-based partition
/// whose columns are the grid columns and whose heights are common to every column: the grid
/// shape, the ranks' places in it, the tile size and the B_p×B_q panel are kept, and only the
/// counts r_i, c_j of the panel are re-planned (optimal rational shares for the new speeds,
/// then integer counts). The fewest panel lines then change grid line: a grid column with a
/// surplus hands its last panel columns to the columns with a deficit, the largest deficit
/// first (column migrations, Algorithm 1 lines 1–2), and likewise the panel rows (in a
/// Cartesian grid the heights are common, so a row migration is the same in every column).
/// Every other tile keeps its owner; it may only slide within its owner's local array.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "api/context_layout.hpp"

namespace hetscal::api {

/// The new layout and how many panel lines changed grid line.
struct RebalancedLayout {
  ContextLayout layout;
  bool kept_structure = false;        ///< the grid, tile and panel of the old layout
  std::size_t column_migrations = 0;  ///< panel columns handed to another grid column
  std::size_t row_migrations = 0;     ///< panel rows handed to another grid row
};

/// `map` (grid line of each panel line) changed as little as possible so that grid line g
/// holds counts[g] panel lines: each surplus line gives up its last panel lines, which go, in
/// panel order, to the line with the largest remaining deficit (the first among equals).
/// @param[out] migrations panel lines reassigned (Σ surplus, the fewest possible).
/// @throws InvalidArgument if the counts do not add up to map.size() or a map entry is not a
///         grid line of `counts`.
std::vector<int> migrated_map(const std::vector<int>& map, const std::vector<std::int64_t>& counts,
                              std::size_t& migrations);

/// The Cartesian layout `old` re-planned for `speeds` as the file comment says: same grid,
/// tile, panel size and LU options; new counts and maps; orders set to the new maps.
/// @param speeds relative speed per rank of the context's grid, all > 0.
/// @throws InvalidArgument if `old` is not Cartesian, the speeds are not one per rank, or
///         the grid has more than 32 rows or columns (the exact shares' limit).
RebalancedLayout rebalance_cartesian(const ContextLayout& old, const std::vector<double>& speeds);

}  // namespace hetscal::api
