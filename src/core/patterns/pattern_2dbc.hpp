#pragma once
/// @file pattern_2dbc.hpp
/// 2D block-cyclic patterns: P = r×c nodes on an r×c grid, node i·c + j in cell (i, j)
/// (row-major, as a default BLACS grid). Cost T = r + c for LU, r + c − 1 for Cholesky.
#include <utility>
#include <vector>

#include "core/patterns/pattern.hpp"

namespace hetscal::core {

/// The r×c block-cyclic pattern over r·c nodes. @throws InvalidArgument if r < 1 or c < 1.
Pattern block_cyclic_pattern(int rows, int cols);

/// cost(block_cyclic_pattern(rows, cols), f) in closed form: every row and every column holds
/// distinct nodes and a colrow's row and column share one, so T = r + c for LU and r + c − 1
/// for Cholesky (a planner prices every shape of a thousand ranks; walking lcm(r, c) colrows
/// of each was a tenth of its candidate list). @pre rows >= 1 and cols >= 1.
double block_cyclic_cost(int rows, int cols, Factorization f);

/// Every way to write P = r×c, as (r, c) pairs with r >= c, by increasing c.
/// @throws InvalidArgument if P < 1.
std::vector<std::pair<int, int>> grid_factorisations(int num_nodes);

/// The block-cyclic pattern over all P nodes with the lowest cost T for `f`, written with
/// r >= c as in the paper's Table I (the cost does not depend on the orientation).
/// @throws InvalidArgument if P < 1.
Pattern best_block_cyclic(int num_nodes, Factorization f = Factorization::LU);

}  // namespace hetscal::core
