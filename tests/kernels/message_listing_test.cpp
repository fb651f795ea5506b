// How the factorisations list a step's messages without a pass over every rank per column
// or tile row (detail::RankGroups, RanksMet, FactorizationTiles::for_each_rank_from_row and
// for_each_panel_row_recipient), and FlopBatch's counts.
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

/// A p×q grid's maps: tile line t to grid line t mod p (q).
std::vector<int> cyclic_map(int lines) {
  std::vector<int> map(static_cast<std::size_t>(lines));
  for (int t = 0; t < lines; ++t) map[static_cast<std::size_t>(t)] = t;
  return map;
}

/// A side×side pattern over side² ranks whose diagonal cells give each tile an owner of its
/// own (as GCR&M's): the per-tile owners a row's listing meets besides its class's ranks.
layout::PatternDistribution pattern_with_own_diagonal(const layout::TileSplit& split, int side) {
  const int ranks = side * side;
  std::vector<int> table(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    table[static_cast<std::size_t>(r)] = r / side == r % side ? layout::kUnassigned : (r * 7 + 3) % ranks;
  return layout::PatternDistribution(split, split, side, side, table, ranks, [ranks](layout::GlobalTile t) {
    return static_cast<int>((t.row * 5 + t.col * 3) % ranks);
  });
}

/// The (rank, tile row) pairs for_each_panel_row_recipient lists at step k.
std::multiset<std::pair<int, std::int64_t>> listed_recipients(const FactorizationTiles& tiles,
                                                              std::int64_t k, RanksMet& met) {
  std::multiset<std::pair<int, std::int64_t>> listed;
  tiles.for_each_panel_row_recipient(k, met, [&](int rank, std::int64_t i) { listed.emplace(rank, i); });
  return listed;
}

// The factored rows' recipients listed from each tile row's owners are those of
// receives_panel_row asked of every rank about every row, each pair once: on a pattern with
// per-tile cells and on per-line grid maps, every rank listing every step.
TEST(FactorizationTiles, PanelRowRecipientsAreThoseOfEveryRanksScan) {
  const layout::TileSplit split(23, 2);  // 12 tiles, the last partial
  const layout::PatternDistribution pattern = pattern_with_own_diagonal(split, 3);
  const layout::CartesianDistribution grid(split, split, {0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1},
                                           {2, 0, 1, 1, 0, 2, 2, 1, 0, 0, 1, 2},
                                           layout::ProcessGrid::row_major(2, 3));
  for (const layout::Distribution* d :
       std::initializer_list<const layout::Distribution*>{&pattern, &grid}) {
    for (int me = 0; me < d->num_ranks(); ++me) {
      const FactorizationTiles tiles(*d, me, LuPanelRank::DiagonalOwner, {});
      RanksMet met(d->num_ranks());
      for (std::int64_t k = 0; k < tiles.steps(); ++k) {
        std::multiset<std::pair<int, std::int64_t>> scanned;
        for (int rank = 0; rank < d->num_ranks(); ++rank)
          for (std::int64_t i = k; i < tiles.rows().count(); ++i)
            if (rank != me && tiles.receives_panel_row(rank, i, k)) scanned.emplace(rank, i);
        ASSERT_EQ(listed_recipients(tiles, k, met), scanned) << "rank " << me << " step " << k;
      }
    }
  }
}

// A step's listing of the factored rows' recipients costs the owners of the panel's tile rows,
// not P per tile row (issue 32): on 4,096 simulated ranks (no communicator), a 64×64 grid meets
// 64 ranks per tile row and a pattern those of the row's class and its own tiles, not 4,096.
// Every pair listed is met: a scan of every rank that bypassed the meetings would fail too.
TEST(FactorizationTiles, PanelRowListingMeetsEachRowsOwnersNotEveryRank) {
  const int side = 64, ranks = side * side;
  const layout::TileSplit split(8 * 512, 8);  // 512 tile lines
  const std::int64_t lines = split.count();
  const layout::CartesianDistribution grid(split, split, cyclic_map(side), cyclic_map(side),
                                           layout::ProcessGrid::row_major(side, side));
  const layout::PatternDistribution pattern = pattern_with_own_diagonal(split, side);
  // Per tile row: its class's ranks (a grid row, a pattern row) and its tiles of the pattern's
  // diagonal cell, which have owners of their own.
  const std::int64_t grid_owners = side, pattern_owners = side + lines / side;
  for (const auto& [d, owners] : {std::pair<const layout::Distribution*, std::int64_t>{&grid, grid_owners},
                                  std::pair<const layout::Distribution*, std::int64_t>{&pattern, pattern_owners}}) {
    const FactorizationTiles tiles(*d, 0, LuPanelRank::DiagonalOwner, {});
    RanksMet met(ranks);
    for (const std::int64_t k : {std::int64_t{0}, lines / 2, lines - 1}) {
      const std::int64_t before = met.meetings();
      const std::int64_t pairs = static_cast<std::int64_t>(listed_recipients(tiles, k, met).size());
      const std::int64_t meetings = met.meetings() - before, rows = lines - k;
      EXPECT_GE(meetings, pairs) << "step " << k;
      EXPECT_LE(meetings, rows * owners) << "step " << k;
      EXPECT_LT(meetings * 16, rows * ranks) << "step " << k;  // the scan's P per tile row
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
