// mpi::context_info: grid shape, rank table for every rank order, caching, and the cache
// entry dying with the context.
#include <gtest/gtest.h>

#include "core/common/error.hpp"
#include "mpi/blacs_context.hpp"
#include "mpi_test_support.hpp"

namespace hetscal::mpi::test {
namespace {

// The rank table must name the processes BLACS placed: translated to the system
// communicator, position (r, c) is the rank the grid was built with.
bool table_matches_grid(const ContextInfo& info, const BlacsGrid& grid) {
  MPI_Group mine, world;
  MPI_Comm_group(info.comm, &mine);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> world_ranks(info.rank_table.size());
  MPI_Group_translate_ranks(mine, static_cast<int>(world_ranks.size()), info.rank_table.data(),
                            world, world_ranks.data());
  MPI_Group_free(&mine);
  MPI_Group_free(&world);
  bool ok = true;
  for (int r = 0; r < info.nprow; ++r) {
    for (int c = 0; c < info.npcol; ++c) {
      ok =
          ok && world_ranks[static_cast<std::size_t>(r * info.npcol + c)] == grid.system_rank(r, c);
      ok = ok && info.rank(r, c) == Cblacs_pnum(grid.context(), r, c);
      const GridPosition p = info.position(info.rank(r, c));
      ok = ok && p.row == r && p.col == c;
    }
  }
  return ok && info.rank(info.myrow, info.mycol) == info.my_rank;
}

TEST(ContextInfo, EveryShapeAndRankOrder) {
  const int size = world_size();
  for (const auto& [p, q] : grid_shapes(size)) {
    for (GridOrder order : {GridOrder::RowMajor, GridOrder::ColumnMajor, GridOrder::Permuted}) {
      const std::size_t cached_before = cached_context_count();
      {
        BlacsGrid grid(p, q, order, static_cast<unsigned>(7 * p + q));
        const ContextInfo& info = context_info(grid.context());
        bool ok = info.nprow == p && info.npcol == q && table_matches_grid(info, grid);
        int compare = MPI_UNEQUAL;
        MPI_Comm_compare(info.comm, Cblacs2sys_handle([&] {
                           int h = -1;
                           Cblacs_get(grid.context(), blacs::kGetContextCommunicator, &h);
                           return h;
                         }()),
                         &compare);
        ok = ok && compare == MPI_CONGRUENT;  // a duplicate, never BLACS's own communicator
        ok = ok && &context_info(grid.context()) == &info;  // cached
        ok = ok && cached_context_count() == cached_before + 1;
        EXPECT_TRUE(on_all_ranks(ok)) << p << "x" << q << " " << name(order);
      }
      // Cblacs_gridexit freed BLACS's communicator: the cached entry went with it.
      EXPECT_TRUE(on_all_ranks(cached_context_count() == cached_before))
          << p << "x" << q << " " << name(order);
    }
  }
}

TEST(ContextInfo, GridSmallerThanCommunicatorAndNotWorld) {
  const int size = world_size(), rank = world_rank();
  // A system communicator that is not MPI_COMM_WORLD: the ranks in reverse order.
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &reversed);
  const int p = size >= 2 ? 2 : 1;
  {
    BlacsGrid grid(p, 1, GridOrder::ColumnMajor, 3, reversed);
    bool ok = true;
    if (grid.member()) {
      const ContextInfo& info = context_info(grid.context());
      MPI_Group mine, system;
      MPI_Comm_group(info.comm, &mine);
      MPI_Comm_group(reversed, &system);
      for (int r = 0; r < p; ++r) {
        int in_system = -1;
        const int in_mine = info.rank(r, 0);
        MPI_Group_translate_ranks(mine, 1, &in_mine, system, &in_system);
        ok = ok && in_system == grid.system_rank(r, 0);
      }
      MPI_Group_free(&mine);
      MPI_Group_free(&system);
    } else {
      // Processes outside the grid are refused, not given a wrong table.
      try {
        (void)context_info(grid.context());
        ok = false;
      } catch (const InvalidArgument&) {
      }
    }
    EXPECT_TRUE(on_all_ranks(ok));
  }
  MPI_Comm_free(&reversed);
}

TEST(ContextInfo, RefusesInvalidHandles) {
  bool ok = true;
  for (int handle : {-1, 12345}) {
    try {
      (void)context_info(handle);
      ok = false;
    } catch (const InvalidArgument&) {
    }
  }
  EXPECT_TRUE(on_all_ranks(ok));
}

}  // namespace
}  // namespace hetscal::mpi::test
