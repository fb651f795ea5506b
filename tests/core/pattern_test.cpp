#include "core/patterns/pattern.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "core/common/error.hpp"
#include "core/patterns/pattern_2dbc.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/patterns/pattern_resolve.hpp"

namespace hetscal::core {
namespace {

constexpr int U = Pattern::kUnassigned;

TEST(Pattern, RowColumnAndColrowNodes) {
  const Pattern p(2, 3, 4, {0, 1, 1, 2, 3, 0});
  EXPECT_EQ(p.row_nodes(0), (std::vector<int>{0, 1}));
  EXPECT_EQ(p.row_nodes(1), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(p.col_nodes(0), (std::vector<int>{0, 2}));
  EXPECT_EQ(p.col_nodes(2), (std::vector<int>{0, 1}));
  EXPECT_EQ(p.cells_per_node(), (std::vector<std::int64_t>{2, 2, 1, 1}));
  EXPECT_THROW(p.colrow_nodes(0), InvalidArgument);
  const Pattern square(2, 2, 3, {U, 0, 2, U});
  EXPECT_EQ(square.colrow_nodes(1), (std::vector<int>{0, 2}));
  EXPECT_TRUE(square.has_unassigned());
}

TEST(Pattern, RefusesBadTables) {
  EXPECT_THROW(Pattern(0, 2, 1, {}), InvalidArgument);
  EXPECT_THROW(Pattern(1, 1, 0, {0}), InvalidArgument);
  EXPECT_THROW(Pattern(1, 2, 2, {0}), InvalidArgument);           // wrong owner count
  EXPECT_THROW(Pattern(1, 2, 2, {0, 2}), InvalidArgument);        // owner out of range
  EXPECT_THROW(Pattern(2, 2, 2, {0, U, 1, 1}), InvalidArgument);  // unassigned off the diagonal
  EXPECT_THROW(Pattern(1, 2, 2, {U, 1}), InvalidArgument);        // not square
  EXPECT_THROW(Pattern(1, 1, 1, {U}), InvalidArgument);           // colrow with no node
}

// Figure 2 of the paper: 2DBC on 2×3 with P = 6; LU cost x̄ + ȳ = 3 + 2, Cholesky r + c − 1.
TEST(PatternCost, BlockCyclicLuAndCholesky) {
  const Pattern p = block_cyclic_pattern(2, 3);
  EXPECT_DOUBLE_EQ(lu_cost(p), 5.0);
  EXPECT_DOUBLE_EQ(cholesky_cost(p), 4.0);
  EXPECT_DOUBLE_EQ(cost(p, Factorization::LU), 5.0);
}

// Brute force: count the distinct owners of every colrow of the laid-over matrix directly.
double cholesky_cost_brute_force(const Pattern& p) {
  const std::int64_t n = std::lcm<std::int64_t>(p.rows(), p.cols());
  const OwnerMap map = resolve(p, n, n);
  double total = 0.0;
  for (std::int64_t k = 0; k < n; ++k) {
    std::set<int> nodes;
    for (std::int64_t t = 0; t < n; ++t) {
      if (t == k && p.at(static_cast<int>(k % p.rows()), static_cast<int>(k % p.cols())) == U)
        continue;
      nodes.insert(map.owner(k, t));
      nodes.insert(map.owner(t, k));
    }
    total += static_cast<double>(nodes.size());
  }
  return total / static_cast<double>(n);
}

TEST(PatternCost, CholeskyCostMatchesBruteForceOnRectangularPatterns) {
  for (int P : {5, 10, 14, 23}) {
    const Pattern g = g2dbc_pattern(P);
    EXPECT_NEAR(cholesky_cost(g), cholesky_cost_brute_force(g), 1e-12) << P;
  }
  for (const auto& [r, c] : grid_factorisations(12)) {
    EXPECT_DOUBLE_EQ(cholesky_cost(block_cyclic_pattern(r, c)), r + c - 1.0);
  }
}

TEST(PatternResolve, UnassignedDiagonalGoesToLeastLoadedColrowNode) {
  const Pattern p(2, 2, 2, {U, 0, 1, U});
  const OwnerMap map = resolve(p, 4, 4, TileRegion::Full);
  EXPECT_EQ(map.tiles_per_node(TileRegion::Full), (std::vector<std::int64_t>{8, 8}));
  EXPECT_EQ(map.owner(0, 0), 0);  // tie at 4 each: lowest id
  EXPECT_EQ(map.owner(0, 2), 1);
  EXPECT_EQ(map.owner(0, 1), 0);
  const Pattern three(3, 3, 3, {U, 0, 1, 0, U, 2, 1, 2, U});
  const OwnerMap big = resolve(three, 30, 30, TileRegion::LowerTriangle);
  const auto tiles = big.tiles_per_node(TileRegion::LowerTriangle);
  EXPECT_EQ(std::accumulate(tiles.begin(), tiles.end(), std::int64_t{0}), 30 * 31 / 2);
  EXPECT_LE(balance_of(tiles).max_over_average, 1.01);
  for (std::int64_t i = 0; i < 30; ++i) {  // every replica stays inside its colrow
    const auto colrow = three.colrow_nodes(static_cast<int>(i % 3));
    for (std::int64_t j = i % 3; j < 30; j += 3) {
      const int owner = big.owner(i, j);
      EXPECT_NE(std::find(colrow.begin(), colrow.end(), owner), colrow.end());
    }
  }
  EXPECT_THROW(resolve(three, -1, 3), InvalidArgument);
}

TEST(PatternResolve, PictureMarksTheUnusedTriangle) {
  const Pattern p = block_cyclic_pattern(2, 2);
  const TilePicture lu = tile_picture(p, 3, TileRegion::Full);
  EXPECT_EQ(lu.owner, (std::vector<int>{0, 1, 0, 2, 3, 2, 0, 1, 0}));
  const TilePicture chol = tile_picture(p, 3, TileRegion::LowerTriangle);
  const int X = TilePicture::kOutsideRegion;
  EXPECT_EQ(chol.owner, (std::vector<int>{0, X, X, 2, 3, X, 0, 1, 0}));
  EXPECT_EQ(chol.num_nodes, 4);
}

TEST(PatternCost, LoadBalanceWeighsBySpeed) {
  const LoadBalance even = balance_of({10, 10, 20}, {1.0, 1.0, 2.0});
  EXPECT_DOUBLE_EQ(even.max_over_average, 1.0);
  EXPECT_DOUBLE_EQ(balance_of({10, 30}).max_over_average, 1.5);
  EXPECT_THROW(balance_of({1, 2}, {1.0}), InvalidArgument);
  EXPECT_THROW(balance_of({1, 2}, {1.0, 0.0}), InvalidArgument);
  const LoadBalance lu = load_balance(block_cyclic_pattern(2, 2), 4, 4, Factorization::LU);
  EXPECT_EQ(lu.tiles, (std::vector<std::int64_t>{4, 4, 4, 4}));
  // Cholesky on 2DBC 2×2 over 4×4: node 1 only owns tiles above the diagonal but one.
  const LoadBalance chol = load_balance(block_cyclic_pattern(2, 2), 4, 4, Factorization::Cholesky);
  EXPECT_EQ(chol.tiles, (std::vector<std::int64_t>{3, 1, 3, 3}));
  EXPECT_DOUBLE_EQ(chol.max_over_average, 1.2);
}

TEST(PatternCost, Balanceable) {
  EXPECT_TRUE(is_balanceable(block_cyclic_pattern(2, 3)));
  EXPECT_FALSE(is_balanceable(Pattern(1, 3, 2, {0, 0, 1})));
  // 3×3, P = 3: every node has 2 cells and needs 3; each diagonal cell reaches the two
  // nodes of its colrow, which is enough. In the second one node 0 already has 4 > 3 cells.
  EXPECT_TRUE(is_balanceable(Pattern(3, 3, 3, {U, 0, 1, 0, U, 2, 1, 2, U})));
  EXPECT_FALSE(is_balanceable(Pattern(3, 3, 3, {U, 0, 0, 0, U, 1, 0, 2, U})));
}

}  // namespace
}  // namespace hetscal::core
