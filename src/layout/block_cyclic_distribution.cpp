/// @file block_cyclic_distribution.cpp
#include "layout/block_cyclic_distribution.hpp"

#include <string>

#include "core/common/error.hpp"

namespace hetscal::layout {

namespace {

std::string describe(const char* what, std::int64_t value) {
  return std::string(what) + " = " + std::to_string(value);
}

/// The validated axis of sub(A) along one dimension of A.
CyclicAxis checked_sub_axis(const CyclicAxis& matrix, std::int64_t start, std::int64_t count,
                            const char* dim) {
  validate(matrix);
  if (matrix.source == kReplicated) {
    throw InvalidArgument(std::string("BlockCyclicDistribution: replicated ") + dim +
                          " (source -1) is not supported");
  }
  if (start < 0 || count < 0 || start + count > matrix.extent) {
    throw InvalidArgument(std::string("BlockCyclicDistribution: ") + dim + " " +
                          describe("start", start) + ", " + describe("count", count) +
                          " is not inside " + describe("extent", matrix.extent));
  }
  return sub_axis(matrix, start, count);
}

/// Grid coordinates of consecutive tiles of an axis: source, source+1, ... mod nprocs.
std::vector<int> cyclic_map(const CyclicAxis& axis) {
  std::vector<int> map(static_cast<std::size_t>(axis.nprocs));
  for (int k = 0; k < axis.nprocs; ++k) {
    map[static_cast<std::size_t>(k)] = (axis.source + k) % axis.nprocs;
  }
  return map;
}

TileSplit tiles_of(const CyclicAxis& sub) {
  return TileSplit(sub.extent, sub.block, sub.first_block);
}

}  // namespace

BlockCyclicDistribution::BlockCyclicDistribution(const Descriptor& desc, SubmatrixExtent sub,
                                                 ProcessGrid grid)
    // The private constructor takes the grid by rvalue reference: nothing is moved until
    // both axes (which read the grid's shape) have been computed.
    : BlockCyclicDistribution(
          desc, sub, checked_sub_axis(desc.row_axis(grid.nprow()), sub.row, sub.rows, "rows"),
          checked_sub_axis(desc.col_axis(grid.npcol()), sub.col, sub.cols, "columns"),
          std::move(grid)) {}

BlockCyclicDistribution::BlockCyclicDistribution(const Descriptor& desc, ProcessGrid grid)
    : BlockCyclicDistribution(desc, SubmatrixExtent{0, 0, desc.m, desc.n}, std::move(grid)) {}

BlockCyclicDistribution::BlockCyclicDistribution(const Descriptor& desc, SubmatrixExtent sub,
                                                 CyclicAxis sub_rows, CyclicAxis sub_cols,
                                                 ProcessGrid&& grid)
    : CartesianDistribution(tiles_of(sub_rows), tiles_of(sub_cols), cyclic_map(sub_rows),
                            cyclic_map(sub_cols), std::move(grid)),
      desc_(desc),
      sub_(sub),
      sub_rows_(sub_rows),
      sub_cols_(sub_cols) {}

}  // namespace hetscal::layout
