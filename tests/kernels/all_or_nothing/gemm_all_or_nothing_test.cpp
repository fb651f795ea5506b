// All or nothing inside kernels::gemm (issue 15): when one rank cannot allocate its workspace,
// every rank must throw mpi::StageFailed naming the same rank, before any rank communicates,
// with C untouched (beta is not even applied), on every path: the Cartesian SUMMA (with and
// without the caller's grid communicators, a rank outside the grid included), the tiled
// SUMMA, and the A- and B-stationary loops. A hang instead shows as the ctest TIMEOUT.
//
// The failure is injected with HETSCAL_TEST_FAULT=compute@<rank>, which fault_point reads once
// per process: this executable holds only these tests, and sets it before its first gemm.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "compute_faults.hpp"
#include "kernel_test_support.hpp"
#include "kernels/gemm.hpp"
#include "mpi/agreement.hpp"
#include "mpi/grid_communicators.hpp"

namespace hetscal::kernels::test {
namespace {

constexpr unsigned kSeedA = 1, kSeedB = 2, kSeedC = 3;

/// Whether every element this rank owns of C still holds its initial value (bit for bit) and
/// its padding is intact, on every rank.
bool unchanged_everywhere(TestMatrix<double>& c) {
  bool same = c.damaged_padding() == 0;
  c.for_each_owned([&](std::int64_t i, std::int64_t j, double& x) {
    same = same && x == test_value<double>(i, j, kSeedC);
  });
  return on_all_ranks(same);
}

/// Runs `call` (one gemm) and checks that it failed alike everywhere and left C alone.
template <typename Call>
void expect_failed_everywhere(TestMatrix<double>& c, Call call) {
  test::expect_failed_everywhere(call);
  EXPECT_TRUE(unchanged_everywhere(c));
}

/// C = 1.5·op(A)·op(B) + 0.5·C with A and B in `operands`, C in `c_family`.
struct Product {
  Product(Family operands, Family c_family, std::int64_t m = 14, std::int64_t n = 10, std::int64_t k = 12)
      : a(operands, m, k, {3}, {2}), b(operands, k, n, {2}, {3}), c(c_family, m, n, {3}, {3}) {
    a.fill(kSeedA);
    b.fill(kSeedB);
    c.fill(kSeedC);
  }
  void multiply(Stationary keep) {
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.5, a.in(), b.in(), 0.5, c.out(), MPI_COMM_WORLD, keep);
  }
  TestMatrix<double> a, b, c;
};

TEST(GemmAllOrNothing, CartesianSummaFailsEverywhere) {
  inject_faults();
  for (const Family family : {Family::BlockCyclic, Family::Heterogeneous, Family::PartialGrid}) {
    Product p(family, family);
    expect_failed_everywhere(p.c, [&] { p.multiply(Stationary::C); });
  }
}

TEST(GemmAllOrNothing, CartesianSummaWithGridCommunicatorsFailsEverywhere) {
  inject_faults();
  Product p(Family::Heterogeneous, Family::Heterogeneous);
  const auto& grid = dynamic_cast<const layout::CartesianDistribution&>(*p.c.distribution).grid();
  const mpi::GridCommunicators comms(MPI_COMM_WORLD, grid);
  expect_failed_everywhere(p.c, [&] {
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.5, p.a.in(), p.b.in(), 0.5, p.c.out(), MPI_COMM_WORLD,
                 comms, Stationary::C);
  });
}

TEST(GemmAllOrNothing, TiledSummaFailsEverywhere) {
  inject_faults();
  Product p(Family::OtherGrid, Family::Pattern);  // operands moved in, then the tiled loop
  expect_failed_everywhere(p.c, [&] { p.multiply(Stationary::C); });
}

TEST(GemmAllOrNothing, StationaryOperandLoopsFailEverywhere) {
  inject_faults();
  for (const Stationary keep : {Stationary::A, Stationary::B}) {
    Product p(Family::Pattern, Family::BlockCyclic, 5, 6, 40);
    expect_failed_everywhere(p.c, [&] { p.multiply(keep); });
  }
}

}  // namespace
}  // namespace hetscal::kernels::test
