// Distributed GEMM: flop accounting per rank, refused arguments, and the PBLAS-style choice
// of the stationary operand.
#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <numeric>
#include <vector>

#include "core/common/error.hpp"
#include "kernel_test_support.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/gemm.hpp"
#include "kernels/gemm_choice.hpp"

namespace hetscal::kernels::test {
namespace {

/// Flops of one multiply-add by LAWN 41: 2 on real data; on complex data a multiplication
/// weighs 6 and an addition 2, so 8.
constexpr double kRealMultiplyAdd = 2.0, kComplexMultiplyAdd = 8.0;

/// multiply_add·K·(elements of C it owns) per rank: what a C-stationary GEMM must compute,
/// read from the distribution alone.
std::vector<double> predicted_flops(const layout::Distribution& c, std::int64_t k,
                                    double multiply_add = kRealMultiplyAdd) {
  std::vector<double> flops(static_cast<std::size_t>(c.num_ranks()), 0.0);
  for (std::int64_t j = 0; j < c.cols().count(); ++j)
    for (std::int64_t i = 0; i < c.rows().count(); ++i)
      flops[static_cast<std::size_t>(c.owner({i, j}))] +=
          multiply_add * static_cast<double>(k * c.rows().size(i) * c.cols().size(j));
  return flops;
}

void check_flop_balance(Family a_family, Family b_family, bool print) {
  const std::int64_t m = 23, n = 19, k = 17;
  TestMatrix<double> a(a_family, m, k, {2}, {4});
  TestMatrix<double> b(b_family, k, n, {4}, {3});
  TestMatrix<double> c(Family::Heterogeneous, m, n, {2}, {3});
  a.fill(1);
  b.fill(2);
  c.fill(3);
  std::vector<double> speeds(static_cast<std::size_t>(world_size()));
  std::iota(speeds.begin(), speeds.end(), 1.0);

  reset_flops();
  gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, a.in(), b.in(), 1.0, c.out(), MPI_COMM_WORLD,
               Stationary::C);
  const FlopBalance measured = gather_flop_balance(MPI_COMM_WORLD, speeds);

  const std::vector<double> expected = predicted_flops(*c.distribution, k);
  EXPECT_EQ(measured.flops, expected);
  EXPECT_DOUBLE_EQ(measured.balance, flop_balance(expected, speeds));
  if (print && world_rank() == 0) {  // the figure quoted in reports
    std::printf("heterogeneous Cartesian GEMM %lldx%lldx%lld on %d ranks, flops per rank:",
                static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k), world_size());
    for (const double f : measured.flops) std::printf(" %.0f", f);
    std::printf("; balance for speeds 1..P: %.4f\n", measured.balance);
  }
  EXPECT_DOUBLE_EQ(std::accumulate(measured.flops.begin(), measured.flops.end(), 0.0),
                   2.0 * m * n * k);
}

TEST(DistributedGemmFlops, HeterogeneousCartesianAlignedOperands) {
  check_flop_balance(Family::Heterogeneous, Family::Heterogeneous, true);
}

TEST(DistributedGemmFlops, HeterogeneousCartesianRedistributedOperands) {
  check_flop_balance(Family::OtherGrid, Family::Pattern, false);
}

TEST(DistributedGemmFlops, PatternCarriesItsOwnTiles) {
  const std::int64_t m = 14, n = 10, k = 9;
  TestMatrix<double> a(Family::BlockCyclic, m, k, {3}, {2});
  TestMatrix<double> b(Family::BlockCyclic, k, n, {2}, {2});
  TestMatrix<double> c(Family::Pattern, m, n, {3}, {2});
  a.fill(1);
  b.fill(2);
  c.fill(3);
  reset_flops();
  gemm<double>(Op::NoTrans, Op::NoTrans, 2.0, a.in(), b.in(), 0.0, c.out(), MPI_COMM_WORLD,
               Stationary::C);
  const FlopBalance measured = gather_flop_balance(
      MPI_COMM_WORLD, std::vector<double>(static_cast<std::size_t>(world_size()), 1.0));
  EXPECT_EQ(measured.flops, predicted_flops(*c.distribution, k));
}

// A- and B-stationary: each rank multiplies its own tiles of the stationary operand with
// the whole other dimension: 2·N·(its elements of A), 2·M·(its elements of B).
TEST(DistributedGemmFlops, StationaryOperandsCarryTheWork) {
  const std::int64_t m = 7, n = 5, k = 31;
  TestMatrix<double> a(Family::Heterogeneous, m, k, {2}, {3});
  TestMatrix<double> b(Family::Pattern, k, n, {3}, {2});
  TestMatrix<double> c(Family::BlockCyclic, m, n, {2}, {2});
  a.fill(1);
  b.fill(2);
  const std::vector<double> ones(static_cast<std::size_t>(world_size()), 1.0);
  for (const Stationary keep : {Stationary::A, Stationary::B}) {
    reset_flops();
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, a.in(), b.in(), 0.0, c.out(), MPI_COMM_WORLD, keep);
    const FlopBalance measured = gather_flop_balance(MPI_COMM_WORLD, ones);
    // predicted_flops(d, x) counts 2·x per owned element of d.
    EXPECT_EQ(measured.flops, keep == Stationary::A ? predicted_flops(*a.distribution, n)
                                                    : predicted_flops(*b.distribution, m));
  }
}

