#pragma once
/// @file plan_grid.hpp
/// The heterogeneous Cartesian grid plan of Boudet, Petitet, Rastello & Robert (1999):
/// what hetscal-plan prints without --pattern or --rebalance.
#include "tools/plan/options.hpp"
#include "tools/plan/picture.hpp"
#include "tools/plan/report.hpp"

namespace hetscal::tools::plan {

/// Fills report.grid for the --grid shape, or for the best shape (then report.shapes lists
/// every shape tried with its figures).
/// @throws InvalidArgument if core refuses the input or --exact is asked for a grid too
///         large to search.
void plan_grid(const Options& options, Report& report);

/// The owner of every tile of an n×n tile matrix under the grid plan:
/// tile (I,J) -> processor at grid position (row_map[I mod B_p], col_map[J mod B_q]).
TileMatrix grid_matrix(const GridReport& grid, std::size_t tiles);

/// Default side of the pictured tile matrix: two panels of the larger panel side (at most 64
/// tiles, but always a whole panel and one tile more).
std::size_t default_grid_picture_tiles(const GridReport& grid);

}  // namespace hetscal::tools::plan
