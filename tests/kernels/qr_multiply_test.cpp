// kernels::qr_multiply on every distribution family (grids in one local array or as tiles,
// heterogeneous grids, a grid leaving one rank out, hand-made, G-2DBC, GCR&M and
// heterogeneous patterns), Q·C and Qᴴ·C (Qᵀ·C for real types), K = min(M, N_A), fewer
// reflectors ending inside a tile and none, tall and wide factors, C's columns cut unlike
// A's, the four scalar types. The factors come from kernels::qr; the oracle applies the
// reflectors one at a time from their definition (H(i) = I − τ_i·v_i·v_iᴴ) to the gathered C,
// in double precision. A and its padding must stay bit-identical, C's padding too.
#include "kernels/qr_multiply.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "factorization_test_support.hpp"
#include "kernel_test_support.hpp"
#include "kernels/qr.hpp"

namespace hetscal::kernels::test {
namespace {

using Complex = std::complex<double>;

/// A's shape and tiles, K, and C's width and column tiles.
struct Case {
  Shape a;
  std::int64_t k, c_cols;
  Tiles c_col_tiles;
};

inline constexpr Case kCases[] = {
    {{37, 23, 5, 5}, 23, 11, {4}},    // tall, every reflector, C cut in other columns
    {{37, 23, 5, 5}, 17, 9, {5}},     // K ends inside a tile
    {{19, 44, 4, 6}, 19, 7, {3, 2}},  // wide: M reflectors, first tiles unlike the others
    {{29, 29, 6, 2}, 29, 29, {6, 2}}, {{12, 8, 3, 3}, 0, 5, {3}},  // no reflector: C unchanged
};

/// op(Q)·C from the definition: the gathered factors' reflectors applied one at a time.
std::vector<Complex> reference(Op op, const std::vector<Complex>& factors,
                               const std::vector<Complex>& tau, std::int64_t m, std::int64_t k,
                               std::vector<Complex> c, std::int64_t n) {
  const bool adjoint = op != Op::NoTrans;  // Qᴴ = H(K)ᴴ···H(1)ᴴ: H(1)ᴴ first
  for (std::int64_t step = 0; step < k; ++step) {
    const std::int64_t r = adjoint ? step : k - 1 - step;
    const Complex t =
        adjoint ? std::conj(tau[static_cast<std::size_t>(r)]) : tau[static_cast<std::size_t>(r)];
    const auto v = [&](std::int64_t i) {
      return i == r ? Complex(1) : factors[static_cast<std::size_t>(i + r * m)];
    };
    for (std::int64_t j = 0; j < n; ++j) {
      Complex dot = 0;
      for (std::int64_t i = r; i < m; ++i)
        dot += std::conj(v(i)) * c[static_cast<std::size_t>(i + j * m)];
      for (std::int64_t i = r; i < m; ++i) c[static_cast<std::size_t>(i + j * m)] -= t * v(i) * dot;
    }
  }
  return c;
}

template <typename T>
void check_multiply(Family family, const Case& test, Op op) {
  const Shape s = test.a;
  SCOPED_TRACE(describe(family, s, LuPanelRank::DiagonalOwner) + " K " + std::to_string(test.k) +
               (op == Op::NoTrans ? " Q" : " Q^H"));
  TestMatrix<T> a(family, s.m, s.n, {s.block, s.first}, {s.block, s.first});
  a.fill(5);
  std::vector<T> tau(static_cast<std::size_t>(std::min(s.m, s.n)), T(-5));
  qr<T>(a.out(), tau.data(), MPI_COMM_WORLD);
  const std::vector<T> factors_before = a.data;
  TestMatrix<T> c(family, s.m, test.c_cols, {s.block, s.first}, test.c_col_tiles);
  c.fill(9);
  const std::vector<Complex> c_before = gathered(c, s.m, test.c_cols);
  qr_multiply<T>(op, a.in(), test.k, tau.data(), c.out(), MPI_COMM_WORLD);
  std::vector<Complex> wide_tau;
  for (const T& t : tau) wide_tau.push_back(widened(t));
  const std::vector<Complex> expected =
      reference(op, gathered(a, s.m, s.n), wide_tau, s.m, test.k, c_before, test.c_cols);
  const std::vector<Complex> result = gathered(c, s.m, test.c_cols);
  double difference = 0, largest = 0;
  for (std::size_t e = 0; e < result.size(); ++e) {
    difference = std::max(difference, std::abs(result[e] - expected[e]));
    largest = std::max(largest, std::abs(expected[e]));
  }
  const double eps = static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
  EXPECT_LE(difference, 1e2 * eps * std::max(largest, 1.0) * static_cast<double>(s.m));
  EXPECT_TRUE(on_all_ranks(a.data == factors_before && c.damaged_padding() == 0));
}

TEST(QrMultiply, DoubleOnEveryFamilyBothWays) {
  for (const Family family : kEveryFamily)
    for (const Case& test : kCases)
      for (const Op op : {Op::NoTrans, Op::Trans, Op::ConjTrans})
        check_multiply<double>(family, test, op);
}

TEST(QrMultiply, OtherScalarTypes) {
  for (const Family family :
       {Family::BlockCyclic, Family::Heterogeneous, Family::G2dbc, Family::HeteroPattern}) {
    for (const Op op : {Op::NoTrans, Op::ConjTrans}) {
      check_multiply<float>(family, kCases[0], op);
      check_multiply<std::complex<float>>(family, kCases[2], op);
      check_multiply<std::complex<double>>(family, kCases[1], op);
    }
  }
}

// Tiles large enough that the panel and W messages exceed MPI's eager limits.
TEST(QrMultiply, MessagesLargerThanEagerLimits) {
  for (const Family family : {Family::BlockCyclic, Family::Heterogeneous, Family::HeteroPattern})
    for (const Op op : {Op::NoTrans, Op::ConjTrans})
      check_multiply<double>(family, {{150, 130, 24, 24}, 130, 100, {24}}, op);
}

TEST(QrMultiply, RefusesBadArgumentsOnEveryRank) {
  TestMatrix<double> a(Family::BlockCyclic, 12, 8, {3}, {3});
  TestMatrix<double> c(Family::BlockCyclic, 12, 5, {3}, {2});
  std::vector<double> tau(8, 0.5);
  const auto refused = [&](Op op, const DistributedMatrix<double>& target, std::int64_t k) {
    return thrown_everywhere<InvalidArgument>(
        [&] { qr_multiply<double>(op, a.in(), k, tau.data(), target, MPI_COMM_WORLD); });
  };
  EXPECT_TRUE(refused(Op::NoTrans, c.out(), 9));   // K > min(M, N_A)
  EXPECT_TRUE(refused(Op::NoTrans, c.out(), -1));  // K < 0
  TestMatrix<double> other_rows(Family::BlockCyclic, 12, 5, {4}, {2});
  EXPECT_TRUE(refused(Op::ConjTrans, other_rows.out(), 8));
  TestMatrix<double> shorter(Family::BlockCyclic, 11, 5, {3}, {2});
  EXPECT_TRUE(refused(Op::ConjTrans, shorter.out(), 8));
  TestMatrix<std::complex<double>> za(Family::BlockCyclic, 12, 8, {3}, {3});
  TestMatrix<std::complex<double>> zc(Family::BlockCyclic, 12, 5, {3}, {2});
  std::vector<std::complex<double>> ztau(8);
  EXPECT_TRUE(thrown_everywhere<InvalidArgument>([&] {  // Qᵀ of a complex Q: not a product
    qr_multiply<std::complex<double>>(Op::Trans, za.in(), 8, ztau.data(), zc.out(), MPI_COMM_WORLD);
  }));
}

}  // namespace
}  // namespace hetscal::kernels::test
