#include "core/grids/arrangements.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

// Table 4 of Boudet, Petitet, Rastello & Robert (1999), rows p = 1…5, columns q = 1…5.
constexpr std::uint64_t kTable4[5][5] = {
    {1, 1, 1, 1, 1},
    {1, 2, 5, 14, 42},
    {1, 5, 42, 462, 6006},
    {1, 14, 462, 24024, 1662804},
    {1, 42, 6006, 1662804, 701149020}};

// Appendix 7.1's pseudo-code ends its recursion at "deep = p + q": a slip for p × q (one
// processor is placed per level). Enumerating with p × q reproduces Table 4.
TEST(Arrangements, Table4ByEnumeration) {
  for (std::size_t p = 1; p <= 5; ++p) {
    for (std::size_t q = 1; q <= 5; ++q) {
      if (p * q > 20) continue;  // 5×5 (701 million) is checked by the hook formula only
      EXPECT_EQ(count_nondecreasing_arrangements(p, q), kTable4[p - 1][q - 1]) << p << "x" << q;
    }
  }
}

TEST(Arrangements, Table4ByHookFormula) {
  for (std::size_t p = 1; p <= 5; ++p)
    for (std::size_t q = 1; q <= 5; ++q)
      EXPECT_EQ(hook_length_count(p, q), kTable4[p - 1][q - 1]) << p << "x" << q;
  EXPECT_EQ(hook_length_count(5, 5), 701149020u);
  EXPECT_EQ(hook_length_count(2, 10), 16796u);  // 2×n rectangles: Catalan numbers
  EXPECT_THROW(hook_length_count(12, 12), Error);  // far beyond 64 bits
}

TEST(Arrangements, EveryArrangementIsNonDecreasingAndDistinct) {
  for (std::size_t p = 1; p <= 4; ++p) {
    for (std::size_t q = 1; q <= 4; ++q) {
      if (p * q > 12) continue;
      std::set<std::vector<std::size_t>> seen;
      for_each_nondecreasing_arrangement(p, q, [&](const std::vector<std::size_t>& rank) {
        ASSERT_EQ(rank.size(), p * q);
        std::vector<bool> used(p * q, false);
        for (std::size_t i = 0; i < p; ++i) {
          for (std::size_t j = 0; j < q; ++j) {
            const std::size_t k = rank[i * q + j];
            ASSERT_LT(k, p * q);
            EXPECT_FALSE(used[k]);
            used[k] = true;
            if (j + 1 < q) {
              EXPECT_LT(k, rank[i * q + j + 1]);
            }
            if (i + 1 < p) {
              EXPECT_LT(k, rank[(i + 1) * q + j]);
            }
          }
        }
        EXPECT_TRUE(seen.insert(rank).second) << "duplicate arrangement";
      });
      EXPECT_EQ(seen.size(), hook_length_count(p, q)) << p << "x" << q;
    }
  }
}

TEST(Arrangements, SmallestAndLargestAreInTheCorners) {
  for_each_nondecreasing_arrangement(3, 4, [](const std::vector<std::size_t>& rank) {
    EXPECT_EQ(rank.front(), 0u);
    EXPECT_EQ(rank.back(), 11u);
  });
}

TEST(Arrangements, RefusesEmptyGrid) {
  EXPECT_THROW(count_nondecreasing_arrangements(0, 3), InvalidArgument);
  EXPECT_THROW(for_each_nondecreasing_arrangement(2, 0, [](const std::vector<std::size_t>&) {}),
               InvalidArgument);
  EXPECT_THROW(hook_length_count(0, 0), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core
