// Distributions: TileSplit against a walk over the elements; BlockCyclicDistribution's owners
// element by element against PBLAS's own PB_Cindxg2p on the caller's descriptor; Cartesian
// and pattern owners and row/column groups against their definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "core/common/error.hpp"
#include "layout/block_cyclic_distribution.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/pattern_distribution.hpp"
#include "scalapack_reference.hpp"

namespace hetscal::layout {
namespace {

int draw(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

/// A random placement of ranks 0..p*q-1 (of a communicator of p*q + extra ranks).
ProcessGrid random_grid(std::mt19937& rng, int nprow, int npcol, int extra = 0) {
  std::vector<int> ranks(static_cast<std::size_t>(nprow * npcol + extra));
  std::iota(ranks.begin(), ranks.end(), 0);
  std::shuffle(ranks.begin(), ranks.end(), rng);
  ranks.resize(static_cast<std::size_t>(nprow * npcol));
  return ProcessGrid(nprow, npcol, ranks, nprow * npcol + extra);
}

/// Every distribution's groups must equal the brute-force groups of the base class.
void expect_groups_match_brute_force(const Distribution& d) {
  for (std::int64_t i = 0; i < d.rows().count(); ++i) {
    ASSERT_EQ(d.row_group(i), d.Distribution::row_group(i)) << "tile row " << i;
  }
  for (std::int64_t j = 0; j < d.cols().count(); ++j) {
    ASSERT_EQ(d.col_group(j), d.Distribution::col_group(j)) << "tile column " << j;
  }
}

TEST(TileSplit, TilesCoverTheExtentInOrder) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 3000; ++trial) {
    const TileSplit s(draw(rng, 0, 60), draw(rng, 1, 9), draw(rng, 1, 15));
    std::int64_t element = 0;
    for (std::int64_t t = 0; t < s.count(); ++t) {
      ASSERT_EQ(s.offset(t), element);
      ASSERT_GE(s.size(t), 1);
      ASSERT_EQ(s.size(t), t == 0 ? std::min(s.first(), s.extent())
                                  : std::min(s.block(), s.extent() - element));
      for (std::int64_t k = 0; k < s.size(t); ++k) ASSERT_EQ(s.tile_of(element++), t);
    }
    ASSERT_EQ(element, s.extent());
    if (s.extent() > 0) {
      ASSERT_LE(s.first(), s.extent());
    }
  }
  EXPECT_THROW(TileSplit(-1, 2), InvalidArgument);
  EXPECT_THROW(TileSplit(5, 0), InvalidArgument);
  EXPECT_THROW(TileSplit(5, 2, 0), InvalidArgument);
}

/// The tiles of a split as (offset, size) pairs.
std::vector<std::pair<std::int64_t, std::int64_t>> tiles_of(const TileSplit& s) {
  std::vector<std::pair<std::int64_t, std::int64_t>> tiles;
  for (std::int64_t t = 0; t < s.count(); ++t) tiles.emplace_back(s.offset(t), s.size(t));
  return tiles;
}

TEST(TileSplit, EqualMeansSameTiles) {
  std::mt19937 rng(12);
  int equal_pairs = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int extent = draw(rng, 0, 8);
    const TileSplit a(extent, draw(rng, 1, 4), draw(rng, 1, 10));
    const TileSplit b(extent, draw(rng, 1, 4), draw(rng, 1, 10));
    ASSERT_EQ(a == b, tiles_of(a) == tiles_of(b)) << extent << ": " << a.block() << "/" << a.first()
                                                  << " vs " << b.block() << "/" << b.first();
    equal_pairs += a == b;
  }
  EXPECT_GT(equal_pairs, 1000);
}

