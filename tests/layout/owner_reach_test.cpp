// OwnerReach against a scan of every tile's owner, on random Cartesian grids (periodic maps and
// the per-line maps of an in-place layout), patterns with and without per-tile cells, and a
// distribution of no known structure, each also transposed; and its memory, which grows with
// lines, cells and ranks, not lines × ranks (issue 32).
#include "layout/owner_reach.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "layout/cartesian_distribution.hpp"
#include "layout/pattern_distribution.hpp"

namespace hetscal::layout {
namespace {

int draw(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

std::vector<int> random_map(std::mt19937& rng, int length, int values) {
  std::vector<int> map(static_cast<std::size_t>(length));
  for (int& v : map) v = draw(rng, 0, values - 1);
  return map;
}

/// A grid of nprow × npcol cells holding distinct random ranks of a communicator of `ranks`.
ProcessGrid random_grid(std::mt19937& rng, int nprow, int npcol, int ranks) {
  std::vector<int> all(static_cast<std::size_t>(ranks));
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(static_cast<std::size_t>(nprow * npcol));
  return ProcessGrid(nprow, npcol, all, ranks);
}

/// Owners given by a function: the base class's owner_classes, one per-tile cell.
class OwnerFunction : public Distribution {
 public:
  OwnerFunction(TileSplit rows, TileSplit cols, int ranks, std::function<int(GlobalTile)> owner)
      : Distribution(rows, cols, ranks), owner_(std::move(owner)) {}
  int owner(GlobalTile t) const override { return owner_(t); }

 private:
  std::function<int(GlobalTile)> owner_;
};

/// Every query of OwnerReach(d, transposed) equals a scan of the owners.
void expect_reach_matches_scan(const Distribution& d, bool transposed) {
  const OwnerReach reach(d, transposed);
  const std::int64_t rows = transposed ? d.cols().count() : d.rows().count();
  const std::int64_t cols = transposed ? d.rows().count() : d.cols().count();
  const auto owner = [&](std::int64_t i, std::int64_t j) {
    return d.owner(transposed ? GlobalTile{j, i} : GlobalTile{i, j});
  };
  for (int rank = 0; rank < d.num_ranks(); ++rank) {
    for (std::int64_t i = 0; i < rows; ++i) {
      std::int64_t scanned = -1;
      for (std::int64_t bound = 0; bound < cols; ++bound) {
        if (owner(i, bound) == rank) scanned = bound;
        ASSERT_EQ(reach.row_reach(rank, i, bound), scanned)
            << "rank " << rank << " row " << i << " bound " << bound;
      }
      ASSERT_EQ(reach.row_reach(rank, i), scanned) << "rank " << rank << " row " << i;
    }
  }
  for (std::int64_t i = 0; i < rows; ++i) {
    std::set<int> visited, owners;
    reach.for_each_row_owner(i, [&](int rank) { visited.insert(rank); });
    for (std::int64_t j = 0; j < cols; ++j) owners.insert(owner(i, j));
    ASSERT_EQ(visited, owners) << "row " << i;
  }
  for (std::int64_t j = 0; j < cols; ++j) {
    std::vector<OwnerReach::Holder> scanned;
    for (int rank = 0; rank < d.num_ranks(); ++rank) {
      std::int64_t deepest = -1;
      for (std::int64_t i = 0; i < rows; ++i)
        if (owner(i, j) == rank) deepest = i;
      ASSERT_EQ(reach.column_reach(rank, j), deepest) << "rank " << rank << " column " << j;
      if (deepest >= 0) scanned.push_back({rank, deepest});
    }
    std::stable_sort(
        scanned.begin(), scanned.end(),
        [](const OwnerReach::Holder& a, const OwnerReach::Holder& b) { return a.reach > b.reach; });
    const auto holders = reach.column_holders(j);
    ASSERT_EQ(holders.second - holders.first, static_cast<std::ptrdiff_t>(scanned.size()))
        << "column " << j;
    for (std::size_t at = 0; at < scanned.size(); ++at) {
      EXPECT_EQ(holders.first[at].rank, scanned[at].rank) << "column " << j << " holder " << at;
      EXPECT_EQ(holders.first[at].reach, scanned[at].reach) << "column " << j << " holder " << at;
    }
  }
}

void expect_reach_matches_scan(const Distribution& d) {
  {
    SCOPED_TRACE("as is");
    expect_reach_matches_scan(d, false);
  }
  SCOPED_TRACE("transposed");
  expect_reach_matches_scan(d, true);
}

TileSplit random_split(std::mt19937& rng) {
  return TileSplit(draw(rng, 0, 40), draw(rng, 2, 5), draw(rng, 1, 7));
}

TEST(OwnerReach, MatchesScanOnCartesianGrids) {
  std::mt19937 rng(32);
  for (int trial = 0; trial < 60; ++trial) {
    const TileSplit rows = random_split(rng), cols = random_split(rng);
    const int nprow = draw(rng, 1, 4), npcol = draw(rng, 1, 4);
    // Periodic maps, or one entry per line as an in-place layout's (runtime/in_place_moves).
    const bool per_line = trial % 2 == 1;
    const int row_period =
        per_line ? static_cast<int>(std::max<std::int64_t>(rows.count(), 1)) : draw(rng, 1, 6);
    const int col_period =
        per_line ? static_cast<int>(std::max<std::int64_t>(cols.count(), 1)) : draw(rng, 1, 6);
    const CartesianDistribution d(rows, cols, random_map(rng, row_period, nprow),
                                  random_map(rng, col_period, npcol),
                                  random_grid(rng, nprow, npcol, nprow * npcol + draw(rng, 0, 2)));
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_reach_matches_scan(d);
  }
}

TEST(OwnerReach, MatchesScanOnPatterns) {
  std::mt19937 rng(64);
  for (int trial = 0; trial < 60; ++trial) {
    const TileSplit rows = random_split(rng), cols = random_split(rng);
    const int pattern_rows = draw(rng, 1, 5), pattern_cols = draw(rng, 1, 5),
              ranks = draw(rng, 1, 7);
    // Every third pattern leaves cells to a resolver, as GCR&M's diagonal cells.
    std::vector<int> table = random_map(rng, pattern_rows * pattern_cols, ranks);
    if (trial % 3 == 0)
      for (int& cell : table)
        if (draw(rng, 0, 3) == 0) cell = kUnassigned;
    const unsigned seed = static_cast<unsigned>(trial);
    const OwnerResolver resolver = [seed, ranks](GlobalTile t) {
      return static_cast<int>((t.row * 7 + t.col * 13 + seed) % static_cast<unsigned>(ranks));
    };
    const PatternDistribution d(rows, cols, pattern_rows, pattern_cols, table, ranks, resolver);
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_reach_matches_scan(d);
  }
}

TEST(OwnerReach, MatchesScanWithoutKnownClasses) {
  std::mt19937 rng(128);
  for (int trial = 0; trial < 20; ++trial) {
    const int ranks = draw(rng, 1, 6);
    std::vector<int> owners = random_map(rng, 41 * 41, ranks);
    const OwnerFunction d(random_split(rng), random_split(rng), ranks, [owners](GlobalTile t) {
      return owners[static_cast<std::size_t>(t.row * 41 + t.col)];
    });
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_reach_matches_scan(d);
  }
}

// At 16,384 ranks a table per line and rank took gigabytes; the classes take the grid's cells.
TEST(OwnerReach, BytesGrowWithLinesCellsAndRanksNotTheirProduct) {
  const auto bound = [](std::int64_t lines, std::int64_t cells, std::int64_t ranks) {
    return 64 * (lines + cells + ranks) + 4096;
  };
  for (const int side : {2, 32, 128}) {
    const int ranks = side * side;
    for (const std::int64_t n : {std::int64_t{100'000}, std::int64_t{1'000'000}}) {
      const TileSplit split(n, 64);
      std::vector<int> map(static_cast<std::size_t>(side));
      std::iota(map.begin(), map.end(), 0);
      const CartesianDistribution grid(split, split, map, map, ProcessGrid::row_major(side, side));
      const OwnerReach reach(grid);
      const std::int64_t lines = 2 * split.count();
      EXPECT_LE(reach.bytes(), bound(lines, ranks, ranks)) << side << "x" << side << ", N = " << n;
      std::vector<int> table(static_cast<std::size_t>(ranks));
      std::iota(table.begin(), table.end(), 0);
      const PatternDistribution pattern(split, split, side, side, table, ranks);
      EXPECT_LE(OwnerReach(pattern).bytes(), bound(lines, ranks, ranks))
          << side << "x" << side << " pattern";
    }
  }
}

}  // namespace
}  // namespace hetscal::layout