// Complex GEMM counts 8 flops per multiply-add (4 times the real count), on every path.
template <typename T>
void check_complex_flops(Stationary keep) {
  const std::int64_t m = 11, n = 9, k = 13;
  TestMatrix<T> a(Family::OtherGrid, k, m, {3}, {2});  // used as Aᴴ
  TestMatrix<T> b(Family::Pattern, k, n, {2}, {3});
  TestMatrix<T> c(Family::Heterogeneous, m, n, {2}, {3});
  a.fill(1);
  b.fill(2);
  c.fill(3);
  const std::vector<double> ones(static_cast<std::size_t>(world_size()), 1.0);
  reset_flops();
  gemm<T>(Op::ConjTrans, Op::NoTrans, T(1), a.in(), b.in(), T(1), c.out(), MPI_COMM_WORLD, keep);
  const FlopBalance measured = gather_flop_balance(MPI_COMM_WORLD, ones);
  EXPECT_DOUBLE_EQ(std::accumulate(measured.flops.begin(), measured.flops.end(), 0.0),
                   kComplexMultiplyAdd * m * n * k);
  if (keep == Stationary::C) {
    EXPECT_EQ(measured.flops, predicted_flops(*c.distribution, k, kComplexMultiplyAdd));
  }
}

TEST(DistributedGemmFlops, ComplexCountsEightPerMultiplyAdd) {
  check_complex_flops<std::complex<double>>(Stationary::C);
  check_complex_flops<std::complex<float>>(Stationary::C);
  check_complex_flops<std::complex<double>>(Stationary::A);
  check_complex_flops<std::complex<float>>(Stationary::B);
}

// Every rank must refuse the same call, before any communication.
template <typename Call>
bool refused_everywhere(Call call) {
  return thrown_everywhere<InvalidArgument>(call);
}

TEST(DistributedGemmArguments, RefusesNonConformingShapes) {
  TestMatrix<double> a(Family::BlockCyclic, 4, 3, {2}, {2});
  TestMatrix<double> b(Family::BlockCyclic, 2, 5, {2}, {2});
  TestMatrix<double> b_ok(Family::BlockCyclic, 3, 5, {2}, {2});
  TestMatrix<double> c(Family::BlockCyclic, 4, 5, {2}, {2});
  TestMatrix<double> c_wide(Family::BlockCyclic, 4, 6, {2}, {2});
  EXPECT_TRUE(refused_everywhere([&] {
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, a.in(), b.in(), 0.0, c.out(), MPI_COMM_WORLD);
  }));
  EXPECT_TRUE(refused_everywhere([&] {  // op(A) = Aᵀ is 3×4
    gemm<double>(Op::Trans, Op::NoTrans, 1.0, a.in(), b_ok.in(), 0.0, c.out(), MPI_COMM_WORLD);
  }));
  EXPECT_TRUE(refused_everywhere([&] {
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, a.in(), b_ok.in(), 0.0, c_wide.out(), MPI_COMM_WORLD);
  }));
  // Refused even when nothing would be computed (alpha = 0, as PBLAS checks first).
  EXPECT_TRUE(refused_everywhere([&] {
    gemm<double>(Op::NoTrans, Op::NoTrans, 0.0, a.in(), b.in(), 1.0, c.out(), MPI_COMM_WORLD);
  }));
}

TEST(DistributedGemmArguments, RefusesMissingStorageAndWrongRankCount) {
  TestMatrix<double> a(Family::BlockCyclic, 4, 3, {2}, {2});
  TestMatrix<double> b(Family::BlockCyclic, 3, 5, {2}, {2});
  TestMatrix<double> c(Family::BlockCyclic, 4, 5, {2}, {2});
  DistributedMatrix<const double> no_storage{a.distribution.get(), nullptr, a.data.data()};
  EXPECT_TRUE(refused_everywhere([&] {
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, no_storage, b.in(), 0.0, c.out(), MPI_COMM_WORLD);
  }));
  // A pattern over one rank more than the communicator has.
  const layout::PatternDistribution too_many(layout::TileSplit(4, 2), layout::TileSplit(3, 2), 1, 1,
                                             {world_size()}, world_size() + 1);
  const std::unique_ptr<layout::LocalLayout> storage = layout::make_local_layout(too_many, world_rank());
  std::vector<double> data(static_cast<std::size_t>(storage->local_elements()));
  const DistributedMatrix<const double> wrong{&too_many, storage.get(), data.data()};
  EXPECT_TRUE(refused_everywhere([&] {
    gemm<double>(Op::NoTrans, Op::NoTrans, 1.0, wrong, b.in(), 0.0, c.out(), MPI_COMM_WORLD);
  }));
}

// PBLAS's comments: C in place for M, N >> K; A in place (B, C move) for M, K >> N; B in
// place (A, C move) for K, N >> M.
TEST(DistributedGemmChoice, FollowsPblasRule) {
  EXPECT_EQ(choose_stationary(1000, 1000, 1000, 2, 2), Stationary::C);
  EXPECT_EQ(choose_stationary(4000, 4000, 64, 2, 3), Stationary::C);
  EXPECT_EQ(choose_stationary(1000, 10, 1000, 2, 2), Stationary::A);
  EXPECT_EQ(choose_stationary(10, 1000, 1000, 2, 2), Stationary::B);
  // One process: nothing to communicate either way, C stays.
  EXPECT_EQ(choose_stationary(10, 1000, 1000, 1, 1), Stationary::C);
}

}  // namespace
}  // namespace hetscal::kernels::test
