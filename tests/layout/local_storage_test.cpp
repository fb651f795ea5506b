// Local storage: every element a rank owns gets its own offset inside local_elements(), for
// Cartesian arrays and for tiles; the caller's ScaLAPACK array is addressed exactly as
// PBLAS's PB_Cinfog2l addresses it.
#include "layout/local_storage.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/common/error.hpp"
#include "layout/pattern_distribution.hpp"
#include "scalapack_reference.hpp"

namespace hetscal::layout {
namespace {

int draw(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

/// Walks every element of every tile of `d`: the owner's layout must give it an offset in
/// [0, local_elements()) that no other element of that rank has; every rank's storage holds
/// exactly the elements it owns (no more when `exact`).
void expect_round_trip(const Distribution& d, bool exact) {
  for (int rank = 0; rank < d.num_ranks(); ++rank) {
    const auto layout = make_local_layout(d, rank);
    std::vector<char> used(static_cast<std::size_t>(layout->local_elements()), 0);
    std::int64_t owned = 0;
    for (std::int64_t i = 0; i < d.rows().extent(); ++i) {
      for (std::int64_t j = 0; j < d.cols().extent(); ++j) {
        const GlobalTile t{d.rows().tile_of(i), d.cols().tile_of(j)};
        ASSERT_EQ(layout->owns(t), d.owner(t) == rank);
        if (d.owner(t) != rank) {
          ASSERT_THROW(layout->element_offset(i, j), InvalidArgument);
          continue;
        }
        const std::int64_t at = layout->element_offset(i, j);
        ASSERT_GE(at, 0);
        ASSERT_LT(at, layout->local_elements()) << "rank " << rank << " (" << i << "," << j << ")";
        ASSERT_EQ(used[static_cast<std::size_t>(at)], 0) << "offset used twice: " << at;
        used[static_cast<std::size_t>(at)] = 1;
        ++owned;
      }
    }
    if (exact) {
      EXPECT_EQ(owned, layout->local_elements()) << "rank " << rank;
    }
  }
}

TEST(LocalStorage, CartesianArraysRoundTrip) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 150; ++trial) {
    const int nprow = draw(rng, 1, 3), npcol = draw(rng, 1, 3);
    std::vector<int> row_map(static_cast<std::size_t>(draw(rng, 1, 6)));
    std::vector<int> col_map(static_cast<std::size_t>(draw(rng, 1, 6)));
    for (int& r : row_map) r = draw(rng, 0, nprow - 1);
    for (int& c : col_map) c = draw(rng, 0, npcol - 1);
    const CartesianDistribution d(TileSplit(draw(rng, 0, 30), draw(rng, 1, 4), draw(rng, 1, 6)),
                                  TileSplit(draw(rng, 0, 30), draw(rng, 1, 4)), row_map, col_map,
                                  ProcessGrid::row_major(nprow, npcol));
    expect_round_trip(d, true);
    // Local rows keep the global order, so one step's rows are contiguous per rank.
    for (int rank = 0; rank < d.num_ranks(); ++rank) {
      const CartesianLocalLayout layout(d, rank);
      std::int64_t next = 0;
      for (std::int64_t i = 0; i < d.rows().count(); ++i) {
        if (layout.local_row_of_tile(i) < 0) continue;
        ASSERT_EQ(layout.local_row_of_tile(i), next);
        next += d.rows().size(i);
      }
      ASSERT_EQ(next, layout.local_rows());
    }
  }
}

TEST(LocalStorage, TilesRoundTripForPatterns) {
  const std::vector<int> table{kUnassigned, 0, 1, 0, kUnassigned, 2, 1, 2, kUnassigned};
  for (std::int64_t block : {1, 3, 5}) {
    const PatternDistribution d(TileSplit(23, block, 2), TileSplit(19, block), 3, 3, table, 4,
                                [](GlobalTile t) { return static_cast<int>((t.row + t.col) % 4); });
    expect_round_trip(d, true);
    const auto layout = make_local_layout(d, 1);
    EXPECT_EQ(layout->kind(), StorageKind::Tiles);
    // Tiles are packed: a tile's leading dimension is its own height.
    for (const GlobalTile& t : layout->owned_tiles()) {
      EXPECT_EQ(layout->tile_location(t).ld, d.rows().size(t.row));
    }
  }
}

TEST(LocalStorage, CallerArrayMatchesPblasLocalIndices) {
  std::mt19937 rng(8);
  std::int64_t compared = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const int nprow = draw(rng, 1, 3), npcol = draw(rng, 1, 3);
    Descriptor desc;
    desc.type = DescriptorType::BlockCyclic2DInb;
    desc.m = draw(rng, 1, 30);
    desc.n = draw(rng, 1, 30);
    desc.mb = draw(rng, 1, 5);
    desc.nb = draw(rng, 1, 5);
    desc.imb = draw(rng, 1, 8);
    desc.inb = draw(rng, 1, 8);
    desc.rsrc = draw(rng, 0, nprow - 1);
    desc.csrc = draw(rng, 0, npcol - 1);
    desc.lld = local_extent(desc.row_axis(nprow), 0) + 40;  // larger than any LOCr
    const SubmatrixExtent sub{draw(rng, 0, static_cast<int>(desc.m) - 1),
                              draw(rng, 0, static_cast<int>(desc.n) - 1), 0, 0};
    const SubmatrixExtent s{sub.row, sub.col, draw(rng, 0, static_cast<int>(desc.m - sub.row)),
                            draw(rng, 0, static_cast<int>(desc.n - sub.col))};
    const BlockCyclicDistribution d(desc, s, ProcessGrid::column_major(nprow, npcol));
    std::vector<int> desc11 = desc.to_array();
    for (int rank = 0; rank < d.num_ranks(); ++rank) {
      const CartesianLocalLayout layout = caller_local_layout(d, rank);
      const GridCoord me = *d.grid().coordinates(rank);
      for (std::int64_t i = 0; i < s.rows; ++i) {
        for (std::int64_t j = 0; j < s.cols; ++j) {
          int ii = 0, jj = 0, prow = 0, pcol = 0;
          PB_Cinfog2l(static_cast<int>(s.row + i), static_cast<int>(s.col + j), desc11.data(),
                      nprow, npcol, me.row, me.col, &ii, &jj, &prow, &pcol);
          if (prow != me.row || pcol != me.col) continue;
          ASSERT_EQ(layout.element_offset(i, j), ii + jj * desc.lld)
              << "rank " << rank << " element (" << s.row + i << ", " << s.col + j << ")";
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 10000);  // the random submatrices are not all empty
}

TEST(LocalStorage, RanksOutsideTheGridHoldNothing) {
  const CartesianDistribution d(TileSplit(10, 2), TileSplit(10, 2), {0, 1}, {0},
                                ProcessGrid(2, 1, {3, 1}, 5));
  for (int rank : {0, 2, 4}) {
    const CartesianLocalLayout layout(d, rank);
    EXPECT_EQ(layout.local_elements(), 0);
    EXPECT_TRUE(layout.owned_tiles().empty());
  }
  EXPECT_EQ(CartesianLocalLayout(d, 3).local_rows(), 6);
  EXPECT_THROW(CartesianLocalLayout(d, 3, 5), InvalidArgument);  // ld below LOCr
  EXPECT_THROW(make_local_layout(d, 1)->tile_location({0, 0}), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::layout
