#pragma once
/// @file bipartite_matching.hpp
/// Maximum matching in a bipartite graph (Hopcroft–Karp), for GCR&M's cell-to-node phase (in
/// full, or on nodes of slots: SlotBipartiteGraph), and the transportation feasibility check
/// that tells whether unassigned cells can balance.
#include <cstddef>
#include <cstdint>
#include <utility>
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

/// A bipartite graph whose right vertices come in nodes of interchangeable slots: node n has
/// capacity[n] slots, numbered consecutively from 0 (node 0's first), and an edge (l, n) joins
/// l to every slot of n. GCR&M and the heterogeneous symmetric pattern match cells to a node's
/// copies; expanded into a BipartiteGraph, their graphs had cells × nodes × copies edges, and
/// building and searching those was most of a pattern's construction.
class SlotBipartiteGraph {
 public:
  /// @throws InvalidArgument if `left` or a capacity is negative.
  SlotBipartiteGraph(int left, std::vector<int> capacity);

  /// Adds the edges from `left_vertex` to every slot of `node`, after those added before.
  /// @throws InvalidArgument if either is out of range.
  void add_edge(int left_vertex, int node);

  int left_size() const { return left_; }
  int slot_count() const { return first_slot_.back(); }
  /// The slots of node n are first_slot(n) … first_slot(n + 1) − 1.
  int first_slot(int node) const { return first_slot_[static_cast<std::size_t>(node)]; }

  /// For each left vertex its slot or BipartiteGraph::kUnmatched: exactly what
  /// BipartiteGraph::maximum_matching returns on the expanded graph (each edge (l, n) added
  /// as the edges to n's slots, in slot order), in time that grows with nodes, not slots.
  std::vector<int> maximum_matching() const;

 private:
  int left_ = 0;
  std::vector<std::pair<int, int>> edges_;  ///< (left vertex, node), in the order added
  std::vector<int> first_slot_;             ///< per node, then the slot count
};

}  // namespace hetscal::core
