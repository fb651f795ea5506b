// runtime::agree_memory_fit under MPI: one rank short of memory makes every rank refuse alike,
// with the worst shortfall, the largest need and the tightest room in the reason.
#include <gtest/gtest.h>
#include <mpi.h>

#include "mpi_test_support.hpp"
#include "runtime/memory_budget.hpp"

namespace hetscal::runtime {
namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

TEST(MemoryFit, FitsWhenEveryRankHasRoom) {
  const double mib = 1 << 20;
  const MemoryFit fit = agree_memory_fit(MPI_COMM_WORLD, mib * (world_rank() + 1), 100.0 * mib, "HETSCAL_MEMORY");
  EXPECT_TRUE(mpi::test::on_all_ranks(fit.fits && fit.reason.empty()));
}

TEST(MemoryFit, OneRankShortRefusesOnEveryRank) {
  const double mib = 1 << 20;
  const int last = [] {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size - 1;
  }();
  // Every rank needs 10 MiB; the last has only 4 MiB (a single rank: that one).
  const double room = world_rank() == last ? 4.0 * mib : 64.0 * mib;
  const MemoryFit fit = agree_memory_fit(MPI_COMM_WORLD, 10.0 * mib, room, "HETSCAL_MEMORY");
  EXPECT_TRUE(mpi::test::on_all_ranks(!fit.fits));
  EXPECT_DOUBLE_EQ(fit.worst_shortfall_bytes, 6.0 * mib);
  EXPECT_DOUBLE_EQ(fit.least_allowed_bytes, 4.0 * mib);
  EXPECT_EQ(fit.reason, "needs up to 10.0 MiB of new memory on a rank, 6.0 MiB more than it has "
                        "(HETSCAL_MEMORY: 4.0 MiB free on the tightest rank)");
}

TEST(MemoryFit, NoKnownLimitFits) {
  const MemoryFit fit = agree_memory_fit(MPI_COMM_WORLD, 1e15, std::nullopt, "MemAvailable");
  EXPECT_TRUE(mpi::test::on_all_ranks(fit.fits));
}

}  // namespace
}  // namespace hetscal::runtime
