#include "core/time_models/tile_ownership.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

std::size_t owner_of_element(const TileOwnership& t, std::size_t row, std::size_t col) {
  return t.at(t.row_class[row / t.tile], t.col_class[col / t.tile]);
}

TEST(TileOwnership, EqualSharesDealCyclically) {
  EXPECT_EQ(proportional_sequence(7, {1.0, 1.0, 1.0}),
            (std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 0}));
}

TEST(TileOwnership, ProportionalSequenceFollowsTheShares) {
  // Boudet et al. §2.3.1's toy example: cycle-times 3, 5, 8 -> speeds 1/3, 1/5, 1/8; ten
  // chunks go 5, 3, 2.
  const auto seq = proportional_sequence(10, {1.0 / 3, 1.0 / 5, 1.0 / 8});
  std::vector<int> count(3, 0);
  for (auto a : seq) ++count[a];
  EXPECT_EQ(count, (std::vector<int>{5, 3, 2}));
  EXPECT_THROW(proportional_sequence(3, {1.0, 0.0}), InvalidArgument);
  EXPECT_THROW(proportional_sequence(3, {}), InvalidArgument);
}

TEST(TileOwnership, BlockCyclicIsScalapacksOwner) {
  const auto t = block_cyclic_ownership(10, 3, 2, 3, {});
  // Element (7, 8): block row 2 -> grid row 0, block column 2 -> grid column 2, rank 2.
  EXPECT_EQ(owner_of_element(t, 7, 8), 2u);
  EXPECT_EQ(owner_of_element(t, 4, 4), 4u);  // grid (1, 1), row-major rank 4
  EXPECT_THROW(block_cyclic_ownership(10, 3, 2, 3, {0, 1, 2}), InvalidArgument);
  EXPECT_THROW(block_cyclic_ownership(10, 0, 2, 3, {}), InvalidArgument);
}

TEST(TileOwnership, ElementsKeptMatchEnumeration) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    const std::size_t n = 5 + rng() % 40, processors = 2 + rng() % 5;
    const auto random_owners = [&](std::size_t cells) {
      std::vector<std::size_t> o(cells);
      for (auto& x : o) x = rng() % processors;
      return o;
    };
    const std::size_t r1 = 1 + rng() % 3, c1 = 1 + rng() % 3;
    const auto from = block_cyclic_ownership(n, 1 + rng() % 6, r1, c1, random_owners(r1 * c1));
    std::vector<double> rs(2 + rng() % 2), cs(1 + rng() % 3);
    for (auto& s : rs) s = 0.1 + static_cast<double>(rng() % 100) / 10.0;
    for (auto& s : cs) s = 0.1 + static_cast<double>(rng() % 100) / 10.0;
    const auto to = trial % 2 == 0
                        ? cartesian_ownership(n, 1 + rng() % 5, rs.size(), cs.size(),
                                              random_owners(rs.size() * cs.size()), rs, cs)
                        : pattern_ownership(n, 1 + rng() % 5, 3, 2, random_owners(6));
    std::vector<double> kept(processors, 0.0), held(processors, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        ++held[owner_of_element(to, i, j)];
        if (owner_of_element(from, i, j) == owner_of_element(to, i, j)) ++kept[owner_of_element(to, i, j)];
      }
    EXPECT_EQ(elements_kept(from, to, processors), kept) << "trial " << trial;
    EXPECT_EQ(elements_held(to, processors), held) << "trial " << trial;
  }
}

// elements_held counts per class and cell; here against every element of submatrices with
// mb×nb blocks and offsets (ScaLAPACK's IA, JA inside a block), M ≠ N.
TEST(TileOwnership, ElementsHeldMatchEnumerationWithOffsets) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t m = 1 + rng() % 50, n = 1 + rng() % 50, mb = 1 + rng() % 7, nb = 1 + rng() % 7;
    const std::size_t p = 1 + rng() % 3, q = 1 + rng() % 3;
    const BlockCyclicAxis rows{m, mb, rng() % mb, p}, cols{n, nb, rng() % nb, q};
    const TileOwnership t = block_cyclic_ownership(rows, cols, {});
    std::vector<double> held(p * q, 0.0);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j)
        ++held[t.at(t.row_class[t.tile_row_of(i)], t.col_class[t.tile_col_of(j)])];
    EXPECT_EQ(elements_held(t, p * q), held) << "trial " << trial;
    EXPECT_EQ(elements_held(t, p * q), elements_kept(t, t, p * q)) << "trial " << trial;
  }
}

TEST(TileOwnership, SuffixCountsCountTrailingTiles) {
  const SuffixClassCounts counts({0, 1, 0, 2, 0}, 3);
  EXPECT_EQ(counts.from(0), (std::vector<std::size_t>{3, 1, 1}));
  EXPECT_EQ(counts.from(3), (std::vector<std::size_t>{1, 0, 1}));
  EXPECT_EQ(counts.from(5), (std::vector<std::size_t>{0, 0, 0}));
  EXPECT_EQ(counts.count(1, 0), 2u);
  const SuffixClassCounts first_three({0, 1, 0, 2, 0}, 3, 3);  // a prefix of the classes
  EXPECT_EQ(first_three.from(0), (std::vector<std::size_t>{2, 1, 0}));
}

TEST(TileOwnership, SuffixCountsMatchABruteForceCount) {
  std::vector<std::size_t> classes;
  for (std::size_t t = 0; t < 200; ++t) classes.push_back((t * 7 + t / 13) % 9);
  const SuffixClassCounts counts(classes, 9);
  for (std::size_t s = 0; s <= classes.size(); ++s) {
    std::vector<std::size_t> expected(9, 0);
    for (std::size_t t = s; t < classes.size(); ++t) ++expected[classes[t]];
    EXPECT_EQ(counts.from(s), expected) << "from " << s;
  }
}

// An ordered grid repeats its orders over the tiles, whether they are shorter than the tile
// count, as long, or longer (only their first tiles used).
TEST(TileOwnership, OrderedGridRepeatsItsOrders) {
  const std::vector<std::size_t> rows{1, 0, 1}, cols{2, 0, 1, 1, 0, 2, 1, 0, 0, 1, 2};
  for (std::size_t n : {10u, 30u, 33u, 70u, 200u}) {
    const TileOwnership t = ordered_cartesian_ownership({n, n}, 3, 2, 3, {0, 1, 2, 3, 4, 5}, rows, cols);
    ASSERT_EQ(t.row_class.size(), (n + 2) / 3);
    ASSERT_EQ(t.col_class.size(), (n + 2) / 3);
    for (std::size_t i = 0; i < t.row_class.size(); ++i) {
      EXPECT_EQ(t.row_class[i], rows[i % rows.size()]) << "n " << n << ", tile " << i;
      EXPECT_EQ(t.col_class[i], cols[i % cols.size()]) << "n " << n << ", tile " << i;
    }
  }
}

TEST(TileOwnership, RefusesDifferentMatrixOrders) {
  EXPECT_THROW(elements_kept(block_cyclic_ownership(8, 2, 1, 1, {}),
                             block_cyclic_ownership(9, 2, 1, 1, {}), 1),
               InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core
