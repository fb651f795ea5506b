// The factorisation kernels' own communicator: the first call on a communicator duplicates
// it, later calls on it create none (a duplicate per call is a collective whose cost grows
// with P), and freeing the caller's communicator frees the duplicate with it.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "communicator_count.hpp"
#include "kernel_test_support.hpp"
#include "kernels/cholesky.hpp"
#include "kernels/lu.hpp"
#include "kernels/qr.hpp"

namespace hetscal::kernels::test {
namespace {

TEST(FactorizationCommunicators, OneDuplicatePerCommunicatorFreedWithIt) {
  MPI_Comm caller = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &caller), MPI_SUCCESS);
  const CommunicatorCount start = communicator_count();
  const auto factorize_all = [&] {
    TestMatrix<double> a(Family::BlockCyclic, 12, 12, {3}, {3});
    a.fill(1);
    std::vector<std::int64_t> pivots(12);
    lu<double>(a.out(), pivots.data(), caller, {});
    a.fill(1);
    std::vector<double> tau(12);
    qr<double>(a.out(), tau.data(), caller, {});
  };
  factorize_all();
  const CommunicatorCount first = communicator_count();
  EXPECT_EQ(first.created - start.created, 1) << "the first call duplicates the communicator once";
  for (int call = 0; call < 3; ++call) factorize_all();
  const CommunicatorCount later = communicator_count();
  EXPECT_EQ(later.created, first.created) << "later calls created communicators";
  EXPECT_EQ(later.freed, first.freed);
  ASSERT_EQ(MPI_Comm_free(&caller), MPI_SUCCESS);
  const CommunicatorCount end = communicator_count();
  EXPECT_EQ(end.freed - later.freed, 2) << "the duplicate is freed with its communicator";
}

}  // namespace
}  // namespace hetscal::kernels::test
