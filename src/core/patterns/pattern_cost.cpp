#include "core/patterns/pattern_cost.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"
#include "core/patterns/bipartite_matching.hpp"

namespace hetscal::core {

double lu_cost(const Pattern& pattern) {
  std::int64_t row_total = 0;
  std::int64_t col_total = 0;
  for (int i = 0; i < pattern.rows(); ++i) row_total += pattern.row_nodes(i).size();
  for (int j = 0; j < pattern.cols(); ++j) col_total += pattern.col_nodes(j).size();
  return static_cast<double>(row_total) / pattern.rows() +
         static_cast<double>(col_total) / pattern.cols();
}

double cholesky_cost(const Pattern& pattern) {
  const std::int64_t period = std::lcm<std::int64_t>(pattern.rows(), pattern.cols());
  std::vector<std::vector<int>> row_nodes(pattern.rows());
  std::vector<std::vector<int>> col_nodes(pattern.cols());
  for (int i = 0; i < pattern.rows(); ++i) row_nodes[i] = pattern.row_nodes(i);
  for (int j = 0; j < pattern.cols(); ++j) col_nodes[j] = pattern.col_nodes(j);

  std::vector<int> seen(pattern.num_nodes(), -1);  // last colrow that counted the node
  std::int64_t total = 0;
  for (std::int64_t colrow = 0; colrow < period; ++colrow) {
    const int stamp = static_cast<int>(colrow);
    for (const auto* nodes :
         {&row_nodes[colrow % pattern.rows()], &col_nodes[colrow % pattern.cols()]}) {
      for (int node : *nodes) {
        if (seen[node] != stamp) {
          seen[node] = stamp;
          ++total;
        }
      }
    }
  }
  return static_cast<double>(total) / static_cast<double>(period);
}

double cost(const Pattern& pattern, Factorization f) {
  return f == Factorization::LU ? lu_cost(pattern) : cholesky_cost(pattern);
}

bool is_balanceable(const Pattern& pattern) {
  // Scaled by P: each unassigned cell supplies P units, node p needs R·C − P·cells_p units.
  const std::int64_t P = pattern.num_nodes();
  const std::int64_t total_cells = static_cast<std::int64_t>(pattern.rows()) * pattern.cols();
  std::vector<std::int64_t> demand(P);
  const auto cells = pattern.cells_per_node();
  for (std::int64_t p = 0; p < P; ++p) {
    demand[p] = total_cells - P * cells[p];
    if (demand[p] < 0) return false;
  }
  std::vector<int> diagonal;
  for (int i = 0; i < std::min(pattern.rows(), pattern.cols()); ++i) {
    if (pattern.at(i, i) == Pattern::kUnassigned) diagonal.push_back(i);
  }
  BipartiteGraph graph(static_cast<int>(diagonal.size()), pattern.num_nodes());
  for (std::size_t k = 0; k < diagonal.size(); ++k) {
    for (int node : pattern.colrow_nodes(diagonal[k])) graph.add_edge(static_cast<int>(k), node);
  }
  const std::vector<std::int64_t> supply(diagonal.size(), P);
  // Σ demand = P·(R·C − assigned cells) = total supply, so feasible means all supply moves.
  return graph.max_transport(supply, demand) == P * static_cast<std::int64_t>(diagonal.size());
}

LoadBalance balance_of(std::vector<std::int64_t> tiles, const std::vector<double>& speeds) {
  if (!speeds.empty()) {
    require_positive_finite(speeds, "load balance speeds");
    if (speeds.size() != tiles.size()) {
      throw InvalidArgument("load balance: " + std::to_string(speeds.size()) + " speeds for " +
                            std::to_string(tiles.size()) + " nodes");
    }
  }
  const auto speed = [&](std::size_t k) { return speeds.empty() ? 1.0 : speeds[k]; };
  double total_tiles = 0.0;
  double total_speed = 0.0;
  double worst = 0.0;
  for (std::size_t k = 0; k < tiles.size(); ++k) {
    total_tiles += static_cast<double>(tiles[k]);
    total_speed += speed(k);
    worst = std::max(worst, static_cast<double>(tiles[k]) / speed(k));
  }
  LoadBalance result;
  result.max_over_average = total_tiles > 0.0 ? worst / (total_tiles / total_speed) : 1.0;
  result.tiles = std::move(tiles);
  return result;
}

LoadBalance load_balance(const Pattern& pattern, std::int64_t tile_rows, std::int64_t tile_cols,
                         Factorization f, const std::vector<double>& speeds) {
  const TileRegion region = region_of(f);
  return balance_of(resolve(pattern, tile_rows, tile_cols, region).tiles_per_node(region), speeds);
}

}  // namespace hetscal::core
