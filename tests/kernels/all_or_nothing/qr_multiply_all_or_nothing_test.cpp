// All or nothing inside kernels::qr_multiply: when one rank cannot allocate its workspace,
// every rank must throw mpi::StageFailed naming the same rank, before any rank communicates,
// with C untouched (A is only read), on the Cartesian path and on the tiled path (patterns).
// A hang instead shows as the ctest TIMEOUT.
//
// HETSCAL_TEST_FAULT=compute@<rank> is read once per process; the other tests of this
// executable set the same value, and every test sets it before its first kernel.
#include <gtest/gtest.h>

#include <vector>

#include "compute_faults.hpp"
#include "kernel_test_support.hpp"
#include "kernels/qr_multiply.hpp"

namespace hetscal::kernels::test {
namespace {

constexpr unsigned kSeed = 11;

TEST(QrMultiplyAllOrNothing, FailsEverywhereWithCTouchedNowhere) {
  inject_faults();
  for (const Family family :
       {Family::BlockCyclic, Family::PartialGrid, Family::G2dbc, Family::HeteroPattern}) {
    // Any A serves: the allocation fails before a reflector is read.
    TestMatrix<double> a(family, 20, 17, {3, 2}, {3, 2}), c(family, 20, 9, {3, 2}, {4});
    a.fill(kSeed);
    c.fill(kSeed + 1);
    const std::vector<double> tau(17, 0.5);
    for (const Op op : {Op::NoTrans, Op::ConjTrans}) {
      expect_failed_everywhere(
          [&] { qr_multiply<double>(op, a.in(), 17, tau.data(), c.out(), MPI_COMM_WORLD); });
      bool same = c.damaged_padding() == 0;
      c.for_each_owned([&](std::int64_t i, std::int64_t j, double& x) {
        same = same && x == test_value<double>(i, j, kSeed + 1);
      });
      EXPECT_TRUE(on_all_ranks(same));
    }
  }
}

}  // namespace
}  // namespace hetscal::kernels::test
