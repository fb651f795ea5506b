// Rectangular matrices, mb×nb blocks and submatrix offsets in tile_ownership: every count is
// checked against a walk over every element, with the owner of an element computed from
// ScaLAPACK's own block-cyclic rule or the pattern's definition, not from the class tables.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/time_models/tile_ownership.hpp"

namespace hetscal::core {
namespace {

using OwnerRule = std::function<std::size_t(std::size_t row, std::size_t col)>;

/// ScaLAPACK's owner of element (row, col) of a submatrix starting `offset` elements into its
/// first block, that block on grid position (0, 0).
OwnerRule scalapack_owner(const BlockCyclicAxis& rows, const BlockCyclicAxis& cols,
                          std::vector<std::size_t> processor_at) {
  return [=](std::size_t row, std::size_t col) {
    const std::size_t grid_row = ((row + rows.offset) / rows.block) % rows.grid;
    const std::size_t grid_col = ((col + cols.offset) / cols.block) % cols.grid;
    return processor_at[grid_row * cols.grid + grid_col];
  };
}

/// The pattern's owner of element (row, col): cell (I mod R, J mod C) of the tile (I, J).
OwnerRule pattern_owner(std::size_t tile, std::size_t rows, std::size_t cols,
                        std::vector<std::size_t> owner) {
  return [=](std::size_t row, std::size_t col) {
    return owner[(row / tile % rows) * cols + col / tile % cols];
  };
}

struct Counts {
  std::vector<double> held;
  std::vector<double> kept;
};

Counts count_elements(MatrixShape shape, const OwnerRule& from, const OwnerRule& to,
                      std::size_t processors) {
  Counts c{std::vector<double>(processors, 0.0), std::vector<double>(processors, 0.0)};
  for (std::size_t i = 0; i < shape.rows; ++i)
    for (std::size_t j = 0; j < shape.cols; ++j) {
      ++c.held[to(i, j)];
      if (from(i, j) == to(i, j)) ++c.kept[to(i, j)];
    }
  return c;
}

std::vector<std::size_t> random_owners(std::mt19937& rng, std::size_t cells, std::size_t processors) {
  std::vector<std::size_t> owner(cells);
  for (auto& o : owner) o = rng() % processors;
  return owner;
}

/// A random caller's layout of a random submatrix: extents up to 45, blocks up to 7, any
/// offset inside its block, grids up to 3×3 of random processors.
struct RandomCallerLayout {
  BlockCyclicAxis rows, cols;
  std::vector<std::size_t> at;
  MatrixShape shape() const { return {rows.extent, cols.extent}; }
  OwnerRule rule() const { return scalapack_owner(rows, cols, at); }
  TileOwnership ownership() const { return block_cyclic_ownership(rows, cols, at); }
};

RandomCallerLayout random_caller_layout(std::mt19937& rng, std::size_t processors) {
  const std::size_t mb = 1 + rng() % 7, nb = 1 + rng() % 7;
  RandomCallerLayout c;
  c.rows = {1 + rng() % 45, mb, rng() % mb, 1 + rng() % 3};
  c.cols = {1 + rng() % 45, nb, rng() % nb, 1 + rng() % 3};
  c.at = random_owners(rng, c.rows.grid * c.cols.grid, processors);
  return c;
}

TEST(TileOwnershipRectangular, SubmatrixBlockCyclicHoldsWhatScalapackAssigns) {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t processors = 1 + rng() % 6;
    const RandomCallerLayout caller = random_caller_layout(rng, processors);
    const auto layout = caller.ownership();
    const auto rule = caller.rule();
    const MatrixShape shape = caller.shape();
    const Counts brute = count_elements(shape, rule, rule, processors);
    EXPECT_EQ(elements_held(layout, processors), brute.held) << "trial " << trial;
    for (std::size_t i = 0; i < shape.rows; ++i)
      for (std::size_t j = 0; j < shape.cols; ++j)
        ASSERT_EQ(layout.at(layout.row_class[layout.tile_row_of(i)],
                            layout.col_class[layout.tile_col_of(j)]),
                  rule(i, j))
            << "trial " << trial << " element (" << i << ", " << j << ")";
  }
}

TEST(TileOwnershipRectangular, ElementsKeptFromAnOffsetCallerLayoutMatchEnumeration) {
  std::mt19937 rng(29);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t processors = 2 + rng() % 5;
    const RandomCallerLayout caller = random_caller_layout(rng, processors);
    const MatrixShape shape = caller.shape();
    const auto from = caller.ownership();
    const std::size_t tile = 1 + rng() % 5, pr = 1 + rng() % 3, pc = 1 + rng() % 3;
    const auto cells = random_owners(rng, pr * pc, processors);
    const auto to = pattern_ownership(shape, tile, pr, pc, cells);
    const Counts brute =
        count_elements(shape, caller.rule(), pattern_owner(tile, pr, pc, cells), processors);
    EXPECT_EQ(elements_kept(from, to, processors), brute.kept) << "trial " << trial;
    EXPECT_EQ(elements_held(to, processors), brute.held) << "trial " << trial;
    // Kept is symmetric: what stays in place does not depend on the direction of the move.
    EXPECT_EQ(elements_kept(to, from, processors), brute.kept) << "trial " << trial;
  }
}

