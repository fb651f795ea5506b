#include "core/patterns/pattern_2dbc.hpp"

#include <gtest/gtest.h>

#include "core/common/error.hpp"
#include "core/patterns/pattern_cost.hpp"

namespace hetscal::core {
namespace {

TEST(Pattern2dbc, FactorisationsOfP) {
  EXPECT_EQ(grid_factorisations(12), (std::vector<std::pair<int, int>>{{12, 1}, {6, 2}, {4, 3}}));
  EXPECT_EQ(grid_factorisations(1), (std::vector<std::pair<int, int>>{{1, 1}}));
  EXPECT_THROW(grid_factorisations(0), InvalidArgument);
  EXPECT_THROW(block_cyclic_pattern(0, 3), InvalidArgument);
}

TEST(Pattern2dbc, EveryNodeOnceAndCostRPlusC) {
  for (const auto& [r, c] : grid_factorisations(36)) {
    const Pattern p = block_cyclic_pattern(r, c);
    EXPECT_EQ(p.cells_per_node(), std::vector<std::int64_t>(36, 1));
    EXPECT_DOUBLE_EQ(lu_cost(p), r + c);
  }
}

// The closed form the planners use is the cost of the pattern itself, to the last bit.
TEST(Pattern2dbc, ClosedFormCostIsThePatternsCost) {
  for (int r = 1; r <= 24; ++r)
    for (int c = 1; c <= 24; ++c) {
      const Pattern p = block_cyclic_pattern(r, c);
      EXPECT_EQ(block_cyclic_cost(r, c, Factorization::LU), lu_cost(p)) << r << "x" << c;
      EXPECT_EQ(block_cyclic_cost(r, c, Factorization::Cholesky), cholesky_cost(p)) << r << "x" << c;
    }
}

// Table I(a) of Beaumont et al. 2023, 2DBC columns: P, best r×c, T = x̄ + ȳ = r + c.
struct TableEntry {
  int P, rows, cols;
  double cost;
};

TEST(Pattern2dbc, BestGridReproducesTableOneA) {
  const TableEntry table[] = {
      {16, 4, 4, 8},
      {20, 5, 4, 9},
      {21, 7, 3, 10},
      {22, 11, 2, 13},
      // Table I prints T = 23 and 31 for the 23×1 and 31×1 grids, but by the paper's own
      // definition a 23×1 pattern has x̄ = 1 (one node per row) and ȳ = 23: T = r + c = 24
      // (and 32 for 31×1). The printed values are P, not x̄ + ȳ.
      {23, 23, 1, 24},
      {30, 6, 5, 11},
      {31, 31, 1, 32},
      {35, 7, 5, 12},
      {36, 6, 6, 12},
      {39, 13, 3, 16}};
  for (const auto& e : table) {
    const Pattern best = best_block_cyclic(e.P);
    EXPECT_EQ(best.rows(), e.rows) << e.P;
    EXPECT_EQ(best.cols(), e.cols) << e.P;
    EXPECT_DOUBLE_EQ(lu_cost(best), e.cost) << e.P;
    EXPECT_DOUBLE_EQ(cost(best_block_cyclic(e.P, Factorization::Cholesky), Factorization::Cholesky),
                     e.cost - 1.0)
        << e.P;
  }
}

}  // namespace
}  // namespace hetscal::core