TEST(BlockCyclicDistribution, OwnersElementByElementAgreeWithPblas) {
  std::mt19937 rng(2024);
  std::int64_t compared = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const int nprow = draw(rng, 1, 4), npcol = draw(rng, 1, 4);
    Descriptor desc;
    desc.type = trial % 2 ? DescriptorType::BlockCyclic2D : DescriptorType::BlockCyclic2DInb;
    desc.m = draw(rng, 1, 40);
    desc.n = draw(rng, 1, 40);
    desc.mb = draw(rng, 1, 7);
    desc.nb = draw(rng, 1, 7);
    desc.imb = desc.type == DescriptorType::BlockCyclic2D ? desc.mb : draw(rng, 1, 10);
    desc.inb = desc.type == DescriptorType::BlockCyclic2D ? desc.nb : draw(rng, 1, 10);
    desc.rsrc = draw(rng, 0, nprow - 1);
    desc.csrc = draw(rng, 0, npcol - 1);
    desc.lld = 50;
    SubmatrixExtent sub;
    sub.row = draw(rng, 0, static_cast<int>(desc.m) - 1);
    sub.col = draw(rng, 0, static_cast<int>(desc.n) - 1);
    sub.rows = draw(rng, 0, static_cast<int>(desc.m - sub.row));
    sub.cols = draw(rng, 0, static_cast<int>(desc.n - sub.col));
    const ProcessGrid grid = random_grid(rng, nprow, npcol, trial % 3);
    const BlockCyclicDistribution d(desc, sub, grid);
    ASSERT_TRUE(d.is_cartesian());

    const int imb = static_cast<int>(desc.imb), mb = static_cast<int>(desc.mb);
    const int inb = static_cast<int>(desc.inb), nb = static_cast<int>(desc.nb);
    auto block_of = [](std::int64_t g, std::int64_t first, std::int64_t b) {
      return g < first ? 0 : 1 + (g - first) / b;
    };
    for (std::int64_t i = 0; i < sub.rows; ++i) {
      const std::int64_t g = sub.row + i;
      // Tile rows are exactly the pieces of A's row blocks inside sub(A).
      ASSERT_EQ(d.rows().tile_of(i), block_of(g, imb, mb) - block_of(sub.row, imb, mb));
      const int prow = PB_Cindxg2p(static_cast<int>(g), imb, mb, 0, desc.rsrc, nprow);
      for (std::int64_t j = 0; j < sub.cols; ++j) {
        const std::int64_t h = sub.col + j;
        const int pcol = PB_Cindxg2p(static_cast<int>(h), inb, nb, 0, desc.csrc, npcol);
        const GlobalTile t{d.rows().tile_of(i), d.cols().tile_of(j)};
        ASSERT_EQ(d.owner(t), grid.rank(prow, pcol)) << "element (" << g << ", " << h << ")";
        ++compared;
      }
    }
    for (std::int64_t j = 0; j < sub.cols; ++j) {
      const std::int64_t h = sub.col + j;
      ASSERT_EQ(d.cols().tile_of(j), block_of(h, inb, nb) - block_of(sub.col, inb, nb));
    }
    expect_groups_match_brute_force(d);
  }
  EXPECT_GT(compared, 30000);  // the random submatrices are not all empty
}

TEST(BlockCyclicDistribution, RefusesWhatItCannotRepresent) {
  const Descriptor desc = Descriptor::block_cyclic(0, 10, 10, 2, 2, 0, 0, 10);
  const ProcessGrid grid = ProcessGrid::row_major(2, 2);
  EXPECT_THROW(BlockCyclicDistribution(desc, SubmatrixExtent{5, 0, 6, 1}, grid), InvalidArgument);
  EXPECT_THROW(BlockCyclicDistribution(desc, SubmatrixExtent{0, -1, 1, 1}, grid), InvalidArgument);
  Descriptor replicated = desc;
  replicated.rsrc = kReplicated;
  EXPECT_THROW(BlockCyclicDistribution(replicated, grid), InvalidArgument);
  Descriptor outside = desc;
  outside.csrc = 2;
  EXPECT_THROW(BlockCyclicDistribution(outside, grid), InvalidArgument);
  EXPECT_NO_THROW(BlockCyclicDistribution(desc, SubmatrixExtent{10, 10, 0, 0}, grid));
}

