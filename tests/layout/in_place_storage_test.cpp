// An in-place take-over's storage (issue 28, item 2): kept tiles where the caller's array has
// them, received tiles packed in the overflow, every element of the overflow used once, and
// what one rank gives exactly what the others receive.
#include "layout/in_place_storage.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/common/error.hpp"

namespace hetscal::layout {
namespace {

bool same_tile(GlobalTile a, GlobalTile b) { return a.row == b.row && a.col == b.col; }

TEST(InPlaceStorage, KeptTilesStayAndReceivedOnesFillTheOverflow) {
  std::mt19937 rng(28);
  for (int trial = 0; trial < 60; ++trial) {
    const int nprow = 1 + trial % 2, npcol = 1 + (trial / 2) % 2;
    const TileSplit split(std::uniform_int_distribution<int>(1, 40)(rng), 3, 1 + trial % 3);
    const ProcessGrid grid = ProcessGrid::row_major(nprow, npcol);
    std::vector<int> cyclic_rows, cyclic_cols;
    for (int r = 0; r < nprow; ++r) cyclic_rows.push_back(r);
    for (int c = 0; c < npcol; ++c) cyclic_cols.push_back(c);
    const CartesianDistribution caller(split, split, cyclic_rows, cyclic_cols, grid);
    std::vector<int> rows(static_cast<std::size_t>(split.count())), cols(rows.size());
    for (int& r : rows) r = std::uniform_int_distribution<int>(0, nprow - 1)(rng);
    for (int& c : cols) c = std::uniform_int_distribution<int>(0, npcol - 1)(rng);
    const CartesianDistribution planned(split, split, rows, cols, grid);
    const StoredTiles stored = trial % 3 == 0 ? StoredTiles::All
                               : trial % 3 == 1 ? StoredTiles::LowerTriangle
                                                : StoredTiles::UpperTriangle;
    std::vector<GlobalTile> given, received;
    for (int rank = 0; rank < grid.num_ranks(); ++rank) {
      const CartesianLocalLayout array(caller, rank, 0);
      const InPlaceLocalLayout storage(planned, caller, array, stored);
      EXPECT_EQ(storage.kind(), StorageKind::KeptAndOverflow);
      std::vector<char> used(static_cast<std::size_t>(storage.overflow_elements()), 0);
      for (std::int64_t i = 0; i < split.count(); ++i) {
        for (std::int64_t j = 0; j < split.count(); ++j) {
          const GlobalTile t{i, j};
          ASSERT_EQ(storage.owns(t), planned.owner(t) == rank);
          if (!storage.owns(t) || !is_stored(stored, t)) {
            EXPECT_THROW(storage.tile_location(t), InvalidArgument);
            continue;
          }
          const TileLocation where = storage.tile_location(t);
          if (caller.owner(t) == rank) {
            EXPECT_EQ(where, array.tile_location(t));
            continue;
          }
          ASSERT_EQ(where.base, TileBase::Overflow);
          for (std::int64_t c = 0; c < split.size(j); ++c) {
            for (std::int64_t r = 0; r < split.size(i); ++r) {
              const std::int64_t at = where.offset + r + c * where.ld;
              ASSERT_LT(at, storage.overflow_elements());
              ASSERT_EQ(used[static_cast<std::size_t>(at)], 0);
              used[static_cast<std::size_t>(at)] = 1;
            }
          }
        }
      }
      EXPECT_TRUE(std::all_of(used.begin(), used.end(), [](char u) { return u != 0; }));  // packed
      given.insert(given.end(), storage.given().begin(), storage.given().end());
      received.insert(received.end(), storage.received().begin(), storage.received().end());
    }
    const auto order = [](GlobalTile a, GlobalTile b) { return a.col != b.col ? a.col < b.col : a.row < b.row; };
    std::sort(given.begin(), given.end(), order);
    std::sort(received.begin(), received.end(), order);
    ASSERT_EQ(given.size(), received.size());
    EXPECT_TRUE(std::equal(given.begin(), given.end(), received.begin(), same_tile));
  }
}

}  // namespace
}  // namespace hetscal::layout
