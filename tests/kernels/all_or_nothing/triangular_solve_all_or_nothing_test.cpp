// All or nothing inside kernels::triangular_solve: ranks 1 and P-1 fail their workspace
// allocation (HETSCAL_TEST_FAULT=compute@1,compute@P-1, read once per process, set before
// this executable's first kernel call by every test); every rank must throw
// mpi::StageFailed naming rank 1, before any message, with B untouched, with both
// algorithms on grids and patterns. A hang shows as the ctest TIMEOUT.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "kernel_test_support.hpp"
#include "kernels/triangular_solve.hpp"
#include "mpi/agreement.hpp"

namespace hetscal::kernels::test {
namespace {

TEST(TriangularSolveAllOrNothing, FailsEverywhereWithBUntouched) {
  const std::string faults = "compute@1,compute@" + std::to_string(world_size() - 1);
  ASSERT_EQ(setenv("HETSCAL_TEST_FAULT", faults.c_str(), 1), 0);
  for (const Family family : {Family::BlockCyclic, Family::Heterogeneous, Family::Pattern})
    for (const SolveAlgorithm algorithm : {SolveAlgorithm::FanIn, SolveAlgorithm::GatherPanels}) {
      TestMatrix<double> a(family, 11, 11, {3}, {3}), b(family, 11, 4, {3}, {2});
      a.for_each_owned([](std::int64_t i, std::int64_t j, double& x) { x = i == j ? 2.0 : 0.1; });
      b.fill(7);
      int failed_rank = -1;
      try {
        triangular_solve<double>(Uplo::Lower, Op::NoTrans, Diag::NonUnit, a.in(), b.out(),
                                 MPI_COMM_WORLD, algorithm);
      } catch (const mpi::StageFailed& e) {
        failed_rank = e.failed_rank();
      }
      EXPECT_TRUE(on_all_ranks(failed_rank == 1))
          << "rank " << world_rank() << " saw " << failed_rank;
      bool same = b.damaged_padding() == 0;
      b.for_each_owned([&](std::int64_t i, std::int64_t j, double& x) {
        same = same && x == test_value<double>(i, j, 7);
      });
      EXPECT_TRUE(on_all_ranks(same));
    }
}

}  // namespace
}  // namespace hetscal::kernels::test
