// mpi::GroupCommunicators: each tile row's / column's communicator holds exactly the owners
// of that row / column, on Cartesian grids and on patterns where a rank is in several groups.
#include "mpi/group_communicators.hpp"

#include <gtest/gtest.h>

#include <random>

#include "layout/cartesian_distribution.hpp"
#include "layout/pattern_distribution.hpp"
#include "mpi_test_support.hpp"

namespace hetscal::mpi::test {
namespace {

// Checks one group from inside: size, this rank's position, and (by an allreduce over the
// group's communicator) that its members are exactly the expected ranks.
bool group_is_right(const GroupCommunicator& group, int me) {
  const int position = group.rank_of(me);
  if (position < 0) return group.comm == MPI_COMM_NULL;
  int size = 0, rank = -1;
  MPI_Comm_size(group.comm, &size);
  MPI_Comm_rank(group.comm, &rank);
  long long mine = me, sum = 0, expected = 0;
  for (int m : group.members) expected += m;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, group.comm);
  return size == static_cast<int>(group.members.size()) && rank == position && sum == expected;
}

bool all_groups_right(const layout::Distribution& d, const GroupCommunicators& groups, int me) {
  bool ok = true;
  for (std::int64_t i = 0; i < d.rows().count(); ++i) {
    ok = ok && groups.row(i).members == d.row_group(i) && group_is_right(groups.row(i), me);
  }
  for (std::int64_t j = 0; j < d.cols().count(); ++j) {
    ok = ok && groups.col(j).members == d.col_group(j) && group_is_right(groups.col(j), me);
  }
  return ok;
}

TEST(GroupCommunicators, CartesianHeterogeneousGrid) {
  const int size = world_size(), me = world_rank();
  for (const auto& [p, q] : grid_shapes(size)) {
    // Hand-made periodic maps: uneven shares of tile rows / columns per grid row / column.
    std::vector<int> row_map, col_map;
    for (int r = 0; r < p; ++r) row_map.insert(row_map.end(), static_cast<std::size_t>(r + 1), r);
    for (int c = q - 1; c >= 0; --c)
      col_map.insert(col_map.end(), static_cast<std::size_t>(q - c), c);
    layout::CartesianDistribution d(layout::TileSplit(37, 4, 3), layout::TileSplit(29, 3), row_map,
                                    col_map, layout::ProcessGrid::column_major(p, q));
    GroupCommunicators groups(MPI_COMM_WORLD, d);
    EXPECT_TRUE(on_all_ranks(all_groups_right(d, groups, me))) << p << "x" << q;
    EXPECT_LE(groups.distinct_groups(), static_cast<std::size_t>(p + q));
  }
}

TEST(GroupCommunicators, PatternWithOverlappingGroups) {
  const int size = world_size(), me = world_rank();
  std::mt19937 rng(42);
  const int rows = 3, cols = 4;
  std::vector<int> table(rows * cols);
  for (int& cell : table) cell = static_cast<int>(rng() % static_cast<unsigned>(size));
  table[5] = layout::kUnassigned;  // resolved per tile, as GCR&M's diagonal cells
  const auto resolver = [size](layout::GlobalTile t) {
    return static_cast<int>((t.row + 2 * t.col) % size);
  };
  layout::PatternDistribution d(layout::TileSplit(40, 5), layout::TileSplit(33, 4, 2), rows, cols,
                                table, size, resolver);
  GroupCommunicators groups(MPI_COMM_WORLD, d);
  EXPECT_TRUE(on_all_ranks(all_groups_right(d, groups, me)));

  GroupCommunicators moved(std::move(groups));  // ownership of the communicators moves
  EXPECT_TRUE(on_all_ranks(all_groups_right(d, moved, me)));
}

}  // namespace
}  // namespace hetscal::mpi::test
