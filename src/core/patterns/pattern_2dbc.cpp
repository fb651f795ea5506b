#include "core/patterns/pattern_2dbc.hpp"

#include <string>

#include "core/common/error.hpp"
#include "core/patterns/pattern_cost.hpp"

namespace hetscal::core {

Pattern block_cyclic_pattern(int rows, int cols) {
  if (rows < 1 || cols < 1) {
    throw InvalidArgument("block_cyclic_pattern: grid " + std::to_string(rows) + "x" +
                          std::to_string(cols) + " must be at least 1x1");
  }
  std::vector<int> owners(static_cast<std::size_t>(rows) * cols);
  for (std::size_t cell = 0; cell < owners.size(); ++cell) owners[cell] = static_cast<int>(cell);
  return Pattern(rows, cols, rows * cols, std::move(owners));
}

double block_cyclic_cost(int rows, int cols, Factorization f) {
  return static_cast<double>(rows + cols) - (f == Factorization::Cholesky ? 1.0 : 0.0);
}

std::vector<std::pair<int, int>> grid_factorisations(int num_nodes) {
  if (num_nodes < 1) {
    throw InvalidArgument("grid_factorisations: P = " + std::to_string(num_nodes) +
                          " must be >= 1");
  }
  std::vector<std::pair<int, int>> grids;
  for (int c = 1; c * c <= num_nodes; ++c) {
    if (num_nodes % c == 0) grids.emplace_back(num_nodes / c, c);
  }
  return grids;
}

Pattern best_block_cyclic(int num_nodes, Factorization f) {
  Pattern best = block_cyclic_pattern(num_nodes, 1);
  double best_cost = cost(best, f);
  for (const auto& [rows, cols] : grid_factorisations(num_nodes)) {
    Pattern candidate = block_cyclic_pattern(rows, cols);
    const double candidate_cost = cost(candidate, f);
    if (candidate_cost < best_cost) {
      best = std::move(candidate);
      best_cost = candidate_cost;
    }
  }
  return best;
}

}  // namespace hetscal::core
