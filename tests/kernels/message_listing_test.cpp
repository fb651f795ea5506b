// How the factorisations list a step's messages without a pass over every rank per column
// (detail::RankGroups, FactorizationTiles::for_each_rank_from_row), and FlopBatch's counts.
// Local to each rank: no message is sent.
#include <gtest/gtest.h>

#include <initializer_list>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kernels/cholesky_tiles.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/rank_groups.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/pattern_distribution.hpp"

namespace hetscal::kernels::detail {
namespace {

TEST(RankGroups, VisitsRanksIncreasingAndIndicesIncreasingWithinEach) {
  RankGroups groups;
  groups.reserve(6);
  for (const auto& [rank, index] : std::vector<std::pair<int, std::int64_t>>{
           {3, 7}, {1, 9}, {3, 2}, {0, 4}, {1, 1}, {3, 5}})
    groups.add(rank, index);
  std::vector<std::pair<int, std::vector<std::int64_t>>> seen;
  groups.for_each([&](int rank, RankGroups::Iterator from, RankGroups::Iterator to) {
    std::vector<std::int64_t> indices;
    for (auto p = from; p != to; ++p) indices.push_back(p->index);
    seen.emplace_back(rank, indices);
  });
  const std::vector<std::pair<int, std::vector<std::int64_t>>> expected{
      {0, {4}}, {1, {1, 9}}, {3, {2, 5, 7}}};
  EXPECT_EQ(seen, expected);
  groups.clear();
  EXPECT_TRUE(groups.empty());
  int calls = 0;
  groups.for_each([&](int, RankGroups::Iterator, RankGroups::Iterator) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(RankGroups, RefusesMorePairsThanReserved) {
  RankGroups groups;
  groups.reserve(1);
  std::size_t room = 0;  // the reserve may round up: fill what it gave
  for (; room < 64; ++room) {
    try {
      groups.add(0, static_cast<std::int64_t>(room));
    } catch (const std::logic_error&) {
      break;
    }
  }
  EXPECT_GE(room, std::size_t{1});
  EXPECT_LT(room, std::size_t{64});
}

// Every rank's view of a pattern's columns: for_each_rank_from_row(j, row) visits exactly the
// ranks owning a tile (i, j), i >= row, each once.
TEST(FactorizationTiles, RanksFromARowAreTheOwnersAtOrBelowIt) {
  // 3×4 pattern over 5 ranks on 11×9 tiles of 2 (last ones partial).
  const layout::PatternDistribution d(layout::TileSplit(21, 2), layout::TileSplit(17, 2), 3, 4,
                                      {0, 1, 2, 3, 4, 0, 1, 2, 3, 3, 4, 0}, 5);
  const FactorizationTiles tiles(d, 2, LuPanelRank::DiagonalOwner, {});
  for (std::int64_t j = 0; j < d.cols().count(); ++j) {
    for (std::int64_t row = 0; row <= d.rows().count(); ++row) {
      std::multiset<int> visited;
      tiles.for_each_rank_from_row(j, row, [&](int rank) { visited.insert(rank); });
      std::multiset<int> expected;
      for (int rank = 0; rank < d.num_ranks(); ++rank) {
        bool owns = false;
        for (std::int64_t i = row; i < d.rows().count(); ++i) owns = owns || d.owner({i, j}) == rank;
        if (owns) expected.insert(rank);
        EXPECT_EQ(owns, tiles.owns_tile_from_row(rank, j, row)) << "column " << j << " row " << row;
      }
      EXPECT_EQ(visited, expected) << "column " << j << " row " << row;
    }
  }
}

// Who receives what is read from the owner table's classes (layout::OwnerReach): the tables
// grow with tile lines, cells and ranks, not tile lines × ranks (issue 32, item 3). Simulated
// ranks: no communicator is needed to build the tiles.
TEST(FactorizationTiles, TableBytesGrowWithLinesCellsAndRanksNotTheirProduct) {
  const layout::TileSplit split(64 * 1000, 64);  // 1,000 tile lines each way
  const std::int64_t lines = 2 * split.count();
  for (const int side : {2, 32, 64}) {
    const int ranks = side * side;
    std::vector<int> table(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) table[static_cast<std::size_t>(r)] = (r * 7 + 3) % ranks;
    const layout::PatternDistribution d(split, split, side, side, table, ranks);
    const FactorizationTiles tiles(d, 0, LuPanelRank::DiagonalOwner, {});
    // Per tile of this rank two indices, in vectors grown by push_back (up to twice that);
    // besides, a few words per line, cell and rank.
    const std::int64_t own_tiles = split.count() * split.count() / ranks + 2 * split.count();
    const std::int64_t bound = 64 * (lines + 2 * ranks) + 32 * own_tiles;
    EXPECT_LE(tiles.table_bytes(), bound) << ranks << " ranks";
    const std::int64_t per_line_and_rank = lines * ranks * 8;  // the former reach tables
    if (ranks >= 1024) {
      EXPECT_LT(tiles.table_bytes() * 20, per_line_and_rank) << ranks << " ranks";
    }
  }
}

// needs_panel_tile against its definition for every rank (this rank's own tables and the
// others' OwnerReach), and for_each_panel_tile_candidate visits every rank that needs a tile:
// on a pattern with per-tile cells (as GCR&M's diagonal) and on per-line grid maps (as an
// in-place layout's), both triangles.
TEST(CholeskyTiles, PanelTileRecipientsAreThoseOfTheDefinition) {
  const layout::TileSplit split(23, 2);  // 12 tiles, the last partial
  const layout::PatternDistribution pattern(
      split, split, 3, 3,
      {layout::kUnassigned, 1, 2, 3, layout::kUnassigned, 0, 2, 4, layout::kUnassigned}, 5,
      [](layout::GlobalTile t) { return static_cast<int>((t.row + 2 * t.col) % 5); });
  const layout::CartesianDistribution grid(split, split, {0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1},
                                           {2, 0, 1, 1, 0, 2, 2, 1, 0, 0, 1, 2},
                                           layout::ProcessGrid::row_major(2, 3));
  for (const layout::Distribution* d :
       std::initializer_list<const layout::Distribution*>{&pattern, &grid}) {
    for (const Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      for (int me = 0; me < d->num_ranks(); ++me) {
        const CholeskyTiles tiles(uplo, *d, me);
        for (std::int64_t k = 0; k < tiles.count(); ++k) {
          for (std::int64_t i = k + 1; i < tiles.count(); ++i) {
            std::set<int> candidates;
            tiles.for_each_panel_tile_candidate(i, [&](int rank) { candidates.insert(rank); });
            for (int rank = 0; rank < d->num_ranks(); ++rank) {
              bool needs = false;
              for (std::int64_t j = k + 1; j <= i; ++j) needs = needs || tiles.owner(i, j) == rank;
              for (std::int64_t l = i; l < tiles.count(); ++l)
                needs = needs || tiles.owner(l, i) == rank;
              ASSERT_EQ(tiles.needs_panel_tile(rank, i, k), needs)
                  << "rank " << rank << " tile " << i << " step " << k;
              if (needs) {
                ASSERT_EQ(candidates.count(rank), 1u) << "rank " << rank << " tile " << i;
              }
            }
          }
        }
      }
    }
  }
}

TEST(FlopBatch, CountsEveryCallInsideIt) {
  reset_flops();
  {
    const FlopBatch outer;
    account_flops(3.0);
    {
      const FlopBatch inner;
      account_flops(4.0);
    }
    account_flops(5.0);
  }
  account_flops(1.0);
  EXPECT_EQ(local_flops(), 13.0);
  reset_flops();
}

}  // namespace
}  // namespace hetscal::kernels::detail
