#pragma once
/// @file blacs_grids.hpp
/// Every BLACS grid a run covers: for each factorisation p × q of the process count, a
/// row-major and a column-major Cblacs_gridinit grid and a Cblacs_gridmap grid over a
/// shuffled rank order; a grid over all ranks but one (that rank takes no part); and a grid
/// on a communicator of its own whose ranks run in the reverse order of MPI_COMM_WORLD's.
#include <cstdint>
#include <string>
#include <vector>

#include "local_operand.hpp"

namespace hetscal_test {

enum class GridKind { RowMajor, ColumnMajor, ShuffledMap, SubsetMap, ReversedCommunicator };

struct GridSpec {
  GridKind kind = GridKind::RowMajor;
  int nprow = 1, npcol = 1;
  /// ShuffledMap / SubsetMap: the MPI_COMM_WORLD rank at (r, c) is ranks[r + c·nprow].
  std::vector<int> ranks;

  std::string describe() const;
};

/// @return the grids for `size` processes; shuffles are drawn from `seed`.
std::vector<GridSpec> grids_for(int size, std::uint64_t seed);

/// Creates the grid (collective over every process).
/// @return this process's position; context -1 when it is not part of the grid.
GridPosition open_grid(const GridSpec& spec);

}  // namespace hetscal_test
