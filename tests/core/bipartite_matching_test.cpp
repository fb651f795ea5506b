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
