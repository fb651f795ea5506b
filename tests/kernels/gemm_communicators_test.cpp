// kernels::gemm with the caller's GridCommunicators: repeated calls (a factorization's
// trailing updates) create and free no communicator, while the same calls without them
// build two per call and free them again (which shows that the count sees the kernel's
// communicators, so the first check can fail); results stay right; mismatched
// communicators are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "communicator_count.hpp"
#include "core/common/error.hpp"
#include "kernel_test_support.hpp"
#include "kernels/gemm.hpp"
#include "mpi/grid_communicators.hpp"

namespace hetscal::kernels::test {
namespace {

const layout::ProcessGrid& grid_of(const TestMatrix<double>& x) {
  return dynamic_cast<const layout::CartesianDistribution&>(*x.distribution).grid();
}

/// ‖C − (C₀ + calls·A·B)‖_F over all ranks, C₀ from seed 3, A from 1, B from 2.
double accumulated_error(TestMatrix<double>& c, std::int64_t k, int calls) {
  double error2 = 0.0;
  c.for_each_owned([&](std::int64_t i, std::int64_t j, double& x) {
    double product = 0.0;
    for (std::int64_t l = 0; l < k; ++l) product += formula(i, l, 1) * formula(l, j, 2);
    const double d = x - (formula(i, j, 3) + calls * product);
    error2 += d * d;
  });
  return std::sqrt(sum_over_ranks(error2));
}

struct Update {
  std::int64_t m = 13, n = 11, k = 3;  // a rank-3 update, as a factorization's
  /// What `calls` accumulated updates may be off by (rounding only).
  double tolerance(int calls) const { return 1e-12 * calls * static_cast<double>(k * m * n); }
  TestMatrix<double> a{Family::Heterogeneous, m, k, {2}, {3}};
  TestMatrix<double> b{Family::Heterogeneous, k, n, {3}, {3}};
  TestMatrix<double> c{Family::Heterogeneous, m, n, {2}, {3}};
  Update() {
    a.fill(1);
    b.fill(2);
    c.fill(3);
  }
};

TEST(GemmGridCommunicators, ReusedAcrossCallsCreateNoCommunicator) {
  Update u;
  const int calls = 25;
  const bool in_grid = grid_of(u.c).coordinates(world_rank()).has_value();
  const CommunicatorCount start = communicator_count();
  {
    const mpi::GridCommunicators comms(MPI_COMM_WORLD, grid_of(u.c));
    const CommunicatorCount built = communicator_count();
    EXPECT_EQ(built.created - start.created, in_grid ? 2 : 0);
    for (int call = 0; call < calls; ++call)
      gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, u.a.in(), u.b.in(), 1.0, u.c.out(),
                   MPI_COMM_WORLD, comms, Stationary::C);
    const CommunicatorCount used = communicator_count();
    EXPECT_EQ(used.created, built.created) << "gemm created communicators despite the reused ones";
    EXPECT_EQ(used.freed, built.freed);
  }
  const CommunicatorCount end = communicator_count();
  EXPECT_EQ(end.freed - start.freed, end.created - start.created) << "communicators leaked";
  EXPECT_LE(accumulated_error(u.c, u.k, calls), u.tolerance(calls));
}

TEST(GemmGridCommunicators, WithoutThemEachCallBuildsAndFreesItsOwn) {
  Update u;
  const int calls = 3;
  const bool in_grid = grid_of(u.c).coordinates(world_rank()).has_value();
  const CommunicatorCount start = communicator_count();
  for (int call = 0; call < calls; ++call)
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, u.a.in(), u.b.in(), 1.0, u.c.out(),
                 MPI_COMM_WORLD, Stationary::C);
  const CommunicatorCount end = communicator_count();
  EXPECT_EQ(end.created - start.created, in_grid ? 2 * calls : 0);
  EXPECT_EQ(end.freed - start.freed, end.created - start.created);
  EXPECT_LE(accumulated_error(u.c, u.k, calls), u.tolerance(calls));
}

TEST(GemmGridCommunicators, MovedObjectKeepsServing) {
  Update u;
  mpi::GridCommunicators first(MPI_COMM_WORLD, grid_of(u.c));
  mpi::GridCommunicators second(std::move(first));
  EXPECT_TRUE(second.serves(MPI_COMM_WORLD, grid_of(u.c)));
  EXPECT_FALSE(first.serves(MPI_COMM_WORLD, grid_of(u.c)));  // moved from
  gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, u.a.in(), u.b.in(), 1.0, u.c.out(), MPI_COMM_WORLD,
               second);
  EXPECT_LE(accumulated_error(u.c, u.k, 1), u.tolerance(1));
}

// Every rank must refuse the same call, before any communication.
template <typename Call>
bool refused_everywhere(Call call) {
  return thrown_everywhere<InvalidArgument>(call);
}

TEST(GemmGridCommunicators, RefusesCommunicatorsOfAnotherGridOrNoGrid) {
  Update u;
  const auto [p, q] = near_square(world_size());
  // The same ranks, but on a transposed grid (differs from C's unless the grid is 1×1).
  const mpi::GridCommunicators other(MPI_COMM_WORLD, layout::ProcessGrid::column_major(q, p));
  mpi::GridCommunicators moved_from(MPI_COMM_WORLD, grid_of(u.c));
  const mpi::GridCommunicators comms(std::move(moved_from));  // moved_from now serves nothing
  if (world_size() > 1) {
    EXPECT_TRUE(refused_everywhere([&] {
      gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, u.a.in(), u.b.in(), 1.0, u.c.out(),
                   MPI_COMM_WORLD, other);
    }));
  }
  EXPECT_TRUE(refused_everywhere([&] {
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, u.a.in(), u.b.in(), 1.0, u.c.out(),
                 MPI_COMM_WORLD, moved_from);
  }));
  TestMatrix<double> pattern_c(Family::Pattern, u.m, u.n, {2}, {3});
  EXPECT_TRUE(refused_everywhere([&] {
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, u.a.in(), u.b.in(), 0.0, pattern_c.out(),
                 MPI_COMM_WORLD, comms);
  }));
}

}  // namespace
}  // namespace hetscal::kernels::test