TEST(TileOwnershipRectangular, CartesianGridOfASubmatrixIsAPrefixOfTheLargerGrid) {
  // A, B and C of one GEMM must agree on a shared dimension: the tile classes of a smaller
  // matrix are the first ones of a larger matrix's.
  const std::vector<double> r{1.0, 2.5}, c{3.0, 1.0, 0.5};
  const std::vector<std::size_t> owner{0, 1, 2, 3, 4, 5};
  const auto big = cartesian_ownership(MatrixShape{100, 90}, 7, 2, 3, owner, r, c);
  const auto small = cartesian_ownership(MatrixShape{30, 61}, 7, 2, 3, owner, r, c);
  ASSERT_EQ(small.row_class.size(), 5u);  // ⌈30/7⌉
  ASSERT_EQ(small.col_class.size(), 9u);  // ⌈61/7⌉
  for (std::size_t t = 0; t < small.row_class.size(); ++t) EXPECT_EQ(small.row_class[t], big.row_class[t]);
  for (std::size_t t = 0; t < small.col_class.size(); ++t) EXPECT_EQ(small.col_class[t], big.col_class[t]);
  // Element count of the 30×61 grid, by brute force over its tiles' owners.
  std::vector<double> held(6, 0.0);
  for (std::size_t i = 0; i < 30; ++i)
    for (std::size_t j = 0; j < 61; ++j) ++held[big.at(big.row_class[i / 7], big.col_class[j / 7])];
  EXPECT_EQ(elements_held(small, 6), held);
}

TEST(TileOwnershipRectangular, RefusesAnOffsetOutsideItsBlock) {
  const BlockCyclicAxis rows{10, 4, 4, 2}, cols{10, 3, 0, 1};
  try {
    block_cyclic_ownership(rows, cols, {});
    FAIL() << "a row offset equal to the block was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("row offset 4 must be smaller than the block 4"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(block_cyclic_ownership(BlockCyclicAxis{10, 4, 0, 2}, BlockCyclicAxis{10, 3, 5, 1}, {}),
               InvalidArgument);
  EXPECT_THROW(block_cyclic_ownership(BlockCyclicAxis{0, 4, 0, 2}, BlockCyclicAxis{10, 3, 0, 1}, {}),
               InvalidArgument);
}

TEST(TileOwnershipRectangular, RefusesDifferentShapes) {
  const std::vector<std::size_t> one{0};
  EXPECT_THROW(elements_kept(pattern_ownership(MatrixShape{8, 6}, 2, 1, 1, one),
                             pattern_ownership(MatrixShape{6, 8}, 2, 1, 1, one), 1),
               InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core
