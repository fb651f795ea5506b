// All or nothing inside kernels::qr: when one rank cannot allocate its workspace, every rank
// must throw mpi::StageFailed naming the same rank, before any rank communicates, with A and
// τ untouched, on the Cartesian path (local arrays, a rank outside the grid included) and on
// the tiled path (patterns). A hang instead shows as the ctest TIMEOUT.
//
// HETSCAL_TEST_FAULT=compute@<rank> is read once per process; the other tests of this
// executable set the same value, and every test sets it before its first kernel.
#include <gtest/gtest.h>

#include <vector>

#include "compute_faults.hpp"
#include "kernel_test_support.hpp"
#include "kernels/qr.hpp"

namespace hetscal::kernels::test {
namespace {

constexpr unsigned kSeed = 7;

TEST(QrAllOrNothing, FailsEverywhereWithATouchedNowhere) {
  inject_faults();
  for (const Family family :
       {Family::BlockCyclic, Family::PartialGrid, Family::G2dbc, Family::HeteroPattern}) {
    for (const QrPanelRank panel_rank : {QrPanelRank::DiagonalOwner, QrPanelRank::Fastest}) {
      TestMatrix<double> a(family, 20, 17, {3, 2}, {3, 2});
      a.fill(kSeed);
      std::vector<double> tau(17, -1.0);
      QrOptions options;
      options.panel_rank = panel_rank;
      expect_failed_everywhere([&] { qr<double>(a.out(), tau.data(), MPI_COMM_WORLD, options); });
      bool same = a.damaged_padding() == 0 && tau == std::vector<double>(17, -1.0);
      a.for_each_owned([&](std::int64_t i, std::int64_t j, double& x) {
        same = same && x == test_value<double>(i, j, kSeed);
      });
      EXPECT_TRUE(on_all_ranks(same));
    }
  }
}

}  // namespace
}  // namespace hetscal::kernels::test
