// All or nothing inside kernels::cholesky: when one rank cannot allocate its workspace, every
// rank must throw mpi::StageFailed naming the same rank, before any rank communicates, with A
// untouched, on the Cartesian path (local arrays, a rank outside the grid included) and on
// the tiled path (patterns). A hang instead shows as the ctest TIMEOUT.
//
// HETSCAL_TEST_FAULT=compute@<rank> is read once per process; gemm_all_or_nothing_test.cpp in
// the same executable sets the same value, and every test sets it before its first kernel.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "compute_faults.hpp"
#include "kernel_test_support.hpp"
#include "kernels/cholesky.hpp"
#include "mpi/agreement.hpp"

namespace hetscal::kernels::test {
namespace {

constexpr unsigned kSeed = 4;

/// Diagonally dominant, so that a factorisation that ran anyway would succeed (and change A).
double element(std::int64_t i, std::int64_t j) {
  return i == j ? 50.0 : test_value<double>(std::max(i, j), std::min(i, j), kSeed);
}

TEST(CholeskyAllOrNothing, FailsEverywhereWithATouchedNowhere) {
  inject_faults();
  for (const Family family :
       {Family::BlockCyclic, Family::PartialGrid, Family::Gcrm, Family::HeteroPattern}) {
    for (const Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      TestMatrix<double> a(family, 20, 20, {3, 2}, {3, 2});
      a.for_each_owned([](std::int64_t i, std::int64_t j, double& x) { x = element(i, j); });
      expect_failed_everywhere([&] { cholesky<double>(uplo, a.out(), MPI_COMM_WORLD); });
      bool same = a.damaged_padding() == 0;
      a.for_each_owned(
          [&](std::int64_t i, std::int64_t j, double& x) { same = same && x == element(i, j); });
      EXPECT_TRUE(on_all_ranks(same));
    }
  }
}

}  // namespace
}  // namespace hetscal::kernels::test
