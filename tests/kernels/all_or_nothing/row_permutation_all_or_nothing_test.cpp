// All or nothing inside kernels::permute_rows and kernels::lu_solve: ranks 1 and P-1 fail
// their workspace allocation; every rank must throw mpi::StageFailed naming rank 1 before any
// message, with X (B) untouched, on a grid and a pattern.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "compute_faults.hpp"
#include "kernels/lu_solve.hpp"
#include "kernels/row_permutation.hpp"

namespace hetscal::kernels::test {
namespace {

bool holds_seed(TestMatrix<double>& x, unsigned seed) {
  bool same = x.damaged_padding() == 0;
  x.for_each_owned([&](std::int64_t i, std::int64_t j, double& value) {
    same = same && value == test_value<double>(i, j, seed);
  });
  return on_all_ranks(same);
}

TEST(RowPermutationAllOrNothing, FailsEverywhereWithXUntouched) {
  inject_faults();
  std::vector<std::int64_t> reversed(13);
  std::iota(reversed.rbegin(), reversed.rend(), std::int64_t{0});
  for (const Family family : {Family::BlockCyclic, Family::Pattern}) {
    TestMatrix<double> x(family, 13, 5, {3}, {2});
    x.fill(4);
    expect_failed_everywhere([&] { permute_rows<double>(x.out(), reversed, MPI_COMM_WORLD); });
    EXPECT_TRUE(holds_seed(x, 4)) << name(family);
  }
}

TEST(LuSolveAllOrNothing, FailsEverywhereWithBUntouched) {
  inject_faults();
  const std::vector<std::int64_t> pivots{2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  for (const Family family : {Family::BlockCyclic, Family::Pattern}) {
    TestMatrix<double> a(family, 11, 11, {3}, {3}), b(family, 11, 4, {3}, {2});
    a.for_each_owned([](std::int64_t i, std::int64_t j, double& x) { x = i == j ? 2.0 : 0.1; });
    b.fill(7);
    expect_failed_everywhere(
        [&] { lu_solve<double>(Op::NoTrans, a.in(), pivots, b.out(), MPI_COMM_WORLD); });
    EXPECT_TRUE(holds_seed(b, 7)) << name(family);
  }
}

}  // namespace
}  // namespace hetscal::kernels::test
