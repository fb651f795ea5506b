// All or nothing inside kernels::lu: when one rank cannot allocate its workspace, every rank
// must throw mpi::StageFailed naming the same rank, before any rank communicates, with A and
// the pivots untouched, on the Cartesian path (local arrays, a rank outside the grid
// included) and on the tiled path (patterns). A hang instead shows as the ctest TIMEOUT.
//
// HETSCAL_TEST_FAULT=compute@<rank> is read once per process; the other tests of this
// executable set the same value, and every test sets it before its first kernel.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "compute_faults.hpp"
#include "kernel_test_support.hpp"
#include "kernels/lu.hpp"
#include "mpi/agreement.hpp"

namespace hetscal::kernels::test {
namespace {

constexpr unsigned kSeed = 5;

TEST(LuAllOrNothing, FailsEverywhereWithATouchedNowhere) {
  inject_faults();
  for (const Family family :
       {Family::BlockCyclic, Family::PartialGrid, Family::G2dbc, Family::HeteroPattern}) {
    for (const LuPanelRank panel_rank : {LuPanelRank::DiagonalOwner, LuPanelRank::Fastest}) {
      TestMatrix<double> a(family, 20, 17, {3, 2}, {3, 2});
      a.fill(kSeed);
      std::vector<std::int64_t> pivots(17, -1);
      LuOptions options;
      options.panel_rank = panel_rank;
      expect_failed_everywhere(
          [&] { lu<double>(a.out(), pivots.data(), MPI_COMM_WORLD, options); });
      bool same = a.damaged_padding() == 0 && pivots == std::vector<std::int64_t>(17, -1);
      a.for_each_owned([&](std::int64_t i, std::int64_t j, double& x) {
        same = same && x == test_value<double>(i, j, kSeed);
      });
      EXPECT_TRUE(on_all_ranks(same));
    }
  }
}

}  // namespace
}  // namespace hetscal::kernels::test