TEST(CartesianDistribution, BlockCyclicIsTheShiftedIdentityMap) {
  const Descriptor desc = Descriptor::block_cyclic(0, 23, 17, 3, 2, 2, 1, 23);
  const ProcessGrid grid = ProcessGrid::column_major(3, 2);
  const BlockCyclicDistribution bc(desc, grid);
  EXPECT_EQ(bc.row_map(), (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(bc.col_map(), (std::vector<int>{1, 0}));
  const CartesianDistribution cart(TileSplit(23, 3), TileSplit(17, 2), {2, 0, 1}, {1, 0}, grid);
  for (std::int64_t i = 0; i < cart.rows().count(); ++i) {
    for (std::int64_t j = 0; j < cart.cols().count(); ++j) {
      ASSERT_EQ(bc.owner({i, j}), cart.owner({i, j}));
    }
  }
}

TEST(CartesianDistribution, HeterogeneousMapsOwnersAndGroups) {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 300; ++trial) {
    const int nprow = draw(rng, 1, 4), npcol = draw(rng, 1, 4);
    std::vector<int> row_map(static_cast<std::size_t>(draw(rng, 1, 9)));
    std::vector<int> col_map(static_cast<std::size_t>(draw(rng, 1, 9)));
    for (int& r : row_map) r = draw(rng, 0, nprow - 1);
    for (int& c : col_map) c = draw(rng, 0, npcol - 1);
    const ProcessGrid grid = random_grid(rng, nprow, npcol, trial % 2);
    const CartesianDistribution d(TileSplit(draw(rng, 0, 50), draw(rng, 1, 5), draw(rng, 1, 5)),
                                  TileSplit(draw(rng, 0, 50), draw(rng, 1, 5)), row_map, col_map,
                                  grid);
    for (std::int64_t i = 0; i < d.rows().count(); ++i) {
      for (std::int64_t j = 0; j < d.cols().count(); ++j) {
        const int r = row_map[static_cast<std::size_t>(i) % row_map.size()];
        const int c = col_map[static_cast<std::size_t>(j) % col_map.size()];
        ASSERT_EQ(d.owner({i, j}), grid.ranks()[static_cast<std::size_t>(r * npcol + c)]);
        const auto where = grid.coordinates(d.owner({i, j}));
        ASSERT_TRUE(where.has_value());
        ASSERT_EQ(*where, (GridCoord{r, c}));
      }
    }
    expect_groups_match_brute_force(d);
  }
}

TEST(CartesianDistribution, RefusesBadGridsAndMaps) {
  EXPECT_THROW(ProcessGrid(2, 2, {0, 1, 2}), InvalidArgument);
  EXPECT_THROW(ProcessGrid(2, 2, {0, 1, 2, 2}), InvalidArgument);
  EXPECT_THROW(ProcessGrid(2, 2, {0, 1, 2, 4}), InvalidArgument);
  EXPECT_THROW(ProcessGrid(0, 2, {}), InvalidArgument);
  EXPECT_NO_THROW(ProcessGrid(2, 2, {0, 1, 2, 4}, 6));
  const ProcessGrid grid = ProcessGrid::row_major(2, 3);
  EXPECT_FALSE(grid.coordinates(6).has_value());
  EXPECT_THROW(CartesianDistribution(TileSplit(4, 1), TileSplit(4, 1), {}, {0}, grid),
               InvalidArgument);
  EXPECT_THROW(CartesianDistribution(TileSplit(4, 1), TileSplit(4, 1), {0, 2}, {0}, grid),
               InvalidArgument);
  EXPECT_THROW(CartesianDistribution(TileSplit(4, 1), TileSplit(4, 1), {0}, {3}, grid),
               InvalidArgument);
}

/// A 3x3 pattern over 4 ranks whose diagonal cells are resolved per replica, in the manner of
/// GCR&M: replica (I/3, J/3) gives its diagonal to rank (I/3 + J/3) mod 4.
PatternDistribution diagonal_pattern(std::int64_t m, std::int64_t n, std::int64_t block) {
  const std::vector<int> table{kUnassigned, 0,           1,  //
                               0,           kUnassigned, 2,  //
                               1,           2,           kUnassigned};
  return PatternDistribution(
      TileSplit(m, block), TileSplit(n, block), 3, 3, table, 4,
      [](GlobalTile t) { return static_cast<int>((t.row / 3 + t.col / 3) % 4); });
}

TEST(PatternDistribution, OwnersFollowTheTableAndTheResolver) {
  const PatternDistribution d = diagonal_pattern(50, 41, 4);
  EXPECT_FALSE(d.is_cartesian());
  for (std::int64_t i = 0; i < d.rows().count(); ++i) {
    for (std::int64_t j = 0; j < d.cols().count(); ++j) {
      const int expected = i % 3 == j % 3 ? static_cast<int>((i / 3 + j / 3) % 4)
                                          : static_cast<int>((i % 3 + j % 3) - 1);
      ASSERT_EQ(d.owner({i, j}), expected) << i << "," << j;
    }
  }
  expect_groups_match_brute_force(d);
  EXPECT_EQ(d.row_group(0), (std::vector<int>{0, 1, 2, 3}));
}

TEST(PatternDistribution, CorePatternsResolveDiagonalCellsWithinTheirColrow) {
  // 3x3 over 3 nodes, diagonal left to each replica, as GCR&M leaves it.
  const core::Pattern pattern(3, 3, 3, {kUnassigned, 0, 1, 0, kUnassigned, 2, 1, 2, kUnassigned});
  const PatternDistribution d = lay_over(pattern, TileSplit(40, 3), TileSplit(40, 3));
  ASSERT_EQ(d.num_ranks(), 3);
  std::vector<int> diagonal_tiles(3, 0);
  for (std::int64_t i = 0; i < d.rows().count(); ++i) {
    for (std::int64_t j = 0; j < d.cols().count(); ++j) {
      const int r = static_cast<int>(i % 3), c = static_cast<int>(j % 3);
      if (r != c) {
        ASSERT_EQ(d.owner({i, j}), pattern.at(r, c));
        continue;
      }
      const std::vector<int> colrow = pattern.colrow_nodes(r);
      ASSERT_TRUE(std::count(colrow.begin(), colrow.end(), d.owner({i, j})) == 1)
          << "tile (" << i << ", " << j << ") went outside its colrow";
      ++diagonal_tiles[static_cast<std::size_t>(d.owner({i, j}))];
    }
  }
  // Replicas are spread, not all given to one node.
  for (int tiles : diagonal_tiles) EXPECT_GT(tiles, 0);
  expect_groups_match_brute_force(d);
}

TEST(PatternDistribution, RefusesBadTablesAndResolvers) {
  const TileSplit s(10, 2);
  EXPECT_THROW(PatternDistribution(s, s, 2, 2, {0, 1, 2}, 3), InvalidArgument);
  EXPECT_THROW(PatternDistribution(s, s, 2, 2, {0, 1, 2, 3}, 3), InvalidArgument);
  EXPECT_THROW(PatternDistribution(s, s, 2, 2, {0, 1, 2, kUnassigned}, 3), InvalidArgument);
  EXPECT_THROW(
      PatternDistribution(s, s, 2, 2, {0, 1, 2, kUnassigned}, 3, [](GlobalTile) { return 3; }),
      InvalidArgument);
  EXPECT_THROW(PatternDistribution(s, s, 0, 2, {}, 3), InvalidArgument);
  EXPECT_NO_THROW(
      PatternDistribution(s, s, 2, 2, {0, 1, 2, kUnassigned}, 3, [](GlobalTile) { return 2; }));
}

}  // namespace
}  // namespace hetscal::layout
