#pragma once
/// @file bipartite_matching.hpp
/// Maximum matching in a bipartite graph (Hopcroft–Karp), for GCR&M's cell-to-node phase,
/// and the transportation feasibility check that tells whether unassigned cells can balance.
#include <cstdint>
#include <vector>

namespace hetscal::core {

/// Bipartite graph with `left` and `right` vertices numbered from 0.
class BipartiteGraph {
 public:
  static constexpr int kUnmatched = -1;

  /// @throws InvalidArgument if a count is negative.
  BipartiteGraph(int left, int right);

  /// Adds the edge (l, r). @throws InvalidArgument if l or r is out of range.
  void add_edge(int left_vertex, int right_vertex);

  int left_size() const { return static_cast<int>(adjacent_.size()); }
  int right_size() const { return right_; }

  /// A maximum matching: for each left vertex its right partner or kUnmatched. Deterministic:
  /// edges are explored in insertion order.
  std::vector<int> maximum_matching() const;

  /// Transportation along the edges (unbounded capacity): the most units that can flow from
  /// left vertices (at most supply[l] each) to right vertices (at most demand[r] each).
  /// Edmonds–Karp on the residual network; meant for small graphs.
  /// @throws InvalidArgument if the vectors' sizes differ from the sides or a value is < 0.
  std::int64_t max_transport(const std::vector<std::int64_t>& supply,
                             const std::vector<std::int64_t>& demand) const;

 private:
  std::vector<std::vector<int>> adjacent_;
  int right_;
};

}  // namespace hetscal::core
