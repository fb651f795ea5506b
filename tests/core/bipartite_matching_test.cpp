#include "core/patterns/bipartite_matching.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

// Brute force: the largest matching by trying every right partner (or none) per left vertex.
int brute_force_matching(const std::vector<std::vector<int>>& adjacent, std::size_t l,
                         std::vector<char>& used) {
  if (l == adjacent.size()) return 0;
  int best = brute_force_matching(adjacent, l + 1, used);
  for (int r : adjacent[l]) {
    if (used[r]) continue;
    used[r] = 1;
    best = std::max(best, 1 + brute_force_matching(adjacent, l + 1, used));
    used[r] = 0;
  }
  return best;
}

TEST(BipartiteMatching, MaximumOnRandomGraphsMatchesBruteForce) {
  std::mt19937_64 rng(2023);
  for (int trial = 0; trial < 300; ++trial) {
    const int left = 1 + static_cast<int>(rng() % 7);
    const int right = 1 + static_cast<int>(rng() % 7);
    BipartiteGraph graph(left, right);
    std::vector<std::vector<int>> adjacent(left);
    for (int l = 0; l < left; ++l) {
      for (int r = 0; r < right; ++r) {
        if (rng() % 3 == 0) {
          graph.add_edge(l, r);
          adjacent[l].push_back(r);
        }
      }
    }
    const std::vector<int> match = graph.maximum_matching();
    std::set<int> partners;
    int size = 0;
    for (int l = 0; l < left; ++l) {
      if (match[l] == BipartiteGraph::kUnmatched) continue;
      ++size;
      EXPECT_TRUE(partners.insert(match[l]).second);
      EXPECT_NE(std::find(adjacent[l].begin(), adjacent[l].end(), match[l]), adjacent[l].end());
    }
    std::vector<char> used(right, 0);
    EXPECT_EQ(size, brute_force_matching(adjacent, 0, used)) << trial;
    // With unit supplies and demands, transportation is matching.
    EXPECT_EQ(graph.max_transport(std::vector<std::int64_t>(left, 1),
                                  std::vector<std::int64_t>(right, 1)),
              size);
  }
}

TEST(BipartiteMatching, TransportRespectsSuppliesAndDemands) {
  BipartiteGraph graph(2, 2);
  graph.add_edge(0, 0);
  graph.add_edge(0, 1);
  graph.add_edge(1, 1);
  EXPECT_EQ(graph.max_transport({5, 5}, {3, 4}), 7);
  EXPECT_EQ(graph.max_transport({5, 5}, {6, 1}), 6);  // left 1 only reaches right 1
  EXPECT_THROW(graph.max_transport({1}, {1, 1}), InvalidArgument);
  EXPECT_THROW(graph.max_transport({1, -1}, {1, 1}), InvalidArgument);
  EXPECT_THROW(graph.add_edge(2, 0), InvalidArgument);
  EXPECT_THROW(BipartiteGraph(-1, 2), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

namespace hetscal::core {
namespace {

// A random graph on nodes of slots, and the same graph with every slot a right vertex.
struct SlotAndExpanded {
  SlotBipartiteGraph slots;
  BipartiteGraph expanded;
};

SlotAndExpanded random_slot_graph(std::mt19937_64& rng, int left, int nodes, int most_slots, int edge_one_in) {
  std::vector<int> capacity;
  for (int n = 0; n < nodes; ++n) capacity.push_back(static_cast<int>(rng() % (most_slots + 1)));
  SlotAndExpanded g{SlotBipartiteGraph(left, capacity), BipartiteGraph(left, 0)};
  g.expanded = BipartiteGraph(left, g.slots.slot_count());
  for (int l = 0; l < left; ++l) {
    for (int n = 0; n < nodes; ++n) {
      if (rng() % edge_one_in != 0) continue;
      g.slots.add_edge(l, n);
      for (int s = g.slots.first_slot(n); s < g.slots.first_slot(n + 1); ++s) g.expanded.add_edge(l, s);
    }
  }
  return g;
}

// Not only as large: the same slot for every left vertex, so that GCR&M and the heterogeneous
// symmetric pattern build the patterns they built on the expanded graph.
TEST(SlotBipartiteMatching, SameMatchingAsTheExpandedGraph) {
  std::mt19937_64 rng(32);
  for (int trial = 0; trial < 400; ++trial) {
    const int left = 1 + static_cast<int>(rng() % 120);
    const int nodes = 1 + static_cast<int>(rng() % 12);
    const int most_slots = 1 + static_cast<int>(rng() % (trial % 2 ? 140 : 6));  // one word, or several
    const int edge_one_in = 1 + static_cast<int>(rng() % 4);
    const SlotAndExpanded g = random_slot_graph(rng, left, nodes, most_slots, edge_one_in);
    EXPECT_EQ(g.slots.maximum_matching(), g.expanded.maximum_matching()) << "trial " << trial;
  }
}

TEST(SlotBipartiteMatching, RepeatedEdgesAndEmptyNodesAsTheExpandedGraph) {
  SlotBipartiteGraph slots(3, {2, 0, 1});
  BipartiteGraph expanded(3, 3);
  for (int l = 0; l < 3; ++l) {
    for (int n : {2, 1, 0, 2}) {
      slots.add_edge(l, n);
      for (int s = slots.first_slot(n); s < slots.first_slot(n + 1); ++s) expanded.add_edge(l, s);
    }
  }
  EXPECT_EQ(slots.maximum_matching(), expanded.maximum_matching());
}

TEST(SlotBipartiteMatching, RejectsOutOfRange) {
  EXPECT_THROW(SlotBipartiteGraph(-1, {1}), InvalidArgument);
  EXPECT_THROW(SlotBipartiteGraph(1, {1, -2}), InvalidArgument);
  SlotBipartiteGraph g(2, {1, 1});
  EXPECT_THROW(g.add_edge(2, 0), InvalidArgument);
  EXPECT_THROW(g.add_edge(0, 2), InvalidArgument);
  EXPECT_THROW(g.add_edge(0, -1), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core
