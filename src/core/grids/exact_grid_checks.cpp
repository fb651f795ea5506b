/// @file exact_grid_checks.cpp
/// Independent and closed-form solutions of §4.3 for a fixed arrangement, used to check the
/// spanning-tree search (exact_grid.cpp) and for the special cases the paper solves.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "core/common/error.hpp"
#include "core/grids/exact_grid.hpp"

namespace hetscal::core {
namespace {

constexpr std::size_t kMaxBruteForceCells = 20;
constexpr double kAcceptableSlack = 1e-12;

/// Union-find over the p + q vertices of the bipartite graph (rows first, then columns).
class DisjointSets {
 public:
  explicit DisjointSets(std::size_t n) : parent_(n) { reset(); }
  void reset() { std::iota(parent_.begin(), parent_.end(), std::size_t{0}); }
  std::size_t find(std::size_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  /// @return false if x and y were already connected (the edge would close a cycle).
  bool unite(std::size_t x, std::size_t y) {
    x = find(x);
    y = find(y);
    if (x == y) return false;
    parent_[x] = y;
    return true;
  }

 private:
  std::vector<std::size_t> parent_;
};

/// Shares fixed by the equalities r_i·t_ij·c_j = 1 on the tree's edges (cells), r_1 = 1.
Shares solve_tree(const Arrangement& a, const std::vector<std::size_t>& cells) {
  Shares s{std::vector<double>(a.rows, 0.0), std::vector<double>(a.cols, 0.0)};
  s.r[0] = 1.0;
  // A spanning tree has p + q - 1 edges; sweeping them p + q - 1 times settles every vertex.
  for (std::size_t sweep = 0; sweep < cells.size(); ++sweep) {
    for (std::size_t cell : cells) {
      const std::size_t i = cell / a.cols, j = cell % a.cols;
      if (s.r[i] > 0.0 && s.c[j] == 0.0) s.c[j] = 1.0 / (s.r[i] * a.t(i, j));
      if (s.c[j] > 0.0 && s.r[i] == 0.0) s.r[i] = 1.0 / (s.c[j] * a.t(i, j));
    }
  }
  return s;
}

bool acceptable(const Arrangement& a, const Shares& s) {
  return slowest_time(a, s) <= 1.0 + kAcceptableSlack;
}

}  // namespace

Shares optimal_shares_brute_force(const Arrangement& a) {
  require_valid_arrangement(a);
  const std::size_t cells = a.rows * a.cols, edges = a.rows + a.cols - 1;
  if (cells > kMaxBruteForceCells) {
    std::ostringstream msg;
    msg << "optimal_shares_brute_force: " << a.rows << "x" << a.cols << " grid has more than "
        << kMaxBruteForceCells << " cells";
    throw InvalidArgument(msg.str());
  }
  Shares best;
  double best_w = 0.0;
  DisjointSets sets(a.rows + a.cols);
  std::vector<std::size_t> chosen(edges);
  std::iota(chosen.begin(), chosen.end(), std::size_t{0});
  while (true) {
    sets.reset();
    bool forest = true;
    for (std::size_t cell : chosen)
      forest = forest && sets.unite(cell / a.cols, a.rows + cell % a.cols);
    if (forest) {  // p + q - 1 edges without a cycle: a spanning tree
      const Shares s = solve_tree(a, chosen);
      if (acceptable(a, s) && work_per_time(a, s) > best_w) {
        best_w = work_per_time(a, s);
        best = s;
      }
    }
    // Next combination of `edges` cells out of `cells`, in lexicographic order.
    std::size_t k = edges;
    while (k > 0 && chosen[k - 1] == cells - edges + k - 1) --k;
    if (k == 0) break;
    ++chosen[k - 1];
    for (std::size_t m = k; m < edges; ++m) chosen[m] = chosen[m - 1] + 1;
  }
  return best;
}

Shares optimal_shares_2x2(const Arrangement& a) {
  require_valid_arrangement(a);
  if (a.rows != 2 || a.cols != 2) {
    std::ostringstream msg;
    msg << "optimal_shares_2x2: the grid is " << a.rows << "x" << a.cols;
    throw InvalidArgument(msg.str());
  }
  auto shares_for = [&a](double r2) {
    return Shares{{1.0, r2},
                  {1.0 / std::max(a.t(0, 0), r2 * a.t(1, 0)),
                   1.0 / std::max(a.t(0, 1), r2 * a.t(1, 1))}};
  };
  const Shares first = shares_for(a.t(0, 0) / a.t(1, 0));
  const Shares second = shares_for(a.t(0, 1) / a.t(1, 1));
  return work_per_time(a, second) > work_per_time(a, first) ? second : first;
}

std::optional<Shares> rank_one_shares(const Arrangement& a, double rel_tol) {
  require_valid_arrangement(a);
  if (!std::isfinite(rel_tol) || rel_tol < 0.0) {
    std::ostringstream msg;
    msg << "rank_one_shares: rel_tol = " << rel_tol << "; it must be finite and >= 0";
    throw InvalidArgument(msg.str());
  }
  for (std::size_t i = 1; i < a.rows; ++i) {
    for (std::size_t j = 1; j < a.cols; ++j) {
      const double product = a.t(i, j) * a.t(0, 0);
      if (std::abs(product - a.t(i, 0) * a.t(0, j)) > rel_tol * product) return std::nullopt;
    }
  }
  Shares s{std::vector<double>(a.rows), std::vector<double>(a.cols)};
  for (std::size_t i = 0; i < a.rows; ++i) s.r[i] = a.t(0, 0) / a.t(i, 0);
  for (std::size_t j = 0; j < a.cols; ++j) s.c[j] = 1.0 / a.t(0, j);
  return s;
}

}  // namespace hetscal::core
